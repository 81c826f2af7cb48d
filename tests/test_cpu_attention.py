"""The cpu lane's attention kernel (C, through XLA's FFI): the model's attention layer, forward
and every gradient (input and weights), against the ``xla`` reference and a float64 NumPy one."""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from canary.workload import attention, ragged_dot
from canary.workload.data import MarkovCorpus
from canary.workload.model import MoEConfig, init_params, loss_fn, router_bias

jax.config.update("jax_platforms", "cpu")

BASE = MoEConfig(vocab_size=64, hidden=32, intermediate=64, shared_expert_intermediate=64, num_experts=8,
                 experts_per_token=2, layers=2, heads=1, kv_heads=1, head_dim=32)
SHAPES = [  # B, S, hidden, heads, kv_heads, head_dim, sliding_window
    (8, 128, 32, 1, 1, 32, 2048),  # the cpu lane's (the window longer than the sequence)
    (2, 77, 24, 4, 2, 24, None),   # grouped query heads; S not a multiple of the query block or of 16
    (2, 100, 32, 2, 1, 32, 18),    # a sliding window shorter than the sequence
    (1, 40, 16, 3, 3, 8, 34),      # a window that ends inside the first block
    (1, 5, 8, 1, 1, 16, 1),        # each query sees only itself
    (2, 1, 8, 1, 1, 4, None),      # one position
]


def _problem(B, S, hidden, heads, kv_heads, head_dim, window, seed=0, scale=1.0):
    cfg = dataclasses.replace(BASE, hidden=hidden, heads=heads, kv_heads=kv_heads, head_dim=head_dim,
                              sliding_window=window)
    rng = np.random.default_rng(seed)

    def normal(*shape, s=1.0):
        return jnp.asarray(rng.normal(size=shape) * s, jnp.float32)

    p = {"wq": normal(hidden, heads * head_dim, s=scale / hidden**0.5),
         "wk": normal(hidden, kv_heads * head_dim, s=scale / hidden**0.5),
         "wv": normal(hidden, kv_heads * head_dim, s=hidden**-0.5),
         "wo": normal(heads * head_dim, hidden, s=(heads * head_dim) ** -0.5)}
    return cfg, p, normal(B, S, hidden), normal(B, S, hidden)


def _numpy_reference(cfg, p, x):
    """Row by row in float64: project, rotate, score, mask, softmax, weigh, project."""
    p = {k: np.asarray(v, np.float64) for k, v in p.items()}
    x = np.asarray(x, np.float64)
    B, S, _ = x.shape
    H, Hkv, D = cfg.heads, cfg.kv_heads, cfg.head_dim
    q, k, v = (np.einsum("bsm,mc->bsc", x, p[w]).reshape(B, S, -1, D) for w in ("wq", "wk", "wv"))
    angle = np.arange(S)[:, None] * cfg.rope_theta ** (-np.arange(0, D, 2) / D)[None, :]

    def rot(t):
        z = (t[..., :D // 2] + 1j * t[..., D // 2:]) * np.exp(1j * angle)[None, :, None, :]
        return np.concatenate([z.real, z.imag], axis=-1)

    q, k = rot(q), rot(k)
    window = cfg.sliding_window if cfg.sliding_window is not None and cfg.sliding_window < S else None
    out = np.zeros((B, S, H, D))
    for b in range(B):
        for h in range(H):
            for i in range(S):
                lo = 0 if window is None else max(0, i - window + 1)
                s = k[b, lo:i + 1, h // (H // Hkv)] @ q[b, i, h] / np.sqrt(D)
                e = np.exp(s - s.max())
                out[b, i, h] = (e / e.sum()) @ v[b, lo:i + 1, h // (H // Hkv)]
    return out.reshape(B, S, H * D) @ p["wo"]


def _run(name, cfg, p, x, d_y):
    layer = attention.make(name, "cpu")
    f = jax.jit(lambda p, x: layer(p, x, cfg))
    y, vjp = jax.vjp(f, p, x)
    return y, vjp(d_y)


@pytest.mark.parametrize("shape", SHAPES)
def test_forward_and_every_gradient_match_the_reference(shape):
    cfg, p, x, d_y = _problem(*shape)
    y, (d_p, d_x) = _run("cpu_fused", cfg, p, x, d_y)
    ref_y, (ref_d_p, ref_d_x) = _run("xla", cfg, p, x, d_y)
    np.testing.assert_allclose(np.asarray(y), np.asarray(ref_y), rtol=1e-5, atol=2e-6)
    np.testing.assert_allclose(np.asarray(y), _numpy_reference(cfg, p, x), rtol=1e-5, atol=2e-6)
    np.testing.assert_allclose(np.asarray(d_x), np.asarray(ref_d_x), rtol=1e-4, atol=1e-5)
    for name in ("wq", "wk", "wv", "wo"):
        assert d_p[name].shape == p[name].shape
        np.testing.assert_allclose(np.asarray(d_p[name]), np.asarray(ref_d_p[name]), rtol=1e-4, atol=1e-4)


def test_large_scores_stay_stable():
    cfg, p, x, d_y = _problem(2, 64, 16, 2, 2, 16, None, seed=3, scale=12.0)  # scores in the hundreds
    y, (d_p, d_x) = _run("cpu_fused", cfg, p, x, d_y)
    ref_y, (ref_d_p, ref_d_x) = _run("xla", cfg, p, x, d_y)
    assert bool(jnp.all(jnp.isfinite(y)))
    np.testing.assert_allclose(np.asarray(y), np.asarray(ref_y), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.asarray(d_x), np.asarray(ref_d_x), rtol=1e-3, atol=1e-3)


def test_a_nan_is_not_lost():
    """What the finiteness gate relies on: a NaN in a row reaches the outputs of every query that
    sees it (the reference spreads it further: its masked products are 0 * NaN), and no other row."""
    cfg, p, x, d_y = _problem(2, 80, 16, 1, 1, 16, None, seed=4)
    x = x.at[1, 40, 3].set(jnp.nan)
    y, (d_p, d_x) = _run("cpu_fused", cfg, p, x, d_y)
    y = np.asarray(y)
    assert np.isnan(y[1, 40:]).all() and not np.isnan(y[0]).any()
    assert np.isnan(np.asarray(d_p["wq"])).any() and not np.isnan(np.asarray(d_x)[0]).any()


def test_other_dtypes_are_computed_in_float32_and_returned_as_given():
    cfg, p, x, _ = _problem(2, 33, 16, 2, 1, 16, None, seed=5)
    cfg = dataclasses.replace(cfg, compute_dtype="bfloat16")
    x16 = x.astype(jnp.bfloat16)
    y = jax.jit(lambda p, x: attention.make("cpu_fused", "cpu")(p, x, cfg))(p, x16)
    assert y.dtype == jnp.bfloat16
    want = _numpy_reference(cfg, p, x16.astype(jnp.float32))
    np.testing.assert_allclose(np.asarray(y, np.float32), want, rtol=3e-2, atol=3e-2)


def test_bad_head_counts_are_refused_with_the_reason():
    cfg, p, x, _ = _problem(1, 8, 8, 3, 3, 8, None)
    cfg = dataclasses.replace(cfg, kv_heads=2)  # 3 query heads cannot share 2 key/value heads
    with pytest.raises(Exception, match="heads must be a positive multiple of kv heads"):
        jax.block_until_ready(attention.make("cpu_fused", "cpu")(p, x, cfg))


def test_the_cpu_lane_uses_it_and_other_platforms_do_not():
    assert attention.resolve("auto", "cpu") == "cpu_fused"  # "xla" where no C compiler is found
    assert attention.resolve("auto", "tpu") == attention.resolve("auto", "cuda") == "xla"
    with pytest.raises(ValueError, match="cpu platform only"):
        attention.make("cpu_fused", "tpu")
    with pytest.raises(ValueError, match="unknown attention backend 'nope'"):
        attention.resolve("nope", "cpu")


def test_the_whole_model_agrees_with_the_reference_attention():
    cfg = dataclasses.replace(BASE, heads=2, kv_heads=1, head_dim=16, sliding_window=16)
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
