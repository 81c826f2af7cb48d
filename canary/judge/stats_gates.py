"""The ``stats_curve`` gate: the model's statistics against the golden's bands of them, and the
part of the model a failed run moved. Pure: (golden, metrics, severity) ->
:class:`canary.judge.results.GateResult`. No I/O.

A golden recorded from runs that logged the model's statistics (``stat_windows``: per layer the
router's load balance and z-loss, the experts' usage and output norm, attention's output norm;
the gradient and update norms; the cross-entropy) holds, for each, windows banded as the loss
curve's are: from the recording's own equivalent variants (:func:`canary.golden.curve.banded`).
Each window of each statistic must stay within its band, two-sided; about one window in a
hundred of a statistic may stray (none in the cpu lane's eight). A golden without statistics, a
run without per-step metrics, a run of another length or of another ferry version: SKIP.

A failed gate names every statistic outside (``moved``: its direction and first window outside,
and how many times its band it went) and places the failure: the part of the model (attention,
router, experts, loss, optimizer) whose statistics left their bands first, and the one that went
furthest, when another.
"""

from __future__ import annotations

import math
from typing import Any

from canary.config import LaneGates
from canary.formats.metrics import RunMetrics, part_of
from canary.golden.curve import window_means
from canary.golden.model import Golden
from canary.judge.golden_gates import _against, _outside, _r, _set_to_warn, moved, other_length, stale
from canary.judge.results import GateResult

NAME = "stats_curve"


def _devs(golden_windows, got) -> list[tuple[float, float, Any]]:
    return [
        ((w.mean - g.mean) / abs(g.mean) if g.mean and math.isfinite(w.mean) else _dev0(w.mean, g.mean), g.rtol, w)
        for w, g in zip(got, golden_windows, strict=False)
    ]


def _dev0(value: float, reference: float) -> float:
    """The deviation from a reference of 0 (or of a non-finite value): absolute."""
    return value - reference if math.isfinite(value) else math.inf


def placed(moves: list[dict[str, Any]]) -> str:
    """The part of the model whose statistics left their bands first (the earliest first window
    outside; of those, the furthest), and the one that went furthest when that is another."""
    if not moves:
        return ""

    def times(m: dict[str, Any]) -> float:
        return math.inf if m.get("times") is None else m["times"]

    first = min(moves, key=lambda m: (m["first"][0], -times(m)))
    most = max(moves, key=times)
    where = f"steps {first['first'][0]}-{first['first'][1]}"
    out = f"placed: {first['part']} (first out, {where}: {first['series']} {first['direction']} its band)"
    if most["part"] != first["part"]:
        far = "out of all bounds" if most.get("times") is None else f"{most['times']:.1f}x its band"
        out += f"; furthest: {most['part']} ({most['series']} {most['direction']}, {far})"
    return out


def stats_curve(golden: Golden, metrics: RunMetrics, severity: str = "FAIL") -> GateResult:
    threshold = f"each statistic's band /{golden.window} steps"
    if not golden.stats:
        why = "not judged: the golden bands no statistics (re-record it to judge them)"
        return GateResult(NAME, None, None, "SKIP", why)
    if not metrics.series:
        return GateResult(NAME, None, threshold, "SKIP", "not judged: no per-step statistics")
    results, missing = [], []
    for name, windows in golden.stats.items():
        got = window_means(metrics.series.get(name, []), golden.window, golden.steps)
        if len(got) < len(windows):
            missing.append(name)
            continue
        devs = _devs(windows, got)
        out = sum(not abs(d) <= t for d, t, _ in devs)
        results.append((name, devs, out > golden.allowed_outliers))
    if not results:
        return GateResult(
            NAME, None, threshold, "SKIP", f"not judged: the run logged none of the golden's {len(missing)}"
        )
    name, devs, _ = max(results, key=lambda r: max(_times(d, t) for d, t, _ in r[1]))
    dev, tol, w = max(devs, key=lambda x: _times(x[0], x[1]))
    shown, band = _against(dev, tol) if math.isfinite(dev) else (str(dev), f"{tol * 100:.2f}%")
    worst = f"worst: {name} steps {w.first}-{w.last} ({shown} of ±{band})"
    moves = [m for n, d, bad in results if bad and (m := moved(n, part_of(n), d)) is not None]
    unjudged = f"; {len(missing)} not logged" if missing else ""
    detail = f"{worst}; {len(moves)} of {len(results)} statistics outside{unjudged}"
    margin = tol - abs(dev)
    if moves:
        detail = f"{placed(moves)}; {detail}"
        r = _outside(NAME, severity, len(moves), threshold, margin, _set_to_warn(NAME, severity, detail))
        return GateResult(r.name, r.value, r.threshold, r.status, r.detail, r.margin, moves)
    return GateResult(NAME, 0, threshold, "PASS", detail, _r(margin))


def _times(dev: float, tol: float) -> float:
    return abs(dev) / tol if tol > 0 else (math.inf if dev else 0.0)


def evaluate(
    gates: LaneGates,
    golden: Golden,
    metrics: RunMetrics,
    *,
    requested_steps: int | None = None,
    ferry_version: int | None = None,
) -> list[GateResult]:
    """The stats_curve gate, where the lane's gates switch it on (as the loss curve's: only a run
    of the golden's length and ferry version is judged)."""
    severity = gates.stats_curve
    if severity == "off":
        return []
    why = other_length(golden, requested_steps)
    if why:
        return [GateResult(NAME, None, None, "SKIP", why)]
    if stale(golden, ferry_version):
        return [GateResult(NAME, None, None, "SKIP", "not judged: the golden is of another ferry version")]
    return [stats_curve(golden, metrics, severity)]
