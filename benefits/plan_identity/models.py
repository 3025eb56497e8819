from __future__ import annotations

from django.core.validators import RegexValidator
from django.db import models


class PlanContact(models.Model):
    """Who a plan's documents name: ERISA §104/§502(c) notices and the SPD name the plan, its plan
    number (the three digits of Form 5500, line 1b), the sponsor and the plan administrator
    (29 CFR 2520.102-3(b), (c), (f)) with an address and a telephone number."""

    plan = models.OneToOneField("benefits.Plan", on_delete=models.CASCADE, related_name="contact")
    plan_number = models.CharField(
        max_length=3,
        validators=[
            RegexValidator(r"^\d{3}$", "The plan number is three digits, as on Form 5500 (001, 002, …).")
        ],
    )
    sponsor_name = models.CharField(max_length=200)
    sponsor_address = models.TextField(help_text="Street, city, state and ZIP code; one line each.")
    administrator_name = models.CharField(max_length=200)
    administrator_address = models.TextField(help_text="Street, city, state and ZIP code; one line each.")
    administrator_phone = models.CharField(max_length=40)
    # Filled by the demo loader with made-up values where the plan's text states none.
    demo_data = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    FIELDS = (
        "plan_number",
        "sponsor_name",
        "sponsor_address",
        "administrator_name",
        "administrator_address",
        "administrator_phone",
    )

    def __str__(self) -> str:
        return f"{self.plan} (plan {self.plan_number})"
