"""Row gathers whose backward pass is a gather too.

``x[idx]`` differentiates into a scatter-add, which XLA's CPU backend runs as a serial loop.
When ``idx`` takes each row of ``x`` at most once (a permutation, or a permutation into a
padded layout) the transpose is just the inverse gather, so we say so with a custom VJP; when
it takes each row exactly ``k`` times (a permutation of the rows repeated), the transpose is the
inverse gather and ``k`` additions.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp


def _take(x: jax.Array, idx: jax.Array) -> jax.Array:
    """x[idx], where idx == len(x) selects a row of zeros."""
    return jnp.concatenate([x, jnp.zeros((1,) + x.shape[1:], x.dtype)])[idx]


@jax.custom_vjp
def gather_rows(x: jax.Array, idx: jax.Array, inv: jax.Array) -> jax.Array:
    """``x[idx]`` for an ``idx`` that takes each row of ``x`` at most once.

    ``inv[r]`` is the output position holding row ``r`` of ``x`` (``len(idx)`` if no position
    holds it); an ``idx`` entry equal to ``len(x)`` yields a zero row."""
    return _take(x, idx)


def _fwd(x, idx, inv):
    return _take(x, idx), (idx, inv)


def _bwd(res, g):
    idx, inv = res
    return _take(g, inv), None, None


gather_rows.defvjp(_fwd, _bwd)


def _repeated_fwd(x, order, inv, k):
    return x[order // k], (order, inv)


def _repeated_bwd(k, res, g):
    order, inv = res
    copies = g[inv].reshape(-1, k, g.shape[-1])  # row t's k copies, in t's order
    return sum(copies[:, j] for j in range(k)), None, None  # k slices added: no reduction op


@partial(jax.custom_vjp, nondiff_argnums=(3,))
def gather_repeated(x: jax.Array, order: jax.Array, inv: jax.Array, k: int) -> jax.Array:
    """``jnp.repeat(x, k, axis=0)[order]`` for a permutation ``order`` of ``len(x) * k`` rows
    (``inv`` its inverse), without building the repeat; its backward is the inverse gather with
    each row's ``k`` copies added."""
    return x[order // k]


gather_repeated.defvjp(_repeated_fwd, _repeated_bwd)


def inverse_permutation(perm: jax.Array) -> jax.Array:
    return jnp.zeros_like(perm).at[perm].set(jnp.arange(perm.shape[0], dtype=perm.dtype))
