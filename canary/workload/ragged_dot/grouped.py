"""A grouped matmul whose work is the real work: the CPU lane's default.

``jax.lax.ragged_dot`` on a CPU multiplies every row by every group's matrix and masks (E
times the real FLOPs: 32x for the canary). Here the rows, already sorted by group, are laid
into fixed-size row tiles, each group's rows starting on a fresh tile, so every tile belongs
to exactly one group. One batched matmul then multiplies each tile by its own group's
matrix:

    tiles (n_tiles, tile, K) @ rhs[tile_group] (n_tiles, K, N) -> (n_tiles, tile, N)

The number of tiles is static: ``ceil(M / tile) + E`` bounds the rows plus each group's
padding, so the batched matmul runs over ``(ceil(M / tile) + E) * tile`` rows: 3,072 for the
cpu lane's 2,048 routed rows, 32 experts and 32-row tiles (1.5x the real work). Fewer, larger
tiles beat a tighter fit on a CPU: each tile carries its own copy of its expert's weights, and
16-row tiles (2,560 rows, 160 weight copies) made the cpu lane's step about 9% slower.

Exact: no token is dropped, whatever the routing; rows past ``sum(group_sizes)`` give zeros,
as ``ragged_dot`` does. Gradients come from autodiff of the gathers and the batched matmul, and
are checked against the ``xla`` backend in the tests.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

DEFAULT_TILE = 32


def _take(x: jax.Array, idx: jax.Array) -> jax.Array:
    """x[idx], where idx == len(x) selects a row of zeros."""
    return jnp.concatenate([x, jnp.zeros((1,) + x.shape[1:], x.dtype)])[idx]


@jax.custom_vjp
def gather_rows(x: jax.Array, idx: jax.Array, inv: jax.Array) -> jax.Array:
    """``x[idx]`` for an ``idx`` that takes each row of ``x`` at most once (a permutation into or
    out of the padded tile layout); an ``idx`` entry equal to ``len(x)`` yields a zero row.
    ``inv[r]`` is the output position holding row ``r`` of ``x`` (``len(idx)`` if none does).

    Its backward pass is the inverse gather rather than autodiff's scatter-add, which XLA's CPU
    backend runs as a serial loop. This backend exists for CPUs only (accelerator lanes use
    ``xla`` or ``megablox``), so no accelerator program contains it."""
    return _take(x, idx)


def _gather_fwd(x, idx, inv):
    return _take(x, idx), (idx, inv)


def _gather_bwd(res, g):
    idx, inv = res
    return _take(g, inv), None, None


gather_rows.defvjp(_gather_fwd, _gather_bwd)


def tile_layout(group_sizes: jax.Array, m: int, tile: int):
    """Where each of the M sorted rows goes in the tiled buffer, and each tile's group.

    Returns (dest (M,) int32 row index into the padded buffer, or n_tiles * tile for rows past
    the groups' total; tile_group (n_tiles,) int32; n_tiles)."""
    e = group_sizes.shape[0]
    n_tiles = -(-m // tile) + e
    sizes = group_sizes.astype(jnp.int32)
    ends = jnp.cumsum(sizes)
    starts = ends - sizes
    padded = (sizes + tile - 1) // tile * tile
    padded_starts = jnp.cumsum(padded) - padded
    rows = jnp.arange(m, dtype=jnp.int32)
    group = jnp.searchsorted(ends, rows, side="right").astype(jnp.int32)  # == e past the total
    valid = group < e
    g = jnp.minimum(group, e - 1)
    dest = jnp.where(valid, padded_starts[g] + rows - starts[g], n_tiles * tile)
    tile_starts = jnp.arange(n_tiles, dtype=jnp.int32) * tile
    padded_ends = jnp.cumsum(padded)
    tile_group = jnp.minimum(jnp.searchsorted(padded_ends, tile_starts, side="right"), e - 1)
    return dest, tile_group.astype(jnp.int32), n_tiles


def grouped_matmul(lhs: jax.Array, rhs: jax.Array, group_sizes: jax.Array, tile: int = DEFAULT_TILE) -> jax.Array:
    m, k = lhs.shape
    n = rhs.shape[-1]
    dest, tile_group, n_tiles = tile_layout(group_sizes, m, tile)
    # src: which row of lhs fills each padded slot (m: none, a zero row). Both directions are
    # gathers, forward and backward.
    slots = n_tiles * tile
    src = jnp.full((slots + 1,), m, jnp.int32).at[dest].set(jnp.arange(m, dtype=jnp.int32))[:-1]
    tiles = gather_rows(lhs, src, dest).reshape(n_tiles, tile, k)
    out = jnp.einsum("tbk,tkn->tbn", tiles, rhs[tile_group], preferred_element_type=lhs.dtype)
    return gather_rows(out.reshape(slots, n), dest, src)


def make(tile: int = DEFAULT_TILE, **_options):
    def ragged_dot(lhs, rhs, group_sizes):
        return grouped_matmul(lhs, rhs, group_sizes, tile)

    return ragged_dot
