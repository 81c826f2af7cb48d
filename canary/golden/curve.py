"""Golden curves, measured: a recording's runs reduced to a golden (:class:`canary.golden.model.Golden`),
its loss windows, and each judged figure's tolerance.

Tolerances are measured, never guessed: ``tolerance = max(observed × FACTOR, floor)``. On the cpu
lane the recording's runs are numerically equivalent variants of one computation (the lane as
configured, the batch split over 4 forced host devices, every other ragged_dot backend that
computes the same function, and on x86 the program compiled for each older instruction set);
on an accelerator lane, repeated runs on the lane itself.

Everything here is pure; what a golden holds is :mod:`canary.golden.model`'s, reading and writing
golden files :mod:`canary.golden.store`'s.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from canary.golden.model import FACTOR, Golden, Tolerance, Window, rounded
from canary.record import as_float

# Floors (relative), below which a tolerance is never set, whatever the recording observed. A cpu
# recording's base runs are bit-identical, so without a floor a figure measured only there
# would get a zero tolerance.
FLOORS = {
    # the windowed loss: 0.1%, Megatron's floor; the cpu lane's equivalent variants measure
    # about 0.5% (so the floor rarely binds there), its quiet model bugs 1-6%
    "loss_curve": 0.001,
    # a statistic's window (stat_windows): the loss's floor, doubled, since a norm or a router's
    # statistic moves further than the loss between equivalent runs where the runs first drift
    "stats_curve": 0.002,
    # one step's loss moves up to 2% between equivalent variants late in training
    "final_loss_golden": 0.005,
    # the fastest step's throughput: 18%, the cap. On one shared 2-core machine the fastest step
    # of 33 clean runs fell up to 15% below the golden's (bench/golden_noise.py, docs/gates.md);
    # a 30% slower step is a 23% lower throughput, outside it
    "throughput": 0.18,
    # compile seconds vary with machine load far more than steps do (0.8 s warm, 3-11 s cold on
    # one shared 2-core machine); it is a ceiling, and a WARN by default
    "compile_seconds": 0.50,
    "peak_memory": 0.10,
}
THROUGHPUT_CAP = 0.18  # a tolerance wider than this could not fail a 30% slower step (-23%)
DEFAULT_WINDOW = {"cpu": 20}  # platform -> window; any other platform: 1 (per-step)

# the run summary's keys a golden's perf figures come from
PERF_KEYS = {
    "best_tokens_per_second": "throughput/best_tokens_per_second",  # the gated figure (docs/gates.md)
    "tokens_per_second": "throughput/tokens_per_second",
    "cpu_throughput": "",  # tokens per CPU-second (see cpu_throughput)
    "median_step_seconds": "throughput/median_step_seconds",
    "compile_seconds": "compile/seconds",
    "peak_memory_bytes": "memory/peak_bytes",
}
# what the perf figures are of: a run with other kernels or another device count is not judged on them
PERF_CONFIG_KEYS = ("kernels/ragged_dot", "devices")


def default_window(platform: str) -> int:
    return DEFAULT_WINDOW.get(platform, 1)


def window_means(losses: Sequence[tuple[int, float]], window: int, steps: int | None = None) -> list[Window]:
    """Means of the loss over consecutive windows of ``window`` steps (a last, shorter window
    keeps the remainder). ``steps``: the run's length, so a window a short run never reached is
    absent rather than partial."""
    by_step = dict(losses)
    end = steps if steps is not None else (max(by_step) + 1 if by_step else 0)
    out = []
    for first in range(0, end, window):
        last = min(first + window, end) - 1
        vals = [by_step[s] for s in range(first, last + 1) if s in by_step]
        if len(vals) == last - first + 1:
            out.append(Window(first, last, math.fsum(vals) / len(vals)))
    return out


def rel_dev(value: float, reference: float) -> float:
    if not (math.isfinite(value) and math.isfinite(reference)):
        return math.inf
    return abs(value - reference) / abs(reference) if reference else abs(value)


def curve_tolerances(spreads: Sequence[float], kind: str = "loss_curve") -> list[float]:
    """Each window's ``loss_curve`` tolerance: ``max(floor, FACTOR x the largest spread observed
    in it or any earlier window)``. Two runs that round differently agree to the last digit at
    first, then drift apart as MoE routing amplifies the difference (a token whose two best
    experts were nearly tied picks another), and a drifted trajectory stays drifted. So the band
    is tight where the recording's runs agreed (where a bug that moves the curve shows first) and
    widens only as far as their spread did, never narrowing again where a later window happened
    to re-converge."""
    out, widest = [], 0.0
    for s in spreads:
        widest = max(widest, s)
        out.append(tolerance(kind, widest).rtol)
    return out


def tolerance(kind: str, observed: float, cap: float | None = None) -> Tolerance:
    floor = FLOORS[kind]
    rtol = max(observed * FACTOR, floor)
    if cap is not None and rtol > cap:
        return Tolerance(cap, observed, FACTOR, floor, capped=True)
    return Tolerance(rtol, observed, FACTOR, floor)


@dataclass(frozen=True)
class RunFacts:
    """What a recording keeps of one run."""

    variant: str  # "base", "devices=4", "ragged_dot=xla", ...
    losses: list[tuple[int, float]]
    summary: dict[str, Any]
    run_id: str = ""
    perf_comparable: bool = True  # the lane as configured: its speed, compile time and memory count
    series: dict[str, list[tuple[int, float]]] = field(default_factory=dict)  # each statistic's steps


def cpu_throughput(summary: dict[str, Any]) -> float | None:
    """Tokens per CPU-second of the median step: tokens/s x median step seconds (the tokens a step)
    over the median step's CPU seconds (every thread of the process). What the step costs, whatever
    else the machine runs: on one shared 2-core machine it moved 12% where tokens/s moved 2x."""
    tps, step, cpu = (
        as_float(summary.get(k))
        for k in (
            "throughput/tokens_per_second",
            "throughput/median_step_seconds",
            "throughput/median_step_cpu_seconds",
        )
    )
    if tps is None or step is None or not cpu:
        return None
    return tps * step / cpu


def _perf(run: RunFacts) -> dict[str, float]:
    out = {k: v for k, key in PERF_KEYS.items() if key and (v := as_float(run.summary.get(key))) is not None}
    if (c := cpu_throughput(run.summary)) is not None:
        out["cpu_throughput"] = c
    return out


def build(
    runs: Sequence[RunFacts],
    *,
    ferry: str,
    ferry_version: int,
    lane: str,
    steps: int,
    window: int,
    metric: str = "train/loss",
    host: dict[str, Any] | None = None,
    recorded: dict[str, Any] | None = None,
) -> Golden:
    """The golden of a recording: the curve and final loss at the median of its distinct runs,
    perf from the base runs (their median), and each figure's tolerance from its largest
    deviation among the runs."""
    if not runs:
        raise ValueError("a golden needs at least one run")
    base = [r for r in runs if r.perf_comparable] or list(runs)
    curves = [window_means(r.losses, window, steps) for r in runs]
    n = len(window_means(base[0].losses, window, steps))
    if n == 0 or any(len(c) != n for c in curves):
        raise ValueError(
            "every run of a recording must complete every window: "
            + ", ".join(f"{r.variant}: {len(c)}" for r, c in zip(runs, curves, strict=True))
        )
    windows = banded(curves, "loss_curve")
    finals = [r.losses[-1][1] for r in runs]
    final = statistics.median({tuple(v for _, v in r.losses): r.losses[-1][1] for r in runs}.values())

    tol = {
        "loss_curve": tolerance("loss_curve", max(w.spread for w in windows)),
        "final_loss_golden": tolerance("final_loss_golden", max(rel_dev(f, final) for f in finals)),
    }
    perf, perf_tol = _perf_figures(base)
    tol.update(perf_tol)
    golden = Golden(
        ferry,
        ferry_version,
        lane,
        steps,
        window,
        metric,
        windows,
        final,
        tol,
        perf,
        dict(host or {}),
        dict(recorded or {}),
    )
    return dataclasses.replace(golden, stats=stat_windows(runs, window, steps, n))


def _perf_figures(base: Sequence[RunFacts]) -> tuple[dict[str, Any], dict[str, Tolerance]]:
    """The base runs' speed and memory figures (their median) with what they were of (the
    config), and each perf gate's tolerance from the figures' largest deviation."""
    perfs = [_perf(r) for r in base]
    perf: dict[str, Any] = {}
    for key in PERF_KEYS:
        vals = [p[key] for p in perfs if key in p]
        if vals:
            perf[key] = rounded(statistics.median(vals))
    config = {k: base[0].summary[k] for k in PERF_CONFIG_KEYS if k in base[0].summary}
    if config:
        perf["config"] = config
    tol: dict[str, Tolerance] = {}
    for gate, key, cap in (
        ("throughput", "best_tokens_per_second", THROUGHPUT_CAP),
        ("compile_seconds", "compile_seconds", None),
        ("peak_memory", "peak_memory_bytes", None),
    ):
        vals = [p[key] for p in perfs if key in p]
        if vals:
            tol[gate] = tolerance(gate, max(rel_dev(v, perf[key]) for v in vals), cap)
    return perf, tol


def banded(curves: Sequence[Sequence[Window]], kind: str) -> list[Window]:
    """The windows of one series from every run's: at each window the median of the distinct runs
    (bit-identical repeats count once), so the band sits where rounding's many trajectories lie,
    not on the one the base runs drew; the largest deviation from it, and the tolerance from that
    (:func:`curve_tolerances`)."""
    n = len(curves[0])
    distinct = list({tuple(w.mean for w in c): c for c in curves}.values())
    means = [statistics.median(c[i].mean for c in distinct) for i in range(n)]
    spreads = [max(rel_dev(c[i].mean, means[i]) for c in curves) for i in range(n)]
    return [
        Window(curves[0][i].first, curves[0][i].last, m, s, t)
        for i, (m, s, t) in enumerate(zip(means, spreads, curve_tolerances(spreads, kind), strict=True))
    ]


def stat_windows(runs: Sequence[RunFacts], window: int, steps: int, n: int) -> dict[str, list[Window]]:
    """Each statistic every run logged through every window, banded as the loss is."""
    names = set.intersection(*(set(r.series) for r in runs)) if runs else set()
    out = {}
    for name in sorted(names):
        curves = [window_means(r.series[name], window, steps) for r in runs]
        if all(len(c) == n for c in curves) and all(math.isfinite(w.mean) for c in curves for w in c):
            out[name] = banded(curves, "stats_curve")
    return out
