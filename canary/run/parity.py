"""The tpu lane's grouped-matmul kernel executed for parity, on any CPU.

A kernel can lower and compile cleanly and still compute the wrong thing (a change that routes
some rows to the wrong group); only executing it sees that, and the cpu lane never runs the TPU's
kernel. Pallas interpret mode runs a TPU kernel's own semantics (its grid, blocks and index maps)
on the CPU. This check runs the kernel the tpu lane takes for the ferry's grouped matmuls, megablox
(haliax's ``ragged_dot`` with ``implementation="megablox"`` for a stack ferry, canary's megablox
wrapper with the lane's tiling for its own), in interpret mode, against XLA's ``ragged_dot``
computed in float32 from the same inputs: the forward output and both gradients (grad-lhs,
grad-rhs), for each projection, at the cpu lane's shapes and at one tile of the tpu lane's (two
of its 512-row tiles, the lane's K, N and compute dtype: the same tile the lane's kernel runs).

The error is the worst element's ``|kernel - reference| / max|reference|``. Tolerances
(docs/lanes.md says why): float32 1e-4, bfloat16 2**-6.
"""

from __future__ import annotations

import importlib
import time
from typing import Any

from canary.config import Ferry, Lane

TOLERANCE = {"float32": 1e-4, "bfloat16": 2.0**-6}
TILE_ROWS = 2 * 512  # two of megablox's 512-row tiles
GRADS = ("forward", "grad-lhs", "grad-rhs")


def projections(ferry: Ferry) -> dict[str, tuple[int, int]]:
    """The ferry's grouped matmuls as (K, N): a stack ferry fuses gate and up into one weight."""
    m = ferry.model
    up = 2 * m.intermediate if ferry.stack else m.intermediate
    return {"gate/up": (m.hidden, up), "down": (m.intermediate, m.hidden)}


def cases(ferry: Ferry, cpu: Lane | None, tpu: Lane) -> list[dict[str, Any]]:
    """(name, rows, K, N, experts, dtype) per shape checked. Pure."""
    out = []
    for lane, rows in ((cpu, None), (tpu, TILE_ROWS)):
        if lane is None or lane.name not in ferry.lanes:
            continue
        settings = ferry.lane(lane.name)
        if rows is None:
            rows = settings.batch_size // lane.devices * settings.seq_len * ferry.model.experts_per_token
        dtype = getattr(settings, "compute_dtype", None) or ferry.trainer.compute_dtype
        for projection, (K, N) in projections(ferry).items():
            out.append(
                {
                    "shape": f"{lane.name} lane",
                    "projection": projection,
                    "rows": rows,
                    "K": K,
                    "N": N,
                    "experts": ferry.model.num_experts,
                    "dtype": dtype,
                }
            )
    return out


def kernel(ferry: Ferry, tpu: Lane) -> tuple[str, Any, str | None]:
    """(name, ragged_dot(lhs, rhs, group_sizes) in interpret mode, its module's file)."""
    if ferry.stack:
        module = importlib.import_module("haliax.nn.ragged_dot")

        def fn(lhs, rhs, sizes):
            return module.ragged_dot(lhs, rhs, sizes, implementation="megablox")

        return "haliax.nn.ragged_dot (megablox)", fn, module.__file__
    from canary.workload.ragged_dot import megablox

    tiling = ferry.lane(tpu.name).tiling or "per-shape"
    fn = megablox.make("cpu", tiling=tiling, interpret=True)
    return f"canary's megablox wrapper ({tiling} tiling)", fn, megablox.megablox_kernels.__file__


def _inputs(case: dict[str, Any], seed: int = 0):
    """lhs, rhs, group sizes and the output's cotangent, made with numpy: no JAX op runs (each
    eager op would be a compile of its own)."""
    import jax.numpy as jnp
    import numpy as np

    rng = np.random.default_rng(seed)
    M, K, N, E = case["rows"], case["K"], case["N"], case["experts"]
    cuts = np.sort(rng.integers(0, M + 1, size=E - 1))
    sizes = np.diff(np.concatenate([[0], cuts, [M]])).astype(np.int32)
    sizes[1] += sizes[2]
    sizes[2] = 0  # an empty group, as routing leaves
    dtype = jnp.dtype(case["dtype"])
    lhs = rng.standard_normal((M, K), np.float32).astype(dtype)
    rhs = (rng.standard_normal((E, K, N), np.float32) / np.sqrt(K)).astype(dtype)
    cot = rng.standard_normal((M, N), np.float32).astype(dtype)
    return lhs, rhs, sizes, cot


def _three(fn, lhs, rhs, sizes, cot):
    import jax

    out, vjp = jax.vjp(lambda a, b: fn(a, b, sizes), lhs, rhs)
    grad_lhs, grad_rhs = vjp(cot)
    return {"forward": out, "grad-lhs": grad_lhs, "grad-rhs": grad_rhs}


def compare(cases: list[dict[str, Any]], fn) -> list[dict[str, Any]]:
    """The kernel's forward and gradients against XLA's ragged_dot in float32, one row each, for
    every case. All of it is one program: XLA compiles once (about a quarter less CPU than one
    program per case, and far less than eager ops), each case from its own inputs."""
    import jax
    import jax.numpy as jnp

    def reference(a, b, g):
        return jax.lax.ragged_dot(a, b, g, preferred_element_type=jnp.float32)

    def both(a, b, g, c):  # the kernel's three and the reference's, from the same inputs
        f32 = [x.astype(jnp.float32) for x in (a, b, c)]
        return _three(fn, a, b, g, c), _three(reference, f32[0], f32[1], g, f32[2])

    results = jax.jit(lambda inputs: [both(*x) for x in inputs])([_inputs(case) for case in cases])
    return [row for case, (got, want) in zip(cases, results, strict=True) for row in _rows(case, got, want)]


def _rows(case: dict[str, Any], got: dict[str, Any], want: dict[str, Any]) -> list[dict[str, Any]]:
    import numpy as np

    tol = TOLERANCE.get(case["dtype"], TOLERANCE["bfloat16"])
    rows = []
    for name in GRADS:
        k, r = np.asarray(got[name], np.float32), np.asarray(want[name], np.float32)
        diff = np.abs(k - r)
        scale = float(np.max(np.abs(r))) or 1.0
        i = np.unravel_index(int(np.argmax(diff)), diff.shape)
        err = float(diff[i]) / scale
        rows.append(
            {
                **case,
                "gradient": name,
                "error": err,
                "tolerance": tol,
                "ok": bool(np.isfinite(err) and err <= tol),
                "index": [int(x) for x in i],
                "kernel_value": float(k[i]),
                "reference_value": float(r[i]),
            }
        )
    return rows


def owner(path: str | None) -> str | None:
    """The distribution and version that installed the kernel's file; for a file that is not the
    installed one (a copy on ``sys.path`` ahead of it), the distribution that ships its package,
    said as such."""
    import importlib.metadata
    from pathlib import Path

    from canary.run.ownership import describe, owner_of

    if not path:
        return None
    here = Path(path).resolve()
    found = owner_of(path)
    if found:
        dist = importlib.metadata.distribution(found[0])
        files = [f for f in dist.files or () if f.name == here.name]
        if any(Path(dist.locate_file(f)).resolve() == here for f in files):
            return describe(found)
        return f"{describe(found)}, but loaded from {path}"
    return f"loaded from {path}"


def check(ferry: Ferry, cpu: Lane | None, tpu: Lane) -> dict[str, Any]:
    """Every case's three comparisons; ``ok`` False and ``mismatch`` (the worst failing row, with
    the kernel and its owner) when any is past its tolerance."""
    t0 = time.perf_counter()
    name, fn, path = kernel(ferry, tpu)
    rows = compare(cases(ferry, cpu, tpu), fn)
    bad = [r for r in rows if not r["ok"]]
    out: dict[str, Any] = {
        "kernel": name,
        "mode": "Pallas interpret mode on the CPU",
        "reference": "jax.lax.ragged_dot in float32",
        "owner": owner(path),
        "ok": not bad,
        "checks": rows,
        "seconds": 0.0,
    }
    if bad:
        worst = max(bad, key=lambda r: r["error"] / r["tolerance"])
        out["mismatch"] = (
            f"{name} ({out['owner']}) differs from XLA's ragged_dot in {worst['gradient']} of the "
            f"{worst['projection']} projection at the {worst['shape']}'s shape (M={worst['rows']}, "
            f"K={worst['K']}, N={worst['N']}, {worst['dtype']}): worst element {tuple(worst['index'])} is "
            f"{worst['kernel_value']:.6g}, XLA gives {worst['reference_value']:.6g}, error "
            f"{worst['error']:.3g} of the output's scale (tolerance {worst['tolerance']:.3g})"
        )
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


def lines(p: dict[str, Any]) -> list[str]:
    """The parity check as the terminal shows it. Pure."""
    worst = max(p["checks"], key=lambda r: r["error"] / r["tolerance"], default=None)
    head = f"parity       {p['kernel']} ({p['owner']}) in interpret mode vs XLA's ragged_dot: "
    if p["ok"]:
        tail = f"{len(p['checks'])} comparisons within tolerance" + (
            f" (worst {worst['error']:.2g} of {worst['tolerance']:.2g}, {worst['gradient']})" if worst else ""
        )
        return [head + tail + f", {p['seconds']} s"]
    return [head + "MISMATCH", f"  {p['mismatch']}"]
