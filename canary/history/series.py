"""A history's series: the runs of one ferry on one lane, and which of them count (pure).

    series_of(record)            SeriesKey("cpu", "moe-canary"), shown as cpu/moe-canary
    preflight_series("moe-canary")   "moe-canary:preflight": the ferry a preflight is recorded under
    series_keys(records)         the series the records hold, by lane then ferry
    in_series(records, lane, ferry)   the series' runs, oldest first, uncounted ones included
    evidence(records, lane, ferry)    the series' runs that count and were not cancelled, oldest first
    is_short(record)             it asked for fewer steps than its ferry sets (repro, --steps)
    is_experiment(record)        its ferry or gates file is not the pinned one (record.experiment)
    counts(record)               neither: evidence for its series
    charted(record)              counts and was not cancelled: a point of the report's charts
    uncounted(record)            why not: "short", "experiment" or None
    latest(records, 365)         each series' latest 365 runs: what the report draws and --changes searches

:mod:`canary.history.queries` answers its questions (last pass, streak, flakiness) per series,
the report draws its charts and the notifier states its facts from the runs that count; the
others are listed, never counted.
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


# A lowering preflight's (``canary lower``) series: its ferry named ``<ferry>:preflight``, so its
# passes and failures are never evidence for the lane's training series, and its issues are its own.
PREFLIGHT = ":preflight"


def preflight_series(ferry: str) -> str:
    """The name a ferry's preflights are recorded under (``moe-canary:preflight``)."""
    return ferry if ferry.endswith(PREFLIGHT) else ferry + PREFLIGHT


def ferry_of(series_ferry: str) -> str:
    """The ferry a series is of: a preflight series' ferry without its mark."""
    return series_ferry.removesuffix(PREFLIGHT)


def series_of(r: RunRecord) -> SeriesKey:
    return SeriesKey(r.lane, r.ferry)


def series_keys(records: Iterable[RunRecord]) -> list[SeriesKey]:
    """The series the records hold, sorted by lane then ferry."""
    return sorted({series_of(r) for r in records})


def is_short(r: RunRecord) -> bool:
    """Whether the run asked for fewer steps than its ferry sets for the lane (a repro, a quick
    ``--steps`` run)."""
    return r.ferry_steps is not None and r.steps_requested is not None and r.steps_requested < r.ferry_steps


def is_experiment(r: RunRecord) -> bool:
    """Whether the run used a ferry or gates file that is not the pinned one of its ferry's name
    (a copy in the working directory's ``gates/`` made impossible, ``--gates other.toml``)."""
    return bool(r.experiment)


def uncounted(r: RunRecord) -> str | None:
    """Why the run is no evidence for its series (``"experiment"``, ``"short"``), or None."""
    return "experiment" if is_experiment(r) else "short" if is_short(r) else None


def counts(r: RunRecord) -> bool:
    """Whether the run is evidence for its series: its last pass, streak, flakiness, charts and
    notifications. Short runs and experiments are recorded and listed, never counted."""
    return uncounted(r) is None


def charted(r: RunRecord) -> bool:
    """Whether the run is a point of its series' charts (tokens/s, final loss, the latest loss
    curve): it counts, and it was not cancelled (a run stopped by a signal is cut short)."""
    return counts(r) and "cancelled" not in (r.verdict, r.classification)


def in_series(records: Iterable[RunRecord], lane: str, ferry: str | None) -> list[RunRecord]:
    """The series' runs, oldest first, uncounted runs included (what ``canary history`` lists)."""
    rs = [r for r in records if r.lane == lane and (ferry is None or r.ferry == ferry)]
    return sorted(rs, key=lambda r: (r.started_at or "", r.run_id))


def evidence(records: Iterable[RunRecord], lane: str, ferry: str | None) -> list[RunRecord]:
    """The series' runs that say something of it, oldest first: they count (:func:`counts`) and
    were not stopped by a signal (a cancelled run is no pass and no failure). The one definition
    the history's questions, the change points and the notifier's facts read."""
    return [r for r in in_series(records, lane, ferry) if r.verdict != "cancelled" and counts(r)]


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
