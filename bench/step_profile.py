"""Where the cpu lane's train step spends its time, by the model's named scopes.

    python bench/step_profile.py [--steps 5] [--backend grouped] [--tile 16] [--variant dense --variant none]

Compiles the workload's own train step (the cpu lane's settings) once per configuration, in one
process, and times the configurations interleaved (so a busy moment of a shared machine hits
all of them alike). Then it profiles the first configuration with ``jax.profiler`` and sums
XLA's per-operation times by the scope that made each operation (``attention``,
``moe/experts``, ``moe/shared_expert``, the rest of ``moe`` = routing, ``lm_head``,
``optimizer``), forward and backward apart. Operation times are summed over both CPU threads,
so they add up to more than the step's wall time.

Configurations (the first is always the cpu lane's own: ``auto``):
  * ``--backend NAME``: another ragged_dot backend (``grouped``, ``xla``);
  * ``--tile N``: the ``grouped`` backend with this row tile;
  * ``--variant dense``: the routed experts replaced by one dense SwiGLU of the same FLOPs
    (two experts' weights side by side), to see what a free router and perfect grouping would
    leave; ``--variant none``: no MoE block at all. Both are measurements, not models to train.
The process runs with the allocator setting the harness gives a cpu workload.
"""

from __future__ import annotations

import argparse
import collections
import glob
import gzip
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCOPES = ("experts", "shared_expert", "moe", "attention", "lm_head", "optimizer")


def _reexec_with_allocator_env() -> None:
    from canary.ferries.builtin import cpu_allocator_env

    env = cpu_allocator_env(os.environ)
    if os.environ.get("GLIBC_TUNABLES") != env["GLIBC_TUNABLES"]:  # glibc reads it at start-up
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, **env, "JAX_PLATFORMS": "cpu"})


def _variant_moe(kind: str):
    import jax.numpy as jnp

    from canary.workload import model

    def dense(p, x, bias, cfg, ragged_dot):
        B, S, D = x.shape
        tokens = x.reshape(B * S, D)
        k = cfg.experts_per_token
        wg = p["w_gate"][:k].transpose(1, 0, 2).reshape(D, -1)
        wu = p["w_up"][:k].transpose(1, 0, 2).reshape(D, -1)
        y = model.swiglu(tokens, wg, wu, p["w_down"][:k].reshape(-1, D))
        if "shared" in p:
            s = p["shared"]
            y = y + model.swiglu(tokens, s["w_gate"], s["w_up"], s["w_down"])
        z = jnp.mean((tokens @ p["router"]) ** 2)
        return y.reshape(B, S, D), {"router_z_loss": z, "load_balancing_loss": z}

    def none(p, x, bias, cfg, ragged_dot):
        z = sum(jnp.sum(p[n]) * 0 for n in ("router", "w_gate", "w_up", "w_down"))
        return x * 0, {"router_z_loss": z, "load_balancing_loss": z}

    return {"dense": dense, "none": none}[kind]


def parse_options(text: str) -> dict:
    pairs = (kv.split("=", 1) for kv in text.split(","))
    return {k: int(v) if v.isdigit() else v for k, v in pairs}


def build(label: str, backend: str | None, tile: int | None, variant: str | None, backend_options: dict | None = None):
    import jax

    from canary.config import get_lane, load_ferry
    from canary.formats.spec import build_spec
    from canary.workload import model
    from canary.workload import ragged_dot as backends
    from canary.workload.train import make_corpus, make_train_step

    ferry, _ = load_ferry("moe-canary")
    spec = build_spec(ferry, get_lane("cpu"), run_id="profile", out_dir=Path(tempfile.gettempdir()), steps=200)
    original = model.moe
    if variant:
        model.moe = _variant_moe(variant)
    try:
        options = {"tile": tile} if tile else {}
        options.update(backend_options or {})
        fn = backends.make(backend or spec.ragged_dot, "cpu", tiling=spec.tiling, **options)
        ts = make_train_step(spec, fn)
        params, opt = ts.init(jax.random.PRNGKey(0))
        batch = make_corpus(spec).batch(0, spec.batch_size, spec.seq_len + 1)
        t = time.perf_counter()
        compiled = ts.step.lower(params, opt, ts.bias, batch).compile()
        compile_s = time.perf_counter() - t
    finally:
        model.moe = original
    return {
        "label": label,
        "compiled": compiled,
        "state": [params, opt],
        "bias": ts.bias,
        "batch": batch,
        "compile_s": compile_s,
        "durations": [],
    }


def run_steps(c: dict, n: int) -> None:
    params, opt = c["state"]
    for _ in range(n):
        t = time.perf_counter()
        params, opt, metrics = c["compiled"](params, opt, c["bias"], c["batch"])
        float(metrics["train/loss"])
        c["durations"].append(time.perf_counter() - t)
    c["state"] = [params, opt]


def profile_by_scope(c: dict, steps: int) -> tuple[dict, float]:
    import jax

    names = {}
    for line in c["compiled"].as_text().splitlines():
        m = re.match(r"\s*(?:ROOT )?%?([\w.\-]+) = ", line)
        op = re.search(r'op_name="([^"]*)"', line)
        if m:  # operations XLA added itself (copies, zero buffers) have no op_name: "other"
            names[m.group(1)] = op.group(1) if op else ""
    with tempfile.TemporaryDirectory() as tmp:
        with jax.profiler.trace(tmp, create_perfetto_trace=True):
            run_steps(c, steps)
        trace = sorted(glob.glob(f"{tmp}/**/*.trace.json.gz", recursive=True))[-1]
        events = json.load(gzip.open(trace))["traceEvents"]
    totals: dict[str, float] = collections.Counter()
    for e in events:
        op = names.get(e.get("name", "")) if e.get("ph") == "X" else None
        if op is None:
            continue
        scope = next((s for s in SCOPES if re.search(rf"(^|[/(]){s}([/)]|$)", op)), "other")
        if scope == "moe":
            scope = "moe routing"
        elif scope in ("experts", "shared_expert"):
            scope = f"moe/{scope}"
        direction = "" if scope in ("optimizer", "other") else (" bwd" if "transpose(" in op else " fwd")
        totals[scope + direction] += e["dur"] / 1e3 / steps
    return dict(totals), sum(totals.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backend", action="append", default=[], help="another ragged_dot backend (repeatable)")
    ap.add_argument("--tile", type=int, action="append", default=[], help="the grouped backend's row tile (repeatable)")
    ap.add_argument(
        "--options",
        action="append",
        default=[],
        metavar="KEY=VALUE[,KEY=VALUE]",
        help="expert matmul backend options for one more configuration (repeatable)",
    )
    ap.add_argument("--variant", choices=["dense", "none"], action="append", default=[])
    ap.add_argument("--rounds", type=int, default=12, help="interleaved rounds of 8 steps per configuration")
    ap.add_argument("--steps", type=int, default=5, help="steps under the profiler")
    opts = ap.parse_args()
    _reexec_with_allocator_env()

    configs = [build("auto", None, None, None)]
    configs += [build(b, b, None, None) for b in opts.backend]
    configs += [build(f"grouped, tile {t}", "grouped", t, None) for t in opts.tile]
    configs += [build(o, None, None, None, parse_options(o)) for o in opts.options]
    configs += [build(f"{v} (measurement only)", None, None, v) for v in opts.variant]
    for c in configs:
        run_steps(c, 5)  # warm up
        c["durations"].clear()
    for _ in range(opts.rounds):
        for c in configs:
            run_steps(c, 8)
    print(
        f"train step, cpu lane, {opts.rounds} interleaved rounds of 8 steps "
        f"(GLIBC_TUNABLES={os.environ.get('GLIBC_TUNABLES', '')})"
    )
    for c in configs:
        d = c["durations"]
        print(
            f"  {c['label']:28s} median {statistics.median(d) * 1e3:6.1f} ms   "
            f"p25 {statistics.quantiles(d, n=4)[0] * 1e3:6.1f} ms   compile {c['compile_s']:.2f} s"
        )
    totals, total = profile_by_scope(configs[0], opts.steps)
    print(f"\nXLA operation time per step of '{configs[0]['label']}', by scope (both threads: {total:.1f} ms)")
    for scope, ms in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"  {scope:28s} {ms:6.2f} ms  {ms / total:5.1%}")


if __name__ == "__main__":
    main()
