"""Runs tests/ray_cases.py (a real local Ray head and jobs on it) inside a fresh network and
process namespace: only loopback, so Ray binds 127.0.0.1 and no traffic leaves the machine, and
the namespace's process tree ends with the run, taking every Ray process with it. Needs root
(CI runs as root) or unprivileged user namespaces."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "ray_cases.py"
N_CASES = len(re.findall(r"^def test_", CASES.read_text(), flags=re.M))


@pytest.mark.slow
def test_ray_launcher_cases_in_a_loopback_only_namespace():
    assert shutil.which("unshare") and shutil.which("ip"), "needs util-linux unshare and iproute2 ip"
    # The shell stays the namespace's first process and reaps what Ray leaves behind (a process
    # that exits in a namespace whose init does not reap stays a zombie that `ray stop` waits on);
    # --kill-child ends the whole namespace if this test is interrupted.
    cmd = ["unshare", "--net", "--pid", "--fork", "--kill-child", "--mount-proc"]
    if os.geteuid() != 0:
        cmd.append("--map-root-user")
    cmd += ["sh", "-c", 'ip link set lo up && "$0" -m pytest -q -p no:cacheprovider --durations=3 "$1"',
            sys.executable, str(CASES)]
    env = {**os.environ, "CANARY_RAY_NETNS": "1", "PYTHONPATH": str(ROOT), "RAY_USAGE_STATS_ENABLED": "0"}
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    report = r.stdout[-12000:] + r.stderr[-4000:]
    assert r.returncode == 0, report
    assert re.search(rf"\b{N_CASES} passed\b", r.stdout), report
    assert "skipped" not in r.stdout, report
