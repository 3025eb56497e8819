"""Data imports: administrators load a plan year's data from CSV or XLSX files, preview, apply, roll back."""
