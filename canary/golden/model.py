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
  :func:`canary.golden.curve.curve_tolerances`);
* ``stat_windows`` (where the recording's runs logged them): each of the model's statistics
  (:func:`canary.formats.metrics.is_statistic`: per layer the router's load balance and z-loss,
  the experts' usage, attention and MoE output norms; the gradient and update norms; the
  cross-entropy) reduced to windows as the loss is, each window with its own measured tolerance.
  A golden without them judges as it did before they were recorded.

How each figure's tolerance is measured, and a golden built from a recording's runs, is
:mod:`canary.golden.curve`'s; reading and writing golden files is :mod:`canary.golden.store`'s.
Pure.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canary.errors import ConfigError
from canary.textio import parse_json

FACTOR = 1.5  # tolerance = the largest observed deviation x FACTOR (Megatron's functional tests)
SUFFIX = ".golden.json"


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
        d = {"rtol": rounded(self.rtol), "observed": rounded(self.observed), "factor": self.factor, "floor": self.floor}
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
    stats: dict[str, list[Window]] = field(default_factory=dict)  # each statistic's windows (stat_windows)

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
            "final_loss": rounded(self.final_loss),
            "tolerance": {k: t.to_dict() for k, t in self.tolerance.items()},
            "perf": self.perf,
            "host": self.host,
            "recorded": self.recorded,
            "loss_windows": [_window_dict(w) for w in self.windows],
        } | ({"stat_windows": {k: [_window_dict(w) for w in ws] for k, ws in self.stats.items()}} if self.stats else {})

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str = "") -> Golden:
        for key, kind in (("tolerance", dict), ("loss_windows", list), ("perf", dict), ("host", dict)):
            if d.get(key) is not None and not isinstance(d[key], kind):
                raise ConfigError(
                    f"{path or 'golden'}: invalid golden:\n  {key}: a JSON {type(d[key]).__name__}, "
                    f"not {'an object' if kind is dict else 'a list'}"
                )
        try:
            return cls(
                ferry=d["ferry"],
                ferry_version=int(d["ferry_version"]),
                lane=d["lane"],
                steps=int(d["steps"]),
                window=int(d["window"]),
                metric=d.get("metric", "train/loss"),
                windows=[_window(w) for w in d["loss_windows"]],
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
                stats={str(k): [_window(w) for w in ws] for k, ws in (d.get("stat_windows") or {}).items()},
            )
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as e:
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
        series = [("loss_windows", self.windows)] + [(f"stat_windows.{k}", ws) for k, ws in self.stats.items()]
        for key, windows in series:
            for i, w in enumerate(windows):
                if not math.isfinite(w.mean) or not math.isfinite(w.spread) or w.spread < 0:
                    raise bad(f"{key}.{i}", "mean and spread must be finite numbers (spread 0 or more)")
                if not 0 <= w.first <= w.last:
                    raise bad(f"{key}.{i}.steps", f"[{w.first}, {w.last}] is not a range of steps")
                if w.last >= self.steps:
                    raise bad(
                        f"{key}.{i}.steps",
                        f"[{w.first}, {w.last}] runs past the golden's own {self.steps} steps (0 to {self.steps - 1})",
                    )
                if w.rtol is not None and not (math.isfinite(w.rtol) and w.rtol >= 0):
                    raise bad(f"{key}.{i}.rtol", f"{w.rtol} must be a finite number, 0 or more")
        if any(w.rtol is None for ws in self.stats.values() for w in ws):
            raise bad("stat_windows", "every statistic's window needs its own rtol")
        for name, t in self.tolerance.items():
            for field_name in ("rtol", "observed", "factor", "floor"):
                value = getattr(t, field_name)
                if not (math.isfinite(value) and value >= 0):
                    raise bad(f"tolerance.{name}.{field_name}", f"{value} must be a finite number, 0 or more")
        if "loss_curve" not in self.tolerance and any(w.rtol is None for w in self.windows):
            raise bad("tolerance.loss_curve", "missing, and a window has no rtol of its own")
        return self


def _window_dict(w: Window) -> dict[str, Any]:
    d = {"steps": [w.first, w.last], "mean": rounded(w.mean), "spread": rounded(w.spread)}
    return d | ({} if w.rtol is None else {"rtol": rounded(w.rtol)})


def _window(w: dict[str, Any]) -> Window:
    return Window(
        int(w["steps"][0]),
        int(w["steps"][1]),
        float(w["mean"]),
        float(w.get("spread", 0)),
        None if w.get("rtol") is None else float(w["rtol"]),
    )


def rounded(x: float | None, digits: int = 6) -> float | None:
    """Rounded to 6 significant digits: a diff shows changes, not float noise."""
    if x is None or not math.isfinite(x) or x == 0:
        return x
    return round(x, digits - 1 - int(math.floor(math.log10(abs(x)))))


def dumps(golden: Golden) -> str:
    """Pretty JSON with one loss window per line (and one statistic's window per line)."""
    d = golden.to_dict()
    windows = d.pop("loss_windows")
    stats = d.pop("stat_windows", {})
    body = json.dumps(d, indent=2)[:-2]  # without the closing "\n}"
    rows = ",\n".join("    " + json.dumps(w) for w in windows)
    out = f'{body},\n  "loss_windows": [\n{rows}\n  ]'
    if stats:
        blocks = (
            f"    {json.dumps(k)}: [\n" + ",\n".join("      " + json.dumps(w) for w in ws) + "\n    ]"
            for k, ws in stats.items()
        )
        out += ',\n  "stat_windows": {\n' + ",\n".join(blocks) + "\n  }"
    return out + "\n}\n"


def loads(text: str, path: str = "") -> Golden:
    data = parse_json(text, path or "golden")
    if not isinstance(data, dict):
        raise ConfigError(f"{path or 'golden'}: not a golden file (a JSON {type(data).__name__}, not an object)")
    return Golden.from_dict(data, path).check()


def file_name(ferry: str, lane: str) -> str:
    return f"{ferry}{'' if ferry.endswith('.') else '.'}{lane}{SUFFIX}"


def resolve_path(gates_path: Path, ref: str) -> Path:
    """A gates file's ``golden`` reference: relative to the gates file's directory."""
    p = Path(ref)
    return p if p.is_absolute() else Path(gates_path).parent / p
