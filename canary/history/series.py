"""A history's series: the runs of one ferry on one lane, and which of them are short (pure).

    series_of(record)            SeriesKey("cpu", "moe-canary"), shown as cpu/moe-canary
    series_keys(records)         the series the records hold, by lane then ferry
    in_series(records, lane, ferry)   the series' runs, oldest first, short ones included
    is_short(record)             it asked for fewer steps than its ferry sets (repro, --steps)

:mod:`canary.history.queries` answers its questions (last pass, streak, flakiness) per series,
leaving short runs out.
"""

from __future__ import annotations

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
    ``--steps`` run)."""
    return r.ferry_steps is not None and r.steps_requested is not None and r.steps_requested < r.ferry_steps


def in_series(records: Iterable[RunRecord], lane: str, ferry: str | None) -> list[RunRecord]:
    """The series' runs, oldest first, short runs included (what ``canary history`` lists)."""
    rs = [r for r in records if r.lane == lane and (ferry is None or r.ferry == ferry)]
    return sorted(rs, key=lambda r: (r.started_at or "", r.run_id))
