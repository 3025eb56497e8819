"""Regenerate the mortality data files in ``data/`` (a build step; never run by the engine).

    .venv/bin/python -m benefits.engine.mortality.build_data

Sources: SOA XTbML tables shipped offline in the ``pymort`` wheel (by SOA table id), and the IRS
§417(e)(3) applicable mortality tables transcribed in ``sources/`` (see ``sources/README.md``).
Writes one ``<key>.csv`` (``age,qx``) per table and ``catalog.json`` with each table's name and
provenance. Tests check that the files still match pymort and the source CSVs.

Not built here: the Rev. Rul. 2001-62 tables ``revrul_2001_62_unloaded`` / ``_loaded`` are copied
column for column from ``sources/revrul-2001-62-both-readings-computed.csv`` (computed both ways the
ruling can be read; ``sources/revrul-2001-62-PROVENANCE.md``) and checked by the tests.
Not built, on purpose (issue 12: an error for a date is better than a guess):
- 2027: the recomputation ignores the SECURE 2.0 cap on mortality improvement (Notice 2026-27).
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"
SOURCES_DIR = Path(__file__).parent / "sources"

# key -> (SOA id, display name, source note)
SOA_TABLES = {
    "up1984": (831, "UP-1984", "1984 Uninsured Pensioner Mortality Table (unisex)"),
    "gatt1983_unisex": (
        844,
        "1983 GATT - Unisex",
        "1983 GAM 50% male / 50% female blend: the Rev. Rul. 95-6 applicable mortality table "
        "(§417(e)(3) and §415(b)(2)(E)(v)) for 1995 - 12/30/2002",
    ),
    "gam1983_male": (826, "1983 GAM Table - Male", "1983 Group Annuity Mortality Table, male"),
    "gam1983_female": (825, "1983 GAM Table - Female", "1983 Group Annuity Mortality Table, female"),
    "gam1994_static_male": (
        835,
        "1994 GAM Static - Male, ANB",
        "1994 Group Annuity Mortality Static Table, male",
    ),
    "gam1994_static_female": (
        834,
        "1994 GAM Static - Female, ANB",
        "1994 Group Annuity Mortality Static Table, female",
    ),
    "irs_2008_applicable": (
        2801,
        "2008 Applicable Mortality Table",
        "Rev. Rul. 2007-67 (§417(e)(3) for 2008)",
    ),
}
SCALES = {
    "scale_aa_male": (924, "1994 Mortality Improvement Projection Scale AA - Male"),
    "scale_aa_female": (923, "1994 Mortality Improvement Projection Scale AA - Female"),
}
# §417(e)(3) unisex tables that pymort also carries (used only to cross-check the IRS CSV).
PYMORT_417E_IDS = {
    2008: 2801,
    2009: 3166,
    2010: 3173,
    2011: 3180,
    2012: 3187,
    2013: 3194,
    2014: 3201,
    2015: 3208,
    2016: 3159,
}
NOTICES = {
    2008: "Rev. Rul. 2007-67",
    2009: "Notice 2008-85",
    2010: "Notice 2008-85",
    2011: "Notice 2008-85",
    2012: "Notice 2008-85",
    2013: "Notice 2008-85",
    2014: "Notice 2013-49",
    2015: "Notice 2013-49",
    2016: "Notice 2015-53",
    2017: "Notice 2016-50",
    2018: "Notice 2017-60, IRB 2017-43",
    2019: "Notice 2018-02, IRB 2018-02",
    2020: "Notice 2019-26",
    2021: "Notice 2019-67",
    2022: "Notice 2020-85, IRB 2020-51",
    2023: "Notice 2022-22",
    2024: "Notice 2023-73",
    2025: "Notice 2024-42",
    2026: "Notice 2025-40",
    2027: "Notice 2026-27",
}


def _pymort_q(table_id: int) -> dict[int, float]:
    from pymort import MortXML  # build-time only

    values = MortXML.from_id(table_id).Tables[0].Values["vals"]
    return {int(a): float(q) for a, q in values.items()}


def _write(key: str, qx: dict[int, float]) -> None:
    with (DATA_DIR / f"{key}.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["age", "qx"])
        for age in sorted(qx):
            w.writerow([age, repr(round(qx[age], 7))])


def _read_source(path: Path) -> dict[str, dict[int, float]]:
    with path.open() as fh:
        rows = list(csv.reader(fh))
    header = [h.strip() for h in rows[0]]
    cols: dict[str, dict[int, float]] = {h: {} for h in header[1:]}
    for row in rows[1:]:
        if not row:
            continue
        age = int(row[0])
        for h, cell in zip(header[1:], row[1:], strict=True):
            cols[h][age] = float(cell.strip())
    return cols


def build(sources: Path = SOURCES_DIR) -> None:
    DATA_DIR.mkdir(exist_ok=True)
    catalog: dict[str, dict[str, Any]] = {}
    for key, (tid, name, note) in SOA_TABLES.items():
        _write(key, _pymort_q(tid))
        catalog[key] = {
            "kind": "mortality",
            "name": name,
            "soa_id": tid,
            "source": f"SOA table {tid} via pymort 2.0.1 (XTbML); {note}",
            "provisional": False,
        }
    for key, (tid, name) in SCALES.items():
        _write(key, _pymort_q(tid))
        catalog[key] = {
            "kind": "improvement_scale",
            "name": name,
            "soa_id": tid,
            "source": f"SOA table {tid} via pymort 2.0.1 (XTbML)",
            "provisional": False,
        }

    published = _read_source(sources / "irs-417e-applicable-mortality-published-2008-2024.csv")
    for year_s, col in published.items():
        year = int(year_s)
        key = f"irs_417e_{year}"
        _write(key, col)
        catalog[key] = {
            "kind": "mortality",
            "name": f"IRS {year} §417(e)(3) applicable mortality table (unisex)",
            "source": f"IRS {NOTICES[year]}, as published (public domain); transcribed in "
            "sources/irs-417e-applicable-mortality-published-2008-2024.csv"
            + (
                f"; equals SOA table {PYMORT_417E_IDS[year]} (pymort) at ages 15-120"
                if year in PYMORT_417E_IDS
                else ""
            ),
            "provisional": False,
        }
    recomputed = _read_source(sources / "irs-417e-applicable-mortality-2025-2027-recomputed.csv")
    for col_name, col in recomputed.items():
        if not col_name.endswith("_calc"):
            continue
        year = int(col_name.split("_")[0])
        if year > 2026:  # ignores the SECURE 2.0 improvement cap: known not to be the 2027 table
            continue
        key = f"irs_417e_{year}"
        _write(key, col)
        catalog[key] = {
            "kind": "mortality",
            "name": f"IRS {year} §417(e)(3) applicable mortality table (unisex) - PROVISIONAL recomputation",
            "source": f"PROVISIONAL: recomputed by the Pri-2012 + adjusted MP-2021 method (TD 9983), not transcribed from "
            f"{NOTICES[year]}; sources/irs-417e-applicable-mortality-2025-2027-recomputed.csv"
            + ("; its q65 .00729 equals the notice's published unisex q65" if year == 2026 else ""),
            "provisional": True,
        }
    (DATA_DIR / "catalog.json").write_text(json.dumps(catalog, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sources", type=Path, default=SOURCES_DIR)
    build(parser.parse_args().sources)
