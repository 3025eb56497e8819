"""Every kind of import file, with hostile cells under its own columns (issue 26): never a server error,
never a partial write. A file is either applied whole or refused whole with each error's row, column
and reason; a refused file leaves every table an import writes exactly as it was."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.forms.models import model_to_dict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benefits.imports.kinds import KINDS
from tests.benefits.imports.conftest import run, snapshot
from tests.benefits.imports.test_fuzz import NASTY

pytestmark = pytest.mark.django_db

# Values that are valid somewhere, so some rows get past the first check and reach the deeper ones.
PLAUSIBLE = st.sampled_from(
    [
        "FSB-77001",
        "fairport-esop",
        "carver-401k",
        "2023",
        "2023-06-30",
        "2023-06",
        "100.00",
        "0",
        "12.5",
        "deferral",
        "paid",
        "returned",
        "treasury_30y",
        "4.60",
        "1",
    ]
)
HOSTILE = st.one_of(NASTY, PLAUSIBLE, st.text(max_size=20))


def _everything() -> dict:
    """The import tables (``snapshot``) and the payment records a confirmation file may move."""
    from payments.models import Payment, PaymentInstalment

    out = snapshot()
    for model in (Payment, PaymentInstalment):
        out[model.__name__] = sorted(
            (o.pk, sorted(model_to_dict(o).items(), key=str)) for o in model.objects.all()
        )
    return out


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_hostile_cells_under_every_kind_are_refused_or_applied_whole(member, kind):
    columns = list(KINDS[kind].column_names)

    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        header=st.permutations(columns).flatmap(lambda cols: st.lists(st.sampled_from(cols), min_size=1)),
        rows=st.lists(st.lists(HOSTILE, min_size=1, max_size=len(columns) + 1), max_size=4),
    )
    def check(header, rows):
        lines = [",".join(header)] + [
            ",".join(c.replace(",", " ").replace("\n", " ") for c in r) for r in rows
        ]
        data = "\n".join(lines).encode("utf-8", errors="replace")
        with transaction.atomic():
            before = _everything()
            batch, checked = run(kind, data, file_name=f"{kind}.csv")  # never raises
            if checked.errors:
                assert batch.status == "previewed"
                assert _everything() == before  # nothing half-applied
                for e in checked.errors:
                    assert isinstance(e.row, int) and isinstance(e.column, str) and e.message
            else:
                assert batch.status == "applied"
            transaction.set_rollback(True)

    check()
