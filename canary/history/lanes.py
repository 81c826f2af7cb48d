"""A lane's standing in the run history, as ``canary history`` shows it and the notifier states
it: the pass/fail strip, the failure streak, flakiness, the last pass, and the regression window
(the commits and version changes since the last pass). The questions are the pure ones of
:mod:`canary.history.queries`; the commits come from a ``commits(good, bad)`` the caller passes
(:func:`canary.git.checkout_commits`, :func:`canary.git.window_commits`), and the watched paths
from the ferry's file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from canary.errors import CanaryError, ConfigError
from canary.history import queries, series, windows
from canary.record import RunRecord

Commits = Callable[[str, str], list]


def watched_paths(ferry: str) -> list[str]:
    from canary.config import load_ferry

    try:
        return list(load_ferry(series.ferry_of(ferry))[0].watched_paths)  # a preflight's: its ferry's
    except ConfigError:
        return []


def version_changes(record: RunRecord, streak: queries.Streak) -> tuple[windows.VersionChange, ...] | None:
    """What changed in the JAX stack, python and the ferry since the last pass (None: no last pass)."""
    if streak.last_pass is None:
        return None
    return tuple(windows.version_changes(streak.last_pass.versions, record.versions, record.failing_distribution))


def regression_window(
    record: RunRecord, streak: queries.Streak, commits: Commits
) -> tuple[tuple[windows.WindowCommit, ...] | None, str]:
    """The commits between the last pass and the first failure of the streak (watched first)."""
    good = streak.last_pass.commit if streak.last_pass else None
    bad = (streak.first_failure.commit if streak.first_failure else None) or record.commit
    if streak.last_pass is None:
        return None, ""
    if not good or not bad:
        return None, "the last pass or this run has no recorded commit"
    try:
        found = commits(good, bad)
    except CanaryError as e:
        return None, str(e)
    return tuple(windows.regression_window(found, watched_paths(record.ferry))), ""


def lane_window(records: Sequence[RunRecord], lane: str, commits: Commits, *, ferry: str | None = None) -> dict | None:
    """The regression window of a failing series (``lane``, ``ferry``), for ``canary history --json``:
    the last pass, the first failure, the commits between (watched first; None with a ``note`` when
    unknown) and the version changes since the last pass. None when the series is not failing."""
    s = queries.current_streak(records, lane, ferry=ferry)
    if not s.failing or s.last_failure is None:
        return None
    window, note = regression_window(s.last_failure, s, commits)
    changes = version_changes(s.last_failure, s)
    return {
        "last_pass": s.last_pass.run_id if s.last_pass else None,
        "good": s.last_pass.commit if s.last_pass else None,
        "first_failure": s.first_failure.run_id if s.first_failure else None,
        "bad": (s.first_failure.commit if s.first_failure else None) or s.last_failure.commit,
        "commits": [asdict(c) for c in window] if window is not None else None,
        "note": note,
        "versions": [asdict(v) for v in changes] if changes is not None else None,
    }


def series_summary(records: list[RunRecord], key: series.SeriesKey, last: int, commits: Commits) -> dict[str, Any]:
    """One series' strip, flakiness, last pass, streak and window (short runs and experiments listed, not counted)."""

    lane, ferry = key.lane, key.ferry
    s = queries.current_streak(records, lane, ferry=ferry)
    lp = queries.last_pass(records, lane, ferry=ferry)
    infra = queries.infrastructure_streak(records, lane, ferry=ferry)
    runs = series.in_series(records, lane, ferry)
    return {
        "series": str(key),
        "lane": lane,
        "ferry": ferry,
        "strip": queries.strip(records, lane, last, ferry=ferry),
        "runs": len(runs),
        "short_runs": sum(series.uncounted(r) == "short" for r in runs),
        "experiments": sum(series.is_experiment(r) for r in runs),
        "flakiness": round(queries.flakiness(records, lane, last, ferry=ferry), 3),
        "last_pass": lp.run_id if lp else None,
        "streak": {
            "runs": s.runs,
            "days": s.days,
            "consecutive_days": s.consecutive_days,
            "fingerprint": s.fingerprint,
            "same_fingerprint": s.same_fingerprint,
            "first_failure": s.first_failure.run_id if s.first_failure else None,
            "daily_ordinal": s.daily_ordinal,
            "confirmed": s.confirmed,
        },
        "window": lane_window(records, lane, commits, ferry=ferry),
        "infrastructure": {
            "runs": infra.runs,
            "days": infra.days,
            "alert": infra.alert,
            "since": infra.first.run_id if infra.first else None,
        },
    }


def read_records(
    location: str | None, lane: str | None, since: str | None, ferry: str | None = None, per_series: int | None = None
) -> tuple[str, list[RunRecord]]:
    """The history's location and its records (of ``lane`` and ``ferry``, started ``since``),
    oldest first; with ``per_series``, each series' latest that many only (SQLite reads no
    other row). An unknown lane is bad input (:func:`canary.history.known_lane`)."""
    from canary.history import known_lane, open_store
    from canary.history.store import windowed

    store = open_store(location, flush=False)  # a read: spooled records are shown, not uploaded
    found = store.records(lane=lane, since=since) if per_series is None else windowed(store, per_series, lane, since)
    records = [r for r in found if ferry is None or r.ferry == ferry]
    if lane is not None and not records:
        known_lane(lane, store)
    return store.location, records


def history_report(
    location: str | None, lane: str | None, since: str | None, last: int, ferry: str | None = None, *, commits: Commits
) -> dict[str, Any]:
    """``canary history``: the records (of ``lane`` and ``ferry``, started ``since``), each series'
    summary, and how often each fingerprint occurred."""
    where, records = read_records(location, lane, since, ferry)
    runs: dict[series.SeriesKey, list[RunRecord]] = {}
    for r in records:  # each series' questions over its own runs, not every run each time
        runs.setdefault(series.series_of(r), []).append(r)
    return {
        "location": where,
        "records": records,
        "series": [series_summary(runs[key], key, last, commits) for key in sorted(runs)],
        "occurrences": queries.occurrences(records),
    }
