"""Questions asked of the run history, as pure functions over records. No I/O.

    last_pass(records, "tpu", ferry="moe-canary")
                                           the series' latest passing run
    current_streak(records, "tpu", ferry="moe-canary")
                                           the failures since then: runs, days, first/last failure,
                                           fingerprint, "fourth straight daily recurrence"
    occurrences(records)                   per fingerprint: count, first and last seen, lanes
    flakiness(records, "tpu", ferry=F)     how often the verdict flips from one run to the next
    regression_range(records, "tpu", ferry=F)   (last passing commit, first failing commit)

A history holds one series per (lane, ferry): two ferries on one lane are two canaries, each with
its own last pass, streak and flakiness. The series' questions take the lane and, as the keyword
``ferry``, the ferry (``None``: every ferry's runs on the lane, for records known to hold one).
A run that asked for fewer steps than its ferry sets (a repro, a quick ``--steps`` run;
:mod:`canary.history.series`), or an experiment (a ferry or gates file that is not the pinned
one), is kept in the history but is no evidence for its series: never its last pass, never part
of its streak, its strip or its flakiness.

Records are :class:`canary.record.RunRecord`; any order is accepted (they are ordered by start
time here). Times are the records' ISO ``started_at`` strings (UTC); days are UTC calendar days.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

from canary.history.series import evidence, is_experiment
from canary.record import RunRecord
from canary.signature import identity


def _ordered(records: Iterable[RunRecord], lane: str | None = None, ferry: str | None = None) -> list[RunRecord]:
    """A series' evidence (:func:`canary.history.series.evidence`); without a lane, every run that
    was not cancelled, oldest first."""
    if lane is not None:
        return evidence(records, lane, ferry)
    rs = [r for r in records if r.verdict != "cancelled"]
    return sorted(rs, key=lambda r: (r.started_at or "", r.run_id))


def _day(r: RunRecord) -> date | None:
    try:
        return datetime.fromisoformat(r.started_at).date()
    except (TypeError, ValueError):
        return None


def fingerprint_of(r: RunRecord) -> str | None:
    """The run's fingerprint as today's rules name it (a record an earlier canary wrote is folded again)."""
    sig = identity.current(r.signature, r.ferry)
    return sig.fingerprint if sig else None


def aliases(records: Iterable[RunRecord], fingerprints: Iterable[str]) -> list[tuple[str, str]]:
    """``(fingerprint, older)`` for each of ``fingerprints``: the fingerprints the same failure had
    by earlier rules, as the runs' records hold them (what issues opened before carry)."""
    wanted = set(fingerprints)
    out: dict[tuple[str, str], None] = {}
    for r in records:
        sig = identity.current(r.signature, r.ferry)
        if sig is None or sig.fingerprint not in wanted:
            continue
        for old in sig.legacy:
            if old != sig.fingerprint:
                out[(sig.fingerprint, old)] = None
    return list(out)


def last_pass(records: Iterable[RunRecord], lane: str, *, ferry: str | None = None) -> RunRecord | None:
    """The series' most recent passing full run, or ``None`` if it never passed."""
    passes = [r for r in _ordered(records, lane, ferry) if r.verdict == "pass"]
    return passes[-1] if passes else None


# ----------------------------------------------------------------------------- streaks

_ORDINALS = [
    "zeroth",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
]


def ordinal(n: int) -> str:
    """1 -> "first", 4 -> "fourth", 23 -> "23rd"."""
    if 0 <= n < len(_ORDINALS):
        return _ORDINALS[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def daily_ordinal(consecutive_days: int) -> str:
    """How a failure seen on ``consecutive_days`` straight days is described: the first day is
    its occurrence, each following day a recurrence ("fourth straight daily recurrence" on day 5)."""
    if consecutive_days <= 0:
        return ""
    recurrences = consecutive_days - 1
    if recurrences == 0:
        return "first occurrence"
    if recurrences == 1:
        return "first daily recurrence"
    return f"{ordinal(recurrences)} straight daily recurrence"


@dataclass(frozen=True)
class Streak:
    """The lane's current run of failures (runs since its last pass, newest included).

    ``runs`` failing runs on ``days`` distinct days; ``consecutive_days`` of those days in a row
    up to the latest failure; ``fingerprint`` the latest failure's, ``same_fingerprint`` whether
    every failure of the streak shares it. ``runs == 0`` when the lane's latest run passed."""

    runs: int = 0
    days: int = 0
    first_failure: RunRecord | None = None
    last_failure: RunRecord | None = None
    fingerprint: str | None = None
    daily_ordinal: str = ""
    consecutive_days: int = 0
    same_fingerprint: bool = True
    last_pass: RunRecord | None = None
    fingerprints: list[str] = field(default_factory=list)
    confirmed: bool = False  # the last two runs failed with one fingerprint: seen twice, not once

    @property
    def failing(self) -> bool:
        return self.runs > 0


def _consecutive_days(days: Sequence[date]) -> int:
    """How many calendar days in a row, ending at the last of ``days`` (sorted, distinct)."""
    if not days:
        return 0
    n = 1
    for prev, cur in zip(reversed(days[:-1]), reversed(days), strict=False):
        if (cur - prev).days != 1:
            break
        n += 1
    return n


def current_streak(
    records: Iterable[RunRecord], lane: str, fingerprint: str | None = None, *, ferry: str | None = None
) -> Streak:
    """The failures since the series' last pass. With ``fingerprint``, only the trailing failures
    with that fingerprint count (another failure, like a pass, ends the streak)."""
    ordered = _ordered(records, lane, ferry)
    streak: list[RunRecord] = []
    passed = None
    for r in reversed(ordered):
        if r.verdict == "pass":
            passed = r
            break
        if fingerprint is not None and fingerprint_of(r) != fingerprint:
            break
        streak.append(r)
    if passed is None:
        passed = last_pass(ordered, lane, ferry=ferry)
    if not streak:
        return Streak(last_pass=passed)
    streak.reverse()
    days = sorted({d for d in map(_day, streak) if d is not None})
    consecutive = _consecutive_days(days)
    fps = list(dict.fromkeys(fp for fp in map(fingerprint_of, streak) if fp))
    last_fp = fingerprint_of(streak[-1])
    return Streak(
        runs=len(streak),
        days=len(days),
        first_failure=streak[0],
        last_failure=streak[-1],
        fingerprint=last_fp,
        daily_ordinal=daily_ordinal(consecutive),
        consecutive_days=consecutive,
        same_fingerprint=all(fingerprint_of(r) == last_fp for r in streak),
        last_pass=passed,
        fingerprints=fps,
        confirmed=len(streak) >= 2 and last_fp is not None and fingerprint_of(streak[-2]) == last_fp,
    )


# ----------------------------------------------------------------------------- occurrences


@dataclass(frozen=True)
class Occurrence:
    count: int
    first_seen: str  # started_at of the first run with the fingerprint
    last_seen: str
    lanes: list[str]
    first_run: str = ""
    last_run: str = ""
    kind: str = ""


def occurrences(records: Iterable[RunRecord]) -> dict[str, Occurrence]:
    """Per fingerprint of failed runs: how many runs, first and last seen, on which lanes. A short
    run's failure is one; an experiment's (a ferry or gates file not the pinned one) is not."""
    seen: dict[str, list[RunRecord]] = {}
    for r in _ordered(records):
        fp = fingerprint_of(r)
        if fp and r.verdict != "pass" and not is_experiment(r):
            seen.setdefault(fp, []).append(r)
    return {
        fp: Occurrence(
            count=len(rs),
            first_seen=rs[0].started_at,
            last_seen=rs[-1].started_at,
            lanes=sorted({r.lane for r in rs}),
            first_run=rs[0].run_id,
            last_run=rs[-1].run_id,
            kind=rs[-1].signature.kind if rs[-1].signature else "",
        )
        for fp, rs in seen.items()
    }


def flakiness(records: Iterable[RunRecord], lane: str, last: int | None = None, *, ferry: str | None = None) -> float:
    """Pass/fail alternation over the series' runs (the ``last`` N if given): the fraction of
    consecutive pairs whose verdicts differ. 0.0 steady (always passing or always failing),
    1.0 flipping every run; 0.0 with fewer than two runs."""
    verdicts = [r.verdict == "pass" for r in _ordered(records, lane, ferry)]
    if last is not None:
        verdicts = verdicts[-last:]
    if len(verdicts) < 2:
        return 0.0
    flips = sum(a != b for a, b in zip(verdicts, verdicts[1:], strict=False))
    return flips / (len(verdicts) - 1)


def strip(records: Iterable[RunRecord], lane: str, last: int = 30, *, ferry: str | None = None) -> str:
    """The series' recent verdicts as one line, oldest first: ``P`` pass, ``F`` fail."""
    return "".join("P" if r.verdict == "pass" else "F" for r in _ordered(records, lane, ferry)[-last:])


# ----------------------------------------------------------------------------- regression windows


def regression_range(
    records: Iterable[RunRecord], lane: str, *, ferry: str | None = None
) -> tuple[str | None, str | None]:
    """The commits bounding the current streak: the last passing run's and the first failing
    run's (``None`` where unknown: never passed, not failing, or runs outside git)."""
    s = current_streak(records, lane, ferry=ferry)
    if not s.failing:
        return None, None
    good = s.last_pass.commit if s.last_pass else None
    return good, s.first_failure.commit if s.first_failure else None


INFRA_ALERT_DAYS = 2


@dataclass(frozen=True)
class InfraStreak:
    """The lane's latest runs that were all infrastructure failures (no verdict on the code):
    ``runs`` of them on ``days`` distinct days since ``first`` (a record)."""

    runs: int = 0
    days: int = 0
    first: RunRecord | None = None
    last_verdict: RunRecord | None = None  # the latest run before them that trained and was judged

    @property
    def alert(self) -> bool:
        """Two days without a verdict: the scheduled canary must not go silent."""
        return self.days >= INFRA_ALERT_DAYS


def infrastructure_streak(records: Iterable[RunRecord], lane: str, *, ferry: str | None = None) -> InfraStreak:
    """The trailing runs of the series classified ``infrastructure``."""
    ordered = _ordered(records, lane, ferry)
    streak: list[RunRecord] = []
    for r in reversed(ordered):
        if r.classification != "infrastructure":
            break
        streak.append(r)
    if not streak:
        return InfraStreak(last_verdict=ordered[-1] if ordered else None)
    streak.reverse()
    days = {d for d in map(_day, streak) if d is not None}
    before = ordered[: len(ordered) - len(streak)]
    return InfraStreak(len(streak), len(days), streak[0], before[-1] if before else None)
