"""The commands that need no training must not import JAX (it costs seconds at start-up)."""

import subprocess
import sys

import pytest
from conftest import ROOT

PROBE = (
    "import atexit, sys; atexit.register(lambda: sys.stderr.write('\\nJAX=%s\\n' % ('jax' in sys.modules)));"
    "sys.argv = ['canary'] + sys.argv[1:]; from canary.cli import main; main()"
)

NO_JAX = [["--help"], ["list"], ["list", "--json"], ["gate", "--help"], ["run", "--help"]]


@pytest.mark.parametrize("args", NO_JAX, ids=" ".join)
def test_command_does_not_import_jax(args):
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "JAX=False" in proc.stderr
