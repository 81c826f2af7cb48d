"""Golden curves: what a healthy run of a ferry on a lane looks like, recorded, reviewed in a pull
request, and judged against by the gates (:mod:`canary.judge.golden_gates`).

A golden is plain JSON under ``gates/`` (``<ferry>.<lane>.golden.json``), keyed inside by ferry
name, ferry version and lane. It holds:

* ``loss_windows``: the per-step loss reduced to means over consecutive windows of ``window``
  steps (20 on the cpu lane: a single step's loss moves up to 2% between numerically equivalent
  runs, a 20-step mean at most 0.5%; 1 on accelerator lanes, whose goldens are per step), one
  window per line so that a pull request's diff reads window by window;
* ``final_loss``: the last step's loss;
* ``perf``: throughput (the fastest steady step's tokens/s, the median step's, tokens per
  CPU-second), the median step, compile seconds, and peak memory where the backend reports it;
* ``tolerance``: for each judged figure, the tolerance and the evidence it came from (the largest
  deviation observed among the recording's runs, the factor applied to it, and the floor); the
  curve's is the widest of its windows', each window carrying its own (``rtol``, see
  :func:`curve_tolerances`).

Tolerances are measured, never guessed: ``tolerance = max(observed × FACTOR, floor)``. On the cpu
lane the recording's runs are numerically equivalent variants of one computation (the lane as
configured, the batch split over 4 forced host devices, every other ragged_dot backend that
computes the same function, and on x86 the program compiled for each older instruction set);
on an accelerator lane, repeated runs on the lane itself.

Everything here is pure; reading and writing golden files is :mod:`canary.golden.store`'s.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canary.errors import ConfigError
from canary.run.metrics import as_float

FACTOR = 1.5  # tolerance = the largest observed deviation x FACTOR (Megatron's functional tests)
# Floors (relative), below which a tolerance is never set, whatever the recording observed. A cpu
# recording's base runs are bit-identical, so without a floor a figure measured only there
# would get a zero tolerance.
FLOORS = {
    # the windowed loss: 0.1%, Megatron's floor; the cpu lane's equivalent variants measure
    # about 0.5% (so the floor rarely binds there), its quiet model bugs 1-6%
    "loss_curve": 0.001,
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
SUFFIX = ".golden.json"

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


@dataclass(frozen=True)
class Window:
    first: int  # first step (0-based) of the window
    last: int  # last step, inclusive
    mean: float
    spread: float = 0.0  # largest relative deviation among the recording's runs, this window
    rtol: float | None = None  # this window's tolerance (see curve_tolerances); None: the golden's loss_curve rtol


@dataclass(frozen=True)
class Tolerance:
    rtol: float
    observed: float
    factor: float = FACTOR
    floor: float = 0.0
    capped: bool = False  # the measured tolerance was cut to the cap (see THROUGHPUT_CAP)

    def to_dict(self) -> dict[str, Any]:
        d = {"rtol": _r(self.rtol), "observed": _r(self.observed), "factor": self.factor, "floor": self.floor}
        return d | ({"capped": True} if self.capped else {})


@dataclass(frozen=True)
class Golden:
    ferry: str
    ferry_version: int
    lane: str
    steps: int
    window: int
    metric: str
    windows: list[Window]
    final_loss: float
    tolerance: dict[str, Tolerance]
    perf: dict[str, Any] = field(default_factory=dict)
    host: dict[str, Any] = field(default_factory=dict)
    recorded: dict[str, Any] = field(default_factory=dict)
    path: str = ""
    note: str = ""  # how this golden was found, when it is not the one the gates file names (never written)

    def window_rtol(self, i: int) -> float:
        """The tolerance of window ``i``: its own where the file gives one, else the curve's."""
        own = self.windows[i].rtol
        return self.tolerance["loss_curve"].rtol if own is None else own

    @property
    def allowed_outliers(self) -> int:
        """Windows allowed out of band: about one in a hundred (none in a 10-window curve)."""
        return len(self.windows) // 100

    def to_dict(self) -> dict[str, Any]:
        return {
            "ferry": self.ferry,
            "ferry_version": self.ferry_version,
            "lane": self.lane,
            "steps": self.steps,
            "metric": self.metric,
            "window": self.window,
            "final_loss": _r(self.final_loss),
            "tolerance": {k: t.to_dict() for k, t in self.tolerance.items()},
            "perf": self.perf,
            "host": self.host,
            "recorded": self.recorded,
            "loss_windows": [
                {"steps": [w.first, w.last], "mean": _r(w.mean), "spread": _r(w.spread)}
                | ({} if w.rtol is None else {"rtol": _r(w.rtol)})
                for w in self.windows
            ],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str = "") -> Golden:
        try:
            return cls(
                ferry=d["ferry"],
                ferry_version=int(d["ferry_version"]),
                lane=d["lane"],
                steps=int(d["steps"]),
                window=int(d["window"]),
                metric=d.get("metric", "train/loss"),
                windows=[
                    Window(
                        int(w["steps"][0]),
                        int(w["steps"][1]),
                        float(w["mean"]),
                        float(w.get("spread", 0)),
                        None if w.get("rtol") is None else float(w["rtol"]),
                    )
                    for w in d["loss_windows"]
                ],
                final_loss=float(d["final_loss"]),
                tolerance={
                    k: Tolerance(
                        float(t["rtol"]),
                        float(t.get("observed", 0)),
                        float(t.get("factor", FACTOR)),
                        float(t.get("floor", 0)),
                        bool(t.get("capped", False)),
                    )
                    for k, t in d["tolerance"].items()
                },
                perf=dict(d.get("perf") or {}),
                host=dict(d.get("host") or {}),
                recorded=dict(d.get("recorded") or {}),
                path=path,
            )
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise ConfigError(f"{path or 'golden'}: not a golden file ({type(e).__name__}: {e})") from None

    def check(self) -> Golden:
        """The golden, when it can judge a run; bad input (naming the key) when a hand edit broke it:
        checked when it is loaded, before any attempt trains."""
        where = self.path or "golden"

        def bad(key: str, why: str) -> ConfigError:
            return ConfigError(f"{where}: invalid golden:\n  {key}: {why}")

        for key, value in (("steps", self.steps), ("window", self.window), ("ferry_version", self.ferry_version)):
            if value < 1:
                raise bad(key, f"{value} must be 1 or more")
        if not self.windows:
            raise bad("loss_windows", "empty: a golden needs at least one window")
        if not math.isfinite(self.final_loss):
            raise bad("final_loss", f"{self.final_loss} is not a finite number")
        for i, w in enumerate(self.windows):
            if not math.isfinite(w.mean) or not math.isfinite(w.spread) or w.spread < 0:
                raise bad(f"loss_windows.{i}", "mean and spread must be finite numbers (spread 0 or more)")
            if not 0 <= w.first <= w.last:
                raise bad(f"loss_windows.{i}.steps", f"[{w.first}, {w.last}] is not a range of steps")
            if w.rtol is not None and not (math.isfinite(w.rtol) and w.rtol >= 0):
                raise bad(f"loss_windows.{i}.rtol", f"{w.rtol} must be a finite number, 0 or more")
        for name, t in self.tolerance.items():
            for field_name in ("rtol", "observed", "factor", "floor"):
                value = getattr(t, field_name)
                if not (math.isfinite(value) and value >= 0):
                    raise bad(f"tolerance.{name}.{field_name}", f"{value} must be a finite number, 0 or more")
        if "loss_curve" not in self.tolerance and any(w.rtol is None for w in self.windows):
            raise bad("tolerance.loss_curve", "missing, and a window has no rtol of its own")
        return self


def _r(x: float | None, digits: int = 6) -> float | None:
    """Rounded to 6 significant digits: a diff shows changes, not float noise."""
    if x is None or not math.isfinite(x) or x == 0:
        return x
    return round(x, digits - 1 - int(math.floor(math.log10(abs(x)))))


# ----------------------------------------------------------------------------- pure building


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


def curve_tolerances(spreads: Sequence[float]) -> list[float]:
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
        out.append(tolerance("loss_curve", widest).rtol)
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
    ref = [window_means(r.losses, window, steps) for r in base]
    # the curve's centre: the median of every distinct run (bit-identical repeats count once), so
    # the band sits where rounding's many trajectories lie, not on the one the base runs drew
    distinct = list({tuple(w.mean for w in c): c for c in curves}.values())
    means = [statistics.median(c[i].mean for c in distinct) for i in range(n)]
    spreads = [max(rel_dev(c[i].mean, means[i]) for c in curves) for i in range(n)]
    windows = [
        Window(ref[0][i].first, ref[0][i].last, m, s, t)
        for i, (m, s, t) in enumerate(zip(means, spreads, curve_tolerances(spreads), strict=True))
    ]
    finals = [r.losses[-1][1] for r in runs]
    final = statistics.median({tuple(v for _, v in r.losses): r.losses[-1][1] for r in runs}.values())

    perfs = [_perf(r) for r in base]
    perf: dict[str, Any] = {}
    tol = {
        "loss_curve": tolerance("loss_curve", max(w.spread for w in windows)),
        "final_loss_golden": tolerance("final_loss_golden", max(rel_dev(f, final) for f in finals)),
    }
    for key in PERF_KEYS:
        vals = [p[key] for p in perfs if key in p]
        if vals:
            perf[key] = _r(statistics.median(vals))
    config = {k: base[0].summary[k] for k in PERF_CONFIG_KEYS if k in base[0].summary}
    if config:
        perf["config"] = config
    for gate, key, cap in (
        ("throughput", "best_tokens_per_second", THROUGHPUT_CAP),
        ("compile_seconds", "compile_seconds", None),
        ("peak_memory", "peak_memory_bytes", None),
    ):
        vals = [p[key] for p in perfs if key in p]
        if vals:
            tol[gate] = tolerance(gate, max(rel_dev(v, perf[key]) for v in vals), cap)
    return Golden(
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


# ----------------------------------------------------------------------------- text


def dumps(golden: Golden) -> str:
    """Pretty JSON with one loss window per line."""
    d = golden.to_dict()
    windows = d.pop("loss_windows")
    body = json.dumps(d, indent=2)[:-2]  # without the closing "\n}"
    rows = ",\n".join("    " + json.dumps(w) for w in windows)
    return f'{body},\n  "loss_windows": [\n{rows}\n  ]\n}}\n'


def loads(text: str, path: str = "") -> Golden:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path or 'golden'}: not valid JSON: {e}") from None
    except RecursionError:
        raise ConfigError(f"{path or 'golden'}: not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path or 'golden'}: not a golden file (a JSON {type(data).__name__}, not an object)")
    return Golden.from_dict(data, path).check()


# ----------------------------------------------------------------------------- files


def default_window(platform: str) -> int:
    return DEFAULT_WINDOW.get(platform, 1)


def file_name(ferry: str, lane: str) -> str:
    return f"{ferry}{'' if ferry.endswith('.') else '.'}{lane}{SUFFIX}"


def resolve_path(gates_path: Path, ref: str) -> Path:
    """A gates file's ``golden`` reference: relative to the gates file's directory."""
    p = Path(ref)
    return p if p.is_absolute() else Path(gates_path).parent / p
