"""The final explanation given once per provisional explanation when two batches run at once (issue 25),
on PostgreSQL: threads with their own connections, committing for real, both past the check in code
before either writes, so the database's uniqueness rule (``Notice.replaces``) decides."""

from __future__ import annotations

from datetime import date

import pytest

from benefits.models import MarketRate, Plan
from elections.benefit_elections import explanation
from elections.benefit_elections import services as elections
from elections.benefit_elections.models import BatchRule, Notice, NoticeBatch, NoticeBatchItem
from tests.elections.parallel import meet_here
from tests.elections.test_provisional_explanations import MARCH, ON, provisional_notice
from tests.parallel import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_batches_at_once_give_the_final_explanation_once(pat, committee, monkeypatch):
    provisional = provisional_notice(pat, committee)
    assert provisional.provisional
    # December 2026 published (written directly: no import, so no batch of its own).
    for series, percent in (
        ("417e_segment_1", "4.45"),
        ("417e_segment_2", "5.20"),
        ("417e_segment_3", "5.85"),
    ):
        MarketRate.objects.create(series=series, period=date(2026, 12, 1), percent=percent, source="test")
    MarketRate.objects.create(series="treasury_30y", period=date(2026, 12, 1), percent="4.60", source="test")
    plan = Plan.objects.get(key="carver-db")
    batches = [
        NoticeBatch.objects.create(plan=plan, rule=BatchRule.RATES_PUBLISHED, as_of=ON) for _ in range(2)
    ]
    monkeypatch.setattr(explanation, "build", meet_here(2)(explanation.build))

    def run(batch):
        return lambda: elections.batch_run(batch.pk)

    results = run_together(run(batches[0]), run(batches[1]))
    assert not any(isinstance(r, BaseException) for r in results), results
    finals = Notice.objects.filter(replaces=provisional)
    assert finals.count() == 1
    final = finals.get()
    assert not final.provisional and final.asd == MARCH
    states = sorted(NoticeBatchItem.objects.filter(batch__in=batches).values_list("state", flat=True))
    assert states == [NoticeBatchItem.State.ALREADY_ISSUED, NoticeBatchItem.State.ISSUED]
    assert all(i.notice_id == final.pk for i in NoticeBatchItem.objects.filter(batch__in=batches))
