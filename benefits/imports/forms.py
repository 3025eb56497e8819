from __future__ import annotations

from django import forms

from benefits.imports.kinds import KINDS
from benefits.imports.services import MAX_BYTES


class UploadForm(forms.Form):
    kind = forms.ChoiceField(
        label="What the file holds",
        choices=lambda: [(k.name, k.label) for k in KINDS.values()],  # kinds registered at start-up too
        help_text="Each kind has its own columns; see the column list below.",
    )
    file = forms.FileField(
        label="File",
        help_text="A CSV file (UTF-8) or an Excel workbook (.xlsx); the first row names the columns.",
    )
    table_years = forms.CharField(
        label="Year(s) the table applies to (regulatory tables only)",
        required=False,
        max_length=20,
        help_text="For a §417(e)(3) table the stability-period year (2027); for the Single Life Table the "
        "first distribution year, or a range (2002-2021).",
    )
    table_source = forms.CharField(
        label="Source of the table (regulatory tables only)",
        required=False,
        max_length=300,
        help_text="The notice or regulation that published it, for example Notice 2026-27.",
    )

    def clean(self):
        from benefits.imports.kinds.tables import ParamsInvalid, parse_params

        data = super().clean()
        kind = KINDS.get(data.get("kind", ""))
        if kind is None or not getattr(kind, "whole_file", False):
            data["params"] = None
            return data
        try:
            data["params"] = parse_params(
                kind.name, data.get("table_years", ""), data.get("table_source", "")
            )
        except ParamsInvalid as exc:
            field = "table_source" if str(exc).startswith("Source") else "table_years"
            self.add_error(field, str(exc))
        return data

    def clean_file(self):
        f = self.cleaned_data["file"]
        name = f.name.lower()
        if not (name.endswith(".csv") or name.endswith(".xlsx") or name.endswith(".txt")):
            raise forms.ValidationError("File: choose a .csv or .xlsx file.")
        if f.size > MAX_BYTES:
            raise forms.ValidationError(
                f"File: the largest file accepted is {MAX_BYTES // (1024 * 1024)} MB."
            )
        return f


class ApplyForm(forms.Form):
    valid_rows_only = forms.BooleanField(
        required=False,
        label="Import only the valid rows and leave out the rows with errors",
    )
