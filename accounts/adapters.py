import secrets

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.contrib.auth.hashers import make_password
from django.urls import reverse

MAX_EMAIL_LENGTH = 254


class AccountAdapter(DefaultAccountAdapter):
    """Everyone lands on their role's home page after login; account e-mail goes out as a job."""

    def get_login_redirect_url(self, request):
        return reverse("home")

    def clean_email(self, email):
        # RFC 5321 allows at most 254 characters in an address; a longer one was stored cut (without
        # its "@") and made the next sign-up answer 500 (issue 26). Every allauth form asks here.
        if len(email) > MAX_EMAIL_LENGTH:
            raise forms.ValidationError(f"Email: an address has at most {MAX_EMAIL_LENGTH} characters.")
        return super().clean_email(email)

    def send_account_already_exists_mail(self, email):
        # A new address's sign-up hashes its password; an address already registered does the same
        # work, so the time of the answer does not tell the two apart (issue 26).
        make_password(secrets.token_urlsafe(16))
        return super().send_account_already_exists_mail(email)

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """Verification, password reset and security notices: rendered here, sent by a worker and retried
        while the mail relay is down, so a relay fault never turns the request into an error page."""
        from allauth.core import context as allauth_context
        from django.contrib.sites.shortcuts import get_current_site

        from benefits.mail import mail_enqueue

        request = allauth_context.request
        message = self.render_mail(
            template_prefix,
            email,
            {"request": request, "email": email, "current_site": get_current_site(request), **context},
        )
        html = next(
            (content for content, kind in getattr(message, "alternatives", []) if kind == "text/html"), ""
        )
        body = message.body
        if message.content_subtype == "html":
            body, html = "", message.body
        mail_enqueue(
            subject=message.subject, body=body, html=html, to=message.to, from_email=message.from_email
        )
