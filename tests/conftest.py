import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 600):
    """Run the real ``canary`` command line in a subprocess (as a user would)."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "canary", *args],
        cwd=cwd or ROOT, env=full_env, capture_output=True, text=True, timeout=timeout,
    )


@pytest.fixture
def cli():
    return run_cli
