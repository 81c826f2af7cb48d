"""The regression zoo: deliberate bugs, switched on by ``CANARY_ZOO``, that the tests use to show
each one is caught by its lane's default gates. TEST-ONLY: no real run sets it, and the workload
refuses it on a lane whose platform is not cpu unless ``CANARY_ZOO_FORCE=1``.

    CANARY_ZOO=<name>[:k][,<name>[:k]...]

=====================  ============================================================================
nan[:k]                the parameters become NaN before step k (default 50)
unnormalised_combine   the experts' combine weights are not normalised over the top-k picks
top1                   every token goes to one expert instead of the ferry's top-k
gelu_experts           the experts use gelu instead of silu
slow[:f]               every step does f times more work (default 0.3: 30% slower)
hang[:k]               the process hangs after step k (default 20)
crash[:k]              the process raises after step k (default 20)
corrupt_cache          every entry of a warm run's compilation cache is damaged before it starts
=====================  ============================================================================

The model's bugs are the zoo's own transform of the model's configuration
(:func:`patch_model`: one expert instead of the top-k, raw combine weights, gelu experts), which
the workload applies to the train step it builds; the model itself knows nothing of the zoo.
The incident's static megablox tile is no zoo bug: it is the ferry's own ``tiling = "static"``,
set from outside by a ferry file in the working directory (``canary lower --tiling static`` too).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ENV = "CANARY_ZOO"
FORCE_ENV = "CANARY_ZOO_FORCE"
MODEL_BUGS = ("unnormalised_combine", "top1", "gelu_experts")
DEFAULT_ARG = {"nan": 50, "slow": 0.3, "hang": 20, "crash": 20}
NAMES = ("nan", *MODEL_BUGS, "slow", "hang", "crash", "corrupt_cache")


@dataclass(frozen=True)
class Zoo:
    bugs: dict[str, float] = field(default_factory=dict)  # name -> argument

    def __bool__(self) -> bool:
        return bool(self.bugs)

    def has(self, name: str) -> bool:
        return name in self.bugs

    def step(self, name: str) -> int:
        return int(self.bugs[name])


def parse(value: str | None) -> Zoo:
    bugs: dict[str, float] = {}
    for item in (value or "").split(","):
        item = item.strip()
        if not item:
            continue
        name, _, arg = item.partition(":")
        if name not in NAMES:
            raise ValueError(f"{ENV}: unknown bug {name!r}; known: {', '.join(NAMES)}")
        bugs[name] = float(arg) if arg else DEFAULT_ARG.get(name, 0)
    return Zoo(bugs)


def from_env(environ: Mapping[str, str]) -> Zoo:
    return parse(environ.get(ENV))


def check_lane(zoo: Zoo, platform: str, environ: Mapping[str, str]) -> None:
    if zoo and platform != "cpu" and environ.get(FORCE_ENV) != "1":
        raise RuntimeError(
            f"{ENV} is a test-only switch and this lane's platform is {platform}; "
            f"set {FORCE_ENV}=1 to train a deliberately broken model there"
        )


def patch_model(zoo: Zoo, cfg: Any) -> Any:
    """The model configuration ``cfg`` (a :class:`canary.workload.model.MoEConfig`) with the zoo's
    model bugs: the same MoE, configured wrong from outside."""
    changes: dict[str, Any] = {}
    if zoo.has("top1"):
        changes["experts_per_token"] = 1
    if zoo.has("unnormalised_combine"):
        changes["normalize_combine"] = False
    if zoo.has("gelu_experts"):
        changes["expert_activation"] = "gelu"
    return dataclasses.replace(cfg, **changes) if changes else cfg


def model_patch(zoo: Zoo) -> Callable[[Any], Any] | None:
    """What the workload applies to its model configuration (None: no model bug is on)."""
    return functools.partial(patch_model, zoo) if any(zoo.has(b) for b in MODEL_BUGS) else None


def poison(zoo: Zoo, step: int, params):
    """NaN parameters from step k on (a real NaN, through the real step)."""
    if zoo.has("nan") and step == zoo.step("nan"):
        import jax

        return jax.tree_util.tree_map(lambda x: x * math.nan, params)
    return params


def after_step(zoo: Zoo, step: int, cpu_seconds: float) -> float:
    """Called with each step's own CPU seconds (without the zoo's extra work) once it has ended;
    returns the CPU seconds of extra work it did. ``slow`` is work, not a sleep: the step costs
    ``f`` times more CPU time, and at least as much more wall time."""
    spent = 0.0
    if zoo.has("slow"):
        target = cpu_seconds * zoo.bugs["slow"]
        t0 = time.process_time()
        while time.process_time() - t0 < target:
            sum(range(1000))
        spent = time.process_time() - t0
    if zoo.has("crash") and step == zoo.step("crash"):
        raise RuntimeError(f"zoo: deliberate crash after step {step}")
    if zoo.has("hang") and step == zoo.step("hang"):
        print(f"zoo: hanging after step {step}", flush=True)
        while True:
            time.sleep(3600)
    return spent


def corrupt_cache(zoo: Zoo, directory: str | None) -> int:
    """Damages every entry under a local cache directory (its middle bytes inverted); returns how
    many it damaged."""
    if not zoo.has("corrupt_cache") or not directory or "://" in directory or not Path(directory).is_dir():
        return 0
    n = 0
    for path in Path(directory).rglob("*"):
        if path.is_file() and path.stat().st_size > 16:
            data = bytearray(path.read_bytes())
            mid = len(data) // 2
            data[mid : mid + 64] = bytes(b ^ 0xFF for b in data[mid : mid + 64])
            path.write_bytes(bytes(data))
            n += 1
    return n
