"""The workload's model: grouped matmuls against a dense reference, shapes, gradients, learning."""

import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from canary.workload import blockwise, ragged_dot
from canary.workload.data import MarkovCorpus
from canary.workload.model import (
    MoEConfig,
    forward,
    init_params,
    layer_statistics,
    loss_fn,
    rope,
    rotary_causal_attention,
    router_bias,
    sort_rows,
    target_stats,
)
from canary.workload.ragged_dot.grouped import gather_rows

jax.config.update("jax_platforms", "cpu")

CFG = MoEConfig(
    vocab_size=64,
    hidden=32,
    intermediate=128,
    shared_expert_intermediate=128,
    num_experts=32,
    experts_per_token=2,
    layers=2,
    heads=1,
    kv_heads=1,
    head_dim=32,
    sliding_window=16,
)


def dense_reference(lhs, rhs, group_sizes):
    """Each row times its own group's matrix, one row at a time (no grouping tricks)."""
    ends = np.cumsum(np.asarray(group_sizes))
    out = np.zeros((lhs.shape[0], rhs.shape[-1]), np.float32)
    for r in range(lhs.shape[0]):
        g = int(np.searchsorted(ends, r, side="right"))
        if g < rhs.shape[0]:
            out[r] = np.asarray(lhs[r]) @ np.asarray(rhs[g])
    return out


def _problem(m=96, k=32, n=48, e=8, seed=0, short=0):
    rng = np.random.default_rng(seed)
    lhs = jnp.asarray(rng.normal(size=(m, k)), jnp.float32)
    rhs = jnp.asarray(rng.normal(size=(e, k, n)), jnp.float32)
    ids = np.sort(rng.integers(0, e, size=m - short))
    sizes = np.bincount(ids, minlength=e).astype(np.int32)
    sizes[rng.integers(0, e)] = 0 if e > 1 else sizes[0]  # an empty group
    sizes[-1] += (m - short) - sizes.sum()
    return lhs, rhs, jnp.asarray(sizes)


@functools.cache
def _jitted(backend: str):
    return jax.jit(ragged_dot.make(backend))  # one compile per backend: the problems share their shapes


@pytest.mark.parametrize("backend", ["xla", "grouped"])
@pytest.mark.parametrize("short", [0, 7])
def test_grouped_matmul_equals_dense_reference(backend, short):
    lhs, rhs, sizes = _problem(short=short)
    out = _jitted(backend)(lhs, rhs, sizes)
    np.testing.assert_allclose(np.asarray(out), dense_reference(lhs, rhs, sizes), rtol=1e-4, atol=1e-4)


def _problem_grads(backend: str, **kw):
    """The gradients of one fixed problem's weighted sum through ``backend``."""
    lhs, rhs, sizes = _problem(seed=1, short=5)
    cot = jnp.asarray(np.random.default_rng(2).normal(size=(lhs.shape[0], rhs.shape[-1])), jnp.float32)
    fn = ragged_dot.make(backend, **kw)
    return jax.jit(jax.grad(lambda lh, rh: jnp.sum(fn(lh, rh, sizes) * cot), argnums=(0, 1)))(lhs, rhs)


@functools.cache
def _xla_grads():
    return _problem_grads("xla")  # the reference, the same for every tile: compiled once


@pytest.mark.parametrize("tile", [1, 8, 32, 64])
def test_grouped_backend_gradients_match_xla(tile):
    g_ref = _xla_grads()
    g_new = _problem_grads("grouped", tile=tile)
    for a, b in zip(g_new, g_ref, strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=1e-4)


def test_sort_rows_is_the_permutation_and_its_gradient_the_inverse_gather():
    x = jnp.arange(12.0).reshape(6, 2)
    perm = jnp.asarray([3, 0, 5, 1, 4, 2])
    # jitted: one compile each, not an operation-by-operation dispatch (several times faster)
    np.testing.assert_array_equal(np.asarray(jax.jit(sort_rows)(x, perm)), np.asarray(x[perm]))
    cot = jnp.arange(12.0).reshape(6, 2) * 3
    g = jax.jit(jax.grad(lambda x: jnp.sum(sort_rows(x, perm) * cot)))(x)
    g_ref = jax.jit(jax.grad(lambda x: jnp.sum(x[perm] * cot)))(x)
    np.testing.assert_array_equal(np.asarray(g), np.asarray(g_ref))


def test_grouped_gather_into_the_padded_layout_and_its_gradient():
    x = jnp.arange(12.0).reshape(6, 2)
    idx = jnp.asarray([3, 6, 0, 5, 1, 6, 4, 2])  # 6 == len(x): a zero (padding) row
    inv = jnp.asarray([2, 4, 7, 0, 6, 3])
    want = jnp.concatenate([x, jnp.zeros((1, 2))])[idx]
    np.testing.assert_array_equal(np.asarray(jax.jit(gather_rows)(x, idx, inv)), np.asarray(want))
    cot = jnp.arange(16.0).reshape(8, 2) ** 2
    g = jax.jit(jax.grad(lambda x: jnp.sum(gather_rows(x, idx, inv) * cot)))(x)
    g_ref = jax.jit(jax.grad(lambda x: jnp.sum(jnp.concatenate([x, jnp.zeros((1, 2))])[idx] * cot)))(x)
    np.testing.assert_array_equal(np.asarray(g), np.asarray(g_ref))


def test_auto_backend_per_platform():
    assert ragged_dot.resolve("auto", "cpu") == "grouped"  # lax.ragged_dot is dense on a CPU
    assert ragged_dot.resolve("xla", "cpu") == "xla"
    with pytest.raises(ValueError, match="unknown ragged_dot backend"):
        ragged_dot.resolve("nope", "cpu")


@pytest.mark.slow  # compiles the whole model's forward pass
def test_forward_shapes_and_router_statistics():
    params = init_params(CFG, jax.random.PRNGKey(0))
    tokens = jnp.zeros((2, 24), jnp.int32)
    # jitted: one compile instead of dispatching the model's few hundred operations one by one (6x faster)
    logits, layers = jax.jit(forward, static_argnums=(3, 4))(
        params, tokens, router_bias(CFG), CFG, ragged_dot.make("grouped")
    )
    assert logits.shape == (2, 24, CFG.vocab_size) and logits.dtype == jnp.float32
    assert len(layers) == CFG.layers  # each layer's own token means, and the statistics made of them
    for means in layers:
        assert float(jnp.sum(means["expert_fraction"])) == pytest.approx(1.0)
        aux = layer_statistics(means)
        assert float(aux["load_balancing_loss"]) >= 1.0 - 1e-5  # 1.0 is perfectly balanced
        assert 0 < float(aux["usage_entropy"]) <= 1.0 + 1e-6
        assert float(aux["router_z_loss"]) > 0 and float(aux["attention_output_rms"]) > 0


@pytest.mark.slow  # compiles the whole model's loss and gradients twice
@pytest.mark.parametrize("backend", ["grouped"])
def test_backends_agree_on_the_whole_model_and_gradients_are_finite(backend):
    params = init_params(CFG, jax.random.PRNGKey(0))
    batch = jnp.asarray(MarkovCorpus.make(64, 4, 1.0, 0).batch(0, 4, 33))
    bias = router_bias(CFG)

    def run(name):
        f = jax.value_and_grad(loss_fn, has_aux=True)
        return jax.jit(f, static_argnums=(3, 4, 5, 6))(params, batch, bias, CFG, ragged_dot.make(name), 1e-4, 1e-3)

    (l_x, _), g_x = run("xla")
    (l_g, _), g_g = run(backend)
    assert np.isclose(float(l_x), float(l_g), rtol=1e-5)
    leaves = jax.tree_util.tree_leaves(g_g)
    assert all(bool(jnp.all(jnp.isfinite(x))) for x in leaves)
    for a, b in zip(leaves, jax.tree_util.tree_leaves(g_x), strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-3, atol=1e-5)


def _close(got, want, tol):
    for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want), strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


@pytest.mark.parametrize("window, block, heads", [(5, 4, (2, 2)), (8, 8, (2, 1)), (None, 6, (1, 1)), (3, 24, (1, 1))])
def test_blocked_attention_equals_the_whole_sequences_values_and_gradients(window, block, heads):
    rng = np.random.default_rng(3)
    (H, Hkv), (B, S, Dh) = heads, (2, 24, 8)
    q, k, v, cot = (jnp.asarray(rng.normal(size=(B, S, h, Dh)), jnp.float32) for h in (H, Hkv, Hkv, H))

    def run(blk):
        f = jax.jit(lambda q, k, v: jnp.sum(rotary_causal_attention(q, k, v, 100.0, window, blk) * cot))
        return f(q, k, v), jax.jit(jax.grad(f, argnums=(0, 1, 2)))(q, k, v)

    _close(run(block), run(None), 1e-5)


@pytest.mark.parametrize("block", [1, 4, 12])
def test_blocked_cross_entropy_equals_the_whole_logits_values_and_gradients(block):
    rng = np.random.default_rng(4)
    x = jnp.asarray(rng.normal(size=(3, 12, 16)), jnp.float32)
    w = jnp.asarray(rng.normal(size=(16, 40)) * 0.3, jnp.float32)
    targets = jnp.asarray(rng.integers(0, 40, size=(3, 12)), jnp.int32)

    def losses(lse, target_logit):  # the loss's two terms from them: cross-entropy and z-loss
        return jnp.mean(lse - target_logit) + 1e-2 * jnp.mean(lse**2)

    whole = jax.value_and_grad(lambda x, w: losses(*target_stats(x @ w, targets)), argnums=(0, 1))
    blocked = jax.value_and_grad(lambda x, w: losses(*blockwise.token_losses(x, w, targets, block)), argnums=(0, 1))
    _close(jax.jit(blocked)(x, w), jax.jit(whole)(x, w), 1e-5)


@pytest.mark.slow  # compiles the whole model's loss and gradients twice
def test_the_blocked_model_trains_on_the_same_loss_and_gradients():
    params = init_params(CFG, jax.random.PRNGKey(0))
    batch = jnp.asarray(MarkovCorpus.make(64, 4, 1.0, 0).batch(0, 4, 33))
    blocked = dataclasses.replace(CFG, loss_block=8, attention_block=8)

    def run(cfg):
        f = jax.value_and_grad(loss_fn, has_aux=True)
        fn = ragged_dot.make("xla")
        return jax.jit(f, static_argnums=(3, 4, 5, 6))(params, batch, router_bias(CFG), cfg, fn, 1e-4, 1e-3)

    _close(run(blocked), run(CFG), 1e-4)


def test_rope_rotates_each_pair_of_halves_by_its_positions_angle():
    B, S, H, Dh, theta = 2, 9, 3, 8, 10000.0
    x = np.random.default_rng(0).normal(size=(B, S, H, Dh)).astype(np.float32)
    got = np.asarray(jax.jit(rope, static_argnums=1)(jnp.asarray(x), theta))
    # as complex numbers: (x[i] + 1j x[i + Dh/2]) * exp(1j * pos * theta^(-2i/Dh))
    z = (x[..., : Dh // 2] + 1j * x[..., Dh // 2 :]).astype(np.complex128)
    angle = np.arange(S)[:, None] * theta ** (-np.arange(0, Dh, 2) / Dh)[None, :]
    want = z * np.exp(1j * angle)[None, :, None, :]
    np.testing.assert_allclose(got, np.concatenate([want.real, want.imag], axis=-1), rtol=1e-5, atol=1e-5)
    assert got.dtype == np.float32


def test_markov_corpus_is_deterministic_and_follows_its_table():
    c = MarkovCorpus.make(50, 3, 1.0, seed=7)
    a, b = c.batch(5, 4, 20), MarkovCorpus.make(50, 3, 1.0, seed=7).batch(5, 4, 20)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c.batch(6, 4, 20))
    for row in a:
        for prev, nxt in zip(row[:-1], row[1:], strict=False):
            assert nxt in c.succ[prev]
    floor = c.entropy_floor(20)
    assert 0 < floor < np.log(3)


def test_batches_sampled_together_or_streamed_are_the_per_step_batches():
    c = MarkovCorpus.make(50, 3, 1.0, seed=7)
    one_by_one = np.stack([c.batch(s, 4, 20) for s in range(3, 14)])
    np.testing.assert_array_equal(c.batches(3, 11, 4, 20), one_by_one)
    stream = c.stream(steps=14, batch_size=4, length=20, chunk_tokens=4 * 20 * 4)  # chunks of 4 steps
    assert stream.chunk_steps == 4
    np.testing.assert_array_equal(np.stack([stream.get(s) for s in range(3, 14)]), one_by_one)
    np.testing.assert_array_equal(stream.get(5), one_by_one[2])  # going back re-samples


def test_a_nudge_moves_every_weight_exactly_one_float32_step():
    from canary.workload.train import nudge_of, nudged

    params = init_params(CFG, jax.random.PRNGKey(0))
    moved = nudged(params, 3)
    ups = 0
    for p, q in zip(jax.tree_util.tree_leaves(params), jax.tree_util.tree_leaves(moved), strict=True):
        p, q = np.asarray(p), np.asarray(q)
        up, down = np.nextafter(p, np.float32(np.inf)), np.nextafter(p, np.float32(-np.inf))
        assert q.dtype == np.float32 and np.all((q == up) | (q == down))
        ups += int(np.sum(q == up))
    n = sum(int(np.size(x)) for x in jax.tree_util.tree_leaves(params))
    assert 0.45 < ups / n < 0.55  # up or down at random
    same = nudged(params, 3)
    assert all(
        np.array_equal(a, b)
        for a, b in zip(jax.tree_util.tree_leaves(moved), jax.tree_util.tree_leaves(same), strict=True)
    )
    assert nudge_of({}) is None and nudge_of({"CANARY_NUDGE_SEED": " 7 "}) == 7
    with pytest.raises(SystemExit, match="not an integer"):
        nudge_of({"CANARY_NUDGE_SEED": "x"})
