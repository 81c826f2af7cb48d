"""The benchmark scripts are run by hand, so nothing else notices when they rot: each must at
least import and explain itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.mark.parametrize("script", sorted(p.name for p in BENCH.glob("*.py")))
def test_bench_script_explains_itself(script):
    proc = subprocess.run([sys.executable, str(BENCH / script), "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "usage:" in proc.stdout and "python bench/" in proc.stdout
