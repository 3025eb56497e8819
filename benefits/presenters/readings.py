"""A plan reading in people's words for the administrators' plan page: a label, what it means, the
plan sections it reads, the value in use and the other reading (never a key, type or analyst label)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from benefits.engine_adapter import Reading

from .plain import people_date, plain_text
from .reading_words import reading_label, value_label


def _words(value: object) -> str:
    if value is None:
        return "not set"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, date):
        return people_date(value)
    if isinstance(value, tuple | list):
        return ", ".join(_words(v) for v in value) if value else "none"
    if isinstance(value, str):
        return value_label(value)
    return str(value)


@dataclass(frozen=True)
class ReadingWords:
    reading: Reading

    def __getattr__(self, name: str):  # the reading's own fields (name, value_text, choices, …)
        return getattr(self.reading, name)

    @property
    def label(self) -> str:
        return reading_label(self.reading.name)

    @property
    def explanation(self) -> str:
        return plain_text(self.reading.help)

    @property
    def section_words(self) -> str:
        return plain_text(self.reading.section)

    @property
    def other_reading(self) -> str:
        text = self.reading.alternative
        head, sep, rest = text.partition(":")
        if sep and head.strip() in (*self.reading.choices, "true", "false"):
            text = f"{value_label(head.strip())}:{rest}"
        return plain_text(text)

    @property
    def value_words(self) -> str:
        return _words(self.reading.value)

    @property
    def default_words(self) -> str:
        return _words(self.reading.default)

    @property
    def input_hint(self) -> str:
        """What to type, in words (the engine's type is never shown)."""
        t = self.reading.type_name.replace(" ", "")
        blank = " Leave blank to clear it." if "None" in t else ""
        if t.startswith("datetime.date"):
            return "A date, for example 2000-12-31." + blank
        if t.startswith(("Decimal", "decimal")):
            return "A number, for example 5000 or 0.08." + blank
        if t.startswith("int"):
            return "A whole number." + blank
        if t.startswith("tuple"):
            return "A list in brackets, for example [1999, 2000], or [] for none."
        return "A value." + blank


def readings_in_words(readings: list[Reading]) -> list[ReadingWords]:
    return [ReadingWords(r) for r in readings]
