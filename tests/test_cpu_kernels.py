"""How the cpu lane's C kernels are built, cached and loaded, and what happens where they cannot
be: the ``auto`` backends fall back to XLA-only paths and say so where the verdict is read."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from canary.workload import cpu_kernels

ROOT = Path(__file__).resolve().parent.parent


def test_built_once_per_machine_and_reused(tmp_path):
    env = {**os.environ, "CANARY_KERNEL_DIR": str(tmp_path)}
    path = cpu_kernels.library_path(env)
    assert path.parent == tmp_path and not path.exists()
    cpu_kernels.build(path, env)
    built = path.stat().st_mtime_ns
    assert cpu_kernels.library_path(env) == path  # same sources, compiler, flags, jaxlib, CPU: same file
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary left behind
    assert path.stat().st_mtime_ns == built


def test_a_compiler_that_rejects_the_native_flags_still_builds_generic_code(tmp_path, monkeypatch):
    monkeypatch.setattr(cpu_kernels, "NATIVE", ("-march=no-such-cpu",))
    path = cpu_kernels.build(tmp_path / "k.so", {})
    assert path.exists() and path.stat().st_size > 0 and not list(tmp_path.glob("*.tmp"))


def test_no_compiler_is_a_clear_error(tmp_path):
    env = {"CC": "no-such-cc", "CANARY_KERNEL_DIR": str(tmp_path)}
    with pytest.raises(cpu_kernels.KernelUnavailable, match="no C compiler: no-such-cc"):
        cpu_kernels.library_path(env)


def test_an_unwritable_kernel_dir_is_a_clear_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = {**os.environ, "CANARY_KERNEL_DIR": str(blocker / "kernels")}
    with pytest.raises(cpu_kernels.KernelUnavailable, match=r"cannot write the kernels into .*a-file/kernels.*CANARY_KERNEL_DIR"):
        cpu_kernels.build(cpu_kernels.library_path(env), env)


def test_the_build_key_covers_every_source_and_the_shared_header(tmp_path, monkeypatch):
    env = {**os.environ, "CANARY_KERNEL_DIR": str(tmp_path)}
    before = cpu_kernels.library_path(env)
    for name in ("SOURCES", "HEADERS"):
        files = getattr(cpu_kernels, name)
        copy = tmp_path / files[-1].name
        copy.write_text(files[-1].read_text() + "\n/* changed */\n")
        monkeypatch.setattr(cpu_kernels, name, (*files[:-1], copy))
        assert cpu_kernels.library_path(env) != before
        monkeypatch.undo()


def test_a_compile_error_names_the_command_and_the_compiler_message(tmp_path, monkeypatch):
    bad = tmp_path / "bad.c"
    bad.write_text("this is not C\n")
    monkeypatch.setattr(cpu_kernels, "SOURCES", (cpu_kernels.SOURCES[0], bad))
    with pytest.raises(cpu_kernels.KernelUnavailable, match="compiling the cpu kernels failed") as e:
        cpu_kernels.build(tmp_path / "k.so", {})
    assert "bad.c" in str(e.value) and "error" in str(e.value)
    assert not (tmp_path / "k.so").exists() and not list(tmp_path.glob("*.tmp"))


GENERIC_CHECK = """
import jax, jax.numpy as jnp, numpy as np
from canary.workload import cpu_kernels, attention, ragged_dot
from canary.workload.model import MoEConfig
cpu_kernels.NATIVE = ()  # the build for any CPU of the architecture: no AVX-512 blocks here
print(cpu_kernels.load().name)
rng = np.random.default_rng(0)
lhs, rhs = jnp.asarray(rng.normal(size=(300, 32)), jnp.float32), jnp.asarray(rng.normal(size=(4, 32, 80)), jnp.float32)
sizes = jnp.asarray([90, 0, 150, 55], jnp.int32)
f = lambda name: jax.jit(jax.value_and_grad(lambda l, r: jnp.sum(jnp.sin(ragged_dot.make(name)(l, r, sizes))), (0, 1)))
(a, ga), (b, gb) = f("cpu_gmm")(lhs, rhs), f("xla")(lhs, rhs)
np.testing.assert_allclose(a, b, rtol=1e-4); [np.testing.assert_allclose(x, y, rtol=1e-4, atol=1e-4) for x, y in zip(ga, gb)]
cfg = MoEConfig(vocab_size=8, hidden=16, intermediate=8, shared_expert_intermediate=0, num_experts=2,
                experts_per_token=1, layers=1, heads=2, kv_heads=1, head_dim=8, sliding_window=20)
p = {k: jnp.asarray(rng.normal(size=s) * 0.3, jnp.float32) for k, s in (("wq", (16, 16)), ("wk", (16, 8)), ("wv", (16, 8)), ("wo", (16, 16)))}
x = jnp.asarray(rng.normal(size=(2, 45, 16)), jnp.float32)
g = lambda name: jax.jit(jax.value_and_grad(lambda p, x: jnp.sum(jnp.sin(attention.make(name, "cpu")(p, x, cfg))), (0, 1)))
(a, (gp, gx)), (b, (rp, rx)) = g("cpu_fused")(p, x), g("xla")(p, x)
np.testing.assert_allclose(a, b, rtol=1e-4); np.testing.assert_allclose(gx, rx, rtol=1e-4, atol=1e-4)
[np.testing.assert_allclose(gp[k], rp[k], rtol=1e-3, atol=1e-4) for k in p]
print("ok")
"""


@pytest.mark.slow
def test_the_generic_build_computes_the_same(tmp_path):
    """The library built without -march=native (what a compiler that rejects it gets, and the
    code path of CPUs without AVX-512) is checked against XLA, grouped matmul and attention."""
    env = {**os.environ, "CANARY_KERNEL_DIR": str(tmp_path), "JAX_PLATFORMS": "cpu", "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-c", GENERIC_CHECK], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    name, verdict = r.stdout.split()
    assert verdict == "ok" and (tmp_path / name).exists()
    assert name != cpu_kernels.library_path({**os.environ, "CANARY_KERNEL_DIR": str(tmp_path)}).name  # flags key it


@pytest.mark.slow
def test_auto_falls_back_to_xla_only_backends_without_a_compiler(tmp_path):
    code = ("from canary.workload import attention, cpu_kernels, ragged_dot; "
            "print(ragged_dot.resolve('auto', 'cpu'), attention.resolve('auto', 'cpu'), cpu_kernels.available()); "
            "print(ragged_dot.fallback_reason('auto', 'cpu')); print(attention.fallback_reason('auto', 'cpu')); "
            "print(ragged_dot.fallback_reason('xla', 'cpu'), attention.fallback_reason('xla', 'cpu'))")
    env = {**os.environ, "CC": "no-such-cc", "CANARY_KERNEL_DIR": str(tmp_path), "JAX_PLATFORMS": "cpu",
           "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    chosen, why_gmm, why_attention, explicit = r.stdout.splitlines()
    assert chosen.split() == ["grouped", "xla", "False"]
    no_cc = "no C compiler: no-such-cc is not on PATH (set $CC, or install gcc)"
    assert why_gmm == f"cpu_gmm is unavailable, using grouped: {no_cc}"
    assert why_attention == f"cpu_fused is unavailable, using xla: {no_cc}"
    assert explicit == "None None"  # a backend asked for by name is never swapped


@pytest.mark.slow
def test_canary_run_says_under_the_verdict_when_auto_fell_back(tmp_path):
    from conftest import run_cli

    env = {"CC": "no-such-cc", "CANARY_KERNEL_DIR": str(tmp_path / "kernels")}
    proc = run_cli("run", "cpu", "--steps", "3", "--cold", "--no-history", "--out", str(tmp_path / "runs"), env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    said = " ".join(proc.stdout.split())  # the console wraps long lines
    assert "warning: ragged_dot cpu_gmm is unavailable, using grouped: no C compiler: no-such-cc" in said
    assert "warning: attention cpu_fused is unavailable, using xla: no C compiler: no-such-cc" in said
    proc = run_cli("run", "cpu", "--steps", "3", "--cold", "--no-history", "--out", str(tmp_path / "runs"), "--json",
                   env=env)
    no_cc = "no C compiler: no-such-cc is not on PATH (set $CC, or install gcc)"
    assert json.loads(proc.stdout)["warnings"] == [f"ragged_dot cpu_gmm is unavailable, using grouped: {no_cc}",
                                                   f"attention cpu_fused is unavailable, using xla: {no_cc}"]
