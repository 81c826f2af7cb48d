import os
import shutil
import subprocess
import sys
import traceback
import types
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# ``tests.*`` is this directory. It is a namespace package, and a regular package of the same name
# anywhere on sys.path would win: draccus (which levanter pulls in) installs a top-level ``tests``.
if list(getattr(sys.modules.get("tests"), "__path__", [])) != [str(ROOT / "tests")]:
    _tests = types.ModuleType("tests")
    _tests.__path__ = [str(ROOT / "tests")]
    sys.modules["tests"] = _tests

# Whether the test being run is marked slow: its commands then run in a process of their own.
# One flag, also when a test module imports this file again as ``tests.conftest``.
_SLOW_TEST = getattr(sys.modules.get("conftest"), "_SLOW_TEST", None) or [False]


def popen_as_from_a_terminal(argv: list[str], **kwargs) -> subprocess.Popen:
    """``subprocess.Popen(argv, **kwargs)``, the child started as from a terminal, where Ctrl-C is
    not ignored, whatever the test runner's process was told: an ignored signal stays ignored
    across exec (as under nohup), a handled one starts as the default."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(argv, **kwargs)
    finally:
        signal.signal(signal.SIGINT, before)


def run_cli(
    *args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 600, own_process: bool = False
) -> subprocess.CompletedProcess:
    """Run the real ``canary`` command line and return its exit status, stdout and stderr.

    A slow (end-to-end) test, or a caller that passes ``own_process=True``, gets a fresh
    ``python -m canary`` subprocess, exactly as a user would. That is needed by whatever depends
    on the process itself: what gets imported at start-up, environment read at import time,
    signals, a workload started and killed. Everything else runs the same entry point in this
    process (:func:`_run_in_process`), which spares each call an interpreter start and its imports;
    ``timeout`` then does not apply (a quick test's command has nothing to wait for).
    """
    overrides = {"PYTHONPATH": str(ROOT), **(env or {})}
    if own_process or _SLOW_TEST[0]:
        return subprocess.run(
            [sys.executable, "-m", "canary", *args],
            cwd=cwd or ROOT,
            env={**os.environ, **overrides},
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    return _run_in_process(list(args), cwd or ROOT, overrides)


def _run_in_process(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """``canary.cli.main`` as ``python -m canary`` runs it: with ``args`` as its argv, ``env`` over
    the environment and ``cwd`` as its working directory (all three restored afterwards), stdout and
    stderr captured apart, and the exit status a process would have: SystemExit's code, or 1 and the
    traceback on stderr for an exception that escapes."""
    from click import formatting
    from click.testing import CliRunner

    from canary.cli import main

    saved_argv, saved_cwd, saved_main = sys.argv, os.getcwd(), sys.modules["__main__"]
    main_module = types.ModuleType("__main__")  # what click names the program after: python -m canary
    main_module.__package__ = "canary"
    with CliRunner().isolation(env=env) as (out, err, _):
        formatting.FORCED_WIDTH = None  # help is wrapped to the terminal's width, as in a process
        sys.argv = [str(ROOT / "canary" / "__main__.py"), *args]
        sys.modules["__main__"] = main_module
        try:
            os.chdir(cwd)
            main()
            code = 0
        except SystemExit as e:
            code = _exit_status(e.code)
        except Exception:  # what the interpreter does with an uncaught exception
            traceback.print_exc(file=sys.stderr)
            code = 1
        finally:
            sys.argv, sys.modules["__main__"] = saved_argv, saved_main
            os.chdir(saved_cwd)
            sys.stdout.flush()
            sys.stderr.flush()
        stdout, stderr = out.getvalue().decode(), err.getvalue().decode(errors="replace")
    return subprocess.CompletedProcess(["canary", *args], code, stdout, stderr)


def _exit_status(code: object) -> int:
    """The status ``sys.exit(code)`` gives a process (a message is printed to stderr and is 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Notes whether the test is slow before any of its fixtures is set up: a module's fixture
    that trains for its slow tests runs ``canary`` in a process of its own too."""
    _SLOW_TEST[0] = item.get_closest_marker("slow") is not None
    yield
    _SLOW_TEST[0] = False


@pytest.fixture
def cli():
    return run_cli


@contextmanager
def _environ(**values: str):
    """The environment with ``values`` set within the block, as it was after it."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(autouse=True, scope="session")
def _private_history(tmp_path_factory):
    """Runs made by the tests are recorded in a history of their own, never the user's."""
    d = tmp_path_factory.mktemp("history")
    with _environ(CANARY_HISTORY=str(d / "history.sqlite3"), CANARY_SPOOL_DIR=str(d / "spool")):
        yield


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    """canary's user cache dir (bisect's venvs and wheels, the cpu lane's compilation cache) is a
    directory of the session's own, removed at its end: the suite leaves nothing under
    ~/.cache/canary, and a user's warm cache never makes a test pass. pip keeps its own cache
    where it was, so a bisect in the next session does not download every wheel again."""
    import platformdirs

    d = tmp_path_factory.mktemp("cache")
    pip_cache = os.environ.get("PIP_CACHE_DIR") or platformdirs.user_cache_dir("pip")
    with _environ(XDG_CACHE_HOME=str(d), PIP_CACHE_DIR=pip_cache):
        yield
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(autouse=True)
def _no_ambient_width(monkeypatch):
    """Output to a pipe or a file is as wide as what it holds unless COLUMNS says otherwise: a width
    left in the environment (pytest-xdist's workers, a terminal's export) would wrap a test's
    expected line. A test that wants a width passes COLUMNS itself."""
    monkeypatch.delenv("COLUMNS", raising=False)
