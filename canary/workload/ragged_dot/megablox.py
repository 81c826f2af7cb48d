"""The megablox Pallas grouped matmul (``jax.experimental.pallas.ops.tpu.megablox``).

On a TPU it lowers through Mosaic; on any other platform it runs in Pallas interpret mode,
which computes the same numbers (slowly) but never checks the TPU's block-shape rules, so a
CPU run of it proves the arithmetic and ``canary lower --platform tpu`` proves the lowering.

megablox's custom VJP runs three grouped matmuls per call, and passes each the same ``tiling``:

    forward   gmm(lhs (m, k), rhs (E, k, n))                     -> (m, n)
    grad-lhs  gmm(grad (m, n), rhs (E, k, n), transpose_rhs=True) -> (m, k)
    grad-rhs  tgmm(lhs^T (k, m), grad (m, n))                     -> (E, k, n)

so the tile it is given must suit all three shapes. Two tiling policies:

* ``per-shape`` (the default): a callable ``tiling(m, k, n)``; megablox calls it with each
  grouped matmul's own dimensions, so grad-lhs (whose k and n are the forward's n and k) gets a
  tile made for it;
* ``static``: one tuple ``(min(m, 512), min(k, 1024), min(n, 1024))`` from the forward shapes,
  reused by the backward. For a projection whose k and n differ and are small (the ferry's down
  projection: k=128, n=32) grad-lhs gets a (512, 32) output block on a 128-wide array, which the
  TPU lowering rejects. This is the behaviour of the August 2026 incident, kept selectable so the
  lowering preflight can be shown to catch it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import jax
import jax.numpy as jnp
from jax.experimental.pallas.ops.tpu.megablox import ops as megablox_ops

# The kernels module itself (the package re-exports its custom-VJP ``gmm`` under the same name).
megablox_kernels = importlib.import_module("jax.experimental.pallas.ops.tpu.megablox.gmm")

# The caps of the incident's static tuple; tiles above them do not fit in VMEM comfortably.
TM_MAX, TK_MAX, TN_MAX = 512, 1024, 1024
# The Pallas TPU rule for the last two dims of a block: divisible by 8 and 128, or the full dim.
SUBLANES, LANES = 8, 128

Tile = tuple[int, int, int]
TilingPolicy = Callable[[int, int, int], Tile]


def static_tile(m: int, k: int, n: int) -> Tile:
    """The incident's tile: one tuple from the forward shapes."""
    return (min(m, TM_MAX), min(k, TK_MAX), min(n, TN_MAX))


def _row_tile(m: int) -> int:
    """The m tile must divide m (megablox counts whole row tiles) and be a multiple of 8 or m."""
    if m <= TM_MAX:
        return m
    for tm in range(TM_MAX, SUBLANES - 1, -SUBLANES):
        if m % tm == 0:
            return tm
    raise ValueError(f"{m} rows have no multiple-of-{SUBLANES} tile; pad the rows first")


def per_shape_tile(m: int, k: int, n: int) -> Tile:
    """A valid tile for one grouped matmul from its own (m, k, n).

    k and n tiles are the whole dimension when it fits under the cap (always a legal block) and
    otherwise the cap, a multiple of 128 (megablox masks the ragged last tile)."""
    return (_row_tile(m), min(k, TK_MAX), min(n, TN_MAX))


def block_dim_ok(block: int, dim: int, align: int) -> bool:
    return block == dim or block % align == 0


def block_shapes(kind: str, m: int, k: int, n: int, tile: Tile) -> dict[str, tuple[tuple[int, int], tuple[int, int]]]:
    """(block, array) of the last two dims of every operand megablox tiles, for one grouped matmul.

    ``kind`` is ``gmm``, ``gmm-t`` (gmm with transpose_rhs, grad-lhs) or ``tgmm`` (grad-rhs); m, k, n
    are the dims megablox derives for that call. Mirrors the BlockSpecs megablox builds."""
    tm, tk, tn = tile
    if kind == "gmm":
        return {"lhs": ((tm, tk), (m, k)), "rhs": ((tk, tn), (k, n)), "out": ((tm, tn), (m, n))}
    if kind == "gmm-t":
        return {"lhs": ((tm, tk), (m, k)), "rhs": ((tn, tk), (n, k)), "out": ((tm, tn), (m, n))}
    if kind == "tgmm":
        return {"lhs": ((tm, tk), (m, k)), "rhs": ((tm, tn), (m, n)), "out": ((tk, tn), (k, n))}
    raise ValueError(f"unknown grouped matmul kind {kind!r}")


def invalid_blocks(kind: str, m: int, k: int, n: int, tile: Tile) -> dict[str, tuple[tuple[int, int], tuple[int, int]]]:
    """The operands whose block breaks the TPU rule (empty when the tile is legal)."""
    bad = {}
    for name, (block, array) in block_shapes(kind, m, k, n, tile).items():
        if not (block_dim_ok(block[0], array[0], SUBLANES) and block_dim_ok(block[1], array[1], LANES)):
            bad[name] = (block, array)
    if m % tile[0]:
        bad["rows"] = ((tile[0],), (m,))
    return bad


def backward_gmms(M: int, K: int, N: int) -> dict[str, tuple[str, tuple[int, int, int]]]:
    """The three grouped matmuls of one forward ``(M, K) x (E, K, N)`` with the (m, k, n) megablox
    derives for each: name -> (kind, dims)."""
    return {
        "forward": ("gmm", (M, K, N)),
        "grad-lhs": ("gmm-t", (M, N, K)),
        "grad-rhs": ("tgmm", (M, K, N)),
    }


def tiling_for(policy: str, m: int, k: int, n: int) -> Tile | TilingPolicy:
    """What the backend hands megablox for a forward (m, k, n) under a policy."""
    if policy == "per-shape":
        return per_shape_tile
    if policy == "static":
        return static_tile(m, k, n)
    raise ValueError(f"unknown tiling policy {policy!r}; known: per-shape, static")


def _pad_rows(lhs: jax.Array) -> tuple[jax.Array, int]:
    m = lhs.shape[0]
    if m <= TM_MAX or m % SUBLANES == 0:
        return lhs, m
    return jnp.pad(lhs, ((0, SUBLANES - m % SUBLANES), (0, 0))), m


def make(platform: str = "cpu", tiling: str = "per-shape", interpret: bool | None = None, **_options):
    """A ragged_dot through megablox; interpret mode anywhere but on a TPU."""
    if interpret is None:
        interpret = platform != "tpu"
    tiling_for(tiling, 1, 1, 1)  # reject an unknown policy now, not at the first call

    def ragged_dot(lhs, rhs, group_sizes):
        padded, m = _pad_rows(lhs) if tiling == "per-shape" else (lhs, lhs.shape[0])
        out = megablox_ops.gmm(
            padded,
            rhs,
            group_sizes.astype(jnp.int32),
            lhs.dtype,
            tiling_for(tiling, padded.shape[0], lhs.shape[1], rhs.shape[2]),
            None,
            None,
            False,
            interpret,
        )
        return out[:m] if padded.shape[0] != m else out

    return ragged_dot


def component_calls(
    M: int, K: int, N: int, E: int, dtype, tiling: str, interpret: bool = False
) -> dict[str, tuple[Callable, tuple]]:
    """Each of the three grouped matmuls of one megablox call on its own, with the tile the
    backend's policy gives it, as (function, abstract arguments) ready for lowering: the way to
    tell which of forward, grad-lhs and grad-rhs a kernel failure comes from."""
    tile = tiling_for(tiling, M, K, N)
    sds = jax.ShapeDtypeStruct
    gs = sds((E,), jnp.int32)

    def forward(lhs, rhs, group_sizes):
        return megablox_kernels.gmm(lhs, rhs, group_sizes, dtype, tile, interpret=interpret)

    def grad_lhs(grad, rhs, group_sizes):
        return megablox_kernels.gmm(grad, rhs, group_sizes, dtype, tile, transpose_rhs=True, interpret=interpret)

    def grad_rhs(lhs_t, grad, group_sizes):
        return megablox_kernels.tgmm(lhs_t, grad, group_sizes, dtype, tile, num_actual_groups=E, interpret=interpret)

    return {
        "forward": (forward, (sds((M, K), dtype), sds((E, K, N), dtype), gs)),
        "grad-lhs": (grad_lhs, (sds((M, N), dtype), sds((E, K, N), dtype), gs)),
        "grad-rhs": (grad_rhs, (sds((K, M), dtype), sds((M, N), dtype), gs)),
    }
