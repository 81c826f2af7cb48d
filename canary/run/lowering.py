"""Cross-platform lowering preflight: lower a lane's whole train step for TPU or CUDA on a machine
that has neither, and say precisely what broke.

    report = lower_lanes(LowerOptions(lane="tpu", platforms=["tpu"], tiling="static"))
    report.ok                     # False
    report.platforms[0].block_shape, report.platforms[0].array_shape   # [512, 32], [524288, 128]

The train step is the workload's own (``canary.workload.train.make_train_step``): forward,
backward and optimizer update, traced with abstract inputs (``jax.ShapeDtypeStruct``) at the
lane's real per-device batch and sequence, so a 128 x 8192 TPU batch costs no memory, and
lowered with ``jax.export`` for the target platform. That runs every kernel's platform lowering
(Pallas/Mosaic on TPU) but no compiler and no device, so it is the cold path a warm persistent
compilation cache hides, in seconds.

The parsing of failures is pure (``parse_block_shape_error``); JAX is imported only inside
``lower_lanes``.
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from canary.config import Ferry, Lane, load_ferry, load_lanes
from canary.errors import ConfigError
from canary.ferries import kind_of
from canary.formats.spec import build_spec, ragged_dot_override
from canary.run.lowered import PlatformResult, parse_block_shape_error
from canary.workload.program import export_train_step, exported_text, per_device_spec, program_fingerprint, short_error

PLATFORMS = ("cpu", "tpu", "cuda")
TILINGS = ("per-shape", "static")


@dataclass
class LowerOptions:
    lane: str | None = None  # default: each platform's own lane
    platforms: list[str] = field(default_factory=list)  # default: the lane's platform / every accelerator lane
    tiling: str | None = None
    ragged_dot: str | None = None
    ferry: str = "moe-canary"
    lanes_file: str | None = None
    compile: bool = False  # a TPU lane's program through libtpu's compiler too
    compile_timeout_s: float = 1800.0
    compile_cache: bool = True  # the host's compile cache (canary.run.cache_key) read and written
    parity: bool = True  # a TPU lane's grouped-matmul kernel executed for parity
    topology: bool = True  # a TPU lane's whole program on its topology, where libtpu is installed


@dataclass
class LowerReport:
    ferry: str
    platforms: list[PlatformResult]
    jax_version: str = ""

    @property
    def ok(self) -> bool:
        return all(p.ok for p in self.platforms)

    @staticmethod
    def check_lines(p: PlatformResult) -> list[str]:
        """A platform's topology and parity checks, line by line (empty for other lanes)."""
        from canary.run import parity, topology

        return (topology.lines(p.topology) if p.topology else []) + (parity.lines(p.parity) if p.parity else [])

    def to_dict(self) -> dict[str, Any]:
        return {
            "ferry": self.ferry,
            "ok": self.ok,
            "jax": self.jax_version,
            "platforms": [asdict(p) for p in self.platforms],
        }


# ----------------------------------------------------------------------------- parsing (pure)

_TENSOR_WORDS = {"lhs": "lhs", "rhs": "rhs", "out": "output"}


def diagnose(
    gmm: str, projection: str, dims: tuple[int, int, int], tile: Any, tiling: str, failure: dict[str, Any]
) -> str:
    """One line: which grouped matmul, which block on which array, and why."""
    block = tuple(d for d in failure["block_shape"] if d is not None)
    array = tuple(failure["array_shape"])
    M, K, N = dims
    why = (
        f"the static tile {tuple(tile)} was computed from the forward shapes and reused by {gmm}"
        if tiling == "static" and gmm != "forward"
        else f"the tile {tuple(tile) if isinstance(tile, tuple) else tile} does not fit this shape"
    )
    return (
        f"{gmm} of the {projection} projection ((M={M}, K={K}) x (E, {K}, {N})): block {block} on its "
        f"{_TENSOR_WORDS.get(failure.get('tensor'), failure['operand'])} {array} breaks the TPU rule (last two "
        f"block dims divisible by 8 and 128, or equal to the array's); {why}"
        + ("; a per-shape tiling (tiling(m, k, n) per grouped matmul) avoids it" if tiling == "static" else "")
    )


# ----------------------------------------------------------------------------- the program's fingerprint (pure)


def plan(opts: LowerOptions, ferry: Ferry, lanes: dict[str, Lane]) -> list[tuple[str, Lane]]:
    """(platform, lane) pairs to lower, from the options. Pure given the loaded config."""
    for p in opts.platforms:
        if p not in PLATFORMS:
            raise ConfigError(f"--platform {p!r} is not a platform; choose from {', '.join(PLATFORMS)}")
    if opts.tiling is not None and opts.tiling not in TILINGS:
        raise ConfigError(f"--tiling {opts.tiling!r} is not a tiling policy; choose from {', '.join(TILINGS)}")
    if opts.lane is not None:
        if opts.lane not in lanes:
            raise ConfigError(f"unknown lane {opts.lane!r}; the lanes file defines: {', '.join(lanes)}")
        lane = lanes[opts.lane]
        ferry.lane(lane.name)
        return [(p, lane) for p in (opts.platforms or [lane.platform])]
    by_platform: dict[str, Lane] = {}
    for lane in lanes.values():
        if lane.name in ferry.lanes:
            by_platform.setdefault(lane.platform, lane)
    platforms = opts.platforms or [p for p in by_platform if p != "cpu"]
    pairs = []
    for p in platforms:
        if p not in by_platform:
            raise ConfigError(f"no lane of ferry {ferry.name!r} runs on platform {p!r}; name one with --lane")
        pairs.append((p, by_platform[p]))
    return pairs


# ----------------------------------------------------------------------------- lowering (JAX)


def _projections(cfg) -> dict[str, tuple[int, int]]:
    """The MoE's grouped matmuls as (K, N); gate and up have the same shape."""
    return {"gate/up": (cfg.hidden, cfg.intermediate), "down": (cfg.intermediate, cfg.hidden)}


def _attribute(platform: str, rows: int, cfg, tiling: str) -> list[dict[str, Any]]:
    """Lower each grouped matmul of each projection alone to find the ones that fail."""
    import jax

    from canary.workload.ragged_dot import megablox

    failures = []
    for projection, (K, N) in _projections(cfg).items():
        calls = megablox.component_calls(rows, K, N, cfg.num_experts, cfg.dtype, tiling)
        for gmm, (fn, args) in calls.items():
            try:
                jax.export.export(jax.jit(fn), platforms=[platform])(*args)
            except Exception as e:  # noqa: BLE001 - any lowering failure is the finding
                parsed = parse_block_shape_error(str(e)) or {}
                tile = megablox.tiling_for(tiling, rows, K, N)
                kind, dims = megablox.backward_gmms(rows, K, N)[gmm]
                if callable(tile):
                    tile = tile(*dims)
                # name the tensor: the block rule's own model of megablox's BlockSpecs, matched
                # against what the lowering reported
                tensors = [
                    name
                    for name, (block, array) in megablox.invalid_blocks(kind, *dims, tile).items()
                    if [*block] == parsed.get("block_shape") and [*array] == parsed.get("array_shape")
                ]
                found = {
                    "gmm": gmm,
                    "projection": projection,
                    "dims": [rows, K, N],
                    "tile": list(tile),
                    **parsed,
                    "tensor": tensors[0] if tensors else None,
                    "error": short_error(e),
                }
                found["diagnosis"] = (
                    diagnose(gmm, projection, (rows, K, N), tile, tiling, found) if parsed else found["error"]
                )
                failures.append(found)
    return failures


def explain(result: PlatformResult, e: Exception, platform: str, rows: int, cfg, tiling: str, backend: str) -> None:
    """A lowering failure of canary's own model into ``result``: its error, and a Pallas block-shape
    failure traced to its grouped matmul (``rows`` per device)."""
    result.error = short_error(e)
    parsed = parse_block_shape_error(str(e))
    if parsed:
        for k in ("kernel", "operand", "array_shape", "block_shape"):
            setattr(result, k, parsed[k])
        if backend == "megablox":
            result.failures = _attribute(platform, rows, cfg, tiling)
            keys = ("operand", "array_shape", "block_shape")
            match = [f for f in result.failures if all(f.get(k) == parsed[k] for k in keys)]
            first = (match or result.failures or [None])[0]
            if first:
                for k in ("gmm", "projection", "tensor", "diagnosis"):
                    setattr(result, k, first[k])
        if result.diagnosis is None:
            result.diagnosis = (
                f"block {parsed['block_shape']} on {parsed['operand']} of shape "
                f"{parsed['array_shape']} in {parsed['kernel']} breaks the TPU block rule"
            )


def lower_one(ferry: Ferry, lane: Lane, platform: str, ragged_dot: str | None, tiling: str | None) -> PlatformResult:
    from canary.workload import ragged_dot as backends
    from canary.workload.train import make_train_step, model_config

    spec = build_spec(ferry, lane, run_id="lower", out_dir=os.devnull, ragged_dot=ragged_dot, tiling=tiling)
    spec = per_device_spec(spec, lane.devices).model_copy(update={"platform": platform})
    per_device = spec.batch_size
    backend = backends.resolve(spec.ragged_dot, platform)
    result = PlatformResult(
        platform, lane.name, False, None, 0.0, backend, spec.tiling, per_device, spec.seq_len, lane.devices
    )
    if backend == "megablox" and platform != "tpu":
        result.notes.append(f"megablox lowers in Pallas interpret mode for {platform}: TPU block rules are not checked")
    t0 = time.perf_counter()
    try:
        exported = export_train_step(spec, make_train_step)
        result.ok = True
        t1 = time.perf_counter()
        result.fingerprint = program_fingerprint(exported_text(exported))
        result.fingerprint_seconds = round(time.perf_counter() - t1, 3)
    except Exception as e:  # noqa: BLE001 - a lowering failure is the result, not a crash
        rows = per_device * spec.seq_len * ferry.model.experts_per_token
        explain(result, e, platform, rows, model_config(spec), spec.tiling, backend)
    result.seconds = round(time.perf_counter() - t0, 3)
    return result


def lower_lanes(opts: LowerOptions) -> LowerReport:
    loaded = load_ferry(opts.ferry)[0]
    ferry = kind_of(loaded).model(loaded, "lower")
    lanes, _ = load_lanes(opts.lanes_file)
    if kind_of(ferry).lowering == "stack":  # the library's code, its own kernels
        from canary.run import stack_lowering

        stack_lowering.check_options(ferry, opts.ragged_dot, opts.tiling)
    ragged_dot = None if ferry.stack else ragged_dot_override(opts.ragged_dot, os.environ)
    pairs = plan(opts, ferry, lanes)
    on_topology = [lane for platform, lane in pairs if platform == "tpu" and lane.platform == "tpu" and opts.topology]
    _check_topologies(opts, on_topology)

    import jax
    from jax._src import xla_bridge

    # everything in this process runs on the CPU: with libtpu installed, JAX would otherwise start
    # the TPU runtime (its warnings on the terminal) before falling back to the CPU
    if not os.environ.get("JAX_PLATFORMS") and not xla_bridge.backends_are_initialized():
        jax.config.update("jax_platforms", "cpu")
    results = []
    for platform, lane in pairs:
        if ferry.stack:
            result = stack_lowering.lower_one(ferry, lane, platform)
        else:
            result = lower_one(ferry, lane, platform, ragged_dot, opts.tiling)
        if lane in on_topology:
            _on_topology(result, ferry, lane, lanes, opts)
        results.append(result)
    return LowerReport(ferry.name, results, jax.__version__)


def _check_topologies(opts: LowerOptions, lanes: list[Lane]) -> None:
    """Bad input before any lowering: a TPU lane's accelerator and topology (exit 2 naming the
    key), and a compile asked for where libtpu cannot do it."""
    from canary.run.topology import libtpu_status, topology_of

    for lane in lanes:
        topology_of(lane)
    if opts.compile:
        if not lanes:
            raise ConfigError("--compile: only a TPU lane's program is compiled (libtpu); name one with --lane")
        status = libtpu_status()
        if not status.ok:
            raise ConfigError(f"--compile needs the TPU compiler: {status.message()}")


def _on_topology(result: PlatformResult, ferry: Ferry, lane: Lane, lanes: dict[str, Lane], opts: LowerOptions) -> None:
    """The lane's whole program on its topology (or why only one chip's share was lowered), and its
    kernel executed for parity; either failing fails the platform."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from canary.run import parity
    from canary.run.topology import lower_on_topology

    # the topology's child process and the parity check (in this process) run side by side; Ctrl-C
    # or a failed parity check stops the child at once, never waiting out a compile of minutes
    stop = threading.Event()
    with ThreadPoolExecutor(1) as pool:
        child = pool.submit(
            lower_on_topology,
            opts.ferry,
            lane,
            opts.lanes_file,
            opts.compile,
            opts.compile_timeout_s,
            host_cache=opts.compile_cache,
            stop=stop,
        )
        try:
            if opts.parity:
                result.parity = parity.check(ferry, lanes.get("cpu"), lane)
            t = result.topology = child.result()
        except BaseException:
            stop.set()
            raise
    if not t["ran"]:
        result.notes.append(f"{t['fallback']}; lowered one chip's share only (no topology)")
    elif not t.get("ok"):
        result.ok = False
        c = t.get("compile") or {}
        why = t.get("error") or c.get("error") or f"{c.get('verdict')}: over the chip's HBM"
        result.error = result.error or f"on the topology {t['name']}: {why}"
    if result.parity and not result.parity["ok"]:
        result.ok = False
        result.error = result.error or f"parity: {result.parity['mismatch']}"


def against_history(report: LowerReport, ferry_ref: str, location: str | None = None) -> LowerReport:
    """Each lowered platform's fingerprint against the last passing run's on its lane (the
    history at ``location``, None: the default), with the likely causes from the window: the
    commits since that run's (those on the ferry's watched paths) and the version changes. A
    history or git that cannot answer leaves the comparison saying so, never fails the lowering."""
    from canary import git
    from canary.history import open_store, windows
    from canary.history.programs import compare
    from canary.run.workload import versions

    ferry, ferry_path = load_ferry(ferry_ref)
    now, head = versions(ferry_path), git.head_commit()
    for p in report.platforms:
        if not p.fingerprint:
            continue
        try:
            records = open_store(location, flush=False).records(lane=p.lane)
        except Exception as e:  # noqa: BLE001 - an unreadable history leaves the comparison unknown
            p.program = {"changed": None, "message": f"the run history could not be read ({type(e).__name__}: {e})"}
            continue
        window, note = None, ""
        c = compare(p.platform, p.lane, ferry.name, p.fingerprint, records)
        if c.changed and c.last_commit and head:
            try:
                window = windows.regression_window(git.commits_between(c.last_commit, head), ferry.watched_paths)
            except ConfigError as e:
                note = str(e)
        elif c.changed:
            note = "the last pass or this checkout has no recorded commit"
        if c.changed:
            c = compare(p.platform, p.lane, ferry.name, p.fingerprint, records, now, window, note)
        p.program = c.to_dict()
    return report
