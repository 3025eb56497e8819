"""Merging steps into a trace keeps each regulatory-value read once (``trace._merged``).

The merge finds an earlier listing of a read through an index rather than by scanning the trace
for each read (a 401(k) trace extends one account's steps year after year). It must give the
steps the scan gave, in the same order: the reference below is that scan.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.trace import Step, _is_read, _merged, _read_key


def scanned(steps, new, reads=()):
    """The merge as it was written first: a scan of the trace for every read in ``new``."""
    if not reads and not any(_is_read(s) for s in new):
        return steps + tuple(new)
    out = list(steps)
    listed = {_read_key(s) for s in (*steps, *new) if _is_read(s)}
    for s in reads:
        if _read_key(s) not in listed:
            out.append(s)
            listed.add(_read_key(s))
    for s in new:
        if _is_read(s):
            same = [i for i, o in enumerate(out) if _is_read(o) and _read_key(o) == _read_key(s)]
            if same:
                if s.applied and not out[same[0]].applied:
                    out[same[0]] = s
                continue
        out.append(s)
    return tuple(out)


def read(name: str, year: int, applied: bool) -> Step:
    return Step(f"the {name} for {year}", "IRC", (("parameter", name), ("for_date", f"{year}-12-31")), "1",
                applied)  # fmt: skip


steps = st.one_of(
    st.builds(
        read, st.sampled_from(("402(g) limit", "401(a)(17) limit")), st.integers(2020, 2022), st.booleans()
    ),
    st.builds(
        lambda rule, applied: Step(rule, "§4", (("amount", "10.00"),), "10.00", applied),
        st.sampled_from(("match", "deferral", "credit")),
        st.booleans(),
    ),
)


@settings(max_examples=300, deadline=None)
@given(
    before=st.lists(steps, max_size=12),
    new=st.lists(steps, max_size=12),
    reads=st.lists(steps.filter(_is_read), max_size=6),
    duplicates_before=st.booleans(),
)
def test_the_indexed_merge_is_the_scan(before, new, reads, duplicates_before):
    # A trace's own steps are already merged, unless a caller built them by hand.
    base = tuple(before) if duplicates_before else scanned((), before)
    assert _merged(base, list(new), reads) == scanned(base, list(new), reads)


def test_an_applied_listing_replaces_a_not_applied_one_in_place():
    limit_skipped, limit_used = read("402(g) limit", 2021, False), read("402(g) limit", 2021, True)
    match = Step("match", "§4", (("amount", "10.00"),), "10.00")
    assert _merged((limit_skipped, match), [limit_used]) == (limit_used, match)
    assert _merged((limit_used, match), [limit_skipped]) == (limit_used, match)
