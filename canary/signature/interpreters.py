"""What a program finds or does not find around it as it starts, below Python: a script's first line and line endings as
the shell and ``env`` meet them, in each shell's words: a shebang that names an interpreter the machine lacks (a Python
that Homebrew moved on from, a venv moved), or that ends in the carriage return of a file saved with Windows line
endings (bash's "/bin/bash^M: bad interpreter", zsh's "bad interpreter: /usr/bin/python3^M: no such file or directory",
``env``'s "'python\\r': No such file or directory", bash's "$'\\r': command not found" inside the script); a native
library's libpng older than the one it runs with ("libpng warning: Application built with libpng-1.4.12 but running with
1.6.50"), which fails the image it was reading; supervisorctl without supervisord's socket ("unix:///tmp/supervisor.sock
no such file", "... refused connection"); pythonnet without a .NET runtime it can start. Pure. Which script, which path
and which line are the job's; which interpreter, and whether a carriage return or a missing file refused it, are the
failure, the environment's. They take their place in :data:`canary.signature.runners.RUNNER_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment

_CRLF = "ends in a carriage return (Windows line endings)"


def _interpreter(m: re.Match[str]) -> str:
    """bash's or zsh's refusal of a shebang's interpreter: its name, and the carriage return or why."""
    name = (m["interp"] or m["zinterp"]).rsplit("/", 1)[-1]
    if m["cr"] or m["zcr"]:
        return f"bad interpreter: {name} {_CRLF}"
    return f"bad interpreter: {name}: {(m['why'] or m['zwhy']).lower()}"


INTERPRETER_CHECKS: list[BareError] = [
    # bash and sh ("/bin/sh: /scripts/install.sh: /bin/bash^M: bad interpreter: No such file or directory") and zsh
    # ("zsh: /usr/local/bin/gh: bad interpreter: /usr/local/opt/python/bin/python3.7: no such file or directory")
    _environment(
        "bad-interpreter",
        ("bad interpreter: ",),
        r"(?:^|: )(?P<interp>/[^\s:^]{1,300})(?P<cr>\^M)?: bad interpreter: (?P<why>No such file or directory|"
        r"Operation not permitted|Permission denied)|^zsh: \S{1,300}: bad interpreter: (?P<zinterp>/[^\s:^]{1,300})"
        r"(?P<zcr>\^M)?: (?P<zwhy>no such file or directory|operation not permitted|permission denied)",
        None,
        message=_interpreter,
    ),
    # env given a name with the carriage return in it, shown escaped ("/usr/bin/env: ‘python\r’: No such file or
    # directory") or printed, so the line breaks before the rest ("/usr/bin/env: python" over ": No such file ...")
    _environment(
        "env-interpreter",
        ("env: ",),
        r"^(?:/usr)?/bin/env: [‘'\"]?(?P<name>[\w.-]{1,40})(?:(?P<cr>\\r)[’'\"]?: No such file or directory|$|"
        r"[’'\"]?: (?P<why>No such file or directory))",
        None,
        message=lambda m: (
            f"env: {m['name']}: No such file or directory" if m["why"] else f"bad interpreter: {m['name']} {_CRLF}"
        ),
    ),
    # bash reading a script saved with Windows line endings ("./x.sh: line 15: $'\r': command not found", "syntax error
    # near unexpected token `$'{\r''")
    BareError(
        "script-carriage-return",
        ("$'\\r'", "$'{\\r'"),
        re.compile(
            r": line \d{1,6}: (?:\$'\\r': command not found|syntax error near unexpected token `\$'[^']{0,10}\\r'')"
        ),
        None,
        "environment",
        message=lambda m: "bash: the script's lines end in a carriage return (Windows line endings)",
    ),
    # libpng's check of the release an application was built with (the versions are the machine's)
    _environment(
        "libpng-built-with",
        ("Application built with libpng-",),
        r"libpng warning: Application built with libpng-[\d.]{1,12} but running with [\d.]{1,12}",
        None,
        message=lambda m: "libpng: the application was built with another libpng than it runs with",
    ),
    # supervisorctl unable to reach supervisord's socket: gone (removed under a running supervisord, or never made),
    # or refusing connections (supervisord not running)
    _environment(
        "supervisor-socket",
        ("supervisor.sock ",),
        r"^unix://\S{1,300}\.sock (?P<why>no such file|refused connection)$",
        None,
        message=lambda m: f"supervisorctl: supervisord's socket: {m['why']}",
    ),
    # pythonnet 3 finding no .NET runtime it can start ('Failed to create a default .NET runtime, which would have been
    # "netfx" on this system. Either install ...'), its RuntimeError's message posted without it, wrapped by a terminal
    BareError(
        "pythonnet-runtime",
        ("Failed to create a default .NET runtime",),
        re.compile(r"^(?:RuntimeError: )?(?P<msg>Failed to create a default \.NET runtime\b.{0,300})$"),
        "RuntimeError",
        context=2,
    ),
]
