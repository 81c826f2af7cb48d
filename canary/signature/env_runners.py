"""tox's, nox's and virtualenv's refusals of a test environment, by what was refused and not the job's names. Pure.

tox 4 refuses a pip option in an environment's ``deps`` (raised as ``tox.report.HandledError: unrecognized arguments:
-Ur... for tox env py within deps``, or reported per environment: ``py37: failed with unrecognized arguments: --upgrade
for tox env py within deps``) and a command outside ``allowlist_externals`` (``py310: failed with ./run_tests.py
(resolves to ./run_tests.py) is not allowed, use allowlist_externals to allow it``, which a runner may wrap onto two
lines); it skips an environment whose interpreter it cannot find. nox fails a session whose interpreter is missing.
virtualenv 20 cannot query an interpreter (``RuntimeError: failed to query /x/python with code 8 err: 'Exec format
error'``, or a Python too old for its script: the error's traceback relayed in ``err``). The refusal, and which
interpreter spec or what the query met, are the failure; the options, commands, paths and environment names are the
job's. The rule takes its place in :data:`canary.signature.stacks.STACK_RULES`, the recognisers in
:data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

_DEPS = re.compile(r"^unrecognized arguments: .{1,500} for tox env \S{1,100} within deps$")
_ALLOWLIST = "use allowlist_externals to allow it"
_QUERY = re.compile(r"^failed to query .{1,500}? with code (\d{1,3}) err: '(.{0,2000}?)'?$")


def env_runner_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``test-environments`` rule: tox's deps refused without the options, the allowlist without the command,
    virtualenv's query without the interpreter's path (and its relayed traceback by the error it ends on)."""
    if message.startswith("unrecognized arguments: ") and _DEPS.match(message):
        message = "unrecognized arguments: pip options for tox env within deps"
    elif message.endswith(_ALLOWLIST):
        message = f"a command is not allowed, {_ALLOWLIST}"
    elif message.startswith("failed to query ") and (m := _QUERY.match(message)):
        said = [p.strip() for p in m[2].split("\\n") if p.strip()]
        message = f"failed to query the interpreter with code {m[1]} err: '{said[-1] if said else ''}'"
    return exc, message, frames


ENV_RUNNER_ERRORS: list[BareError] = [
    # tox 4's report of an environment that failed, by what it refused ("py37: failed with ..."), the allowlist's words
    # alone where a runner wrapped the line, or in a post's code span; raised, tox's class is HandledError
    environment_check(
        "tox-env-failed",
        (" within deps", _ALLOWLIST),
        r"^`?(?:(?:[\w.-]{1,100}: )?failed with )?(?P<msg>unrecognized arguments: .{1,500} for tox env \S{1,100} "
        r"within deps|.{0,500}is not allowed, use allowlist_externals to allow it)`?$",
        "HandledError",
    ),
    environment_check(
        "tox-no-interpreter",
        ("skipped because could not find python interpreter with spec",),
        r"^[\w.-]{1,100}: skipped because (?P<msg>could not find python interpreter with spec\(s\): \S.{0,200})$",
        None,
        message=lambda m: f"tox: {m['msg']}",
    ),
    environment_check(
        "nox-no-interpreter",
        ("failed: Python interpreter ",),
        r"^(?:nox > )?Session \S{1,200} failed: Python interpreter (?P<v>[\w.]{1,40}) not found\.?$",
        None,
        message=lambda m: f"nox: Python interpreter {m['v']} not found",
    ),
]
