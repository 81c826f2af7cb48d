"""A lowering preflight (``canary lower``) recorded like a run: one run record per lane, in a series
of its own (its ferry named ``<ferry>:preflight``, :data:`canary.history.series.PREFLIGHT`), so
its passes and failures never count in the lane's training series, and a run directory under
``--out`` that ``canary notify`` takes like any other.

    records = record_preflight(report, opts, out=Path("runs"), started=started)
    records[0].ferry        # "moe-canary:preflight"
    records[0].signature    # a lowering, compile or parity failure's own fingerprint

What failed is read from the report (:class:`canary.run.lowering.LowerReport`): a lowering's
Pallas block-shape failure, the topology's lowering or compile (an out-of-memory, a Mosaic error,
a timeout) and a parity mismatch each get a ``compile_error`` signature (``timeout`` for a
compile past its timeout) made of the diagnosis, with the failing call path and the owning
distribution; its fingerprint is that failure's across preflights. The gates are the checks
themselves (``lowering``, ``parity``) and the compiled footprint's memory gate
(:func:`canary.run.topology.memory_gate`).
"""

from __future__ import annotations

import json
import os
import platform as platform_mod
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from canary import signature as signature_mod
from canary.config import config_identity, experiment, load_ferry, load_lanes, resolve
from canary.formats import directory
from canary.git import head_commit
from canary.history.series import preflight_series
from canary.judge.classify import classify
from canary.judge.results import GateResult
from canary.judge.results import verdict as gates_verdict
from canary.record import Attempt, RunRecord, Signature
from canary.run.context import run_context
from canary.run.lowered import PlatformResult
from canary.run.ownership import stack_versions
from canary.run.workload import versions

REPORT_FILE = "lower.json"
LOG_FILE = "lower.log"


def failure_of(p: PlatformResult) -> dict[str, Any] | None:
    """What failed on a platform, as a signature's parts (kind, exception, message, frames, owner,
    excerpt), or None when it passed. Pure."""
    if p.ok:
        return None
    t, par = p.topology or {}, p.parity or {}
    c = t.get("compile") or {}
    if p.fingerprint is None and p.error:  # the one-chip lowering itself
        frames = p.call_path or [x for x in (p.kernel, p.gmm) if x]
        text, message, owner = p.error, p.diagnosis or p.error, p.owner
    elif t.get("ran") and not t.get("fingerprint") and t.get("error"):  # the topology's lowering
        text, message, frames, owner = t["error"], t.get("diagnosis") or t["error"], t.get("call_path"), t.get("owner")
    elif c and not c.get("ok"):  # the compile: an out-of-memory, a Mosaic error, a timeout
        text = message = c.get("error") or "the compile failed"
        frames, owner = [], None
    elif c.get("verdict") == "FAIL":  # compiled, over the chip's HBM
        text = message = f"the compiled program needs more than the chip's {c.get('hbm_bytes')} bytes of HBM"
        frames, owner = [], None
    elif par and not par.get("ok"):
        worst = max((r for r in par["checks"] if not r["ok"]), key=lambda r: r["error"] / r["tolerance"])
        text = par["mismatch"]
        message = (
            f"parity: {par['kernel']} differs from XLA's ragged_dot in {worst['gradient']} of the "
            f"{worst['projection']} projection at the {worst['shape']}'s shape"
        )
        frames, owner = [par["kernel"]], par.get("owner")
    else:
        text = message = p.error or "the preflight failed"
        frames, owner = [], p.owner
    exception, _, rest = text.partition(": ")
    exception = exception if rest and exception.isidentifier() else None
    kind = "timeout" if c.get("timed_out") or t.get("timed_out") else "compile_error"
    return {
        "kind": kind,
        "exception": exception,
        "message": message,
        "frames": list(frames or []),
        "owner": owner,
        "excerpt": text,
    }


def signature_of(p: PlatformResult, ferry: str) -> Signature | None:
    f = failure_of(p)
    if f is None:
        return None
    message = f"{f['message']} (ferry {ferry}, {p.platform})"
    return signature_mod.make(f["kind"], f["exception"], message, f["frames"], f["excerpt"])


def gates_of(p: PlatformResult, memory: GateResult | None) -> list[GateResult]:
    """The preflight's gates on one platform: its lowering (and the topology's compile), its
    parity check, the compiled footprint's memory gate. Pure."""
    f = failure_of(p)
    parity_failed = f is not None and bool(p.parity) and not p.parity["ok"] and f["frames"] == [p.parity["kernel"]]
    lowered = "FAIL" if f is not None and not parity_failed else "PASS"
    out = [GateResult(f"lowering/{p.platform}", p.fingerprint, "lowers", lowered, (f or {}).get("message", ""))]
    if p.parity:
        out.append(
            GateResult(f"parity/{p.platform}", len(p.parity["checks"]), "within tolerance",
                       "PASS" if p.parity["ok"] else "FAIL", p.parity.get("mismatch", ""))
        )  # fmt: skip
    if memory is not None:
        out.append(memory)
    return out


def summary_of(p: PlatformResult) -> dict[str, Any]:
    """What the history keeps of a platform's preflight: its program's fingerprints, the compile's
    seconds and per-chip footprint (what ``history --changes`` searches)."""
    t = p.topology or {}
    c = t.get("compile") or {}
    out: dict[str, Any] = {"program/platform": p.platform, "program/lower_seconds": p.seconds}
    if p.fingerprint:
        out["program/fingerprint"] = p.fingerprint
    if t.get("fingerprint"):
        out["program/topology_fingerprint"] = t["fingerprint"]
        out["program/topology"] = t.get("name")
    if c.get("ok"):
        out["compile/seconds"] = c["seconds"]
        out["program/compiled_fingerprint"] = c.get("fingerprint")
        out["memory/compiled_bytes"] = c["memory"]["total"]
        out["memory/hbm_bytes"] = c.get("hbm_bytes")
    if p.parity:
        out["parity/seconds"] = p.parity.get("seconds")
    return {k: v for k, v in out.items() if v is not None}


def failing_gmm(p: PlatformResult) -> dict[str, Any] | None:
    """The failing grouped matmul a reproducer is written for: the one the diagnosis names (the
    one-chip lowering's, else the topology's), or None (no grouped matmul was traced). Pure."""
    for found, failures in ((p, p.failures), (p.topology or {}, (p.topology or {}).get("failures") or [])):
        get = found.get if isinstance(found, dict) else lambda k, o=found: getattr(o, k, None)
        named = [f for f in failures if f.get("gmm") == get("gmm") and f.get("projection") == get("projection")]
        for f in named or failures:
            if f.get("dims") and f.get("block_shape"):
                return f
    return None


def reproduce(
    p: PlatformResult, ferry: Any, lane: str, run_dir: Path, ferry_ref: str = "", lanes_file: str | None = None
) -> dict[str, Any] | None:
    """``repro.py`` for a grouped-matmul lowering failure, a compile failure on the topology, or a
    stack ferry's parity mismatch, written into ``run_dir`` and run (:mod:`canary.run.reproducer`);
    None for any other failure (a compile past its timeout: its reproducer is the preflight)."""
    from canary.run import reproducer

    compiled = (p.topology or {}).get("compile") or {}
    if compiled.get("ok") is False and not compiled.get("timed_out") and not failing_gmm(p):
        out = _compile_repro(p, ferry_ref or ferry.name, lane, lanes_file, run_dir)
        return {**out, "script": Path(out["path"]).read_text()}

    owner = p.owner or (p.topology or {}).get("owner") or (p.parity or {}).get("owner")
    names = ["jax", "jaxlib"] + ([owner.split()[0]] if ferry.stack and owner else [])
    failure = failing_gmm(p)
    if failure is not None:
        settings = ferry.lane(lane)
        dtype = getattr(settings, "compute_dtype", None) or ferry.trainer.compute_dtype
        out = reproducer.write_and_check(
            run_dir,
            failure,
            experts=ferry.model.num_experts,
            dtype=str(dtype),
            library="haliax" if ferry.stack else "megablox",
            versions=stack_versions(tuple(names)),
        )
    elif ferry.stack and p.parity and not p.parity["ok"]:
        from canary.run import parity

        worst = max((r for r in p.parity["checks"] if not r["ok"]), key=lambda r: r["error"] / r["tolerance"])
        sizes = [int(x) for x in parity._inputs(worst)[2]]
        text = reproducer.parity_script(worst, sizes, p.parity["kernel"], stack_versions(tuple(names)))
        out = reproducer.run_script(run_dir, text, reproducer.parity_reproduced)
    else:
        return None
    return {**out, "script": Path(out["path"]).read_text()}


def _compile_repro(p: PlatformResult, ferry_ref: str, lane: str, lanes_file: str | None, run_dir: Path) -> dict:
    """The compile failure's ``repro.py``: the train step compiled on the topology, with the
    packages that made the program (jax, jaxlib, libtpu, canary, a stack ferry's distributions)."""
    from canary.run import reproducer, topology

    t = p.topology or {}
    env = topology.worker_env(topology.topology_of(load_lanes(lanes_file)[0][lane]), {})
    env.pop("TF_CPP_MIN_LOG_LEVEL", None)
    names = ("jax", "jaxlib", "libtpu", "canary", *(t.get("distributions") or {}))
    versions = {"libtpu": t.get("libtpu"), **stack_versions(tuple(dict.fromkeys(names)))}
    error = t["compile"]["error"]
    text = reproducer.compile_script(
        ferry=ferry_ref,
        lane=lane,
        lanes_file=lanes_file,
        topology=t["name"],
        env=env,
        error=error,
        versions=versions,
        commit=head_commit(str(Path.cwd())),
    )
    check = lambda rc, output: reproducer.compile_reproduced(error, rc, output)  # noqa: E731
    return reproducer.run_script(run_dir, text, check, timeout_s=reproducer.TIMEOUT_S)


def new_run_id(lane: str, now: datetime) -> str:
    import secrets

    return f"{now:%Y%m%dT%H%M%SZ}-{lane}-preflight-{secrets.token_hex(2)}"


def record_lane(
    platforms: list[PlatformResult],
    report: dict[str, Any],
    lines: list[str],
    *,
    ferry_ref: str,
    out: Path,
    started: datetime,
    memory: GateResult | None = None,
    lanes_file: str | None = None,
) -> RunRecord:
    """One lane's preflight as a run record, written to its run directory under ``out``
    (``result.json``, the report as ``lower.json``, what the terminal showed as ``lower.log``)."""
    ferry, ferry_path = load_ferry(ferry_ref)
    lane_name = platforms[0].lane
    lane = load_lanes(lanes_file)[0].get(lane_name)
    run_id = new_run_id(lane_name, started)
    run_dir, log = _run_dir(out, run_id, report, lines)
    failing = next((p for p in platforms if not p.ok), None)
    sig = signature_of(failing, ferry.name) if failing else None
    repro = reproduce(failing, ferry, lane_name, run_dir, ferry_ref, lanes_file) if failing else None
    gates = [g for p in platforms for g in gates_of(p, memory if p.platform == "tpu" else None)]
    seconds = round(time.time() - started.timestamp(), 3)
    attempt = _attempt(failing, sig, seconds, log)
    owner = (failure_of(failing) or {}).get("owner") if failing else None
    identity = {
        **config_identity("ferry", ferry_path),
        **config_identity("gates", resolve("gates", ferry.name)),
    }
    summary = {k: v for p in platforms for k, v in summary_of(p).items()}
    record = RunRecord(
        run_id=run_id,
        lane=lane_name,
        ferry=preflight_series(ferry.name),
        ferry_version=ferry.version,
        verdict="fail" if failing else gates_verdict(gates),
        steps_completed=None,
        final_loss=None,
        gates=[g.to_dict() for g in gates],
        run_dir=str(run_dir),
        attempts=[attempt],
        error=failing.error if failing else None,
        started_at=started.isoformat(timespec="milliseconds"),
        ended_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        summary=summary,
        versions=versions(ferry_path),
        commit=head_commit(str(Path.cwd())),
        classification=classify([attempt]),
        signature=sig,
        failing_distribution=owner.split()[0] if owner else None,
        context={
            **run_context(os.environ, lane_context=lane.context if lane else "", host=platform_mod.node()),
            "preflight": [p.platform for p in platforms],
            **({"repro": repro} if repro else {}),
        },
        experiment=experiment(ferry.name, identity),
        **identity,
    )
    directory.write_record(run_dir, record)
    return record


def _attempt(failing: PlatformResult | None, sig, seconds: float, log: Path) -> Attempt:
    """The preflight as the one attempt of its run."""
    return Attempt(
        1,
        "failed" if failing else "succeeded",
        1 if failing else 0,
        seconds,
        str(log),
        error=failing.error if failing else None,
        signature=sig,
        detail="the lowering preflight",
    )


def _run_dir(out: Path, run_id: str, report: dict[str, Any], lines: list[str]) -> tuple[Path, Path]:
    """The preflight's run directory under ``out``, with the report (``lower.json``) and what the
    terminal showed (``lower.log``) in it; and that log's path."""
    run_dir = Path(out).resolve() / run_id
    run_dir.mkdir(parents=True, exist_ok=False)
    (run_dir / REPORT_FILE).write_text(json.dumps(report, indent=2, default=str) + "\n")
    log = run_dir / LOG_FILE
    log.write_text("\n".join(lines) + "\n")
    return run_dir, log


def recorded_footprint(store: Any, lane: str, ferry: str) -> float | None:
    """The compiled footprint of the series' last passing preflight that compiled, or None (no
    history, none recorded, a history that cannot be read)."""
    if store is None:
        return None
    from canary.history.changes import series

    try:
        points = series(store.records(lane=lane), lane, preflight_series(ferry), "compiled_memory")
    except Exception:  # noqa: BLE001 - an unreadable history leaves the drift unjudged
        return None
    return points[-1].value if points else None


def memory_gates(report: Any, store: Any = None) -> dict[str, GateResult]:
    """Each compiled TPU lane's memory gate (:func:`canary.run.topology.memory_gate`), judged
    against its preflight series' recorded footprint (``store``: the history, None: none), and
    kept with the compile's result in the report (``compile.gate``)."""
    from canary.run.topology import memory_gate

    gates = {}
    for p in report.platforms:
        compiled = (p.topology or {}).get("compile")
        if p.platform == "tpu" and compiled:
            gate = gates[p.lane] = memory_gate(compiled, recorded_footprint(store, p.lane, report.ferry))
            compiled["gate"] = gate.to_dict()
    return gates


def record_report(
    report: Any,
    text: str,
    *,
    ferry_ref: str,
    out: Path,
    started: datetime,
    gates: dict[str, GateResult] | None = None,
    lanes_file: str | None = None,
    history: str | None = None,
    store: Any = None,
    record_history: bool = True,
) -> list[RunRecord]:
    """Each lane's preflight in ``report`` (a :class:`canary.run.lowering.LowerReport`) recorded,
    with its memory gate (``gates``, :func:`memory_gates`): its run directory written under
    ``out`` and its record appended to the history (unless ``record_history`` is False)."""
    from canary import history as history_mod

    by_lane: dict[str, list[PlatformResult]] = {}
    for p in report.platforms:
        by_lane.setdefault(p.lane, []).append(p)
    records = []
    for lane, platforms in by_lane.items():
        record = record_lane(
            platforms,
            report.to_dict(),
            text.splitlines(),
            ferry_ref=ferry_ref,
            out=out,
            started=started,
            memory=(gates or {}).get(lane),
            lanes_file=lanes_file,
        )
        if record_history:
            record.context["history"] = history_mod.record_run(record, history, store)
            directory.write_record(Path(record.run_dir), record)
        records.append(record)
    return records
