"""The regression zoo: deliberate bugs that the tests patch into canary's workload to show each
one is caught by its lane's default gates. canary knows nothing of them: this directory goes
first on the ``PYTHONPATH`` of the command the test runs (:func:`environment`), and its
``sitecustomize.py`` installs the bugs ``CANARY_ZOO`` names in the workload's process
(``python -m canary.workload.train``), each one replacing a function of the workload's modules as
they are imported. The harness's own process, which starts with the same environment, is left
as it is.

    CANARY_ZOO=<name>[:k][,<name>[:k]...]

=====================  ============================================================================
nan[:k]                the parameters become NaN before step k >= 1 (default 50)
unnormalised_combine   the experts' combine weights are not normalised over the top-k picks
top1                   every token goes to one expert instead of the ferry's top-k
gelu_experts           the experts use gelu instead of silu
slow[:f]               every step does f times more work (default 0.3: 30% slower)
hang[:k]               the process hangs after step k (default 20)
crash[:k]              the process raises after step k (default 20)
corrupt_cache          every entry of a warm run's compilation cache is damaged before it starts
=====================  ============================================================================

What each replaces: the model's bugs, ``canary.workload.model``'s ``combine_weights``,
``expert_activation`` and ``moe`` (called with one expert per token); ``nan``, the optimizer's
``update`` (``canary.workload.optim``), whose parameters turn NaN after step k-1; ``slow``,
``hang`` and ``crash``, what ends each step (``canary.workload.steps.StepLog.finish``);
``corrupt_cache``, ``canary.workload.cache.configure``, which damages the cache before it opens it.

The incident's static megablox tile is no zoo bug: it is the ferry's own ``tiling = "static"``,
set from outside by a ferry file in the working directory (``canary lower --tiling static`` too).
"""

from __future__ import annotations

import dataclasses
import importlib.abc
import importlib.machinery
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

ENV = "CANARY_ZOO"
DIR = Path(__file__).resolve().parent
DEFAULT_ARG = {"nan": 50, "slow": 0.3, "hang": 20, "crash": 20}
NAMES = ("nan", "unnormalised_combine", "top1", "gelu_experts", "slow", "hang", "crash", "corrupt_cache")
WORKLOAD = ("canary", "workload", "train.py")  # the end of the workload process's sys.argv[0]


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


def environment(bugs: str, pythonpath: str) -> dict[str, str]:
    """The environment of a command whose workload carries ``bugs`` (``CANARY_ZOO``'s value):
    this directory first on ``pythonpath``."""
    return {ENV: bugs, "PYTHONPATH": os.pathsep.join([str(DIR), pythonpath])}


# ----------------------------------------------------------------------------- the bugs


def patch_model(zoo: Zoo, model: ModuleType) -> None:
    """The same MoE, wrong: raw sigmoid combine weights, one expert per token, gelu experts."""
    import jax

    if zoo.has("unnormalised_combine"):
        model.combine_weights = jax.nn.sigmoid
    if zoo.has("gelu_experts"):
        model.expert_activation = jax.nn.gelu
    if zoo.has("top1"):
        moe = model.moe

        def moe_top1(p, x, bias, cfg, ragged_dot):
            return moe(p, x, bias, dataclasses.replace(cfg, experts_per_token=1), ragged_dot)

        model.moe = moe_top1


def patch_optim(zoo: Zoo, optim: ModuleType) -> None:
    """NaN parameters from step k on: the update that ends step k-1 multiplies them by NaN (a real
    NaN, through the real step)."""
    if not zoo.has("nan"):
        return
    import jax
    import jax.numpy as jnp
    import optax

    update, last_clean_step = optim.update, zoo.step("nan") - 1

    def update_then_poison(tx, schedule, params, opt_state, loss_and_metrics, grads):
        step = optax.tree_utils.tree_get_all_with_path(opt_state, "count")[0][1]  # the step now ending
        params, opt_state, metrics = update(tx, schedule, params, opt_state, loss_and_metrics, grads)
        factor = jnp.where(step == last_clean_step, math.nan, 1.0)
        return jax.tree_util.tree_map(lambda x: x * factor.astype(x.dtype), params), opt_state, metrics

    optim.update = update_then_poison


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


def patch_steps(zoo: Zoo, steps: ModuleType) -> None:
    """After each step is recorded: the slow step's extra work, the crash, the hang."""
    if not any(zoo.has(name) for name in ("slow", "hang", "crash")):
        return
    finish = steps.StepLog.finish
    extra_cpu_seconds = [0.0]  # the extra work after the step before, counted in this step's CPU time

    def finish_then_misbehave(self, i, values):
        finish(self, i, values)
        extra_cpu_seconds[0] = after_step(zoo, i, self.cpu_durations[-1] - extra_cpu_seconds[0])

    steps.StepLog.finish = finish_then_misbehave


def corrupt_cache(directory: str | None) -> int:
    """Damages every entry under a local cache directory (its middle bytes inverted); returns how
    many it damaged."""
    if not directory or "://" in directory or not Path(directory).is_dir():
        return 0
    damaged = 0
    for path in Path(directory).rglob("*"):
        if path.is_file() and path.stat().st_size > 16:
            data = bytearray(path.read_bytes())
            mid = len(data) // 2
            data[mid : mid + 64] = bytes(b ^ 0xFF for b in data[mid : mid + 64])
            path.write_bytes(bytes(data))
            damaged += 1
    return damaged


def patch_cache(zoo: Zoo, cache: ModuleType) -> None:
    """A warm run's cache damaged before the workload opens it."""
    if not zoo.has("corrupt_cache"):
        return
    configure = cache.configure

    def corrupt_then_configure(spec, lane, out_dir):
        if spec.mode == "warm":
            damaged = corrupt_cache(spec.dir or cache.default_dir(lane))
            print(f"zoo: {damaged} cache entries damaged", flush=True)
        return configure(spec, lane, out_dir)

    cache.configure = corrupt_then_configure


PATCHES: dict[str, Callable[[Zoo, ModuleType], None]] = {
    "canary.workload.model": patch_model,
    "canary.workload.optim": patch_optim,
    "canary.workload.steps": patch_steps,
    "canary.workload.cache": patch_cache,
}


# ----------------------------------------------------------------------------- installing them


def in_workload() -> bool:
    """Whether this process is canary's workload (``python -m canary.workload.train SPEC``)."""
    return Path(sys.argv[0]).parts[-3:] == WORKLOAD if sys.argv and sys.argv[0] else False


class _PatchOnImport(importlib.abc.MetaPathFinder):
    """Finds the workload's modules as Python would, and patches each one once it has run."""

    def __init__(self, zoo: Zoo) -> None:
        self.zoo, self.told = zoo, False

    def find_spec(self, name, path, target=None):
        if name not in PATCHES:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_patch(module):
            exec_module(module)
            if in_workload():
                self.tell()
                PATCHES[name](self.zoo, module)

        spec.loader.exec_module = exec_then_patch
        return spec

    def tell(self) -> None:
        """The workload's log says which bugs it carries, once."""
        if not self.told:
            print(f"zoo: {', '.join(self.zoo.bugs)} (test-only, patched in from outside)", flush=True)
            self.told = True


def install(value: str) -> None:
    """The bugs ``value`` names, patched into the workload's modules when it imports them (in any
    other process, nothing)."""
    zoo = parse(value)
    if zoo:
        sys.meta_path.insert(0, _PatchOnImport(zoo))
