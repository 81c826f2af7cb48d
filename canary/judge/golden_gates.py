"""The gates that judge a run against its lane's golden (:mod:`canary.golden.model`). Pure: (golden,
metrics, severity) -> :class:`canary.judge.results.GateResult`. No I/O.

Every result carries ``value``, ``threshold`` and ``margin`` (how far inside the threshold the
value is, relative: negative is outside). A gate that is outside reports the severity the gates
file gives it: ``FAIL`` fails the run, ``WARN`` is shown and never fails it.

* ``loss_curve``: every window's mean within ``± rtol`` of the golden's, each window its own
  tolerance: tight where the recording's runs agreed, wider where they drifted apart
  (two-sided: a curve that got "better" from a code change is a change too, to be re-recorded);
  about one window in a hundred may stray (none in the cpu lane's ten);
* ``final_loss_golden``: the last step's loss within ``± rtol`` of the golden's;
* ``throughput``: the tokens/s of the run's fastest steady step at least ``golden × (1 - rtol)``
  (a busy machine only ever adds to a step's time, so the fastest step is what the code can do;
  a step that got slower makes every step slower, the fastest too). A miss is only a WARN on
  another kind of machine (another CPU count or model) and on a machine too busy to judge
  (fewer than half its steps, or than ``MIN_QUIET_STEPS``, ran while other processes left the
  CPUs alone);
* ``compile_seconds`` and ``peak_memory``: ceilings at ``golden × (1 + rtol)``.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from canary.config import LaneGates
from canary.formats.metrics import RunMetrics
from canary.golden.curve import rel_dev, window_means
from canary.golden.model import Golden, Window
from canary.judge.results import GateResult
from canary.record import as_float

MIN_PERF_STEPS = 20  # a run shorter than this has too few steady steps for a median
MIN_QUIET_STEPS = 20  # steps in quiet windows (canary.workload.contention) a throughput FAIL needs
MIN_QUIET_SHARE = 0.5  # ... and at least this share of the run's steady steps
GATES = ("loss_curve", "final_loss_golden", "throughput", "compile_seconds", "peak_memory")


def _pct(x: float) -> str:
    return f"{x * 100:+.2f}%"


def _against(dev: float, tol: float) -> tuple[str, str]:
    """A deviation and its tolerance as percentages, with enough digits that their order shows:
    two decimals, more where rounding would print a value just inside the band as the band itself
    (``-0.0965%`` against ``0.102%`` is ``-0.10% of ±0.10%`` at two)."""
    digits = 2
    while digits < 6 and abs(dev) != tol and round(abs(dev) * 100, digits) == round(tol * 100, digits):
        digits += 1
    return f"{dev * 100:+.{digits}f}%", f"{tol * 100:.{digits}f}%"


# a loss below the golden's band is no improvement: a pinned ferry's curve only moves when what it
# computes changed, and the changes that lower it are bugs of their own
LOW_LOSS = (
    "below the golden: suspicious, not better (a model that sees its targets, "
    "a dropped or down-scaled loss term, a smaller effective batch)"
)


def _r(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, 6)


def _outside(name: str, severity: str, value: Any, threshold: Any, margin: float | None, detail: str) -> GateResult:
    return GateResult(name, value, threshold, "WARN" if severity == "WARN" else "FAIL", detail, _r(margin))


# why a gate's miss is only a WARN when its gates file says so, in the words a first run needs
WARN_WHY = {
    "compile_seconds": "compile time follows the machine's load far more than step time",
    "peak_memory": "memory peaks differ between allocators and library versions",
}


def _set_to_warn(name: str, severity: str, detail: str) -> str:
    """The detail of a miss the gates file made a WARN, saying so (and why, where it is known)."""
    if severity != "WARN":
        return detail
    why = f": {WARN_WHY[name]}" if name in WARN_WHY else ""
    return f'{detail}; a WARN, never a FAIL: the gates set {name} = "WARN"{why}'


def stale(golden: Golden, ferry_version: int | None) -> str | None:
    """Why the golden's curve does not apply to this run (None: it does)."""
    if ferry_version is not None and ferry_version != golden.ferry_version:
        return (
            f"the golden was recorded for {golden.ferry} v{golden.ferry_version}, this is v{ferry_version}: "
            f"re-record it (canary golden record {golden.lane})"
        )
    return None


def other_length(golden: Golden, requested_steps: int | None) -> str | None:
    """Why a run is not judged against the golden's curves: a quick ``--steps`` run has another
    learning-rate schedule (None: it is of the golden's length)."""
    if requested_steps is not None and requested_steps != golden.steps:
        return f"not judged: --steps {requested_steps}, the golden is of {golden.steps}-step runs"
    return None


def curve_band(golden: Golden) -> str:
    """The curve's tolerances as one phrase: ``0.50%``, or ``0.10-2.20%`` when they widen."""
    tols = [golden.window_rtol(i) for i in range(len(golden.windows))] or [golden.tolerance["loss_curve"].rtol]
    lo, hi = min(tols), max(tols)
    return f"{lo * 100:.2f}%" if round(lo, 4) == round(hi, 4) else f"{lo * 100:.2f}-{hi * 100:.2f}%"


def curve_threshold(golden: Golden) -> str:
    """The loss_curve gate's threshold: ``±0.50% /20 steps``, or ``±0.10-2.20% /20 steps``."""
    return f"±{curve_band(golden)} /{golden.window} steps"


def moved(series: str, part: str, devs: list[tuple[float, float, Window]]) -> dict[str, Any] | None:
    """What a series that left its band did, from each window's signed relative deviation, its
    tolerance and the run's window: the direction and the steps of the first window outside, and
    how many times its band the furthest window went (None: it stayed inside)."""
    out = [(d, t, w) for d, t, w in devs if not abs(d) <= t]
    if not out:
        return None
    d, _, w = out[0]
    times = max(abs(d) / t if t > 0 else math.inf for d, t, _ in out)
    return {
        "series": series,
        "part": part,
        "direction": "below" if d < 0 else "above",
        "first": [w.first, w.last],
        "times": round(times, 2) if math.isfinite(times) else None,
    }


def loss_curve(golden: Golden, metrics: RunMetrics, severity: str = "FAIL") -> GateResult:
    """Every window within its own tolerance (:func:`canary.golden.curve.curve_tolerances`); the worst
    window is the one furthest out relative to its tolerance."""
    name = "loss_curve"
    threshold = curve_threshold(golden)
    if metrics.losses is None:
        return GateResult(name, None, threshold, "SKIP", "not judged: only a summary, no per-step losses")
    if not metrics.losses:
        return _outside(name, severity, None, threshold, None, "no per-step losses to compare")
    got = window_means(metrics.losses, golden.window, golden.steps)
    if len(got) < len(golden.windows):
        return _outside(
            name,
            severity,
            f"{len(got)} of {len(golden.windows)} windows",
            threshold,
            None,
            f"the run completed {len(got)} of the golden's {len(golden.windows)} windows",
        )
    devs = [
        ((w.mean - g.mean) / abs(g.mean) if math.isfinite(w.mean) else math.inf, golden.window_rtol(i), w, g)
        for i, (w, g) in enumerate(zip(got, golden.windows, strict=False))
    ]
    worst = max(devs, key=lambda d: abs(d[0]) / d[1] if d[1] > 0 else math.inf)
    out = [d for d in devs if not abs(d[0]) <= d[1]]
    dev, tol, w, g = worst
    shown, band = _against(dev, tol) if math.isfinite(dev) else (str(dev), f"{tol * 100:.2f}%")
    detail = (
        f"worst: steps {w.first}-{w.last} {w.mean:.4f} vs {g.mean:.4f} "
        f"({shown} of ±{band}); {len(out)} of {len(devs)} windows outside"
    )
    margin = tol - abs(dev)
    if len(out) > golden.allowed_outliers:
        if dev < 0:
            detail += f"; {LOW_LOSS}"
        r = _outside(name, severity, _r(dev), threshold, margin, _set_to_warn(name, severity, detail))
        return dataclasses.replace(r, moved=[moved(golden.metric, "loss", [(d, t, w) for d, t, w, _ in devs])])
    return GateResult(name, _r(dev), threshold, "PASS", detail, _r(margin))


def final_loss_golden(golden: Golden, metrics: RunMetrics, severity: str = "FAIL") -> GateResult:
    name, tol = "final_loss_golden", golden.tolerance["final_loss_golden"].rtol
    threshold = f"{golden.final_loss:.4f} ±{tol * 100:.2f}%"
    v = metrics.final_loss
    if v is None or not math.isfinite(v):
        return _outside(name, severity, v, threshold, None, f"final loss is {v}")
    dev = rel_dev(v, golden.final_loss)
    signed = (v - golden.final_loss) / abs(golden.final_loss)
    detail = f"{_against(signed, tol)[0]} from the golden"
    if dev > tol:
        if signed < 0:
            detail += f"; {LOW_LOSS}"
        return _outside(name, severity, v, threshold, tol - dev, _set_to_warn(name, severity, detail))
    return GateResult(name, v, threshold, "PASS", detail, _r(tol - dev))


def _host_differs(golden: Golden, metrics: RunMetrics) -> str | None:
    """Why the golden's speed is no yardstick for this run: another kind of machine (CPU count or
    model). A floor recorded on one machine would cry wolf on every slower one."""
    mine, theirs = as_float(metrics.summary.get("host/cpus")), as_float(golden.host.get("cpus"))
    if mine is not None and theirs is not None and mine != theirs:
        return f"recorded on a {theirs:.0f}-CPU host, this one has {mine:.0f}: a WARN at most"
    model, recorded = metrics.summary.get("host/cpu_model"), golden.host.get("cpu_model")
    if model and recorded and model != recorded:
        return f"recorded on {recorded!r}, this host is {model!r}: a WARN at most"
    return None


def quiet_steps_needed(quiet: float, steps: float | None) -> int | None:
    """How many steps in quiet windows a run of ``steps`` with only ``quiet`` of them needed to
    be judged on its speed; None when it had enough."""
    need = max(MIN_QUIET_STEPS, math.ceil(MIN_QUIET_SHARE * max((steps or 0) - 1, 0)))
    return None if quiet >= need else need


def _busy(metrics: RunMetrics) -> str | None:
    """Why this run's speed says little about the code: other processes held the CPUs through
    most of it, so its fastest steps did not run alone."""
    quiet = as_float(metrics.summary.get("throughput/quiet_steps"))
    need = None if quiet is None else quiet_steps_needed(quiet, metrics.steps_completed)
    if need is None:
        return None
    share = as_float(metrics.summary.get("throughput/others_share"))
    used = f"other processes used {share:.0%} of its CPUs, " if share is not None else ""
    return f"the machine was busy: {used}{quiet:.0f} steps ran in a quiet window (a FAIL needs {need}): a WARN at most"


def other_config(golden: Golden, metrics: RunMetrics) -> str | None:
    """Why the golden's perf figures are not this run's yardstick: other kernels, or another
    device count (an equivalent variant computes the same curve at another speed)."""
    theirs = golden.perf.get("config") or {}
    differ = {k: (v, metrics.summary[k]) for k, v in theirs.items() if k in metrics.summary and metrics.summary[k] != v}
    if differ:
        return (
            "not judged: the golden's perf is of "
            + ", ".join(f"{k}={a}" for k, (a, _) in differ.items())
            + ", this run's "
            + ", ".join(f"{k}={b}" for k, (_, b) in differ.items())
        )
    return None


def throughput(golden: Golden, metrics: RunMetrics, severity: str = "FAIL") -> GateResult:
    """A floor on the fastest steady step's tokens/s (the median step's when either side lacks it)."""
    name, tol = "throughput", golden.tolerance["throughput"].rtol
    s, p = metrics.summary, golden.perf
    value, ref, unit = (
        as_float(s.get("throughput/best_tokens_per_second")),
        as_float(p.get("best_tokens_per_second")),
        "fastest step's tokens/s",
    )
    if value is None or ref is None:
        value, ref, unit = (
            as_float(s.get("throughput/tokens_per_second")),
            as_float(p.get("tokens_per_second")),
            "tokens/s",
        )
    if ref is None:
        return GateResult(name, value, None, "SKIP", "the golden has no throughput")
    steps = metrics.steps_completed or 0
    floor = ref * (1 - tol)
    if value is None or steps < MIN_PERF_STEPS:
        return GateResult(name, value, _r(floor), "SKIP", f"not judged: {steps} steps (needs {MIN_PERF_STEPS})")
    margin = (value - floor) / floor
    detail = f"{unit}: {_pct(value / ref - 1)} from the golden's {ref:,.0f}"
    if value >= floor:
        return GateResult(name, _r(value), _r(floor), "PASS", detail, _r(margin))
    why = _host_differs(golden, metrics) or _busy(metrics)
    return _outside(
        name,
        "WARN" if why else severity,
        _r(value),
        _r(floor),
        margin,
        detail + f"; {why}" if why else _set_to_warn(name, severity, detail),
    )


def _ceiling(
    name: str, key: str, summary_key: str, golden: Golden, metrics: RunMetrics, severity: str, unit: str
) -> GateResult:
    ref = as_float(golden.perf.get(key))
    value = as_float(metrics.summary.get(summary_key))
    if ref is None or name not in golden.tolerance:
        return GateResult(name, value, None, "SKIP", f"the golden has no {key}")
    ceiling = ref * (1 + golden.tolerance[name].rtol)
    if value is None:
        return GateResult(name, None, _r(ceiling), "SKIP", f"the run reported no {summary_key}")
    margin = (ceiling - value) / ceiling
    detail = f"{_pct(value / ref - 1)} from the golden's {ref:.4g} {unit}"
    if value <= ceiling:
        return GateResult(name, _r(value), _r(ceiling), "PASS", detail, _r(margin))
    return _outside(name, severity, _r(value), _r(ceiling), margin, _set_to_warn(name, severity, detail))


def compile_seconds(golden: Golden, metrics: RunMetrics, severity: str = "WARN") -> GateResult:
    return _ceiling("compile_seconds", "compile_seconds", "compile/seconds", golden, metrics, severity, "s")


def peak_memory(golden: Golden, metrics: RunMetrics, severity: str = "WARN") -> GateResult:
    return _ceiling("peak_memory", "peak_memory_bytes", "memory/peak_bytes", golden, metrics, severity, "bytes")


def evaluate(
    gates: LaneGates,
    golden: Golden,
    metrics: RunMetrics,
    *,
    requested_steps: int | None = None,
    ferry_version: int | None = None,
) -> list[GateResult]:
    """The golden gates the lane's gates switch on. They judge only a run of the golden's length
    (a quick ``--steps`` run has another learning-rate schedule, and its few steps another
    median): SKIP otherwise."""
    on = [g for g in GATES if getattr(gates, g) != "off"]
    why = other_length(golden, requested_steps)
    if why:
        return [GateResult(g, None, None, "SKIP", why) for g in on]
    results = []
    why_stale = stale(golden, ferry_version)
    for gate, fn in (("loss_curve", loss_curve), ("final_loss_golden", final_loss_golden)):
        severity = getattr(gates, gate)
        if severity == "off":
            continue
        if why_stale:
            results.append(_outside(gate, severity, None, f"{golden.ferry} v{golden.ferry_version}", None, why_stale))
        else:
            results.append(fn(golden, metrics, severity))
    for gate, fn in (("throughput", throughput), ("compile_seconds", compile_seconds), ("peak_memory", peak_memory)):
        severity = getattr(gates, gate)
        if severity == "off":
            continue
        why_not = other_config(golden, metrics)
        results.append(GateResult(gate, None, None, "SKIP", why_not) if why_not else fn(golden, metrics, severity))
    return results
