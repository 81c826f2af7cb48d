"""Shared by the adversarial tests: a lanes file whose cpu lane runs a stand-in workload through
the command launcher, the command line in a subprocess, and waiting on processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT

PY = sys.executable


def lanes_toml(tmp_path: Path, command: list[str], attempts: int = 1, timeout_s: int = 600) -> Path:
    """A lanes file whose ``cpu`` lane runs ``command`` (through the command launcher) in place
    of the workload: the ferry and gates of the real cpu lane still apply."""
    p = tmp_path / "lanes.toml"
    p.write_text(
        '[lanes.cpu]\naccelerator = "cpu"\nplatform = "cpu"\n'
        f'launcher = {{ kind = "command", command = {json.dumps(command)} }}\n'
        f"attempts = {attempts}\ntimeout_s = {timeout_s}\n"
    )
    return p


def cli_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "CANARY_HISTORY": str(tmp_path / "history.sqlite3"),
        "CANARY_SPOOL_DIR": str(tmp_path / "spool"),
        **extra,
    }


def canary_cli(*args: str, tmp_path: Path, stdin: bytes | None = None, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PY, "-m", "canary", *args],
        cwd=ROOT,
        env=cli_env(tmp_path, **env),
        input=stdin,
        capture_output=True,
        timeout=120,
    )


def is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purposes
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return True


def wait_for(pred, timeout: float = 120.0, what: str = "") -> None:
    """Until ``pred()`` holds: the timeout is a safety net for a hang, never a clock."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


# A stand-in workload that finishes after writing the metrics it is given (hex, the second
# argument); the spec (the last word of the entrypoint) says where its attempt directory is.
WRITER = r"""
import json, shlex, sys
spec = json.load(open(shlex.split(sys.argv[1])[-1]))
out = spec["out_dir"]
open(out + "/metrics.jsonl", "wb").write(bytes.fromhex(sys.argv[2]))
"""
