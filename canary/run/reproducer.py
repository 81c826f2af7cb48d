"""A reproducer a kernel owner can run: on a preflight's grouped-matmul lowering failure, a
``repro.py`` of plain JAX and the owning library's public call (jax's megablox ``gmm``/``tgmm``
for canary's own model, haliax's ``ragged_dot`` for a stack ferry) at the failing shapes, with
abstract inputs, under a header naming the exact packages to install; then run in a subprocess
to say whether it reproduced the same error (the same block on the same array). A compile
failure (libtpu out of memory, a Mosaic error) is the whole program's: its ``repro.py``
(:func:`compile_script`) lowers the ferry's train step on the lane's topology, deviceless with
``jax.experimental.topologies`` as the preflight does, and compiles it with libtpu.

    text = script(failure, experts=8, dtype="bfloat16", library="megablox", versions={...})
    found = write_and_check(run_dir, failure, ...)   # {"path", "reproduced", "detail", "seconds"}

:func:`script` is pure; JAX runs only in the child.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from canary.run.lowered import parse_block_shape_error

FILE = "repro.py"
TIMEOUT_S = 300.0

_MEGABLOX = {  # (the call, its abstract arguments) per grouped matmul of megablox's own kernels
    "forward": ("gmm(a, b, g, dtype, TILE)", "(M, K)", "(E, K, N)"),
    "grad-lhs": ("gmm(a, b, g, dtype, TILE, transpose_rhs=True)", "(M, N)", "(E, K, N)"),
    "grad-rhs": ("tgmm(a, b, g, dtype, TILE, num_actual_groups=E)", "(K, M)", "(M, N)"),
}
_HALIAX = {  # haliax's ragged_dot, its forward or one gradient
    "forward": "ragged_dot(a, b, g, implementation='megablox')",
    "grad-lhs": "jax.vjp(lambda x: ragged_dot(x, b, g, implementation='megablox'), a)[1](c)[0]",
    "grad-rhs": "jax.vjp(lambda w: ragged_dot(a, w, g, implementation='megablox'), b)[1](c)[0]",
}


def script(failure: dict[str, Any], *, experts: int, dtype: str, library: str, versions: dict[str, str]) -> str:
    """``repro.py`` for one failing grouped matmul (``failure``: gmm, projection, dims [M, K, N],
    block_shape, array_shape, diagnosis, and tile for megablox). Pure."""
    M, K, N = failure["dims"]
    gmm = failure["gmm"]
    pins = " ".join(f"{name}=={v}" for name, v in sorted(versions.items()) if v)
    head = [
        f'"""{gmm} of the {failure.get("projection")} projection fails to lower for TPU:',
        f"block {tuple(failure.get('block_shape') or ())} on an array {tuple(failure.get('array_shape') or ())}.",
        "",
        f"    pip install {pins}",
        "    python repro.py    # exits 1 with the error when it reproduces; no TPU needed",
        '"""',
        "import jax",
        "import jax.numpy as jnp",
    ]
    sds = "jax.ShapeDtypeStruct"
    if library == "megablox":
        call, a, b = _MEGABLOX[gmm]
        body = [
            "from jax.experimental.pallas.ops.tpu.megablox.gmm import gmm, tgmm",
            "",
            f"M, K, N, E, TILE = {M}, {K}, {N}, {experts}, {tuple(failure['tile'])}",
            f"dtype = jnp.{dtype}",
            f"args = ({sds}({a}, dtype), {sds}({b}, dtype), {sds}((E,), jnp.int32))",
            "",
            "",
            "def f(a, b, g):",
            f"    return {call}",
        ]
    else:
        body = [
            "from haliax.nn.ragged_dot import ragged_dot",
            "",
            "jax.default_backend = lambda: 'tpu'  # haliax picks its kernel from it: as on a TPU host",
            f"M, K, N, E = {M}, {K}, {N}, {experts}",
            f"dtype = jnp.{dtype}",
            f"args = ({sds}((M, K), dtype), {sds}((E, K, N), dtype), {sds}((E,), jnp.int32), {sds}((M, N), dtype))",
            "",
            "",
            "def f(a, b, g, c):",
            f"    return {_HALIAX[gmm]}",
        ]
    tail = [
        "",
        "",
        'jax.export.export(jax.jit(f), platforms=["tpu"])(*args)',
        'print("lowered for TPU: not reproduced")',
    ]
    return "\n".join(head + body + tail) + "\n"


def reproduced(failure: dict[str, Any], rc: int | None, output: str) -> tuple[bool, str]:
    """Whether the child's exit and output show the same failure: the same block on the same
    array. Pure."""
    if rc == 0:
        return False, "it lowered: the failure did not reproduce alone"
    found = parse_block_shape_error(output)
    if found is None:
        return _failed_otherwise(rc, output)
    same = found["block_shape"] == failure.get("block_shape") and found["array_shape"] == failure.get("array_shape")
    if same:
        return True, f"reproduced the same error: block {found['block_shape']} on {found['array_shape']}"
    return False, f"it failed with another block: {found['block_shape']} on {found['array_shape']}"


def _failed_otherwise(rc: int | None, output: str) -> tuple[bool, str]:
    """A repro that failed, but not with the failure it was written for: its last line says how."""
    tail = output.strip().splitlines()[-1:] or [f"exit status {rc}"]
    return False, f"it failed otherwise: {tail[0][:300]}"


def write_and_check(
    run_dir: Path,
    failure: dict[str, Any],
    *,
    experts: int,
    dtype: str,
    library: str,
    versions: dict[str, str],
    timeout_s: float = TIMEOUT_S,
) -> dict[str, Any]:
    """``repro.py`` written into ``run_dir`` and run there in a child (JAX on the CPU, no TPU)."""
    text = script(failure, experts=experts, dtype=dtype, library=library, versions=versions)
    return run_script(run_dir, text, lambda rc, out: reproduced(failure, rc, out), timeout_s)


def compile_script(
    *,
    ferry: str,
    lane: str,
    lanes_file: str | None,
    topology: str,
    env: dict[str, str],
    error: str,
    versions: dict,
    commit: str | None = None,
) -> str:
    """``repro.py`` for a compile failure of the train step on ``topology``: ``env`` is the TPU
    setting the preflight's child had (no metadata server asked); ``commit``, canary's. Pure."""
    pins = " ".join(f"{name}=={v}" for name, v in sorted(versions.items()) if v and name != "canary")
    lines = [
        f'"""The train step of {ferry} (lane {lane}) fails to compile for TPU on {topology}:',
        (error.splitlines() or [""])[0][:300],
        "",
        f"    pip install {pins}",
        f"    pip install -e '.[tpu]'    # canary {versions.get('canary') or ''}, "
        f"from a checkout at {commit or 'HEAD'}",
        "    python repro.py    # exits 1 with libtpu's error when it reproduces; no TPU needed",
        '"""',
        "import os",
        "",
        f"os.environ.update({json.dumps(env)})",
        "from jax.experimental import topologies  # noqa: E402",
        "",
        "from canary.config import load_ferry, load_lanes  # noqa: E402",
        "from canary.formats.spec import build_spec  # noqa: E402",
        "from canary.run.lowered import PlatformResult  # noqa: E402",
        "from canary.run.topology_worker import lower_train_step  # noqa: E402",
        "",
        f'devices = topologies.get_topology_desc(platform="tpu", topology_name={topology!r}).devices',
        f"ferry, lane = load_ferry({ferry!r})[0], load_lanes({lanes_file!r})[0][{lane!r}]",
        'spec = build_spec(ferry, lane, run_id="repro", out_dir=os.devnull).model_copy(update={"platform": "tpu"})',
        'result = PlatformResult("tpu", lane.name, False, None, 0.0, "auto", spec.tiling, 0, 0, 0)',
        "mesh, lowered = lower_train_step(ferry, lane, spec, devices, result)",
        'print(f"{ferry.name}: batch {spec.batch_size} x {spec.seq_len}, mesh {dict(mesh.shape)}")',
        "if lowered is None:",
        '    raise SystemExit(f"it fails earlier, lowering: {result.error}")',
        "lowered.compile()",
        'print("compiled for TPU: not reproduced")',
    ]
    return "\n".join(lines) + "\n"


def compile_reproduced(error: str, rc: int | None, output: str) -> tuple[bool, str]:
    """Whether the child failed with the compile's error (its first line, numbers aside). Pure."""
    if rc == 0:
        return False, "it compiled: the failure did not reproduce alone"
    masked = re.sub(r"\d+(?:\.\d+)?", "N", (error.splitlines() or [""])[0]).split(": ", 1)[-1][:200]
    if masked and masked in re.sub(r"\d+(?:\.\d+)?", "N", output):
        return True, f"reproduced the same error: {(error.splitlines() or [''])[0][:200]}"
    return _failed_otherwise(rc, output)


def parity_script(row: dict[str, Any], sizes: list[int], kernel: str, versions: dict[str, str]) -> str:
    """``repro.py`` for a parity mismatch of haliax's megablox (``row``: the worst failing
    comparison, :func:`canary.run.parity.compare`'s; ``sizes``: its group sizes): the kernel in
    Pallas interpret mode against XLA's ragged_dot on the same inputs. Pure."""
    pins = " ".join(f"{name}=={v}" for name, v in sorted(versions.items()) if v)
    M, K, N, E, grad = row["rows"], row["K"], row["N"], row["experts"], row["gradient"]
    return (
        "\n".join(
            [
                f'"""{kernel} differs from XLA\'s ragged_dot in {grad} of the {row["projection"]} projection',
                f"at the {row['shape']}'s shape (run in Pallas interpret mode on the CPU: no TPU needed).",
                "",
                f"    pip install {pins}",
                "    python repro.py    # exits 1 when the kernel differs past the tolerance",
                '"""',
                "import jax",
                "import jax.numpy as jnp",
                "import numpy as np",
                "from haliax.nn.ragged_dot import ragged_dot",
                "",
                f"M, K, N, E, dtype, TOL = {M}, {K}, {N}, {E}, jnp.{row['dtype']}, {row['tolerance']!r}",
                f"sizes = jnp.asarray({list(sizes)}, jnp.int32)",
                "rng = np.random.default_rng(0)",
                "rng.integers(0, M + 1, size=E - 1)  # the draw that made the sizes: the inputs below are the check's",
                "lhs = rng.standard_normal((M, K), np.float32).astype(dtype)",
                "rhs = (rng.standard_normal((E, K, N), np.float32) / np.sqrt(K)).astype(dtype)",
                "cot = rng.standard_normal((M, N), np.float32).astype(dtype)",
                "",
                "",
                "def three(fn, a, b, c):",
                "    out, vjp = jax.vjp(lambda x, w: fn(x, w, sizes), a, b)",
                '    return dict(zip(("forward", "grad-lhs", "grad-rhs"), (out, *vjp(c))))',
                "",
                "",
                "got = three(lambda a, b, g: ragged_dot(a, b, g, implementation='megablox'), lhs, rhs, cot)",
                "f32 = [x.astype(jnp.float32) for x in (lhs, rhs, cot)]",
                "want = three(lambda a, b, g: jax.lax.ragged_dot(a, b, g, preferred_element_type=jnp.float32), *f32)",
                f'kernel, xla = (np.asarray(x["{grad}"], np.float32) for x in (got, want))',
                "err = float(np.max(np.abs(kernel - xla)) / (np.max(np.abs(xla)) or 1.0))",
                f'print(f"{grad}: error {{err:.3g}} of the output\'s scale (tolerance {{TOL:.3g}})")',
                "raise SystemExit(0 if err <= TOL else 1)",
            ]
        )
        + "\n"
    )


def run_script(
    run_dir: Path, text: str, check, timeout_s: float = TIMEOUT_S, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """``text`` written as ``repro.py`` into ``run_dir`` and run there in a child (JAX on the CPU,
    ``env`` on top of this environment); ``check(rc, output)`` says whether it reproduced, and how."""
    path = Path(run_dir) / FILE
    path.write_text(text)
    t0 = time.perf_counter()
    try:
        r = subprocess.run(
            [sys.executable, "-c", _DIES_WITH_PARENT, str(os.getpid()), FILE],
            cwd=run_dir,
            env={**os.environ, "JAX_PLATFORMS": "cpu", **(env or {})},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout_s,
        )
        ok, detail = check(r.returncode, r.stdout + r.stderr)
    except subprocess.TimeoutExpired:
        ok, detail = False, f"it ran past {timeout_s:g} s and was stopped"
    return {"path": str(path), "reproduced": ok, "detail": detail, "seconds": round(time.perf_counter() - t0, 3)}


# `python repro.py`, as the child that dies with canary (a compile left running would hold the host
# for minutes after canary is killed)
_DIES_WITH_PARENT = (
    "import runpy, sys; from canary.formats.signals import die_with_parent; "
    "die_with_parent(parent=int(sys.argv[1])); sys.argv = sys.argv[2:]; "
    "runpy.run_path(sys.argv[0], run_name='__main__')"
)


def parity_reproduced(rc: int | None, output: str) -> tuple[bool, str]:
    """Whether the parity repro's child found the mismatch again. Pure."""
    said = next((line for line in reversed(output.splitlines()) if "of the output's scale" in line), None)
    if rc == 1 and said:
        return True, f"reproduced the mismatch: {said}"
    if rc == 0:
        return False, f"it matched XLA this time: {said}"
    return _failed_otherwise(rc, output)
