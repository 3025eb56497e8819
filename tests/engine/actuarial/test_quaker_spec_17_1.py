"""Golden test: Quaker Cash Balance SPEC §17.1, monthly life annuity-due factors on the B2 basis.

The SPEC tabulates ä(12)x (UDD, monthly due, integer ages) at 5%, 6% and 7% on a 50% male / 50% female
blend of 1983 GAM, and the monthly benefit per $1,000 of balance, 1000 / (12·ä). The blend is built
here with ``mortality.blend`` from the SOA 1983 GAM tables (the same rates as the GATT table 844).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest

from benefits.engine.actuarial import life_annuities, life_annuity, plan_basis
from benefits.engine.mortality import blend, get_table

# age, ä(12)@5%, $/mo per $1,000 @5%, ä(12)@6%, $/mo @6%, ä(12)@7%, $/mo @7%
ROWS = [
    (35, 17.884236, "4.6596", 15.625865, "5.3330", 13.833687, "6.0239"),
    (45, 16.421350, "5.0747", 14.567779, "5.7204", 13.054747, "6.3834"),
    (55, 14.345166, "5.8092", 12.963150, "6.4285", 11.798875, "7.0628"),
    (56, 14.098697, "5.9107", 12.766112, "6.5277", 11.639779, "7.1594"),
    (57, 13.844161, "6.0194", 12.561243, "6.6342", 11.473296, "7.2632"),
    (58, 13.581427, "6.1358", 12.348340, "6.7485", 11.299170, "7.3752"),
    (59, 13.310506, "6.2607", 12.127325, "6.8715", 11.117254, "7.4959"),
    (60, 13.031522, "6.3948", 11.898220, "7.0038", 10.927489, "7.6260"),
    (61, 12.744725, "6.5387", 11.661162, "7.1462", 10.729920, "7.7664"),
    (62, 12.450452, "6.6932", 11.416370, "7.2995", 10.524667, "7.9179"),
    (63, 12.149183, "6.8592", 11.164195, "7.4643", 10.311972, "8.0812"),
    (64, 11.841517, "7.0374", 10.905105, "7.6417", 10.092187, "8.2572"),
    (65, 11.528182, "7.2287", 10.639690, "7.8323", 9.865783, "8.4467"),
    (66, 11.209981, "7.4339", 10.368619, "8.0371", 9.633310, "8.6505"),
    (67, 10.887775, "7.6538", 10.092626, "8.2569", 9.395384, "8.8696"),
    (68, 10.562361, "7.8897", 9.812393, "8.4927", 9.152582, "9.1049"),
    (69, 10.234444, "8.1424", 9.528527, "8.7457", 8.905417, "9.3576"),
    (70, 9.904611, "8.4136", 9.241535, "9.0173", 8.654313, "9.6291"),
]


@pytest.fixture(scope="module")
def gam83_unisex():
    return blend(get_table("gam1983_male"), get_table("gam1983_female"), 0.5)


@pytest.mark.parametrize("row", ROWS, ids=[str(r[0]) for r in ROWS])
def test_spec_17_1_monthly_due_factors(gam83_unisex, row):
    age = row[0]
    for rate, factor, per_thousand in (
        (0.05, row[1], row[2]),
        (0.06, row[3], row[4]),
        (0.07, row[5], row[6]),
    ):
        a = life_annuity(plan_basis(gam83_unisex, rate), age)
        assert a == pytest.approx(factor, abs=5e-7)
        monthly = (Decimal(1000) / (Decimal(12) * Decimal(repr(a)))).quantize(
            Decimal("0.0001"), ROUND_HALF_UP
        )
        assert monthly == Decimal(per_thousand)


def test_spec_17_1_vectorized_matches(gam83_unisex):
    ages = [r[0] for r in ROWS]
    got = life_annuities(plan_basis(gam83_unisex, 0.06), ages)
    assert got == pytest.approx([r[3] for r in ROWS], abs=5e-7)


def test_spec_17_1_udd_identity(gam83_unisex):
    # SPEC: annual ä65 @6% = 11.104689; ä(12) = α(12)·ä − β(12) with α = 1.000281, β = 0.468120.
    annual = life_annuity(plan_basis(gam83_unisex, 0.06, frequency=1), 65)
    assert annual == pytest.approx(11.104689, abs=5e-7)
    i = 0.06
    d = i / (1 + i)
    i12 = 12 * ((1 + i) ** (1 / 12) - 1)
    d12 = 12 * (1 - (1 + i) ** (-1 / 12))
    alpha, beta = i * d / (i12 * d12), (i - i12) / (i12 * d12)
    assert (alpha, beta) == pytest.approx((1.000281, 0.468120), abs=5e-7)
    assert life_annuity(plan_basis(gam83_unisex, 0.06), 65) == pytest.approx(alpha * annual - beta, abs=1e-9)


def test_gatt_table_close_to_spec_blend():
    # The published GATT table (SOA 844) rounds the blend to 6 places: factors agree to ~1e-5.
    assert life_annuity(plan_basis(get_table("gatt1983_unisex"), 0.06), 65) == pytest.approx(
        10.639690, abs=2e-5
    )
