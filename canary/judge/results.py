"""What a gate says: a :class:`GateResult` per check, and the run's verdict from them. The
regression gates (:mod:`canary.judge.gates`) and the golden gates
(:mod:`canary.judge.golden_gates`) both produce these. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, Literal

from canary.record import jsonable

# SKIP: not judged for this run; WARN: outside a threshold whose gate only warns. Neither fails a run.
Status = Literal["PASS", "FAIL", "WARN", "SKIP"]


@dataclass(frozen=True)
class GateResult:
    name: str
    value: Any
    threshold: Any
    status: Status
    detail: str = ""
    margin: float | None = None  # how far inside the threshold, relative; negative: outside (golden gates)
    # what left its band, for a curve gate that failed: one entry a series (canary.judge.golden_gates.moved)
    moved: list[dict[str, Any]] | None = None

    @property
    def passed(self) -> bool:
        return self.status in ("PASS", "WARN")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if d["moved"] is None:
            del d["moved"]
        return jsonable(d)


def verdict_of(statuses: Iterable[str]) -> Literal["pass", "fail"]:
    """pass: no gate failed and at least one passed (skipped gates judge nothing; a WARN never
    fails a run)."""
    judged = [s for s in statuses if s != "SKIP"]
    return "pass" if judged and all(s in ("PASS", "WARN") for s in judged) and "PASS" in judged else "fail"


def verdict(results: list[GateResult]) -> Literal["pass", "fail"]:
    return verdict_of(r.status for r in results)
