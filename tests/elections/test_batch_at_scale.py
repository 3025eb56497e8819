"""Notice batches for whole plans (issue 31): the choice of people in bulk on the engine's light path,
committed a chunk at a time, and several runs of one batch issuing at once, each notice once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benefits.models import Plan
from elections.benefit_elections import services
from elections.benefit_elections.models import BatchRule, Notice, NoticeBatch, NoticeBatchItem
from tests.elections.conftest import AS_OF


def _population(n: int, seed: int) -> None:
    from benefits.demo.population import generate_population

    generate_population(n, as_of=AS_OF, seed=seed)


@pytest.mark.django_db
def test_the_light_path_picks_the_same_people_as_the_full_calculation(demo):
    """The retirement date from the plan's core result is the one the full contract result reports:
    the batch's choice is unchanged by the light path (checked on every demo and generated member)."""
    from benefits.engine_adapter import CalculationError, membership_calculate, memberships_retirement_dates
    from benefits.models import PlanMembership
    from benefits.selectors import with_engine_rows

    _population(60, seed=31)
    for plan in Plan.objects.all():
        memberships = list(with_engine_rows(PlanMembership.objects.filter(plan=plan)).order_by("pk"))
        light = memberships_retirement_dates(memberships, as_of=AS_OF)
        for m in memberships:
            try:
                full = membership_calculate(m, as_of=AS_OF).get("normal_retirement_date")
            except CalculationError:
                full = None
            got = light[m.pk]
            assert (got.isoformat() if got else None) == full, (plan.key, m.participant.participant_number)


@pytest.mark.django_db
def test_the_choice_is_the_same_in_chunks_of_any_size(demo):
    _population(120, seed=32)
    for key in ("carver-db", "quaker-cash-balance", "carver-401k"):
        plan = Plan.objects.get(key=key)
        whole = [
            (m.pk, k, a)
            for chunk in services.batch_candidate_chunks(
                plan, BatchRule.ASD_WITHIN, on=AS_OF, within_days=366
            )
            for m, k, a in chunk
        ]
        small = [
            (m.pk, k, a)
            for chunk in services.batch_candidate_chunks(
                plan, BatchRule.ASD_WITHIN, on=AS_OF, within_days=366, size=7
            )
            for m, k, a in chunk
        ]
        assert whole == small and whole, key


@pytest.mark.django_db
def test_choosing_costs_a_fixed_number_of_queries_per_chunk_not_per_person(demo):
    """Before: 7 queries per membership (8,763 for 1,252). Now the queries of one chunk do not depend
    on how many people it holds: the same count for a plan twice as large, within one chunk."""
    plan = Plan.objects.get(key="carver-db")

    from benefits.models import PlanMembership

    def queries() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as ctx:
            services.batch_candidates(plan, BatchRule.ASD_WITHIN, on=AS_OF, within_days=366)
        return len(ctx.captured_queries), PlanMembership.objects.filter(plan=plan).count()

    _population(40, seed=33)
    small, people_small = queries()
    _population(80, seed=34)
    large, people_large = queries()
    assert people_large > people_small and people_large <= services.SELECTION_CHUNK
    assert small == large <= 10, (small, large)


@pytest.mark.django_db
def test_a_choice_cut_short_is_completed_without_doubling_anyone(demo):
    plan = Plan.objects.get(key="carver-db")
    batch = NoticeBatch.objects.create(plan=plan, rule=BatchRule.ASD_WITHIN, within_days=366, as_of=AS_OF)
    chosen = services.batch_candidates(plan, BatchRule.ASD_WITHIN, on=AS_OF, within_days=366)
    assert len(chosen) >= 2
    m, k, a = chosen[0]
    NoticeBatchItem.objects.create(batch=batch, membership=m, kind=k, asd=a)  # the first chunk, then a crash
    assert batch.selected_at is None
    total = services.batch_select(batch)
    batch.refresh_from_db()
    assert total == len(chosen) and batch.selected_at is not None
    assert services.batch_select(batch) == total  # chosen once: a rerun reads the items


@pytest.mark.django_db
def test_a_batch_queues_more_runs_up_to_the_setting(demo, settings, django_capture_on_commit_callbacks):
    from benefits.jobs.models import Job
    from elections.benefit_elections.tasks import issue_notice_batch, notice_batch_fan_out

    settings.NOTICE_BATCH_RUNNERS = 3
    _population(30, seed=36)
    plan = Plan.objects.get(key="carver-db")
    batch = NoticeBatch.objects.create(plan=plan, rule=BatchRule.ASD_WITHIN, within_days=366, as_of=AS_OF)
    total = services.batch_select(batch)
    assert total >= 3

    issue_notice_batch.job_create(target_id=batch.pk)  # the run that chose the people
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert notice_batch_fan_out(batch) == 2  # that run and two more
    assert len(sent) == 2
    assert Job.objects.filter(kind=issue_notice_batch.name, target_id=batch.pk).count() == 3
    with django_capture_on_commit_callbacks(execute=False):
        assert notice_batch_fan_out(batch) == 0  # three are open already: no more
    settings.NOTICE_BATCH_RUNNERS = 1
    other = NoticeBatch.objects.create(plan=plan, rule=BatchRule.ASD_WITHIN, within_days=366, as_of=AS_OF)
    services.batch_select(other)
    assert notice_batch_fan_out(other) == 0


@pytest.mark.django_db(transaction=True)
def test_three_runs_of_one_batch_at_once_issue_each_notice_once_and_share_the_work(demo):
    """Real parallel runs (threads with their own PostgreSQL connections): each takes the next item no
    other holds (SKIP LOCKED), so together they issue every notice exactly once."""
    from tests.parallel import run_together

    _population(80, seed=35)
    plan = Plan.objects.get(key="carver-db")
    batch = NoticeBatch.objects.create(plan=plan, rule=BatchRule.ASD_WITHIN, within_days=366, as_of=AS_OF)
    total = services.batch_select(batch)
    assert total >= 6
    taken: dict[int, list[int]] = {0: [], 1: [], 2: []}

    def run(i: int):
        def call():
            return services.batch_run(batch.pk, item_hook=lambda item: taken[i].append(item.pk))

        return call

    results = run_together(run(0), run(1), run(2))
    assert not any(isinstance(r, BaseException) for r in results), results
    batch.refresh_from_db()
    assert batch.state == NoticeBatch.State.DONE
    everyone = [pk for pks in taken.values() for pk in pks]
    assert sorted(everyone) == sorted(batch.items.values_list("pk", flat=True))  # each item by one run
    assert sum(1 for pks in taken.values() if pks) >= 2  # the work was shared
    assert Notice.objects.filter(batch=batch).count() == total
    assert not batch.items.exclude(state=NoticeBatchItem.State.ISSUED).exists()
