from __future__ import annotations

from django import template

from elections.claims.status_words import COMMITTEE, PARTICIPANT, status_sentence

register = template.Library()


@register.filter
def claim_status(claim, reader: str = "") -> str:
    """``{{ claim|claim_status:"committee" }}``: the claim's status as a sentence for that reader."""
    return status_sentence(claim, COMMITTEE if reader == COMMITTEE else PARTICIPANT)
