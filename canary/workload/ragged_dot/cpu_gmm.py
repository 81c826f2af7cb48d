"""A grouped-matmul kernel for the CPU, called through XLA's FFI: the cpu lane's default.

``jax.lax.ragged_dot`` on a CPU multiplies every row by every group's matrix (32x the real
work for the canary), and any arrangement of XLA ops that avoids that (see ``grouped``) pays for
padded tiles and per-tile weight copies. ``canary/workload/cpu_kernels/gmm.c`` is three small C
handlers that read each expert's matrix in place:

    forward    out[r] = lhs[r] @ rhs[g(r)]                    canary_gmm
    grad lhs   d_lhs[r] = d_out[r] @ rhs[g(r)]^T              canary_gmm_t
    grad rhs   d_rhs[g] = lhs[rows of g]^T @ d_out[rows of g] canary_tgmm

Exact (no token is dropped; rows past ``sum(group_sizes)`` give zeros, as ``ragged_dot``
does), computed in float32 (other dtypes are cast in and out), and checked against the ``xla``
backend forward and both gradients in the tests. How the kernels are built, and what happens
where they cannot be: :mod:`canary.workload.cpu_kernels`.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from canary.workload import cpu_kernels

unavailable_reason = cpu_kernels.unavailable_reason  # why this backend cannot run here, if it cannot


@jax.custom_vjp
def gmm(lhs: jax.Array, rhs: jax.Array, group_sizes: jax.Array) -> jax.Array:
    """``ragged_dot(lhs (M, K), rhs (G, K, N), group_sizes (G,)) -> (M, N)``, float32."""
    return cpu_kernels.call("canary_gmm", (lhs.shape[0], rhs.shape[2]), lhs, rhs, group_sizes)


def _fwd(lhs, rhs, group_sizes):
    return gmm(lhs, rhs, group_sizes), (lhs, rhs, group_sizes)


def _bwd(res, d_out):
    lhs, rhs, group_sizes = res
    d_lhs = cpu_kernels.call("canary_gmm_t", lhs.shape, d_out, rhs, group_sizes)
    d_rhs = cpu_kernels.call("canary_tgmm", rhs.shape, lhs, d_out, group_sizes)
    return cpu_kernels.cotangent_for(d_lhs, lhs), cpu_kernels.cotangent_for(d_rhs, rhs), None


gmm.defvjp(_fwd, _bwd)


def make(platform: str = "cpu", **_options):
    if platform != "cpu":
        raise ValueError(f"the cpu_gmm backend runs on the cpu platform only, not {platform!r}")
    cpu_kernels.load()

    def ragged_dot(lhs, rhs, group_sizes):
        dtype = lhs.dtype
        out = gmm(lhs.astype(jnp.float32), rhs.astype(jnp.float32), group_sizes.astype(jnp.int32))
        return out.astype(dtype)

    return ragged_dot
