from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.forms import IdentityLinkForm
from accounts.roles import role_required
from accounts.services import IdentityLinkError, identity_link_attempts_exceeded, participant_link_identity


@require_POST
@login_required
def session_keepalive(request):
    """ "Stay signed in" on the idle warning: the request itself is the activity
    (``IdleTimeoutMiddleware`` has just recorded it)."""
    from django.http import HttpResponse

    return HttpResponse(status=204)


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
    from accounts.user_forms import RoleForm, StaffLoginForm

    rows = [
        {"user": u, "form": RoleForm(initial={"role": u.role}, prefix=f"u{u.pk}")}
        for u in selectors.users_for_admin(user=request.user)
    ]
    return render(
        request,
        "accounts/users.html",
        {
            "rows": rows,
            "mfa_ok": services.mfa_authenticated(request),
            "pending": _pending_rows(request),
            "new_login_form": StaffLoginForm(),
        },
    )


def _pending_rows(request) -> list[dict]:
    from accounts import selectors, services

    return [
        {
            "request": r,
            "may_decide": services.may_decide(request.user, r),
            "mine": r.requested_by_id == request.user.pk,
        }
        for r in selectors.role_requests_pending(user=request.user)
    ]


@require_POST
@role_required("administrator")
def staff_login_request(request):
    from accounts import services
    from accounts.user_forms import StaffLoginForm

    form = StaffLoginForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else "Form"
            messages.error(request, f"{label}: {errors[0]}" if not errors[0].startswith(label) else errors[0])
        return redirect("accounts:users")
    try:
        services.staff_login_request(actor=request.user, request=request, **form.cleaned_data)
    except (services.RoleChangeRefused, PermissionDenied) as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            f"Requested a login for {form.cleaned_data['email']}. Another person must approve it before it exists.",
        )
    return redirect("accounts:users")


@role_required("committee", "administrator")
def role_requests(request):
    """Staff role requests waiting for a second person's approval."""
    from accounts import services

    return render(
        request,
        "accounts/role_requests.html",
        {"pending": _pending_rows(request), "mfa_ok": services.mfa_authenticated(request)},
    )


@require_POST
@role_required("committee", "administrator")
def role_request_decide(request, request_id: int):
    from accounts import selectors, services
    from accounts.user_forms import DecisionForm

    made = get_object_or_404(selectors.role_requests_pending(user=request.user), pk=request_id)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Decision: choose approve or refuse.")
        return redirect("accounts:role_requests")
    approve = form.cleaned_data["decision"] == "approve"
    try:
        services.role_request_decide(actor=request.user, role_request=made, approve=approve, request=request)
    except (services.RoleChangeRefused, PermissionDenied) as exc:
        messages.error(request, str(exc))
    else:
        if approve:
            messages.success(request, f"Approved: {made.email} now holds the {made.get_role_display()} role.")
        else:
            messages.success(request, f"The request for {made.email} is closed.")
    return redirect("accounts:role_requests")


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
        result = services.user_change_role(
            actor=request.user, user=target, role=form.cleaned_data["role"], request=request
        )
    except services.RoleChangeRefused as exc:
        messages.error(request, str(exc))
    except PermissionDenied as exc:
        messages.error(request, str(exc))
        return redirect("accounts:users")
    else:
        role_name = dict(target.Role.choices)[form.cleaned_data["role"]]
        if isinstance(result, target.__class__):
            messages.success(request, f"{target.email} is now: {role_name}.")
        else:
            messages.success(
                request,
                f"Requested: {target.email} to become {role_name}. Another person must approve it; "
                "until then the login keeps its role.",
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
