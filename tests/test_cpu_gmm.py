"""The cpu lane's grouped-matmul kernel (C, through XLA's FFI): exact against XLA's ragged_dot,
forward and both gradients, on the lane's shapes and on shapes that take every code path."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from canary.workload import ragged_dot

jax.config.update("jax_platforms", "cpu")


def _problem(m, k, n, e, seed=0, short=0, empty=(1,)):
    rng = np.random.default_rng(seed)
    lhs = jnp.asarray(rng.normal(size=(m, k)), jnp.float32)
    rhs = jnp.asarray(rng.normal(size=(e, k, n)), jnp.float32)
    weights = np.ones(e)
    weights[[g for g in empty if g < e]] = 0
    sizes = rng.multinomial(m - short, weights / weights.sum()).astype(np.int32)
    return lhs, rhs, jnp.asarray(sizes)


def _reference(lhs, rhs, sizes):
    """Row by row in float64: each row times its own group's matrix; rows past the total are zero."""
    ends = np.cumsum(np.asarray(sizes))
    lhs64, rhs64 = np.asarray(lhs, np.float64), np.asarray(rhs, np.float64)
    out = np.zeros((lhs.shape[0], rhs.shape[-1]))
    for r in range(lhs.shape[0]):
        g = int(np.searchsorted(ends, r, side="right"))
        if g < rhs.shape[0]:
            out[r] = lhs64[r] @ rhs64[g]
    return out


SHAPES = [
    (2048, 32, 128, 32),  # the cpu lane's gate / up projections
    (2048, 128, 32, 32),  # its down projection
    (96, 5, 37, 8),       # widths below one vector and odd remainders
    (200, 64, 80, 3),     # 64-, and 16-wide column blocks, few groups
    (70, 160, 130, 4),    # matrices wider than any block, with remainders
]


@pytest.mark.parametrize("m,k,n,e", SHAPES)
@pytest.mark.parametrize("short", [0, 9])
def test_forward_equals_the_row_by_row_product(m, k, n, e, short):
    lhs, rhs, sizes = _problem(m, k, n, e, short=short)
    out = jax.jit(ragged_dot.make("cpu_gmm"))(lhs, rhs, sizes)
    np.testing.assert_allclose(np.asarray(out), _reference(lhs, rhs, sizes), rtol=1e-4, atol=1e-4)
    if short:
        assert not np.any(np.asarray(out)[m - short:])  # rows past the groups' total are zero


@pytest.mark.parametrize("m,k,n,e", SHAPES)
def test_both_gradients_match_xla(m, k, n, e):
    lhs, rhs, sizes = _problem(m, k, n, e, seed=1, short=3, empty=(0, e - 1))
    cot = jnp.asarray(np.random.default_rng(2).normal(size=(m, n)), jnp.float32)

    def grads(fn):
        return jax.jit(jax.grad(lambda l, r: jnp.sum(jnp.sin(fn(l, r, sizes)) * cot), argnums=(0, 1)))(lhs, rhs)

    (dl_ref, dr_ref), (dl, dr) = grads(ragged_dot.make("xla")), grads(ragged_dot.make("cpu_gmm"))
    np.testing.assert_allclose(np.asarray(dl), np.asarray(dl_ref), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.asarray(dr), np.asarray(dr_ref), rtol=1e-4, atol=1e-4)
    assert not np.any(np.asarray(dr)[0]) and not np.any(np.asarray(dr)[e - 1])  # empty groups: zero gradient


def test_other_dtypes_are_computed_in_float32_and_returned_as_given():
    lhs, rhs, sizes = _problem(64, 32, 48, 4)
    out = jax.jit(ragged_dot.make("cpu_gmm"))(lhs.astype(jnp.bfloat16), rhs.astype(jnp.bfloat16), sizes)
    assert out.dtype == jnp.bfloat16
    ref = _reference(lhs.astype(jnp.bfloat16).astype(jnp.float32), rhs.astype(jnp.bfloat16).astype(jnp.float32), sizes)
    np.testing.assert_allclose(np.asarray(out, np.float32), ref, rtol=2e-2, atol=2e-2)


def test_the_cpu_lane_uses_it_and_other_platforms_refuse_it():
    assert ragged_dot.resolve("auto", "cpu") == "cpu_gmm"
    with pytest.raises(ValueError, match="cpu platform only"):
        ragged_dot.make("cpu_gmm", "tpu")
