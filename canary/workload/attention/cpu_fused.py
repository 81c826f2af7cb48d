"""Rotary causal attention for the CPU as two C kernels through XLA's FFI: the cpu lane's choice.

XLA's CPU backend runs the reference (RoPE, scores, mask, softmax, weighted sum, and their
transposes) as a few dozen small operations per layer, each a pass over memory, and its
softmax reductions are slow at the cpu lane's shapes. ``canary/workload/cpu_kernels/attention.c``
does the whole of it in one call forward (keeping each query's log-sum-exp) and one backward
(recomputing the probabilities from it), over only the causal half of the scores. Computed in
float32 (other dtypes are cast in and out), and checked against the ``xla`` backend, forward
and all three gradients, in the tests. How the kernels are built: :mod:`canary.workload.cpu_kernels`.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from canary.workload import cpu_kernels
from canary.workload.model import rope_tables

unavailable_reason = cpu_kernels.unavailable_reason  # why this backend cannot run here, if it cannot


def _window(window: int | None) -> np.int64:
    return np.int64(-1 if window is None else window)


@partial(jax.custom_vjp, nondiff_argnums=(3, 4))
def attend32(q, k, v, theta: float, window: int | None):
    """float32 rotary causal attention (see :mod:`canary.workload.attention`)."""
    return _forward(q, k, v, theta, window)[0]


def _forward(q, k, v, theta, window):
    B, S, H, D = q.shape
    cos, sin = rope_tables(S, D, theta)
    out, lse = cpu_kernels.call("canary_attention", [q.shape, (B, H, S)], q, k, v, cos, sin, window=_window(window))
    return out, lse, cos, sin


def _fwd(q, k, v, theta, window):
    out, lse, _, _ = _forward(q, k, v, theta, window)
    return out, (q, k, v, out, lse)


def _bwd(theta, window, res, d_out):
    q, k, v, out, lse = res
    cos, sin = rope_tables(q.shape[1], q.shape[3], theta)
    grads = cpu_kernels.call("canary_attention_bwd", [q.shape, k.shape, v.shape], q, k, v, cos, sin, out, lse,
                             d_out, window=_window(window))
    return tuple(cpu_kernels.cotangent_for(g, x) for g, x in zip(grads, (q, k, v)))


attend32.defvjp(_fwd, _bwd)


def make(platform: str = "cpu", **_options):
    if platform != "cpu":
        raise ValueError(f"the cpu_fused attention runs on the cpu platform only, not {platform!r}")
    cpu_kernels.load()

    def attend(q, k, v, theta, window):
        dtype = q.dtype
        f32 = [x.astype(jnp.float32) for x in (q, k, v)]
        return attend32(*f32, theta, window).astype(dtype)

    return attend
