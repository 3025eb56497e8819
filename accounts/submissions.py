"""One-time form tokens: a form that creates something is handled once, whatever the clicks.

Each such form carries a fresh UUID (``OneTimeTokenMixin``). ``submit_once`` writes the token's row
and runs the action in one transaction; the token column is unique, so a second submit of the same
form either finds the finished row (and is sent to the first result) or, when it races the first,
waits on the unique index until the first commits and then finds it. If the action is refused, the
transaction rolls back with the token, and the person can correct the form and submit it again.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.db import IntegrityError, transaction

from accounts.models import SubmissionToken

EXPIRED = "This form has expired: reload the page and submit it again."


class SubmissionRefused(Exception):
    """The token is missing, malformed or belongs to another form; the message says what to do."""


@dataclass(frozen=True)
class Outcome:
    result: Any  # what the action returned (None when this submit repeated an earlier one)
    url: str  # where the first submit's result is
    repeated: bool


def parse_token(raw: object) -> uuid.UUID:
    try:
        return uuid.UUID(str(raw)) if raw else _missing()
    except (ValueError, AttributeError):
        raise SubmissionRefused(EXPIRED) from None


def _missing():
    raise SubmissionRefused(EXPIRED)


def earlier_result(*, user, raw_token: object, purpose: str) -> str | None:
    """The URL of the first result when this token was already used for this purpose, else None."""
    try:
        token = parse_token(raw_token)
    except SubmissionRefused:
        return None
    row = SubmissionToken.objects.filter(token=token).first()
    if row is None:
        return None
    if row.user_id != user.pk or row.purpose != purpose:
        raise SubmissionRefused(EXPIRED)
    return row.result_url


def submit_once(*, user, raw_token: object, purpose: str, action: Callable[[], tuple[Any, str]]) -> Outcome:
    """Run ``action`` (returning its result and the URL that shows it) at most once per token."""
    token = parse_token(raw_token)
    with transaction.atomic():
        try:
            with transaction.atomic():
                row = SubmissionToken.objects.create(token=token, user=user, purpose=purpose)
        except IntegrityError:
            # A concurrent submit of the same form committed first: send this one to its result.
            url = earlier_result(user=user, raw_token=token, purpose=purpose)
            if url is None:
                raise SubmissionRefused(EXPIRED) from None
            return Outcome(None, url, repeated=True)
        result, url = action()
        row.result_url = url[:300]
        row.save(update_fields=["result_url"])
    return Outcome(result, url, repeated=False)


class OneTimeTokenMixin:
    """A hidden, fresh token on every form that creates something (kept when the form is shown again
    with errors, since nothing was created)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["submission_token"] = forms.CharField(
            required=False, widget=forms.HiddenInput, initial=uuid.uuid4().hex, max_length=64
        )

    def clean(self):
        data = super().clean()
        try:
            parse_token(data.get("submission_token"))
        except SubmissionRefused as exc:
            self.add_error(None, str(exc))
        return data


def repeat_redirect(request, purpose: str):
    """A redirect to the first result when this POST repeats a finished submit, else None."""
    from django.contrib import messages
    from django.shortcuts import redirect

    if request.method != "POST" or not request.user.is_authenticated:
        return None
    try:
        url = earlier_result(
            user=request.user, raw_token=request.POST.get("submission_token"), purpose=purpose
        )
    except SubmissionRefused:
        return None  # the submit goes on and is refused with the form's message
    if not url:
        return None
    messages.info(request, "That form was already sent; nothing was submitted twice.")
    return redirect(url)


class _NothingStarted(Exception):
    """The view answered without starting anything (a form shown again): its token stays unused."""

    def __init__(self, response) -> None:
        super().__init__("nothing started")
        self.response = response


def starts_work(purpose: str):
    """For a POST button that starts work (a PDF, a batch, a retry; issue 30): the view runs at most once
    per one-time token (``{% one_time_token %}`` in its form). A second press of the same form, or the
    same form sent twice at once, goes to the first press's result; a missing or stale token is a 400
    that names what to do. Put it below the access decorators, so only a permitted user spends a token.

    The purpose is ``purpose`` and the URL's arguments (one token is good for one button of one record).
    The view runs inside the token's transaction: its work is recorded with the token or not at all;
    anything it sends on commit (a job, a message read after the work) runs once the token is saved."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method != "POST":
                return view(request, *args, **kwargs)
            name = ":".join([purpose, *(str(a) for a in args), *(str(v) for v in kwargs.values())])[:80]
            repeated = repeat_redirect(request, name)
            if repeated is not None:
                return repeated

            def action():
                response = view(request, *args, **kwargs)
                if not 300 <= response.status_code < 400:
                    raise _NothingStarted(response)
                return response, response["Location"]

            try:
                outcome = submit_once(
                    user=request.user,
                    raw_token=request.POST.get("submission_token"),
                    purpose=name,
                    action=action,
                )
            except SubmissionRefused as exc:
                from django.shortcuts import render

                return render(request, "400.html", {"problem": str(exc)}, status=400)
            except _NothingStarted as shown:
                return shown.response
            if outcome.repeated:
                from django.contrib import messages
                from django.shortcuts import redirect

                messages.info(request, "That button was already pressed; nothing was started twice.")
                return redirect(outcome.url)
            return outcome.result

        return wrapper

    return decorate
