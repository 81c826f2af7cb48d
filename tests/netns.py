"""Runs a pytest file of cases inside a fresh network and process namespace: only loopback, so a
Ray head binds 127.0.0.1 and no traffic leaves the machine, and the namespace's process tree ends
with the run, taking every process it started with it. Needs root (CI runs as root) or
unprivileged user namespaces."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def count_cases(cases: Path) -> int:
    return len(re.findall(r"^def test_", cases.read_text(), flags=re.M))


def in_namespace(argv: list[str]) -> list[str]:
    """``argv`` as the first process of a fresh network and process namespace. A shell there stays
    the namespace's first process and reaps what Ray leaves behind (a process that exits in a
    namespace whose init does not reap stays a zombie that `ray stop` waits on); --kill-child ends
    the whole namespace if the test is interrupted. Loopback is down until ``ip link set lo up``."""
    assert shutil.which("unshare") and shutil.which("ip"), "needs util-linux unshare and iproute2 ip"
    cmd = ["unshare", "--net", "--pid", "--fork", "--kill-child", "--mount-proc"]
    if os.geteuid() != 0:
        cmd.append("--map-root-user")
    return cmd + argv


def run_cases(cases: Path, timeout: float = 1200, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    cmd = in_namespace(
        [
            "sh",
            "-c",
            'ip link set lo up && "$0" -m pytest -q -p no:cacheprovider --durations=3 "$1"',
            sys.executable,
            str(cases),
        ]
    )
    full_env = {
        **os.environ,
        "CANARY_RAY_NETNS": "1",
        "PYTHONPATH": str(ROOT),
        "RAY_USAGE_STATS_ENABLED": "0",
        **(env or {}),
    }
    return subprocess.run(cmd, cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=timeout)


def assert_all_passed(r: subprocess.CompletedProcess, cases: Path) -> None:
    report = r.stdout[-12000:] + r.stderr[-4000:]
    assert r.returncode == 0, report
    assert re.search(rf"\b{count_cases(cases)} passed\b", r.stdout), report
    assert "skipped" not in r.stdout, report
