"""The ferry's training program: ``python -m canary.workload.train SPEC_JSON``.

It reads a :class:`canary.formats.spec.WorkloadSpec`, trains, and writes into the spec's ``out_dir``:

* ``metrics.jsonl``: one JSON line per step, under levanter's metric names
  (``train/loss``, ``global_step``, ``throughput/tokens_per_second``, ...), flushed as it goes
  so the harness can show progress and nothing is lost if the process dies;
* ``tracker_metrics.jsonl``: one ``{"config": ..., "summary": ...}`` line at the end, the shape
  levanter's JSON tracker writes.

Its exit status is the only other thing the harness reads; a crash is a Python traceback on
stderr. The same functions (``make_train_step``) serve the benchmark's bare loop and the
cross-platform lowering, so there is one train step in the project.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax

from canary import host
from canary.config import Ferry
from canary.formats import signals
from canary.formats.directory import METRICS_FILE, TRACKER_FILE
from canary.formats.spec import NUDGE_ENV, WorkloadSpec
from canary.workload import cache as workload_cache
from canary.workload import parallel, tracking
from canary.workload import ragged_dot as ragged_dot_backends
from canary.workload.data import MarkovCorpus
from canary.workload.model import MoEConfig, init_params, loss_fn, param_count, router_bias, statistics
from canary.workload.optim import TrainStep, make_optimizer, update
from canary.workload.program import fingerprint_meanwhile
from canary.workload.steps import StepLog


def model_config(spec: WorkloadSpec) -> MoEConfig:
    model = spec.ferry.model
    return MoEConfig(
        vocab_size=spec.vocab_size,
        hidden=model.hidden,
        intermediate=model.intermediate,
        shared_expert_intermediate=model.shared_expert_intermediate,
        num_experts=model.num_experts,
        experts_per_token=model.experts_per_token,
        layers=model.layers,
        heads=model.heads,
        kv_heads=model.kv_heads,
        head_dim=model.head_dim,
        sliding_window=spec.sliding_window,
        rope_theta=model.rope_theta,
        norm_eps=model.norm_eps,
        compute_dtype=spec.compute_dtype,
        loss_block=spec.block("loss_block"),
        attention_block=spec.block("attention_block"),
    )


def make_train_step(spec: WorkloadSpec, ragged_dot_fn: Callable | None = None, mesh=None) -> TrainStep:
    """The jitted train step (forward, backward, optimizer update) for a spec; with a ``mesh``
    (see :mod:`canary.workload.parallel`) the batch is split over its devices. The grouped
    matmul is the spec's unless given. A stack ferry's step is its own (:mod:`canary.workload.stack`)."""
    if spec.ferry.stack:
        from canary.workload import stack

        return stack.make_train_step(spec)
    cfg = model_config(spec)
    ferry: Ferry = spec.ferry
    if ragged_dot_fn is None:
        ragged_dot_fn = ragged_dot_backends.make(spec.ragged_dot, spec.platform, tiling=spec.tiling)
    tx, schedule = make_optimizer(ferry.optimizer, spec.steps)
    trainer = ferry.trainer

    def init(key):
        params = init_params(cfg, key)
        return params, tx.init(params)

    def grads_of(params, bias, batch):
        return jax.value_and_grad(loss_fn, has_aux=True)(
            params, batch, bias, cfg, ragged_dot_fn, trainer.lm_head_z_loss, trainer.router_z_loss
        )

    grads_of = parallel.data_parallel(grads_of, mesh)

    def step(params, opt_state, bias, batch):
        # the statistics are formed from the whole batch's means, after the devices' are averaged
        (loss, means), grads = grads_of(params, bias, batch)
        return update(tx, schedule, params, opt_state, (loss, statistics(means)), grads)

    return TrainStep(cfg, init, jax.jit(step, donate_argnums=(0, 1)), router_bias(cfg))


def nudge_of(environ) -> int | None:
    """The seed of a nudged run (``$CANARY_NUDGE_SEED``), or None in every ordinary run."""
    value = environ.get(NUDGE_ENV, "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise SystemExit(f"{NUDGE_ENV}={value!r}: not an integer seed") from None


def nudged(params, seed: int):
    """Every weight moved one float32 step up or down, at random: the smallest change a number can
    take, the size of one rounding difference. A golden recording trains from several such starts
    (``nudged=<seed>``) to measure how far rounding alone moves the loss curve (canary.run.recording)."""
    import jax.numpy as jnp

    leaves, treedef = jax.tree_util.tree_flatten(params)
    keys = jax.random.split(jax.random.PRNGKey(seed), len(leaves))
    out = [
        jnp.nextafter(p, jnp.where(jax.random.bernoulli(k, 0.5, p.shape), jnp.inf, -jnp.inf).astype(p.dtype))
        for p, k in zip(leaves, keys, strict=True)
    ]
    return jax.tree_util.tree_unflatten(treedef, out)


def kernel_choice(spec: WorkloadSpec) -> str:
    """The grouped matmul this run uses: the spec's backend, or the one a stack ferry's library picks."""
    if spec.ferry.stack:
        from canary.workload import stack

        return stack.ragged_dot_choice()
    return ragged_dot_backends.resolve(spec.ragged_dot, spec.platform)


def make_corpus(spec: WorkloadSpec) -> MarkovCorpus:
    lane = spec.ferry.lanes.get(spec.lane)
    data = (lane.data if lane and lane.data else None) or spec.ferry.data
    return MarkovCorpus.make(spec.vocab_size, data.successors, data.concentration, data.seed)


def _floats(metrics: dict) -> dict[str, float]:
    return {k: float(v) for k, v in jax.device_get(metrics).items()}


def peak_memory() -> tuple[int | None, str]:
    """The device's peak bytes in use where the backend reports it, else the process's peak RSS."""
    stats = jax.local_devices()[0].memory_stats() or {}
    if stats.get("peak_bytes_in_use"):
        return int(stats["peak_bytes_in_use"]), "device"
    import resource

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return (rss if sys.platform == "darwin" else rss * 1024), "host_rss"


def _start_line(spec: WorkloadSpec, n_params: int, backend: str, cache_facts, n_devices: int) -> str:
    return (
        f"canary workload: ferry {spec.ferry.name} v{spec.ferry.version}, lane {spec.lane}, "
        f"{n_params:,} parameters, {spec.steps} steps of {spec.batch_size}x{spec.seq_len}, "
        f"ragged_dot={spec.ragged_dot}"
        + (f" ({backend})" if backend != spec.ragged_dot else "")
        + f", tiling={spec.tiling}, "
        f"jax {jax.__version__} on {jax.default_backend()}, "
        f"compilation cache {cache_facts.mode} ({cache_facts.dir or 'bypassed'}), "
        f"data-parallel over {n_devices} device(s)"
        + (f" (the lane has {spec.devices})" if n_devices != spec.devices else "")
    )


def _tracker(spec: WorkloadSpec, out: Path, backend: str, n_devices: int, n_params: int, primary: bool, log):
    return tracking.open_tracker(
        spec.wandb,
        out,
        project=spec.wandb_project,
        group=spec.ferry.name,
        lane=spec.lane,
        name=spec.run_id,
        config={
            "ferry": spec.ferry.name,
            "ferry_version": spec.ferry.version,
            "lane": spec.lane,
            "steps": spec.steps,
            "batch_size": spec.batch_size,
            "seq_len": spec.seq_len,
            "ragged_dot": backend,
            "devices": n_devices,
            "parameter_count": n_params,
        },
        environ=os.environ,
        log=log,
        enabled=primary,
    )


def _initial_state(spec: WorkloadSpec, train_step: TrainStep, mesh, log) -> tuple[Any, Any, int | None]:
    """The parameters and optimizer state from the ferry's seed (nudged one float32 step each for
    a golden recording's run), replicated over the mesh; and the nudge's seed."""
    params, opt_state = train_step.init(jax.random.PRNGKey(spec.ferry.trainer.seed))
    nudge_seed = nudge_of(os.environ)
    if nudge_seed is not None:
        params = nudged(params, nudge_seed)
        log(f"weights nudged one float32 step each ({NUDGE_ENV}={nudge_seed}): a golden recording's run")
    params, opt_state = parallel.replicate((params, opt_state), mesh)
    return params, opt_state, nudge_seed


def _compile(spec: WorkloadSpec, lowered, t0: float, cache_facts, log) -> tuple[Any, float]:
    """The lowered train step compiled (through the compilation cache), timed from ``t0``, before
    it was lowered."""
    compiled = lowered.compile()
    seconds = cache_facts.compile_seconds = time.perf_counter() - t0
    log(
        f"compiled the train step in {seconds:.2f}s (cache {spec.cache.mode}: "
        f"{cache_facts.hits} hits of {cache_facts.requests} requests)"
    )
    return compiled, seconds


def train(spec: WorkloadSpec, log: Callable[[str], None] = print) -> dict:
    out = Path(spec.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    t_start = time.perf_counter()
    parallel.start_hosts(spec.hosts, os.environ)
    cache = workload_cache.configure(spec.cache, spec.lane, out)  # before anything compiles
    mesh = parallel.device_mesh()
    n_devices = jax.device_count()
    primary = jax.process_index() == 0  # one host writes the run's files
    parallel.check_divisible(spec.batch_size, n_devices)
    train_step = make_train_step(spec, mesh=mesh)
    mesh = getattr(train_step.step, "mesh", mesh)  # a stack ferry's step is sharded over its own mesh
    corpus = make_corpus(spec)
    batches = corpus.stream(spec.steps, spec.batch_size, spec.seq_len + 1)

    params, opt_state, nudge_seed = _initial_state(spec, train_step, mesh, log)
    n_params, backend = param_count(params), kernel_choice(spec)
    log(_start_line(spec, n_params, backend, cache.facts, n_devices))
    tracker = _tracker(spec, out, backend, n_devices, n_params, primary, log)
    batch = parallel.shard_batch(batches.get(0), mesh)

    t0 = time.perf_counter()
    lowered = train_step.step.lower(params, opt_state, train_step.bias, batch)
    # the program's fingerprint, as `canary lower` computes it: a second lowering, on a thread while
    # XLA compiles the step, waited for before the first step (program.fingerprint_meanwhile), so
    # the history can say whether the program changed (the run's own step is exported again when no
    # mesh split it: program.run_fingerprint)
    run_step = train_step if mesh is None else None
    fingerprint = fingerprint_meanwhile(spec, make_train_step, run_step) if primary else dict
    compiled, compile_seconds = _compile(spec, lowered, t0, cache.facts, log)
    program = fingerprint()

    with open(out / METRICS_FILE if primary else os.devnull, "a", buffering=1) as mf:
        steps = StepLog(spec, mf, tracker, log, t_start)
        # The next batch is made while the step runs; the step is recorded after it ends. Queuing
        # step i+1 before recording step i was slower on a 2-core CPU (17.3 -> 20.0 ms a step):
        # the bookkeeping then competes with the step's own threads.
        for i in range(spec.steps):
            params, opt_state, metrics = compiled(params, opt_state, train_step.bias, batch)
            if i + 1 < spec.steps:
                batch = parallel.shard_batch(batches.get(i + 1), mesh)
            steps.finish(i, _floats(metrics))  # waits for step i

    facts = _run_facts(backend, n_params, n_devices, corpus.entropy_floor(spec.seq_len + 1), nudge_seed)
    speed = steps.figures(spec.platform)
    summary = {
        **steps.last,
        **speed,
        "compile/seconds": compile_seconds,
        **facts,
        **program,
        "_runtime": time.perf_counter() - t_start,
    }
    _write_tracker_file(spec, out if primary else None, summary)
    tracker.finish(summary)
    median_ms = speed["throughput/median_step_seconds"] * 1e3
    log(f"done: {spec.steps} steps, final loss {summary['train/loss']}, median step {median_ms:.1f} ms")
    return summary


def _run_facts(backend: str, n_params: int, n_devices: int, floor: float, nudge_seed: int | None) -> dict:
    """What the summary keeps of the run besides its steps: memory (its peak so far; the program's
    fingerprint lowered it again beside the compile, whose own peak is the larger), host, kernel,
    size, data."""
    peak_bytes, peak_source = peak_memory()
    return {
        "memory/peak_bytes": peak_bytes,
        "memory/source": peak_source,
        "host/cpu_model": host.cpu_model(),
        "kernels/ragged_dot": backend,
        "parameter_count": n_params,
        "devices": n_devices,
        "devices/platform": jax.default_backend(),  # the backend it ran on (canary.judge.platform)
        "data/entropy_floor": floor,
        **({"init/nudge_seed": nudge_seed} if nudge_seed is not None else {}),
    }


def _write_tracker_file(spec: WorkloadSpec, out: Path | None, summary: dict) -> None:
    """``tracker_metrics.jsonl``: the run's config and summary, as levanter's JSON tracker writes
    them; `canary gate` on this file alone judges the run as its run directory is judged."""
    config = {
        "ferry": spec.ferry.name,
        "ferry_version": spec.ferry.version,
        "lane": spec.lane,
        "run_id": spec.run_id,
        "steps": spec.steps,
    }
    with open(out / TRACKER_FILE if out is not None else os.devnull, "w") as tf:
        tf.write(json.dumps({"config": config, "summary": summary}) + "\n")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m canary.workload.train SPEC_JSON", file=sys.stderr)
        return 2
    signals.die_with_parent()  # the process that started this one dies: so does this one
    spec = WorkloadSpec.read(argv[0])
    try:
        train(spec, log=lambda s: print(s, flush=True))
    except Exception as e:  # a poisoned cache entry: keep which one (--cache verify)
        if workload_cache.active() is not None:
            workload_cache.active().note_failure(e)
        raise
    finally:  # a crashed attempt's cache facts matter most (was the failing compile cold?)
        if workload_cache.active() is not None:
            workload_cache.active().write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
