"""The benchmark scripts are run by hand, so nothing else notices when they rot: each must import
and explain itself, and each runs once at tiny settings (the figures it prints are not checked;
that it gets to print them is). The scripts that train, compile or start a service are slow."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from netns import in_namespace

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"

# script: (its tiny settings, a phrase its output ends with or holds, slow)
TINY = {
    "change_points.py": (["--runs", "30", "--repeat", "1", "--no-fingerprint"], "new_steps()", False),
    "history_scale.py": (["--rows", "40", "--series", "2", "--repeat", "1"], "history --json", False),
    "redact.py": (["--mb", "0.05"], "hostile:", False),
    "report.py": (["--runs", "3", "--lanes", "1"], "1 lanes x 3 runs", False),
    "signature_corpus.py": ([], "look-alikes merged", False),
    "signature_lines.py": (["--lines", "300", "--runs", "1"], "median", False),
    "signature_scale.py": (["--quick"], "extract", False),
    "signature_paste.py": (["indent 4", "cut at 80%"], "same fingerprint", False),
    "hostile_sweep.py": (["--only", "SendGrid"], "1 cases, 1 clean", True),
    "bisect_window.py": (["--sizes", "2"], "right", True),
    "cpu_lane.py": (["--steps", "3"], "harness (cold) / bare wall", True),
    "parity.py": (["--repeat", "1"], "parity, this checkout: median", True),
    "golden_noise.py": (["--runs", "1", "--steps", "3", "--slow", "0.3"], "clean runs with an alarm", True),
    "grug_cpu.py": (["--steps", "1", "--repeat", "1"], "the rest", True),
    "run_breakdown.py": (["--steps", "2", "--repeat", "1"], "verdicts pass", True),
    "step_profile.py": (["--rounds", "1", "--steps", "1"], "lm_head", True),
    "stats_cost.py": (["--repeat", "1"], "grug-moe-canary / moe-canary:", True),
}
# the program fingerprint's part of change_points.py exports the train step (JAX): slow
FINGERPRINT = (["--runs", "30", "--repeat", "1"], "run_fingerprint")
NOT_RUN = {
    # it bisects the registry's published versions, and a test reaches only 127.0.0.1;
    # tests/test_bisect_published.py runs the same `canary bisect --package`
    "bisect_versions.py": "the registry",
    "ray_overhead.sh": "its own test below (a Ray head in a namespace of its own)",
    # it trains the grug ferry once per regression and clean variant (minutes each);
    # tests/test_library_zoo.py runs the same zoo through the same helpers
    "library_zoo.py": "tests/test_library_zoo.py",
    # it needs libtpu importable; tests/test_tpu_lane.py runs the same `canary lower --lane tpu`
    # with libtpu installed by its fixture
    "tpu_lane.py": "tests/test_tpu_lane.py",
    # it trains the gpu lane's ferries on the host's GPUs; on a CPU host it says so (the test below)
    "gpu_lane.py": "a GPU",
}


@pytest.mark.parametrize("script", sorted(p.name for p in BENCH.glob("*.py")))
def test_bench_script_explains_itself(script):
    proc = subprocess.run([sys.executable, str(BENCH / script), "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "usage:" in proc.stdout and "python bench/" in proc.stdout


def test_every_bench_script_is_run_at_tiny_settings_or_says_why_not():
    assert sorted(p.name for p in BENCH.iterdir() if p.is_file()) == sorted({*TINY, *NOT_RUN})


def _run_once(script: str, args: list[str], expect: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, str(BENCH / script), *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert expect in proc.stdout, proc.stdout[-3000:] + proc.stderr[-3000:]


@pytest.mark.parametrize(
    "script, args, expect",
    [pytest.param(s, a, e, marks=[pytest.mark.slow] if slow else [], id=s) for s, (a, e, slow) in TINY.items()]
    + [pytest.param("change_points.py", *FINGERPRINT[:2], marks=pytest.mark.slow, id="change_points.py-fingerprint")],
)
def test_bench_script_runs_once_at_tiny_settings(script, args, expect):
    _run_once(script, args, expect)


@pytest.mark.slow
def test_the_ray_launchers_overhead_script_runs_once():
    """bench/ray_overhead.sh, one 2-step run each way, in a loopback-only namespace as it asks."""
    env = {**os.environ, "PY": sys.executable, "REPEAT": "1", "STEPS": "2", "RAY_USAGE_STATS_ENABLED": "0"}
    proc = subprocess.run(
        in_namespace(["bash", str(BENCH / "ray_overhead.sh")]), capture_output=True, text=True, env=env, timeout=900
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "local pass" in proc.stdout and "ray   pass" in proc.stdout, proc.stdout + proc.stderr[-3000:]


def test_the_gpu_lane_script_says_there_is_no_gpu_here():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JAX_PLATFORMS": "cpu"}
    proc = subprocess.run(
        [sys.executable, str(BENCH / "gpu_lane.py")], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )
    assert proc.returncode == 1 and "not gpu: no GPU to run the gpu lane on" in proc.stderr, proc.stderr
