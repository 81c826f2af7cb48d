"""A TPU lane's topology, and the TPU compiler (libtpu) that lowers and compiles its whole program
on a machine with no TPU.

    topology_name(lane)        # "v6e:2x2", from the lane's accelerator ("v6e-4") and topology ("2x2")
    libtpu_status()            # installed?, its version, the one the installed JAX pairs with
    run_worker(request, ...)   # canary.run.topology_worker in a child process, with a timeout

libtpu loads only in the child (:mod:`canary.run.topology_worker`): it runs with ``JAX_PLATFORMS=cpu``
(JAX's own computations stay on the CPU) and the TPU environment a Cloud TPU VM's metadata server
would give (``TPU_SKIP_MDS_QUERY=1``, accelerator type, one worker on 127.0.0.1), so the runtime
never asks the network; its output (libtpu's init warnings) goes to a log file, never the terminal.
A child that runs past its timeout is killed with its process group and reported as a timeout.
Nothing here imports JAX or libtpu.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from canary.config import Lane
from canary.errors import ConfigError
from canary.judge.results import GateResult

GIB = 1 << 30
# TPU generations: the topology name's prefix for each, and one chip's HBM (public Cloud TPU specs)
HBM_BYTES = {"v4": 32 * GIB, "v5e": 16 * GIB, "v5p": 95 * GIB, "v6e": 32 * GIB}
ALIASES = {"v5litepod": "v5e", "v5lite": "v5e"}
EXTRA = "pip install 'canary[tpu]' (from a checkout: pip install -e '.[tpu]')"
_ACCELERATOR = re.compile(r"^(?P<gen>v\d+[a-z]*)-(?P<chips>\d+)$")
_TOPOLOGY = re.compile(r"^\d+(x\d+){1,2}$")


@dataclass(frozen=True)
class Topology:
    name: str  # as get_topology_desc takes it: "v6e:2x2"
    generation: str  # "v6e"
    chips: int
    hbm_bytes: int  # one chip's


def topology_of(lane: Lane) -> Topology:
    """The lane's TPU topology from its ``accelerator`` and ``topology`` keys (pure); a key that
    names no known generation, or a topology whose chips are not the lane's, is a ConfigError
    (exit 2) naming the key."""
    m = _ACCELERATOR.match(lane.accelerator.strip().lower())
    gen = ALIASES.get(m["gen"], m["gen"]) if m else None
    if not m or gen not in HBM_BYTES:
        raise ConfigError(
            f"lanes.{lane.name}.accelerator = {lane.accelerator!r}: not a TPU accelerator canary knows "
            f"(GENERATION-CHIPS, one of {', '.join(HBM_BYTES)}, e.g. 'v6e-4')"
        )
    chips = int(m["chips"])
    if not lane.topology:
        raise ConfigError(f"lanes.{lane.name}.topology is not set: a TPU lane names its chips' layout, e.g. '2x2'")
    if not _TOPOLOGY.match(lane.topology):
        raise ConfigError(f"lanes.{lane.name}.topology = {lane.topology!r}: not a layout like '2x2' or '2x2x1'")
    laid_out = 1
    for d in lane.topology.split("x"):
        laid_out *= int(d)
    if laid_out != chips or chips != lane.devices:
        raise ConfigError(
            f"lanes.{lane.name}.topology = {lane.topology!r}: {laid_out} chips, but accelerator "
            f"{lane.accelerator!r} has {chips} and the lane {lane.devices} devices"
        )
    return Topology(f"{gen}:{lane.topology}", gen, chips, HBM_BYTES[gen])


def topology_name(lane: Lane) -> str:
    return topology_of(lane).name


# ----------------------------------------------------------------------------- libtpu


@dataclass(frozen=True)
class LibtpuStatus:
    installed: str | None  # libtpu's version, None when it cannot be imported here
    wanted: str | None  # the requirement the installed JAX's `tpu` extra names, e.g. "==0.0.42.*"
    jax: str | None

    @property
    def ok(self) -> bool:
        return self.installed is not None and self.pairs

    @property
    def pairs(self) -> bool:
        if self.installed is None or not self.wanted:
            return self.installed is not None
        from packaging.specifiers import SpecifierSet

        return SpecifierSet(self.wanted).contains(self.installed, prereleases=True)

    def message(self) -> str:
        if self.installed is None:
            return f"libtpu is not installed (jax {self.jax} pairs with libtpu{self.wanted or ''}): {EXTRA}"
        if not self.pairs:
            return (
                f"libtpu {self.installed} does not pair with jax {self.jax} "
                f"(its tpu extra wants libtpu{self.wanted}): {EXTRA}"
            )
        return f"libtpu {self.installed} (jax {self.jax} wants libtpu{self.wanted or ' of any version'})"


def _version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def wanted_libtpu(requires: list[str] | None) -> str | None:
    """The libtpu specifier in JAX's requirements (its ``tpu`` extra), e.g. ``"==0.0.42.*"``. Pure."""
    for r in requires or ():
        m = re.match(r"^\s*libtpu\s*(?P<spec>[^;]*)", r)
        if m and "tpu" in r.split(";", 1)[-1]:
            return m["spec"].strip() or None
    return None


def libtpu_status() -> LibtpuStatus:
    try:
        found = importlib.util.find_spec("libtpu") is not None
    except (ImportError, ValueError):
        found = False
    try:
        requires = importlib.metadata.requires("jax")
    except importlib.metadata.PackageNotFoundError:
        requires = None
    return LibtpuStatus(_version("libtpu") if found else None, wanted_libtpu(requires), _version("jax"))


# ----------------------------------------------------------------------------- the child process


def worker_env(topology: Topology, environ: dict[str, str]) -> dict[str, str]:
    """The child's environment: the caller's, with JAX on the CPU and libtpu told the TPU setup a
    Cloud TPU VM's metadata server would have (so it queries none). Pure."""
    return {
        **environ,
        "JAX_PLATFORMS": "cpu",
        "TPU_SKIP_MDS_QUERY": "1",
        "TPU_ACCELERATOR_TYPE": f"{topology.generation}-{topology.chips}",
        "TPU_WORKER_HOSTNAMES": "127.0.0.1",
        "TPU_WORKER_ID": "0",
        # compile-only devices hold no TPU: concurrent lowerings on one host (two preflights, the
        # tests) must not fight over libtpu's one-process lock file (/tmp/libtpu_lockfile)
        "ALLOW_MULTIPLE_LIBTPU_LOAD": "1",
        "GRPC_VERBOSITY": "ERROR",
        "TF_CPP_MIN_LOG_LEVEL": environ.get("TF_CPP_MIN_LOG_LEVEL", "1"),
    }


def log_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("canary")) / "lower"


def run_worker(
    request: dict[str, Any],
    topology: Topology,
    timeout_s: float,
    log: Path,
    module: str = "canary.run.topology_worker",
    stop: threading.Event | None = None,
) -> dict[str, Any]:
    """Run ``module`` (:mod:`canary.run.topology_worker`) on ``request`` in a child process (its own
    process group), its output appended to ``log``; its result, or ``{"ok": False, "timed_out":
    True, ...}`` when it ran past ``timeout_s`` (the group is killed), or the child's failure.
    ``stop`` set (the command interrupted, from another thread) kills the group at once and raises
    :class:`Interrupted`."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="canary-topology-") as tmp:
        req, out = Path(tmp) / "request.json", Path(tmp) / "result.json"
        req.write_text(json.dumps(request))
        t0 = time.perf_counter()
        with log.open("a") as sink:
            sink.write(f"\n=== canary lower on {topology.name}: {json.dumps(request)}\n")
            sink.flush()
            proc = subprocess.Popen(
                # the child dies with this process (its pid last): never a compile left running
                [sys.executable, "-m", module, str(req), str(out), str(os.getpid())],
                env=worker_env(topology, dict(os.environ)),
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=sink,
                start_new_session=True,
            )
            try:
                rc = _wait(proc, t0 + timeout_s, stop)
            except subprocess.TimeoutExpired:
                return {
                    "ok": False,
                    "timed_out": True,
                    "error": f"timed out after {timeout_s:g} s on {topology.name}; the child was killed (log: {log})",
                    "seconds": round(time.perf_counter() - t0, 3),
                }
        if out.exists():
            return json.loads(out.read_text())
        return {
            "ok": False,
            "error": f"the lowering process on {topology.name} exited with status {rc} and no result (log: {log})",
            "seconds": round(time.perf_counter() - t0, 3),
        }


class Interrupted(Exception):
    """The command was interrupted while the topology's child ran; the child is gone."""


def _wait(proc: subprocess.Popen, deadline: float, stop: threading.Event | None) -> int:
    """The child's exit status; past ``deadline`` (perf_counter) ``TimeoutExpired``, and when
    ``stop`` is set :class:`Interrupted`, the child's group killed either way, as on any exception."""
    try:
        while True:
            try:
                return proc.wait(timeout=max(0.0, min(0.5, deadline - time.perf_counter())))
            except subprocess.TimeoutExpired:
                if stop is not None and stop.is_set():
                    raise Interrupted("interrupted: the topology's child was killed") from None
                if time.perf_counter() >= deadline:
                    raise
    except BaseException:  # Ctrl-C, a stop or the deadline: the compile stops with the command
        _kill_group(proc)
        raise


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL to the child's process group, and wait for the child."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


NEAR_HBM = 0.9  # a compiled footprint past this fraction of the chip's HBM is a warning


def lower_on_topology(
    ferry: str,
    lane: Lane,
    lanes_file: str | None,
    compile: bool,
    timeout_s: float,
    log: Path | None = None,
    host_cache: bool = True,
    stop: threading.Event | None = None,
) -> dict[str, Any]:
    """The ferry's (a name or a path) whole train step lowered (and compiled) on the lane's topology
    in a child process; ``{"ran": False, "fallback": ...}`` when libtpu cannot do it here. A compile
    is served from, or kept in, the host's compile cache unless ``host_cache`` is False; ``stop``
    set kills the child (:func:`run_worker`)."""
    from canary.run.cache_key import host_dir

    topology = topology_of(lane)
    status = libtpu_status()
    if not status.ok:
        return {"name": topology.name, "ran": False, "ok": True, "fallback": status.message()}
    log = log or log_dir() / f"{lane.name}-{Path(ferry).stem}.log"
    request = {"ferry": ferry, "lane": lane.name, "lanes_file": lanes_file, "topology": topology.name}
    request.update(compile=compile, host_cache=str(host_dir(lane.name)) if compile and host_cache else None)
    out = {"ran": True, "log": str(log), **run_worker(request, topology, timeout_s, log, stop=stop)}
    out["name"] = topology.name
    done = out.get("compile")
    if done and done.get("ok"):
        total, hbm = done["memory"]["total"], topology.hbm_bytes
        done.update(hbm_bytes=hbm, fraction=round(total / hbm, 4))
        done["verdict"] = "FAIL" if total > hbm else "WARN" if total > NEAR_HBM * hbm else "PASS"
        out["ok"] = out.get("ok", False) and done["verdict"] != "FAIL"
    elif out.get("timed_out") and compile:
        out["compile"] = {"ok": False, "timed_out": True, "error": out["error"], "seconds": out.get("seconds")}
    return out


DRIFT = 0.10  # a compiled footprint this much over the recorded one is a warning


def memory_gate(compiled: dict[str, Any] | None, recorded: float | None = None) -> GateResult:
    """The lane's memory gate on the compiled per-chip footprint (``compiled``: a topology's
    ``compile`` result): FAIL over the chip's HBM, WARN past :data:`NEAR_HBM` of it or
    :data:`DRIFT` over ``recorded`` (the last passing preflight's), else PASS; SKIP when nothing
    was compiled. Pure."""
    name = "compiled_memory"
    if not compiled or not compiled.get("ok"):
        why = "not compiled (--compile compiles it)" if not compiled else "the compile failed"
        return GateResult(name, None, None, "SKIP", why)
    total, hbm = compiled["memory"]["total"], compiled["hbm_bytes"]
    detail = f"{_gib(total)} per chip of {_gib(hbm)} HBM ({100 * total / hbm:.1f}%)"
    if recorded:
        detail += f"; {100 * (total / recorded - 1):+.1f}% from the recorded {_gib(int(recorded))}"
    if total > hbm:
        return GateResult(name, total, hbm, "FAIL", detail, round((hbm - total) / hbm, 4))
    if total > NEAR_HBM * hbm:
        return GateResult(name, total, int(NEAR_HBM * hbm), "WARN", detail + ": near the chip's HBM")
    if recorded and total > recorded * (1 + DRIFT):
        ceiling = int(recorded * (1 + DRIFT))
        return GateResult(name, total, ceiling, "WARN", detail + f": over {100 * DRIFT:.0f}% more than recorded")
    return GateResult(name, total, hbm, "PASS", detail, round((hbm - total) / hbm, 4))


def _served(compiled: dict[str, Any]) -> str:
    """Whether the compile's outcome came from the host's compile cache, as the line says it. Pure."""
    h = compiled.get("host_cache")
    if not h:
        return " (host compile cache off)" if "timed_out" not in compiled else ""
    if h.get("served"):
        return f" (served from the host compile cache {h['dir']}; compiled cold in {h.get('cold_seconds')} s)"
    if h.get("not_kept"):
        return f" (not in the host compile cache, and not kept in {h['dir']}: {h['not_kept']})"
    return f" (not in the host compile cache; kept in {h['dir']})"


def _gib(n: int) -> str:
    return f"{n / GIB:.2f} GiB"


def lines(t: dict[str, Any]) -> list[str]:
    """What the topology's lowering (and compile) found, as the terminal shows it. Pure."""
    if not t.get("ran"):
        return [f"topology     {t['name']} not used: {t['fallback']}"]
    mesh = " x ".join(f"{k} {v}" for k, v in (t.get("mesh") or {}).items())
    head = (
        f"topology     {t['name']} ({t.get('devices', '?')} x {t.get('device_kind', 'TPU')}, libtpu {t.get('libtpu')})"
    )
    out = [head]
    if mesh:
        out.append(f"  mesh {mesh}; global batch {t.get('batch_size')} x {t.get('seq_len')}; {t.get('ragged_dot')}")
    if t.get("fingerprint"):
        out.append(f"  lowered in {t.get('lower_seconds')} s, program {t['fingerprint'][:12]}")
    elif t.get("error"):
        out.append(f"  FAILED on the topology: {t['error']}")
        out += [f"  {k:<12} {t[k]}" for k in ("diagnosis", "owner") if t.get(k)]
    c = t.get("compile")
    if c:
        if c.get("ok"):
            m = c["memory"]
            out.append(
                f"  compiled in {c['seconds']} s{_served(c)}, program {c['fingerprint'][:12]}; per chip: "
                f"temp {_gib(m['temp'])}, arguments {_gib(m['arguments'])}, outputs {_gib(m['outputs'])}, "
                f"generated code {_gib(m['generated_code'])}, total {_gib(m['total'])} of {_gib(c['hbm_bytes'])} HBM "
                f"({100 * c['fraction']:.1f}%): {c['verdict']}"
            )
        else:
            out.append(
                f"  compile {'TIMED OUT' if c.get('timed_out') else 'FAILED'} after {c.get('seconds')} s{_served(c)}: "
                f"{c['error']}"
            )
        g = c.get("gate")
        if g and g["status"] != "SKIP":
            out.append(f"  memory gate {g['status']}: {g['detail']}")
    from canary.run.cache_key import lines as cache_lines

    out += cache_lines(t.get("cache"))
    out.append(f"  log {t['log']}")
    return out
