"""What the notifier states about a run beyond its record: the lane's description, and what the
run history says (the streak, the last pass, the regression window, the previous occurrence, the
failure streak a pass ends). Computed with :mod:`canary.history.queries` over the history's records and
:mod:`canary.git` for the commits; anything that cannot be known is left unknown, never
guessed, and notifying goes on without it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Callable, Sequence

from canary.history import queries
from canary.errors import CanaryError, ConfigError
from canary.notify.compose import Facts, InfraFacts, LastPass, Previous, StreakFacts, run_date
from canary.record import RunRecord

if TYPE_CHECKING:
    from canary.history import HistoryStore

HISTORY_DAYS = 120  # how far back the history is read for a notification


def lane_facts(record: RunRecord) -> tuple[str, str]:
    """(context, platform) of the record's lane as lanes.toml describes it, else as recorded."""
    from canary.config import get_lane

    recorded = str((record.context or {}).get("lane_context") or "")
    try:
        lane = get_lane(record.lane)
    except ConfigError:
        return recorded, ""
    return lane.context or recorded, lane.platform


def watched_paths(ferry: str) -> list[str]:
    from canary.config import load_ferry

    try:
        return list(load_ferry(ferry)[0].watched_paths)
    except ConfigError:
        return []


def _streak(s: queries.Streak) -> StreakFacts | None:
    if not s.failing or s.first_failure is None:
        return None
    return StreakFacts(s.runs, s.days, s.consecutive_days, run_date(s.first_failure), s.first_failure.run_id)


def _last_pass(r: RunRecord | None) -> LastPass | None:
    return LastPass(r.run_id, run_date(r), r.commit) if r else None


def _up_to(history: Sequence[RunRecord], record: RunRecord) -> list[RunRecord]:
    """The history as it stood when ``record`` ran: earlier runs, and the record itself."""
    key = (record.started_at or "", record.run_id)
    earlier = [r for r in history if r.run_id != record.run_id and (r.started_at or "", r.run_id) < key]
    return earlier + [record]


Commits = Callable[[str, str], list]


def _git_commits(good: str, bad: str) -> list:
    """The checkout's commits ``good..bad``; a shallow CI checkout is deepened until ``good`` is in it."""
    from canary.git import commits_between

    return commits_between(good, bad, deepen=True)


def _versions(record: RunRecord, streak: queries.Streak) -> tuple[queries.VersionChange, ...] | None:
    """What changed in the JAX stack, python and the ferry since the last pass (None: no last pass)."""
    if streak.last_pass is None:
        return None
    return tuple(queries.version_changes(streak.last_pass.versions, record.versions))


def _infra(records: Sequence[RunRecord], record: RunRecord) -> InfraFacts | None:
    s = queries.infrastructure_streak(records, record.lane, ferry=record.ferry)
    if record.classification != "infrastructure" or not s.runs or s.first is None:
        return None
    return InfraFacts(s.runs, s.days, run_date(s.first), s.alert,
                      run_date(s.last_verdict) if s.last_verdict else None)


def regression_window(record: RunRecord, streak: queries.Streak, commits: Commits) -> tuple[tuple[queries.WindowCommit, ...] | None, str]:
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
    return tuple(queries.regression_window(found, watched_paths(record.ferry))), ""


def step_notes(record: RunRecord, records: Sequence[RunRecord], commits: Commits) -> tuple:
    """The steps ``record`` brings to light in its lane's gated metrics, each with the commits
    between the run before it and its own (watched first)."""
    from canary.history.changes import new_steps, series
    from canary.notify.performance import StepNote

    notes = []
    for s in new_steps(records, record):
        ids = [p.run_id for p in series(records, record.lane, record.ferry, s.metric)]
        nearby = tuple(ids[i] for i in (s.index - 1, s.index + 1) if 0 <= i < len(ids))
        window, note = None, ""
        if s.previous_commit and s.commit:
            try:
                window = tuple(queries.regression_window(commits(s.previous_commit, s.commit),
                                                         watched_paths(record.ferry)))
            except CanaryError as e:
                note = str(e)
        else:
            note = "the runs either side of the step have no recorded commit"
        notes.append(StepNote(s, window, note, nearby))
    return tuple(notes)


def facts_for(record: RunRecord, history: Sequence[RunRecord] | None = None,
              commits: Commits = _git_commits) -> Facts:
    """Everything a message about ``record`` states beyond the record. ``history`` None: unknown."""
    context, platform = lane_facts(record)
    if history is None:
        return Facts(lane_context=context, platform=platform,
                     window_note="no run history was read, so the streak and the window are unknown")
    records = _up_to(history, record)
    from canary.history.programs import program_note

    program = program_note(record, records) or ""
    if record.verdict == "pass":
        ended = queries.current_streak(records[:-1], record.lane, ferry=record.ferry)
        others = [k for k in queries.series_keys(records) if k != queries.series_of(record)]
        # another lane's series of the same ferry is named by its lane; another ferry's, in full
        elsewhere = tuple((fp, k.lane if k.ferry == record.ferry else str(k)) for k in others
                          for fp in queries.current_streak(records, k.lane, ferry=k.ferry).fingerprints
                          if fp in ended.fingerprints)
        return Facts(lane_context=context, platform=platform, recovered=tuple(ended.fingerprints),
                     failure_streak=_streak(ended), failing_elsewhere=elsewhere,
                     aliases=tuple(queries.aliases(records, ended.fingerprints)), program=program,
                     steps=step_notes(record, records, commits))
    fp = queries.fingerprint_of(record)
    streak = queries.current_streak(records, record.lane, fingerprint=fp, ferry=record.ferry)
    window, note = regression_window(record, streak, commits)
    earlier = [r for r in records[:-1] if r.verdict != "pass" and fp and queries.fingerprint_of(r) == fp]
    return Facts(
        lane_context=context, platform=platform, streak=_streak(streak), last_pass=_last_pass(streak.last_pass),
        window=window, window_note=note, previous=Previous.of(earlier[-1]) if earlier else None,
        versions=_versions(record, streak), infra=_infra(records, record),
        aliases=tuple(queries.aliases(records, [fp] if fp else [])), program=program,
    )


def open_history(location: str | None, use_history: bool = True) -> tuple[HistoryStore | None, str]:
    """The history store at ``location`` (None: the default store), or (None, why not)."""
    if not use_history:
        return None, ""
    from canary.history import open_store

    try:
        return open_store(location), ""
    except Exception as e:  # an unreadable history makes a poorer message, not a lost one
        return None, f"the run history could not be read ({type(e).__name__}: {e})"


def lookback(record: RunRecord) -> date | None:
    """How far back the history is read for a notification about ``record``."""
    try:
        return (datetime.fromisoformat(record.started_at) - timedelta(days=HISTORY_DAYS)).date()
    except (TypeError, ValueError):
        return None


def facts_from_store(record: RunRecord, store: HistoryStore | None, why_not: str = "") -> Facts:
    """:func:`facts_for` over the records of ``store`` (None: no history, for the reason given)."""
    records = None
    if store is not None:
        try:
            records = store.records(since=lookback(record))
        except Exception as e:  # noqa: BLE001 - as in open_history
            why_not = f"the run history could not be read ({type(e).__name__}: {e})"
    facts = facts_for(record, records)
    return replace(facts, window_note=why_not) if records is None and why_not else facts


def _checkout_commits(good: str, bad: str) -> list:
    """The checkout's commits ``good..bad`` as they are (a read: no fetching)."""
    from canary.git import commits_between

    return commits_between(good, bad)


def lane_window(records: Sequence[RunRecord], lane: str, commits: Commits = _checkout_commits, *,
                ferry: str | None = None) -> dict | None:
    """The regression window of a failing series (``lane``, ``ferry``), for ``canary history --json``:
    the last pass, the first failure, the commits between (watched first; None with a ``note`` when
    unknown) and the version changes since the last pass. None when the series is not failing."""
    from dataclasses import asdict

    s = queries.current_streak(records, lane, ferry=ferry)
    if not s.failing or s.last_failure is None:
        return None
    window, note = regression_window(s.last_failure, s, commits)
    changes = _versions(s.last_failure, s)
    return {
        "last_pass": s.last_pass.run_id if s.last_pass else None,
        "good": s.last_pass.commit if s.last_pass else None,
        "first_failure": s.first_failure.run_id if s.first_failure else None,
        "bad": (s.first_failure.commit if s.first_failure else None) or s.last_failure.commit,
        "commits": [asdict(c) for c in window] if window is not None else None,
        "note": note,
        "versions": [asdict(v) for v in changes] if changes is not None else None,
    }
