"""``{% one_time_token %}``: the hidden one-time token a button that starts work sends
(``accounts.submissions.starts_work``); a fresh one each time the page is drawn."""

from __future__ import annotations

import uuid

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def one_time_token() -> str:
    return format_html('<input type="hidden" name="submission_token" value="{}">', uuid.uuid4().hex)
