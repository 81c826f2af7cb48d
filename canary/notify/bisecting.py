"""The first report of a new failure names its first bad commit when this machine can find it.

When the notifier is about to open an issue for a new signature, the regression window holds more
than one commit, and the failure can be tested here (a compile or lowering error: ``canary
lower``; a crash, NaN or gate failure on a local cpu lane: a cpu run with the same signature),
it bisects the window (:mod:`canary.bisect`) within a time budget and the issue says what it found:
the first bad commit, or the commits it is among when the budget ran out. Bisecting never stops
the notification: whatever goes wrong is said in the issue instead.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import replace

from canary.history.series import ferry_of
from canary.notify.model import Facts, FirstBad
from canary.record import RunRecord

DEFAULT_BUDGET_S = 600.0


def plan(record: RunRecord, facts: Facts, repo: str = ".") -> tuple[str, str, str] | str:
    """(test, good, bad) to bisect the failure of ``record``, or why it is not bisected."""
    from canary.bisect import lane_test, newest

    window = facts.window or ()
    if len(window) < 2:
        return "the regression window holds fewer than two commits"
    good = facts.last_pass.commit if facts.last_pass else None
    if not good:
        return "the last pass has no recorded commit"
    sig = record.signature
    test = lane_test(sig.kind if sig else None, record.lane)
    if test is None:
        return f"a {sig.kind if sig else 'unsigned'} failure on lane {record.lane} cannot be tested on this machine"
    refused = _why_not_bisected(ferry_of(record.ferry))
    if refused:
        return refused
    if importlib.util.find_spec("jax") is None:
        return "JAX is not installed here"
    from canary.git import is_object_name, shown

    odd = [sha for sha in (good, *(c.sha for c in window)) if not is_object_name(sha)]
    if odd:
        return f"{shown(odd[0])} is not a full commit id (40 or 64 lowercase hex digits), so git is not asked about it"
    bad = newest(repo, [c.sha for c in window], good)
    if bad is None:
        return "the window's commits are not in this checkout"
    return test, good, bad


def _why_not_bisected(name: str) -> str | None:
    """Why the ferry's kind cannot be bisected here (None: it can, or the ferry is not here now)."""
    from canary.config import load_ferry
    from canary.errors import ConfigError
    from canary.ferries import kind_of

    try:
        ferry = load_ferry(name)[0]
    except ConfigError:  # not here now: the revisions may have it
        return None
    return kind_of(ferry).why_not_bisected(ferry)


def first_bad(
    record: RunRecord,
    facts: Facts,
    budget_s: float = DEFAULT_BUDGET_S,
    repo: str = ".",
    log: Callable[[str], None] | None = None,
) -> FirstBad | None:
    """Bisect the failure of ``record`` over its regression window; None when it is not bisected."""
    from canary.bisect import BisectOptions, bisect
    from canary.errors import CanaryError

    say = log or (lambda msg: None)
    planned = plan(record, facts, repo)
    if isinstance(planned, str):
        say(f"not bisecting: {planned}")
        return None
    test, good, bad = planned
    say(f"bisecting {len(facts.window or ())} commits with canary {test} (budget {budget_s:.0f} s)")
    sig = record.signature
    opts = BisectOptions(
        lane=record.lane,
        good=good,
        bad=bad,
        test=test,
        ferry=ferry_of(record.ferry),  # a preflight's series names its ferry
        checkout=repo,
        budget_s=budget_s,
        fingerprint=sig.fingerprint if sig and test == "run" else None,
        steps=record.steps_requested if test == "run" else None,
    )
    try:
        result = bisect(opts)
    except CanaryError as e:
        return FirstBad(None, test=test, budget_s=budget_s, note=f"could not bisect: {e}")
    except Exception as e:  # noqa: BLE001 - a bisect bug must not cost the notification
        return FirstBad(None, test=test, budget_s=budget_s, note=f"bisect failed: {type(e).__name__}: {e}")
    say(f"bisect: {result.first_bad or result.reason} ({result.tested} tested, {result.seconds:.0f} s)")
    return FirstBad(
        result.first_bad,
        result.subject,
        test,
        result.tested,
        len(result.skipped),
        result.seconds,
        result.exhausted,
        budget_s,
        tuple(result.candidates),
        result.reason,
    )


def bisector(
    budget_s: float = DEFAULT_BUDGET_S, repo: str = ".", log: Callable[[str], None] | None = None
) -> Callable[[RunRecord, Facts], Facts]:
    """The notifier's hook: ``facts`` with what bisecting found added (run only for a new issue)."""

    def add_first_bad(record: RunRecord, facts: Facts) -> Facts:
        found = first_bad(record, facts, budget_s, repo, log)
        return replace(facts, first_bad=found) if found is not None else facts

    return add_first_bad
