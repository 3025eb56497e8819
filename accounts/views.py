from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse

from accounts.forms import IdentityLinkForm
from accounts.roles import role_required
from accounts.services import IdentityLinkError, identity_link_attempts_exceeded, participant_link_identity


@login_required
def home(request):
    """Each role lands on its own home page."""
    user = request.user
    if user.is_participant_role:
        if hasattr(user, "participant"):
            return redirect("benefits:dashboard")
        return redirect("accounts:link_identity")
    if user.is_administrator:
        return redirect("benefits:admin_plans")
    return redirect("elections:committee_queue")  # the committee's day starts with its claims


@role_required("participant")
def link_identity(request):
    if hasattr(request.user, "participant"):
        return redirect("benefits:dashboard")
    locked = identity_link_attempts_exceeded(user=request.user, request=request)
    form = IdentityLinkForm(request.POST or None)
    if request.method == "POST" and not locked and form.is_valid():
        try:
            participant_link_identity(user=request.user, request=request, **form.cleaned_data)
        except IdentityLinkError as exc:
            form.add_error(None, str(exc))
            locked = identity_link_attempts_exceeded(user=request.user, request=request)
        else:
            messages.success(request, "Your account is now linked to your plan record.")
            return redirect(reverse("benefits:dashboard"))
    status = 429 if locked and request.method == "POST" else 200
    return render(request, "accounts/link_identity.html", {"form": form, "locked": locked}, status=status)
