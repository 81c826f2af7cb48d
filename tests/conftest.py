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


@pytest.fixture(autouse=True, scope="session")
def _private_history(tmp_path_factory):
    """Runs made by the tests are recorded in a history of their own, never the user's."""
    d = tmp_path_factory.mktemp("history")
    saved = {k: os.environ.get(k) for k in ("CANARY_HISTORY", "CANARY_SPOOL_DIR")}
    os.environ["CANARY_HISTORY"] = str(d / "history.sqlite3")
    os.environ["CANARY_SPOOL_DIR"] = str(d / "spool")
    yield
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
