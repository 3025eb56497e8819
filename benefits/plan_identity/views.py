from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render

from accounts.roles import role_required
from benefits import selectors
from benefits.plan_identity import services
from benefits.plan_identity.forms import PlanContactForm
from benefits.plan_identity.selectors import contact_of


@role_required("administrator")
def plan_identity_edit(request, key: str):
    plan = get_object_or_404(selectors.plans_for_admin(user=request.user), key=key)
    contact = contact_of(plan)
    form = PlanContactForm(request.POST or None, instance=contact)
    if request.method == "POST" and form.is_valid():
        services.plan_identity_update(
            plan=plan, values=form.cleaned_data, actor=request.user, request=request
        )
        messages.success(
            request, f"The identification of {plan.name} is saved. Documents asked for from now on print it."
        )
        return redirect("benefits:plan_identity_edit", key=plan.key)
    return render(
        request,
        "benefits/plan_identity.html",
        {"plan": plan, "form": form, "contact": contact},
        status=400 if request.method == "POST" else 200,
    )
