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
