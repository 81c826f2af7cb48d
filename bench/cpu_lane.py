"""The cpu lane against its targets, in one invocation:

    python bench/cpu_lane.py [--steps 200] [--repeat 1] [--ragged-dot auto]

Prints, side by side:
  * `canary run cpu --cold`: time-to-verdict (wall, process start to exit), compile seconds,
    median step time, tokens/s, final loss, verdict; and the same with a filled (warm) cache;
  * the same ferry in a bare JAX loop (the workload's own train step, no harness, no metrics
    file, no child process): wall, compile, median step, final loss;
  * the step's FLOPs (an analytic count of the real work; XLA's cost analysis of the compiled
    step, which counts the grouped matmul's padded tile rows), this machine's float32
    matmul GFLOP/s measured now (at a peak-reaching size, and at the expert MLP's own shapes
    chained in one program), and the step's ratio to each FLOP limit;
  * the harness/bare wall ratio;
  * start-up of the commands that need no training, and whether they imported JAX.
A plain script, run by hand; the figures go to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from canary.ferries.builtin import cpu_allocator_env  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(ROOT), "JAX_PLATFORMS": "cpu"}
# The bare loop runs in the process environment the harness gives its cpu workload (its malloc
# tunables), so the harness/bare ratio measures the harness alone. Set GLIBC_TUNABLES around
# this script (e.g. glibc.malloc.mmap_max=65536) to measure both with a tunable undone.
BARE_ENV = {**ENV, **cpu_allocator_env(os.environ)}

BARE_LOOP = r"""
import json, os, resource, sys, time
t_start = time.perf_counter()
from pathlib import Path
import jax, jax.numpy as jnp
from canary.config import get_lane, load_ferry
from canary.formats.spec import build_spec
from canary.workload.train import make_corpus, make_train_step

steps, ragged = int(sys.argv[1]), sys.argv[2]
ferry, _ = load_ferry("moe-canary")
spec = build_spec(ferry, get_lane("cpu"), run_id="bare", out_dir=Path("/tmp"), steps=steps, ragged_dot=ragged)
ts = make_train_step(spec)
batches = make_corpus(spec).stream(steps, spec.batch_size, spec.seq_len + 1)  # as the workload samples them
params, opt = ts.init(jax.random.PRNGKey(spec.ferry.trainer.seed))
batch = batches.get(0)
t0 = time.perf_counter()
compiled = ts.step.lower(params, opt, ts.bias, batch).compile()
compile_s = time.perf_counter() - t0
durations = []
faults0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for i in range(steps):
    t = time.perf_counter()
    params, opt, metrics = compiled(params, opt, ts.bias, batch)
    if i + 1 < steps:
        batch = batches.get(i + 1)
    loss = float(metrics["train/loss"])
    durations.append(time.perf_counter() - t)
faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults0) / steps
t_done, cpu_done = time.perf_counter(), time.process_time()  # the loop's verdict; what follows is measurement
cost = compiled.cost_analysis()
cost = cost[0] if isinstance(cost, (list, tuple)) else cost
temp_mb = compiled.memory_analysis().temp_size_in_bytes / 1e6

# This machine's float32 matmul rate, measured in the same process: at a size that reaches the
# machine's peak, and at the expert MLP's own shapes (2,048 routed rows, 32 -> 128 -> 32), 100
# up and down projections chained in one program so that no call's dispatch is counted.
def rate(m, k, n, reps):
    a, b = jnp.ones((m, k), jnp.float32), jnp.ones((k, n), jnp.float32)
    mm = jax.jit(lambda x, y: x @ y)
    mm(a, b).block_until_ready()
    t = time.perf_counter()
    for _ in range(reps):
        mm(a, b).block_until_ready()
    return reps * 2 * m * k * n / (time.perf_counter() - t) / 1e9
def chain_rate(m, d, inter, iters, reps):
    x, up, down = (jnp.full(s, 0.01, jnp.float32) for s in ((m, d), (d, inter), (inter, d)))
    f = jax.jit(lambda x, up, down: jax.lax.fori_loop(0, iters, lambda _, x: (x @ up) @ down, x))
    f(x, up, down).block_until_ready()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        f(x, up, down).block_until_ready()
        times.append(time.perf_counter() - t)
    return iters * 2 * 2 * m * d * inter / sorted(times)[reps // 2] / 1e9
gflops = rate(1024, 1024, 1024, 20)
gflops_small = chain_rate(2048, 32, 128, 100, 5)
steady = sorted(durations[1:] or durations)
print(json.dumps({
    "compile_s": compile_s, "median_step_s": steady[len(steady) // 2], "final_loss": loss,
    "xla_flops": float(cost.get("flops", 0.0)), "matmul_gflops": gflops, "small_matmul_gflops": gflops_small,
    "loop_s": t_done - t_start, "loop_cpu_s": cpu_done, "page_faults_per_step": faults,
    "after_loop_s": time.perf_counter() - t_done,
    "temp_mb": temp_mb,
}))
"""


def analytic_flops(
    batch: int,
    seq: int,
    vocab: int,
    d: int = 32,
    inter: int = 128,
    shared: int = 128,
    experts_per_token: int = 2,
    layers: int = 4,
    head_dim: int = 32,
) -> tuple[float, float]:
    """Matmul FLOPs of one train step doing only the real work (forward x3 for backward):
    (the whole step, the routed experts' part)."""
    t = batch * seq
    attn = 2 * t * d * head_dim * 4 + 2 * 2 * t * seq * head_dim / 2  # q,k,v,o + causal scores/values
    routed = 2 * t * experts_per_token * 3 * d * inter
    shared_mlp = 2 * t * 3 * d * shared
    router = 2 * t * d * 32
    head = 2 * t * d * vocab
    return 3 * (layers * (attn + routed + shared_mlp + router) + head), 3 * layers * routed


def run_harness(steps: int, ragged: str, out: Path, cache: list[str]) -> dict:
    args = [
        sys.executable,
        "-m",
        "canary",
        "run",
        "cpu",
        "--json",
        "--out",
        str(out),
        "--ragged-dot",
        ragged,
        "--no-history",
        *cache,
    ]
    if steps != 200:
        args += ["--steps", str(steps)]
    t, cpu = time.perf_counter(), _children_cpu()
    proc = subprocess.run(args, env=ENV, capture_output=True, text=True, cwd=ROOT)
    wall, cpu = time.perf_counter() - t, _children_cpu() - cpu
    if proc.returncode not in (0, 1):
        sys.exit(f"canary run failed to run:\n{proc.stderr}")
    r = json.loads(proc.stdout)
    return {
        "wall_s": wall,
        "cpu_s": cpu,
        "verdict": r["verdict"],
        "final_loss": r["final_loss"],
        "compile_s": r["summary"].get("compile/seconds"),
        "median_step_s": r["summary"].get("throughput/median_step_seconds"),
        "tokens_per_s": r["summary"].get("throughput/tokens_per_second"),
    }


def run_bare(steps: int, ragged: str) -> dict:
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", BARE_LOOP, str(steps), ragged], env=BARE_ENV, capture_output=True, text=True
    )
    wall = time.perf_counter() - t
    if proc.returncode:
        sys.exit(f"bare loop failed:\n{proc.stderr}")
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    # the process's wall up to the end of its loop: the matmul-rate and cost measurements after
    # it are the benchmark's, not the loop's
    return {**r, "wall_s": wall - r["after_loop_s"], "cpu_s": r["loop_cpu_s"]}


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's finished children: a run's parent and its
    workload together. Far steadier than wall time on a shared machine, where another job's load
    stretches every wall figure but a process's own CPU time much less."""
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def startup(args: list[str]) -> tuple[float, bool]:
    probe = (
        "import atexit, sys; atexit.register(lambda: sys.stderr.write('JAX=%s\\n' % ('jax' in sys.modules)));"
        f"sys.argv = ['canary'] + {args!r}; from canary.cli import main; main()"
    )
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", probe], env=ENV, capture_output=True, text=True, cwd=ROOT)
    return time.perf_counter() - t, "JAX=True" in proc.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=1, help="runs of each; medians are printed")
    ap.add_argument("--ragged-dot", default="auto", help="the expert matmul backend for both loops")
    opts = ap.parse_args()

    # The harness runs cold (no compilation cache) against the bare loop, which has none; a
    # separate warm run shows time-to-verdict with the default, a filled persistent cache.
    harness, bare, warm = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        cold, warm_cache = ["--cold"], ["--cache-dir", str(Path(tmp) / "cache")]
        run_harness(opts.steps, opts.ragged_dot, Path(tmp), warm_cache)  # fill it (the same program: same steps)
        for i in range(opts.repeat):
            # alternate the order so neither side always runs on a warmer machine
            pair = [
                lambda: harness.append(run_harness(opts.steps, opts.ragged_dot, Path(tmp), cold)),
                lambda: bare.append(run_bare(opts.steps, opts.ragged_dot)),
            ]
            for f in pair if i % 2 == 0 else pair[::-1]:
                f()
            warm.append(run_harness(opts.steps, opts.ragged_dot, Path(tmp), warm_cache))

    def med(rows, key):
        vals = [r[key] for r in rows if r.get(key) is not None]
        return statistics.median(vals) if vals else float("nan")

    from canary.config import load_ferry

    lane = load_ferry("moe-canary")[0].lane("cpu")
    batch, seq, vocab = lane.batch_size, lane.seq_len, lane.vocab_size or 512
    tokens = batch * seq
    flops_xla = med(bare, "xla_flops")
    flops_real, flops_routed = analytic_flops(batch, seq, vocab)
    gflops, gflops_small = med(bare, "matmul_gflops"), med(bare, "small_matmul_gflops")
    limit_s = flops_real / (gflops * 1e9)
    limit_small_s = flops_real / (gflops_small * 1e9)
    h_wall, b_wall = med(harness, "wall_s"), med(bare, "wall_s")
    print(
        f"cpu lane, {opts.steps} steps of {batch}x{seq} tokens, ragged_dot={opts.ragged_dot}, "
        f"{opts.repeat} run(s) each, medians\n"
    )
    print(f"{'':28s}{'canary, cold':>16s}{'bare JAX loop':>16s}{'canary, warm':>16s}")
    print(f"{'time-to-verdict / wall (s)':28s}{h_wall:16.2f}{b_wall:16.2f}{med(warm, 'wall_s'):16.2f}")
    print(
        f"{'compile (s)':28s}{med(harness, 'compile_s'):16.2f}{med(bare, 'compile_s'):16.2f}"
        f"{med(warm, 'compile_s'):16.2f}"
    )
    print(
        f"{'median step (ms)':28s}{med(harness, 'median_step_s') * 1e3:16.1f}{med(bare, 'median_step_s') * 1e3:16.1f}"
        f"{med(warm, 'median_step_s') * 1e3:16.1f}"
    )
    print(
        f"{'tokens/s':28s}{med(harness, 'tokens_per_s'):16,.0f}{tokens / med(bare, 'median_step_s'):16,.0f}"
        f"{med(warm, 'tokens_per_s'):16,.0f}"
    )
    print(
        f"{'final loss':28s}{med(harness, 'final_loss'):16.4f}{med(bare, 'final_loss'):16.4f}"
        f"{med(warm, 'final_loss'):16.4f}"
    )
    print(
        f"{'verdict':28s}{','.join(r['verdict'] for r in harness):>16s}{'':16s}"
        f"{','.join(r['verdict'] for r in warm):>16s}"
    )
    print()
    print(
        f"step FLOPs: {flops_real / 1e9:.2f} G analytic, real work ({flops_routed / 1e9:.2f} G of it in the routed "
        f"experts); XLA's cost analysis counts {flops_xla / 1e9:.2f} G (with ragged_dot=grouped it counts padded tile "
        f"rows; with xla, every expert for every row)"
    )
    step = med(bare, "median_step_s")
    print(
        f"matmul rate, float32, measured now: {gflops:.1f} GFLOP/s at 1024^3, {gflops_small:.1f} GFLOP/s at the "
        f"expert MLP's shapes (2048x32x128 and back, chained in one program)"
    )
    print(
        f"FLOP limit of a step (analytic real work): {limit_s * 1e3:.1f} ms at the peak rate ({step / limit_s:.2f}x), "
        f"{limit_small_s * 1e3:.1f} ms at the expert-shape rate ({step / limit_small_s:.2f}x)"
    )
    print(
        f"bare loop: {med(bare, 'temp_mb'):.1f} MB of XLA scratch per step, "
        f"{med(bare, 'page_faults_per_step'):,.0f} page faults "
        f"per step (GLIBC_TUNABLES={BARE_ENV['GLIBC_TUNABLES']})"
    )
    pairs = sorted(h["wall_s"] / b["wall_s"] for h, b in zip(harness, bare, strict=False))
    print(
        f"harness (cold) / bare wall: {h_wall / b_wall:.3f}x (medians' ratio); "
        f"each alternating pair: {', '.join(f'{r:.3f}' for r in pairs)} (median {statistics.median(pairs):.3f}x)"
    )
    cpu_pairs = sorted(h["cpu_s"] / b["cpu_s"] for h, b in zip(harness, bare, strict=False))
    print(
        f"harness (cold) / bare CPU seconds: {med(harness, 'cpu_s'):.2f} / {med(bare, 'cpu_s'):.2f} = "
        f"{med(harness, 'cpu_s') / med(bare, 'cpu_s'):.3f}x (medians' ratio); each pair: "
        f"{', '.join(f'{r:.3f}' for r in cpu_pairs)}"
    )
    print()
    for args in (["--help"], ["list"], ["gate", "--help"], ["history", "--help"], ["signature", "--help"]):
        secs, jax_loaded = startup(args)
        print(f"start-up `canary {' '.join(args)}`: {secs:.2f}s, imports JAX: {'yes' if jax_loaded else 'no'}")


if __name__ == "__main__":
    main()
