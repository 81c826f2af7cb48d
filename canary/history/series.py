"""A history's series: the runs of one ferry on one lane, and which of them are short (pure).

    series_of(record)            SeriesKey("cpu", "moe-canary"), shown as cpu/moe-canary
    series_keys(records)         the series the records hold, by lane then ferry
    in_series(records, lane, ferry)   the series' runs, oldest first, short ones included
    is_short(record)             it asked for fewer steps than its ferry sets (repro, --steps)
    latest(records, 365)         each series' latest 365 runs: what the report draws and --changes searches

:mod:`canary.history.queries` answers its questions (last pass, streak, flakiness) per series,
leaving short runs out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from canary.record import RunRecord


@dataclass(frozen=True, order=True)
class SeriesKey:
    """One canary's runs: a lane and a ferry. Shown as ``cpu/moe-canary``."""

    lane: str
    ferry: str

    def __str__(self) -> str:
        return f"{self.lane}/{self.ferry}"


def series_of(r: RunRecord) -> SeriesKey:
    return SeriesKey(r.lane, r.ferry)


def series_keys(records: Iterable[RunRecord]) -> list[SeriesKey]:
    """The series the records hold, sorted by lane then ferry."""
    return sorted({series_of(r) for r in records})


def is_short(r: RunRecord) -> bool:
    """Whether the run asked for fewer steps than its ferry sets for the lane (a repro, a quick
    ``--steps`` run). Records made before the ferry's steps were kept are taken as full runs."""
    return r.ferry_steps is not None and r.steps_requested is not None and r.steps_requested < r.ferry_steps


def in_series(records: Iterable[RunRecord], lane: str, ferry: str | None) -> list[RunRecord]:
    """The series' runs, oldest first, short runs included (what ``canary history`` lists)."""
    rs = [r for r in records if r.lane == lane and (ferry is None or r.ferry == ferry)]
    return sorted(rs, key=lambda r: (r.started_at or "", r.run_id))


# The runs of a series that `canary report` shows and `canary history --changes` searches: a year
# of daily runs. The page holds a cell, a details block and a point per run, and the step search
# grows as the square of its runs, so a history of 100,000 runs (a team's, over years) stays a
# page and a few seconds. The older runs stay in the history (and in `canary history --json`).
WINDOW = 365


def latest(records: Iterable[RunRecord], per_series: int) -> list[RunRecord]:
    """Each series' latest ``per_series`` runs (short ones included), oldest first."""
    newest_first = sorted(records, key=lambda r: (r.started_at or "", r.run_id), reverse=True)
    taken: Counter[SeriesKey] = Counter()
    out = []
    for r in newest_first:
        key = series_of(r)
        if taken[key] < per_series:
            taken[key] += 1
            out.append(r)
    return out[::-1]
