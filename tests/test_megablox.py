"""The megablox ragged_dot backend: numbers against XLA's ragged_dot (Pallas interpret mode on a
CPU), and the tiling policies against the TPU block-shape rule."""

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from canary.errors import ConfigError
from canary.formats.spec import ragged_dot_override
from canary.workload import ragged_dot as backends
from canary.workload.ragged_dot import megablox


def _grads(fn, lhs, rhs, group_sizes, cotangent):
    def loss(a, b):
        return jnp.sum(fn(a, b, group_sizes) * cotangent)

    out = fn(lhs, rhs, group_sizes)
    g_lhs, g_rhs = jax.grad(loss, argnums=(0, 1))(lhs, rhs)
    return out, g_lhs, g_rhs


@pytest.mark.slow  # interprets the Pallas kernel: 4-6 s a case
@pytest.mark.parametrize(
    "tiling, M, K, N, sizes",
    [
        ("per-shape", 48, 32, 128, [10, 0, 24, 14]),  # an empty group; groups cross row tiles
        ("static", 48, 128, 32, [0, 20, 20, 8]),  # the down projection's shape class
        ("per-shape", 516, 8, 128, [300, 0, 200, 16]),  # more rows than a tile and not a multiple of 8
    ],
)
def test_interpret_mode_matches_xla_forward_and_both_gradients(tiling, M, K, N, sizes):
    E = len(sizes)
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    lhs = jax.random.normal(k1, (M, K), jnp.float32)
    rhs = jax.random.normal(k2, (E, K, N), jnp.float32)
    cot = jax.random.normal(k3, (M, N), jnp.float32)
    gs = jnp.array(sizes, jnp.int32)

    mb = backends.make("megablox", "cpu", tiling=tiling)
    ref = backends.make("xla", "cpu")
    for got, want, what in zip(
        _grads(mb, lhs, rhs, gs, cot), _grads(ref, lhs, rhs, gs, cot), ("forward", "grad-lhs", "grad-rhs"), strict=True
    ):
        assert got.shape == want.shape, what
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=2e-5, atol=2e-4, err_msg=what)


def test_auto_resolves_per_platform():
    assert backends.resolve("auto", "tpu") == "megablox"
    assert backends.resolve("auto", "cpu") == "grouped"
    assert backends.resolve("auto", "cuda") == "xla"
    assert "megablox" in backends.BACKENDS


def test_unknown_tiling_policy_is_rejected_at_make():
    with pytest.raises(ValueError, match="tiling policy"):
        backends.make("megablox", "cpu", tiling="diagonal")


SHAPES = [8, 32, 96, 128, 200, 512, 1024, 1536, 2048, 524288]


@pytest.mark.parametrize("M", [8, 48, 512, 2048, 4104, 524288])
def test_per_shape_tiles_are_legal_for_every_grouped_matmul(M):
    for K, N in itertools.product(SHAPES[:-1], repeat=2):
        for name, (kind, dims) in megablox.backward_gmms(M, K, N).items():
            tile = megablox.per_shape_tile(*dims)
            assert megablox.invalid_blocks(kind, *dims, tile) == {}, (name, (M, K, N), tile)


def test_static_tile_breaks_grad_lhs_of_the_incidents_down_projection():
    M, K, N = 524288, 128, 32  # lhs (M, 128) x rhs (32 experts, 128, 32)
    tile = megablox.static_tile(M, K, N)
    assert tile == (512, 128, 32)
    gmms = megablox.backward_gmms(M, K, N)
    kind, dims = gmms["forward"]
    assert megablox.invalid_blocks(kind, *dims, tile) == {}
    kind, dims = gmms["grad-lhs"]
    bad = megablox.invalid_blocks(kind, *dims, tile)
    assert bad["out"] == ((512, 32), (524288, 128))
    # and the up projection breaks the same way on grad-lhs's input
    kind, dims = megablox.backward_gmms(M, 32, 128)["grad-lhs"]
    assert megablox.invalid_blocks(kind, *dims, megablox.static_tile(M, 32, 128))["lhs"] == ((512, 32), (524288, 128))


def test_ragged_dot_env_override():
    assert ragged_dot_override(None, {}) is None
    assert ragged_dot_override(None, {"RAGGED_DOT_IMPL": "xla"}) == "xla"
    assert ragged_dot_override("megablox", {"RAGGED_DOT_IMPL": "xla"}) == "megablox"  # the flag wins
    with pytest.raises(ConfigError, match="RAGGED_DOT_IMPL"):
        ragged_dot_override(None, {"RAGGED_DOT_IMPL": "cublas"})
