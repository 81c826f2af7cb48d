"""The cpu lane's grouped-matmul kernel (C, through XLA's FFI): exact against XLA's ragged_dot,
forward and both gradients, on the lane's shapes and on shapes that take every code path."""

import json
import os
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from canary.workload import ragged_dot
from canary.workload.ragged_dot import cpu_gmm

jax.config.update("jax_platforms", "cpu")

ROOT = Path(__file__).resolve().parent.parent


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


def test_built_once_per_machine_and_reused(tmp_path):
    env = {**os.environ, "CANARY_KERNEL_DIR": str(tmp_path)}
    path = cpu_gmm.library_path(env)
    assert path.parent == tmp_path and not path.exists()
    cpu_gmm.build(path, env)
    built = path.stat().st_mtime_ns
    assert cpu_gmm.library_path(env) == path  # same source, compiler, flags, jaxlib, CPU: same file
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary left behind
    assert path.stat().st_mtime_ns == built


def test_a_compiler_that_rejects_the_native_flags_still_builds_generic_code(tmp_path, monkeypatch):
    monkeypatch.setattr(cpu_gmm, "NATIVE", ("-march=no-such-cpu",))
    path = cpu_gmm.build(tmp_path / "k.so", {})
    assert path.exists() and path.stat().st_size > 0 and not list(tmp_path.glob("*.tmp"))


def test_no_compiler_is_a_clear_error(tmp_path):
    env = {"CC": "no-such-cc", "CANARY_KERNEL_DIR": str(tmp_path)}
    with pytest.raises(cpu_gmm.KernelUnavailable, match="no C compiler: no-such-cc"):
        cpu_gmm.library_path(env)


def test_an_unwritable_kernel_dir_is_a_clear_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = {**os.environ, "CANARY_KERNEL_DIR": str(blocker / "kernels")}
    with pytest.raises(cpu_gmm.KernelUnavailable, match=r"cannot write the kernel into .*a-file/kernels.*CANARY_KERNEL_DIR"):
        cpu_gmm.build(cpu_gmm.library_path(env), env)


def test_a_compile_error_names_the_command_and_the_compiler_message(tmp_path, monkeypatch):
    bad = tmp_path / "bad.c"
    bad.write_text("this is not C\n")
    monkeypatch.setattr(cpu_gmm, "SOURCE", bad)
    with pytest.raises(cpu_gmm.KernelUnavailable, match="compiling the cpu_gmm kernel failed") as e:
        cpu_gmm.build(tmp_path / "k.so", {})
    assert "bad.c" in str(e.value) and "error" in str(e.value)
    assert not (tmp_path / "k.so").exists() and not list(tmp_path.glob("*.tmp"))


@pytest.mark.slow
def test_auto_falls_back_to_the_grouped_backend_without_a_compiler(tmp_path):
    code = ("from canary.workload import ragged_dot; from canary.workload.ragged_dot import cpu_gmm; "
            "print(ragged_dot.resolve('auto', 'cpu'), cpu_gmm.available()); "
            "print(ragged_dot.fallback_reason('auto', 'cpu')); print(ragged_dot.fallback_reason('xla', 'cpu'))")
    env = {**os.environ, "CC": "no-such-cc", "CANARY_KERNEL_DIR": str(tmp_path), "JAX_PLATFORMS": "cpu",
           "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    chosen, why, explicit = r.stdout.splitlines()
    assert chosen.split() == ["grouped", "False"]
    assert why == "cpu_gmm is unavailable, using grouped: no C compiler: no-such-cc is not on PATH (set $CC, or install gcc)"
    assert explicit == "None"  # a backend asked for by name is never swapped


@pytest.mark.slow
def test_canary_run_says_under_the_verdict_when_auto_fell_back(tmp_path):
    from conftest import run_cli

    env = {"CC": "no-such-cc", "CANARY_KERNEL_DIR": str(tmp_path / "kernels")}
    proc = run_cli("run", "cpu", "--steps", "3", "--cold", "--no-history", "--out", str(tmp_path / "runs"), env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    said = " ".join(proc.stdout.split())  # the console wraps long lines
    assert "warning: ragged_dot cpu_gmm is unavailable, using grouped: no C compiler: no-such-cc" in said
    proc = run_cli("run", "cpu", "--steps", "3", "--cold", "--no-history", "--out", str(tmp_path / "runs"), "--json",
                   env=env)
    assert json.loads(proc.stdout)["warnings"] == [
        "ragged_dot cpu_gmm is unavailable, using grouped: no C compiler: no-such-cc is not on PATH "
        "(set $CC, or install gcc)"]
