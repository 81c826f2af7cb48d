"""The cpu lane's attention kernel (C, through XLA's FFI): the model's rotary causal attention,
forward and all three gradients, against the ``xla`` reference and a float64 NumPy one."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from canary.workload import attention, ragged_dot
from canary.workload.data import MarkovCorpus
from canary.workload.model import MoEConfig, init_params, loss_fn, router_bias

jax.config.update("jax_platforms", "cpu")

THETA = 10000.0
SHAPES = [  # B, S, H, Hkv, D, window
    (8, 128, 1, 1, 32, None),  # the cpu lane's
    (2, 77, 4, 2, 24, None),   # grouped query heads; S not a multiple of the query block or of 16
    (2, 100, 2, 1, 32, 17),    # a sliding window shorter than the sequence
    (1, 40, 3, 3, 8, 33),      # a window that ends inside the first block
    (1, 5, 1, 1, 16, 0),       # each query sees only itself
    (2, 1, 1, 1, 4, None),     # one position
]


def _inputs(B, S, H, Hkv, D, seed=0, scale=1.0):
    rng = np.random.default_rng(seed)
    q, d_out = (jnp.asarray(rng.normal(size=(B, S, H, D)) * scale, jnp.float32) for _ in range(2))
    k, v = (jnp.asarray(rng.normal(size=(B, S, Hkv, D)) * scale, jnp.float32) for _ in range(2))
    return q, k, v, d_out


def _numpy_reference(q, k, v, window):
    """Row by row in float64: rotate, score, mask, softmax, weigh."""
    q, k, v = (np.asarray(x, np.float64) for x in (q, k, v))
    B, S, H, D = q.shape
    angle = np.arange(S)[:, None] * THETA ** (-np.arange(0, D, 2) / D)[None, :]

    def rot(x):
        z = (x[..., :D // 2] + 1j * x[..., D // 2:]) * np.exp(1j * angle)[None, :, None, :]
        return np.concatenate([z.real, z.imag], axis=-1)

    q, k = rot(q), rot(k)
    out = np.zeros_like(q)
    group = H // k.shape[2]
    for b in range(B):
        for h in range(H):
            for i in range(S):
                lo = 0 if window is None else max(0, i - window)
                s = k[b, lo:i + 1, h // group] @ q[b, i, h] / np.sqrt(D)
                p = np.exp(s - s.max())
                out[b, i, h] = (p / p.sum()) @ v[b, lo:i + 1, h // group]
    return out


def _run(name, q, k, v, d_out, window):
    f = jax.jit(lambda q, k, v: attention.make(name, "cpu")(q, k, v, THETA, window))
    out, vjp = jax.vjp(f, q, k, v)
    return out, vjp(d_out)


@pytest.mark.parametrize("B,S,H,Hkv,D,window", SHAPES)
def test_forward_and_gradients_match_the_reference(B, S, H, Hkv, D, window):
    q, k, v, d_out = _inputs(B, S, H, Hkv, D)
    out, grads = _run("cpu_fused", q, k, v, d_out, window)
    ref_out, ref_grads = _run("xla", q, k, v, d_out, window)
    np.testing.assert_allclose(np.asarray(out), np.asarray(ref_out), rtol=1e-5, atol=2e-6)
    np.testing.assert_allclose(np.asarray(out), _numpy_reference(q, k, v, window), rtol=1e-5, atol=2e-6)
    for got, want, x in zip(grads, ref_grads, (q, k, v)):
        assert got.shape == x.shape and got.dtype == jnp.float32
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-4, atol=1e-5)


def test_large_scores_stay_stable():
    q, k, v, d_out = _inputs(2, 64, 2, 2, 16, seed=3, scale=8.0)  # scores in the hundreds
    out, grads = _run("cpu_fused", q, k, v, d_out, None)
    ref_out, ref_grads = _run("xla", q, k, v, d_out, None)
    assert bool(jnp.all(jnp.isfinite(out)))
    np.testing.assert_allclose(np.asarray(out), np.asarray(ref_out), rtol=1e-4, atol=1e-4)
    for got, want in zip(grads, ref_grads):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-3, atol=1e-3)


def test_a_nan_reaches_exactly_the_outputs_it_reaches_in_the_reference():
    q, k, v, d_out = _inputs(1, 48, 1, 1, 16, seed=4)
    k = k.at[0, 20, 0, 3].set(jnp.nan)  # every query from position 20 on sees it
    out, _ = _run("cpu_fused", q, k, v, d_out, None)
    ref_out, _ = _run("xla", q, k, v, d_out, None)
    np.testing.assert_array_equal(np.isnan(np.asarray(out)), np.isnan(np.asarray(ref_out)))
    assert np.isnan(np.asarray(out)[0, 20:]).all() and not np.isnan(np.asarray(out)[0, :20]).any()


def test_other_dtypes_are_computed_in_float32_and_returned_as_given():
    q, k, v, _ = _inputs(2, 33, 2, 1, 16, seed=5)
    q, k, v = (x.astype(jnp.bfloat16) for x in (q, k, v))
    out = jax.jit(lambda q, k, v: attention.make("cpu_fused", "cpu")(q, k, v, THETA, None))(q, k, v)
    assert out.dtype == jnp.bfloat16
    want = _numpy_reference(*(x.astype(jnp.float32) for x in (q, k, v)), None)
    np.testing.assert_allclose(np.asarray(out, np.float32), want, rtol=2e-2, atol=2e-2)


def test_bad_shapes_are_refused_with_the_reason():
    q, k, v, _ = _inputs(1, 8, 3, 2, 8)  # 3 query heads cannot share 2 key/value heads
    with pytest.raises(Exception, match="heads must be a multiple of kv heads"):
        jax.block_until_ready(attention.make("cpu_fused", "cpu")(q, k, v, THETA, None))


def test_the_cpu_lane_uses_it_and_other_platforms_do_not():
    assert attention.resolve("auto", "cpu") == "cpu_fused"  # "xla" where no C compiler is found
    assert attention.resolve("auto", "tpu") == attention.resolve("auto", "cuda") == "xla"
    with pytest.raises(ValueError, match="cpu platform only"):
        attention.make("cpu_fused", "tpu")
    with pytest.raises(ValueError, match="unknown attention backend 'nope'"):
        attention.resolve("nope", "cpu")


def test_the_whole_model_agrees_with_the_reference_attention():
    cfg = MoEConfig(vocab_size=64, hidden=32, intermediate=64, shared_expert_intermediate=64, num_experts=8,
                    experts_per_token=2, layers=2, heads=2, kv_heads=1, head_dim=16, sliding_window=16)
    params = init_params(cfg, jax.random.PRNGKey(0))
    batch = jnp.asarray(MarkovCorpus.make(64, 4, 1.0, 0).batch(0, 4, 41))

    def run(name):
        f = jax.value_and_grad(loss_fn, has_aux=True)
        return jax.jit(f, static_argnums=(3, 4, 5, 6, 7))(params, batch, router_bias(cfg), cfg, ragged_dot.make("xla"),
                                                          1e-4, 1e-3, attention.make(name, "cpu"))

    (loss, _), grads = run("cpu_fused")
    (ref_loss, _), ref_grads = run("xla")
    assert np.isclose(float(loss), float(ref_loss), rtol=1e-5)
    for a, b in zip(jax.tree_util.tree_leaves(grads), jax.tree_util.tree_leaves(ref_grads)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-3, atol=1e-5)
