"""What a gate says: a :class:`GateResult` per check, and the run's verdict from them. The
regression gates (:mod:`canary.judge.gates`) and the golden gates
(:mod:`canary.judge.golden_gates`) both produce these. Pure."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
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


def not_judged(results: Iterable[GateResult], why: str) -> list[GateResult]:
    """``results`` as a run stopped before its end shows them: each a SKIP that says why, its value
    kept (the gates saw a run cut short, and judge nothing of it)."""
    return [replace(r, status="SKIP", detail=f"not judged: {why}", margin=None) for r in results]


# ----------------------------------------------------------------------------- how a value reads


def fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        if not math.isfinite(v):
            return str(v)
        # a loss or a few seconds to four places; a count or a rate (tokens/s, bytes) whole and
        # grouped, from 1,000 on: one screen's speeds and thresholds read alike
        return f"{v:.4f}" if abs(v) < 1e3 else f"{v:,.0f}"
    return str(v)


PERCENT_VALUES = ("loss_curve",)  # gates whose value is a relative deviation, shown as a percent like its threshold


def gate_value(g: dict[str, Any]) -> str:
    """A gate's value as the table shows it: loss_curve's worst window deviation as a percent
    (``+0.38%``), as its threshold and margin are; anything else as :func:`fmt` writes it."""
    v = g.get("value")
    if g.get("name") in PERCENT_VALUES and isinstance(v, float) and math.isfinite(v):
        return f"{v * 100:+.2f}%"
    return fmt(v)
