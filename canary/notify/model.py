"""What a notifier's message states beyond the run record: the facts history supplies (streak,
last pass, regression window, previous occurrence, what bisecting found), as plain frozen
dataclasses with a JSON round trip (a spooled notification keeps them), and the message itself.
Computed by :mod:`canary.notify.facts`; put into words by :mod:`canary.notify.compose`. Pure data.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from canary.history.windows import VersionChange, WindowCommit
from canary.record import RunRecord, cache_read_errors, lowered_cold

if TYPE_CHECKING:
    from canary.history.changes import Step


def run_date(record: RunRecord) -> str:
    return (record.started_at or record.ended_at or "")[:10] or "unknown date"


def cache_summary(record: RunRecord) -> tuple[bool | None, bool | None]:
    """(lowered cold on any attempt, a cache read error on any attempt); None where unrecorded."""
    caches = [a.cache for a in record.attempts if a.cache is not None] or ([record.cache] if record.cache else [])
    if not caches:
        return None, None
    return any(lowered_cold(c) is True for c in caches), any(cache_read_errors(c) for c in caches)


@dataclass(frozen=True)
class LastPass:
    run_id: str
    date: str
    commit: str | None = None


@dataclass(frozen=True)
class StreakFacts:
    """The current run of failures on the lane (of this signature, for a failure), this run included."""

    runs: int
    days: int  # distinct calendar days with a failure
    consecutive_days: int  # of those, how many in a row up to the latest
    first_failure: str  # date of the streak's first failure
    first_run_id: str | None = None


@dataclass(frozen=True)
class Previous:
    """The latest earlier failure with this signature: what a recurrence is compared with."""

    run_id: str
    date: str
    lane: str = ""
    classification: str | None = None
    attempts: int = 0
    failed_attempts: int = 0
    lowered_cold: bool | None = None  # None: no cache facts recorded
    cache_errors: bool | None = None
    commit: str | None = None

    @classmethod
    def of(cls, record: RunRecord) -> Previous:
        cold, errors = cache_summary(record)
        return cls(
            record.run_id,
            run_date(record),
            record.lane,
            record.classification,
            len(record.attempts),
            sum(1 for a in record.attempts if a.failed),
            cold,
            errors,
            record.commit,
        )


@dataclass(frozen=True)
class FirstBad:
    """What bisecting the regression window found (``canary bisect``), for a new issue."""

    sha: str | None  # None: not named (see note)
    subject: str = ""
    test: str = ""  # lower | run
    tested: int = 0
    skipped: int = 0
    seconds: float = 0.0
    exhausted: bool = False  # the budget ran out
    budget_s: float | None = None
    candidates: tuple[str, ...] = ()  # not named: the commits it is among
    note: str = ""  # why none was named

    def __post_init__(self):
        object.__setattr__(self, "candidates", tuple(self.candidates))


@dataclass(frozen=True)
class InfraFacts:
    """The lane's trailing runs that never trained (infrastructure failures), this run included."""

    runs: int
    days: int
    since: str  # date of the first of them
    alert: bool  # two days or more without a verdict: the canary has gone silent
    last_verdict: str | None = None  # date of the latest run that trained and was judged


@dataclass(frozen=True)
class StepNote:
    """A step to announce, with its window: the commits between the run before it and its run."""

    step: Step
    window: tuple[WindowCommit, ...] | None = None  # None: unknown (see note)
    note: str = ""
    nearby: tuple[str, ...] = ()  # the runs beside the step's in the series: the same step, placed there

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step.to_dict(),
            "note": self.note,
            "nearby": list(self.nearby),
            "window": None
            if self.window is None
            else [
                {
                    "sha": c.sha,
                    "subject": c.subject,
                    "paths": list(c.paths),
                    "watched": c.watched,
                    "watched_paths": list(c.watched_paths),
                }
                for c in self.window
            ],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> StepNote:
        from canary.history.changes import Step

        window = d.get("window")
        return cls(
            Step.from_dict(d["step"]),
            None if window is None else tuple(WindowCommit.from_dict(c) for c in window),
            d.get("note", ""),
            tuple(d.get("nearby") or ()),
        )


@dataclass(frozen=True)
class Facts:
    """What a message says beyond the run record itself; all optional (unknown is said as such)."""

    lane_context: str = ""  # "GCP, TPU v6e-4, europe-west4"
    platform: str = ""  # the lane's platform (tpu, cuda, cpu): picks the lowering repro command
    streak: StreakFacts | None = None
    last_pass: LastPass | None = None
    window: tuple[WindowCommit, ...] | None = None  # None: not known (no history or no git)
    window_note: str = ""  # why the window is unknown, or a caveat
    recovered: tuple[str, ...] = ()  # on a pass: fingerprints of the failure streak it ends
    failure_streak: StreakFacts | None = None  # on a pass: the streak of failures it ends
    previous: Previous | None = None  # on a recurrence: the latest earlier failure with this signature
    failing_elsewhere: tuple[tuple[str, str], ...] = ()  # on a pass: (fingerprint, lane) still failing on other lanes
    versions: tuple[VersionChange, ...] | None = None  # version changes since the last pass (None: unknown)
    infra: InfraFacts | None = None  # on an infrastructure failure: how long the lane has had no verdict
    first_bad: FirstBad | None = None  # a new signature's window, bisected
    program: str = ""  # the run's lowered program against the last pass's ("same program as the last pass")
    steps: tuple[StepNote, ...] = ()  # on a pass: the new steps in gated metrics
    # (fingerprint, older): what the same failure was named by earlier rules; issues opened then carry it
    aliases: tuple[tuple[str, str], ...] = ()
    secrets: tuple[str, ...] = field(default=(), repr=False)  # exact strings never to post

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("secrets")
        d["steps"] = [n.to_dict() for n in self.steps]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Facts:
        d = dict(d)
        for key, kind in (
            ("streak", StreakFacts),
            ("failure_streak", StreakFacts),
            ("last_pass", LastPass),
            ("previous", Previous),
            ("infra", InfraFacts),
            ("first_bad", FirstBad),
        ):
            d[key] = kind(**d[key]) if d.get(key) else None
        if d.get("window") is not None:
            d["window"] = tuple(WindowCommit.from_dict(c) for c in d["window"])
        if d.get("versions") is not None:
            d["versions"] = tuple(
                VersionChange(v["name"], v.get("before"), v.get("after"), v.get("owns_failure", False))
                for v in d["versions"]
            )
        d["steps"] = tuple(StepNote.from_dict(n) for n in d.get("steps") or ())
        d["recovered"] = tuple(d.get("recovered", ()))
        d["failing_elsewhere"] = tuple((fp, lane) for fp, lane in d.get("failing_elsewhere", ()))
        d["aliases"] = tuple((fp, old) for fp, old in d.get("aliases", ()))
        d.pop("secrets", None)
        return cls(**d)


@dataclass(frozen=True)
class Message:
    """An issue (title and body) or a comment (body only)."""

    body: str
    title: str | None = None
    labels: tuple[str, ...] = ()
