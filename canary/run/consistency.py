"""Cold/warm consistency: ``canary run LANE --cache both`` (and ``canary repro LANE --both``).

A compilation cache fails in both directions: it can hide a bug (a lowering that breaks only
when compiled fresh), and it can cause one (a warm read that crashes, or serves a program that
computes something else, where a cold compile passes). So the lane trains its steps twice:

1. ``cold``: the cache bypassed, every program lowered and compiled fresh;
2. ``warm``: the lane's cache (or ``--cache-dir``); when that found the cache empty (no hits:
   it has just filled it), ``warm-2`` trains once more, served from the filled cache.

then compares (:func:`judge`, pure) the per-step losses, bit for bit on CPU (to a relative
1e-6 elsewhere: accelerators need not be bit-reproducible), and the cache facts: the last warm
run must have been served from the cache (hits, no failed reads). Any difference is the gate
``cache_consistency`` failing, and the run's failure kind is ``cache_inconsistency``; a warm run
that crashes where the cold one passed is one too, with the crash's own signature in its detail.

On a cuda lane every pass runs with XLA's deterministic GPU ops
(:func:`canary.formats.compile_cache.check_env`), and the losses must agree bit for bit there too.
Without them XLA:GPU's atomic scatter-adds (the embedding's gradient) sum in whatever order the
threads finish: two cold runs of moe-canary's gpu lane on one H200 already differed by 2e-4 at step
10 (12.0985 against 12.0958), and a cold/warm pair failed the gate once in two tries with the cache
blameless. The deterministic programs are other cache entries than the daily run's (the flag is
part of the cache key), about a quarter slower a step there (64.0 ms against 51.4).

The run directory holds ``cold/`` and ``warm/`` (and ``warm-2/``), each an ordinary run
directory; the top level holds the deciding (last warm) run's files and the combined result.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from canary import history as history_mod
from canary import signature as signature_mod
from canary.formats import compile_cache, signals
from canary.formats.directory import PROMOTED, promote_file, write_record
from canary.formats.metrics import load_run_metrics
from canary.formats.spec import CacheSpec
from canary.judge.classify import classify
from canary.judge.results import GateResult, verdict_of
from canary.record import RunRecord

GATE = "cache_consistency"
KIND = "cache_inconsistency"
NON_CPU_RTOL = 1e-6


def _ran(record: RunRecord) -> bool:
    return bool(record.attempts) and record.attempts[-1].outcome == "succeeded"


def first_difference(
    cold: Sequence[tuple[int, float]], warm: Sequence[tuple[int, float]], rtol: float = 0.0
) -> tuple[int, float | None, float | None] | None:
    """The first step whose loss differs (bitwise when ``rtol`` is 0), or None."""
    a, b = dict(cold), dict(warm)
    for step in sorted(a.keys() | b.keys()):
        x, y = a.get(step), b.get(step)
        if x is None or y is None:
            return step, x, y
        if x == y or (math.isnan(x) and math.isnan(y)):
            continue
        if rtol and math.isfinite(x) and math.isfinite(y) and abs(x - y) <= rtol * abs(x):
            continue
        return step, x, y
    return None


def judge(
    cold: RunRecord,
    cold_losses: Sequence[tuple[int, float]],
    warm: RunRecord,
    warm_losses: Sequence[tuple[int, float]],
    bitwise: bool = True,
) -> GateResult:
    """The ``cache_consistency`` gate. Pure. SKIP when the cold run itself did not run to the
    end (then there is nothing to compare; its own failure is the verdict)."""
    how = "bitwise" if bitwise else f"rtol {NON_CPU_RTOL:g}"
    threshold = f"cold == warm ({how}), warm served from the cache"
    if not _ran(cold):
        return GateResult(GATE, None, threshold, "SKIP", "not judged: the cold run did not finish")
    if not _ran(warm):
        sig = warm.signature or (warm.attempts[-1].signature if warm.attempts else None)
        what = f"{sig.kind}: {sig.message}" if sig else (warm.error or "no detail").splitlines()[-1]
        return GateResult(
            GATE, "warm run failed", threshold, "FAIL", f"the warm run failed where the cold run passed ({what})"
        )
    diff = first_difference(cold_losses, warm_losses, 0.0 if bitwise else NON_CPU_RTOL)
    if diff:
        step, x, y = diff
        return GateResult(
            GATE,
            f"differs at step {step}",
            threshold,
            "FAIL",
            f"cold loss {x!r}, warm loss {y!r} at step {step}: the cache served another program",
        )
    cache = warm.cache or {}
    if cache.get("errors"):
        return GateResult(
            GATE,
            "cache read failed",
            threshold,
            "FAIL",
            f"the warm run could not read its cache ({len(cache['errors'])} error(s)): "
            + str(cache["errors"][0]).splitlines()[0][:300],
        )
    if not cache.get("hits"):
        return GateResult(
            GATE,
            "0 hits",
            threshold,
            "FAIL",
            f"the warm run compiled everything ({cache.get('requests', 0)} requests, 0 hits): "
            "nothing was served from the cache",
        )
    return GateResult(
        GATE,
        f"{len(warm_losses)} steps identical",
        threshold,
        "PASS",
        f"{cache.get('hits')} of {cache.get('requests')} programs from the cache",
    )


def signature_of(gate: GateResult, excerpt: str = "") -> Any:
    """The run's signature when the consistency gate failed: kind ``cache_inconsistency``, the
    message naming what differed (not the values, which vary)."""
    what = {
        "warm run failed": "the warm run failed where the cold run passed",
        "cache read failed": "the warm run could not read its compilation cache",
        "0 hits": "the warm run was served nothing from its cache",
    }.get(gate.value, "the warm run's losses differ from the cold run's")
    return signature_mod.make(KIND, None, what, [], excerpt or gate.detail)


def _losses(record: RunRecord) -> list[tuple[int, float]]:
    try:
        return load_run_metrics(Path(record.run_dir)).losses or []
    except Exception:  # noqa: BLE001 - a run that wrote nothing has no losses to compare
        return []


def combine(cold: RunRecord, warms: list[RunRecord], gate: GateResult, run_id: str, run_dir: Path) -> RunRecord:
    """The one record of a both-caches run: the last warm run's figures, every attempt, the
    consistency gate, and the verdict and signature that follow. Pure."""
    last = warms[-1]
    attempts = [
        replace(a, number=i) for i, a in enumerate([*cold.attempts, *(a for w in warms for a in w.attempts)], 1)
    ]
    gates = [*last.gates, gate.to_dict()]
    ok = cold.verdict == "pass" and last.verdict == "pass" and gate.status != "FAIL"
    if gate.status == "FAIL":
        signature = signature_of(gate)
        attempts[-1] = replace(attempts[-1], signature=signature)  # the warm attempt is the one that failed
    else:
        signature = None if ok else (cold.signature if cold.verdict != "pass" else last.signature)
    return replace(
        last,
        run_id=run_id,
        run_dir=str(run_dir),
        verdict="pass" if ok and verdict_of(g["status"] for g in gates) == "pass" else "fail",
        gates=gates,
        attempts=attempts,
        started_at=cold.started_at,
        signature=signature,
        classification=classify(attempts),
        error=last.error or cold.error,
        context={**last.context, "cache_both": {"cold": cold.run_dir, "warm": [w.run_dir for w in warms]}},
    )


def run_both(opts, progress=None) -> RunRecord:
    """Cold, then warm (twice when the first warm run found the cache empty), compared."""
    from canary.run.inputs import new_run_id, resolve_inputs
    from canary.run.runner import run_canary

    inputs = resolve_inputs(opts)  # read once for every pass
    env = compile_cache.check_env(inputs.lane.platform, opts.env or {}, os.environ)
    deterministic = env is not None
    if deterministic:
        opts = replace(opts, env=env)
    run_id = opts.run_id or new_run_id(opts.lane)
    top = Path(opts.out).resolve() / run_id
    top.mkdir(parents=True, exist_ok=False)
    sub = dict(out=top, record_history=False)
    cold = run_canary(replace(opts, run_id="cold", cache=CacheSpec(mode="cold"), **sub), progress, inputs)
    warm_cache = CacheSpec(mode="warm", dir=opts.cache.dir if opts.cache else None)
    warms: list[RunRecord] = []
    for name in ("warm", "warm-2"):
        if signals.requested() is not None or (warms and (not _ran(warms[0]) or (warms[0].cache or {}).get("hits"))):
            break  # told to stop; or the first warm run failed, or was already served from the cache
        warms.append(run_canary(replace(opts, run_id=name, cache=warm_cache, **sub), progress, inputs))
    if not warms or signals.requested() is not None:  # a stopped run compares nothing: it says so
        result = replace(warms[-1] if warms else cold, run_id=run_id, run_dir=str(top))
    else:
        bitwise = inputs.lane.platform == "cpu" or deterministic
        gate = judge(cold, _losses(cold), warms[-1], _losses(warms[-1]), bitwise=bitwise)
        result = combine(cold, warms, gate, run_id, top)
        if deterministic:
            result.context["cache_both"]["xla_flags"] = env["XLA_FLAGS"]
    for name in PROMOTED:
        src = Path((warms or [cold])[-1].run_dir) / name
        if src.is_file():
            promote_file(src, top / name)
    if opts.record_history:
        result.context["history"] = history_mod.record_run(result, opts.history, opts.store)
    write_record(top, result)
    return result
