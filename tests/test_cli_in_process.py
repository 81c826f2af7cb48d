"""The quick tests run ``canary`` in-process (tests/conftest.py's ``run_cli``): it must answer
exactly as ``python -m canary`` does, and leave the test's process as it found it."""

import os

import pytest
from conftest import run_cli

CASES = [
    (["--help"], {}),  # click's help, wrapped to the terminal's width
    (["list"], {"COLUMNS": "60"}),  # a rich table, at the width the environment gives
    (["gate", "no-such-run"], {}),  # bad input: exit 2, a message on stderr, nothing on stdout
    (["list", "--nope"], {}),  # a usage error, as click reports it
]


@pytest.mark.parametrize("args,env", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_in_process_answers_as_the_command_does(args, env, tmp_path):
    env = {**env, "CANARY_HISTORY": str(tmp_path / "h.sqlite3")}
    before = (dict(os.environ), os.getcwd())
    inside = run_cli(*args, env=env, cwd=tmp_path)
    assert (dict(os.environ), os.getcwd()) == before
    alone = run_cli(*args, env=env, cwd=tmp_path, own_process=True)
    assert (inside.returncode, inside.stdout, inside.stderr) == (alone.returncode, alone.stdout, alone.stderr)
