from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

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


# ------------------------------------------------------------------------------------ roles and access


@role_required("administrator")
def users(request):
    """Administrators see every login's role and change it here (the only place roles change)."""
    from accounts import selectors, services
    from accounts.user_forms import RoleForm

    rows = [
        {"user": u, "form": RoleForm(initial={"role": u.role}, prefix=f"u{u.pk}")}
        for u in selectors.users_for_admin(user=request.user)
    ]
    return render(
        request,
        "accounts/users.html",
        {"rows": rows, "mfa_ok": services.mfa_authenticated(request)},
    )


@require_POST
@role_required("administrator")
def user_change_role(request, user_id: int):
    from accounts import selectors, services
    from accounts.user_forms import RoleForm

    target = get_object_or_404(selectors.users_for_admin(user=request.user), pk=user_id)
    form = RoleForm(request.POST, prefix=f"u{target.pk}")
    if not form.is_valid():
        messages.error(request, "Role: choose one of the roles offered.")
        return redirect("accounts:users")
    try:
        services.user_change_role(
            actor=request.user, user=target, role=form.cleaned_data["role"], request=request
        )
    except services.RoleChangeRefused as exc:
        messages.error(request, str(exc))
    except PermissionDenied as exc:
        messages.error(request, str(exc))
        return redirect("accounts:users")
    else:
        messages.success(
            request, f"{target.email} is now: {dict(target.Role.choices)[form.cleaned_data['role']]}."
        )
    return redirect("accounts:users")


@require_POST
@role_required("administrator")
def user_set_active(request, user_id: int):
    from accounts import selectors, services
    from accounts.user_forms import ActiveForm

    target = get_object_or_404(selectors.users_for_admin(user=request.user), pk=user_id)
    form = ActiveForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Access: choose active or deactivated.")
        return redirect("accounts:users")
    try:
        services.user_set_active(
            actor=request.user, user=target, active=form.cleaned_data["active"], request=request
        )
    except (services.RoleChangeRefused, PermissionDenied) as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            f"{target.email} {'can log in again' if form.cleaned_data['active'] else 'is deactivated'}.",
        )
    return redirect("accounts:users")
