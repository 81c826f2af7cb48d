"""Where the grug ferry's cpu-lane time goes: importing the library, tracing and compiling the
train step, the step itself, and the step's parts, each jitted alone (forward and backward).

    python bench/grug_cpu.py [--steps 20] [--repeat 5]

One process, the cpu lane's own sizes (ferries/grug-moe-canary.toml). Parts: ``attention`` (one
block's RMSNorm and levanter's attention with rotary embedding), ``moe`` (one block's router,
top-k and levanter's MoEExpertMlp: haliax's ragged_dot, XLA's on a CPU), ``loss`` (the final
norm and levanter's fused LM-head loss, twice: the objective and the logged cross-entropy),
``optimizer`` being the rest of the step. Per-part times are medians of ``--repeat`` calls after
a warm-up; they are per block, so the step holds four attention and four MoE parts. Prints
figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _median_ms(fn, args, repeat: int) -> float:
    import jax

    jax.block_until_ready(fn(*args))
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=20, help="train steps timed after the compile")
    ap.add_argument("--repeat", type=int, default=5, help="calls of each part (medians are printed)")
    args = ap.parse_args()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")

    t0 = time.perf_counter()
    import jax
    import jax.numpy as jnp

    t_jax = time.perf_counter() - t0
    from canary.config import get_lane, load_ferry
    from canary.formats.spec import CacheSpec, build_spec
    from canary.workload import grug_model, stack
    from canary.workload.train import make_corpus

    t_lib = time.perf_counter() - t0 - t_jax

    ferry, _ = load_ferry("grug-moe-canary")
    spec = build_spec(
        ferry,
        get_lane("cpu"),
        run_id="bench",
        out_dir=Path(os.devnull),
        cache=CacheSpec(mode="cold"),
    )
    ts = stack.make_train_step(spec)
    batches = make_corpus(spec).stream(args.steps + 1, spec.batch_size, spec.seq_len + 1)
    model, opt = ts.init(jax.random.PRNGKey(0))
    batch = jax.device_put(batches.get(0))
    t1 = time.perf_counter()
    lowered = ts.step.lower(model, opt, ts.bias, batch)
    t_trace = time.perf_counter() - t1
    compiled = lowered.compile()
    t_compile = time.perf_counter() - t1 - t_trace
    steps = []
    for i in range(args.steps):
        s0 = time.perf_counter()
        model, opt, metrics = compiled(model, opt, ts.bias, batch)
        jax.block_until_ready(metrics)
        steps.append(time.perf_counter() - s0)
        batch = jax.device_put(batches.get(i + 1))
    step_ms = statistics.median(steps[1:] or steps) * 1e3

    model, _ = ts.init(jax.random.PRNGKey(0))
    block = model.blocks[0]
    cfg = ts.cfg
    x = jnp.ones((spec.batch_size, spec.seq_len, cfg.hidden_dim), jnp.float32)
    mask = grug_model.AttentionMask.causal(sliding_window=cfg.sliding_window)
    targets = batch[:, 1:]

    def grad_of(f):
        return jax.jit(jax.grad(lambda p, x_: jnp.sum(f(p, x_))))

    def loss(m, x_):
        ce = grug_model.fused_linear_softmax_cross_entropy_loss
        hidden = m.final_norm(x_)
        return ce(hidden, m.lm_head, targets, logsumexp_weight=1e-4) + ce(hidden, m.lm_head, targets)

    parts = {
        "attention": (grad_of(lambda b, x_: b.attn(b.attn_norm(x_), mask)), (block, x)),
        "moe": (grad_of(lambda b, x_: b.mlp(b.mlp_norm(x_), ts.bias[0])[0]), (block, x)),
        "loss": (jax.jit(jax.grad(loss)), (model, x)),
    }
    with jax.set_mesh(ts.step.mesh):
        times = {name: _median_ms(fn, a, args.repeat) for name, (fn, a) in parts.items()}
    layers = cfg.num_layers
    in_step = {"attention": layers * times["attention"], "moe": layers * times["moe"], "loss": times["loss"]}
    print(
        f"grug-moe-canary cpu lane: {spec.batch_size} x {spec.seq_len} tokens, {layers} layers, "
        f"jax {jax.__version__} on {os.cpu_count()} CPUs, ragged_dot {stack.ragged_dot_choice()}"
    )
    print(f"  import jax             {t_jax:7.2f} s")
    print(f"  import levanter/haliax {t_lib:7.2f} s")
    print(f"  trace the train step   {t_trace:7.2f} s")
    print(f"  compile it             {t_compile:7.2f} s")
    print(f"  median step            {step_ms:7.1f} ms  (x {spec.steps} steps = {step_ms * spec.steps / 1e3:.1f} s)")
    for name, ms in in_step.items():
        print(f"    {name:<10} {ms:7.1f} ms a step ({ms / step_ms:5.1%}; {times[name]:.1f} ms each, alone)")
    rest = step_ms - sum(in_step.values())
    print(f"    {'the rest':<10} {rest:7.1f} ms a step ({rest / step_ms:5.1%}: optimizer, embedding, fusion gaps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
