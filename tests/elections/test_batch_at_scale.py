"""Notice batches for whole plans (issue 31): the choice of people in bulk on the engine's light path,
committed a chunk at a time, and several runs of one batch issuing at once, each notice once."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
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


def _plan_nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", ()):
        yield from _plan_nodes(child)


@pytest.mark.django_db
def test_a_runs_next_item_is_read_from_an_index_in_a_batch_of_100000(demo):
    """Each item a run takes is the first waiting one of its batch, read from the front of the index
    ``batch_item_next_pending``: no sort of the batch's items and no walk past the issued ones (both grew
    with the batch, for every item). Runs take items in order, so the waiting ones are the last."""
    import json

    from benefits.db_stats import analyze
    from elections.benefit_elections.models import NoticeKind
    from tests.bulk_population import bulk_people

    bulk_people(1, 34_000 // Plan.objects.count())
    batch = NoticeBatch.objects.create(
        plan=Plan.objects.get(key="carver-db"), rule=BatchRule.ASD_WITHIN, within_days=90, as_of=AS_OF
    )
    assert NoticeBatchItem._meta.db_table == "elections_noticebatchitem"
    with connection.cursor() as cursor:
        cursor.execute(
            """INSERT INTO elections_noticebatchitem (batch_id, membership_id, kind, asd, state,
                   failure_reason, attempts)
               SELECT %s, m.id, k, %s, CASE WHEN m.id > last.id - 40 THEN 'pending' ELSE 'issued' END, '', 0
               FROM benefits_planmembership m CROSS JOIN unnest(%s::text[]) AS k
               CROSS JOIN (SELECT max(id) AS id FROM benefits_planmembership) AS last""",
            [batch.pk, AS_OF, list(NoticeKind.values)],
        )
    analyze([NoticeBatchItem])
    assert batch.items.count() >= 100_000
    with transaction.atomic():
        plan = json.loads(services.batch_item_next(batch.pk)[:1].explain(format="json"))[0]["Plan"]
        first = services.batch_item_next(batch.pk).first()
    nodes = list(_plan_nodes(plan))
    assert any(n.get("Index Name") == "batch_item_next_pending" for n in nodes), plan
    assert not any(n["Node Type"] in ("Sort", "Incremental Sort") for n in nodes), plan
    pending = batch.items.filter(state=NoticeBatchItem.State.PENDING)
    assert first.pk == min(pending.values_list("pk", flat=True))
