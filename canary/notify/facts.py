"""What the notifier states about a run beyond its record: the lane's description, and what the
run history says (the streak, the last pass, the regression window, the previous occurrence, the
failure streak a pass ends). Computed with :mod:`canary.history.queries` and
:mod:`canary.history.lanes` over the history's records, and the commits the caller's
``commits(good, bad)`` lists (this module runs no git itself); anything that cannot be known is
left unknown, never guessed, and notifying goes on without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from canary.errors import CanaryError, ConfigError
from canary.history import queries, series, windows
from canary.history.lanes import Commits, regression_window, version_changes, watched_paths
from canary.notify.model import Facts, InfraFacts, LastPass, Previous, StreakFacts, run_date
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


def _infra(records: Sequence[RunRecord], record: RunRecord) -> InfraFacts | None:
    s = queries.infrastructure_streak(records, record.lane, ferry=record.ferry)
    if record.classification != "infrastructure" or not s.runs or s.first is None:
        return None
    return InfraFacts(s.runs, s.days, run_date(s.first), s.alert, run_date(s.last_verdict) if s.last_verdict else None)


def step_notes(record: RunRecord, records: Sequence[RunRecord], commits: Commits) -> tuple:
    """The steps ``record`` brings to light in its lane's gated metrics, each with the commits
    between the run before it and its own (watched first)."""
    from canary.history.changes import new_steps, series
    from canary.notify.model import StepNote

    notes = []
    for s in new_steps(records, record):
        ids = [p.run_id for p in series(records, record.lane, record.ferry, s.metric)]
        nearby = tuple(ids[i] for i in (s.index - 1, s.index + 1) if 0 <= i < len(ids))
        window, note = None, ""
        if s.previous_commit and s.commit:
            try:
                window = tuple(
                    windows.regression_window(commits(s.previous_commit, s.commit), watched_paths(record.ferry))
                )
            except CanaryError as e:
                note = str(e)
        else:
            note = "the runs either side of the step have no recorded commit"
        notes.append(StepNote(s, window, note, nearby))
    return tuple(notes)


def facts_for(record: RunRecord, history: Sequence[RunRecord] | None, commits: Commits) -> Facts:
    """Everything a message about ``record`` states beyond the record. ``history`` None: unknown.
    ``commits(good, bad)`` lists the commits between two (:func:`canary.git.window_commits` for the
    checkout's, which deepens a shallow clone; a test's own)."""
    context, platform = lane_facts(record)
    if history is None:
        return Facts(
            lane_context=context,
            platform=platform,
            window_note="no run history was read, so the streak and the window are unknown",
        )
    records = _up_to(history, record)
    from canary.history.programs import program_note

    program = program_note(record, records) or ""
    if record.verdict == "pass":
        ended = queries.current_streak(records[:-1], record.lane, ferry=record.ferry)
        others = [k for k in series.series_keys(records) if k != series.series_of(record)]
        # another lane's series of the same ferry is named by its lane; another ferry's, in full
        elsewhere = tuple(
            (fp, k.lane if k.ferry == record.ferry else str(k))
            for k in others
            for fp in queries.current_streak(records, k.lane, ferry=k.ferry).fingerprints
            if fp in ended.fingerprints
        )
        return Facts(
            lane_context=context,
            platform=platform,
            recovered=tuple(ended.fingerprints),
            failure_streak=_streak(ended),
            failing_elsewhere=elsewhere,
            aliases=tuple(queries.aliases(records, ended.fingerprints)),
            program=program,
            steps=step_notes(record, records, commits),
        )
    fp = queries.fingerprint_of(record)
    streak = queries.current_streak(records, record.lane, fingerprint=fp, ferry=record.ferry)
    window, note = regression_window(record, streak, commits)
    earlier = [r for r in records[:-1] if r.verdict != "pass" and fp and queries.fingerprint_of(r) == fp]
    return Facts(
        lane_context=context,
        platform=platform,
        streak=_streak(streak),
        last_pass=_last_pass(streak.last_pass),
        window=window,
        window_note=note,
        previous=Previous.of(earlier[-1]) if earlier else None,
        versions=version_changes(record, streak),
        infra=_infra(records, record),
        aliases=tuple(queries.aliases(records, [fp] if fp else [])),
        program=program,
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


def facts_from_store(record: RunRecord, store: HistoryStore | None, why_not: str = "", *, commits: Commits) -> Facts:
    """:func:`facts_for` over the records of ``store`` (None: no history, for the reason given)."""
    records = None
    if store is not None:
        try:
            records = store.records(since=lookback(record))
        except Exception as e:  # noqa: BLE001 - as in open_history
            why_not = f"the run history could not be read ({type(e).__name__}: {e})"
    facts = facts_for(record, records, commits)
    return replace(facts, window_note=why_not) if records is None and why_not else facts
