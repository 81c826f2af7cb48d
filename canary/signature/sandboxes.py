"""A container's sandbox refusing what a program in it asks of the kernel, as the program says it: an older Docker's
seccomp profile refusing the system calls a newer C library makes (coreutils' "Operation not permitted" on a path, make
unable to run its shell, Python unable to read the clock as it starts), gVisor's system calls it does not implement,
rootless Podman without the subordinate ids an image's files are owned by, and Podman run inside a container that cannot
re-exec it. Pure. They take their place in :data:`canary.signature.containers.CONTAINER_CHECKS`; each is the tool's
check, with no class but Python's.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment
from canary.signature.tracebacks import _parse_exception_line

# (the interpreter's state line between its fatal error and the exception that caused it, 3.8 and later)
_STATE = re.compile(r"^Python runtime state: ")


def startup_error(lines: list[str], i: int, m: re.Match[str]) -> tuple[str, str]:
    """The class and message of Python's fatal error as it started (line ``i``, ``m`` its match): the exception printed
    under it, which the startup step could not get past, with the step in its words (not the function, which each
    release renames: Py_Initialize, pyinit_main, init_interp_main)."""
    for line in lines[i + 1 : i + 3]:
        s = line.strip()
        if _STATE.match(s):
            continue
        if raised := _parse_exception_line(s):
            return raised[0], f"Fatal Python error: {m['what']}: {raised[1]}"
        break
    return "FatalError", f"Fatal Python error: {m['what']}"


def _syscall(m: re.Match[str]) -> str:
    return f"gVisor: unsupported syscall {m['call'] or m['number']}"


SANDBOX_CHECKS: list[BareError] = [
    # Python failing as it starts, the exception under it saying why ("Fatal Python error: init_interp_main: can't
    # initialize time" above "PermissionError: [Errno 1] Operation not permitted": the clock's system call refused by
    # the seccomp profile of a Docker older than the image's C library; "Py_Initialize: can't initialize sys standard
    # streams" above "LookupError: unknown encoding: cp866"); bare_scan reads the class and message below it
    _environment(
        "python-startup",
        ("Fatal Python error: ",),
        r"Fatal Python error: (?:_?Py_?\w{1,40}|pyinit_\w{1,40}|init_\w{1,40}): (?P<what>(?:can't|cannot|failed to|"
        r"unable to) [^.]{1,200}?)\.?$",
        "FatalError",
        message=lambda m: f"Fatal Python error: {m['what']}",
    ),
    # coreutils refused a system call on a path by the sandbox (glibc 2.33's faccessat2 or statx under an older Docker's
    # seccomp profile: "ls: cannot access '/tmp': Operation not permitted"); not the path, which is any; weak (a
    # program may go on)
    _environment(
        "coreutils-eperm",
        (": Operation not permitted", ": Permission denied"),
        r"^(?P<tool>ls|cat|cp|mv|rm|stat|touch|mkdir|chmod|chown|find|du|df|test|readlink|realpath): "
        r"(?P<what>cannot (?:access|open directory|open|stat|remove|create directory|touch)) "
        r"(?:'[^']{0,500}'|\S{1,500}): (?P<why>Operation not permitted|Permission denied)$",
        None,
        message=lambda m: f"{m['tool']}: {m['what']}: {m['why']}",
        weak=True,
    ),
    # make unable to start the shell its recipes run in, the same refusal ("make: /bin/sh: Operation not permitted")
    _environment(
        "exec-eperm",
        (": Operation not permitted",),
        r"^(?P<tool>make|env|xargs|sudo|nohup|timeout): (?P<path>/\S{1,200}): Operation not permitted$",
        None,
        message=lambda m: f"{m['tool']}: {m['path']}: Operation not permitted",
    ),
    # Podman run inside another container that does not let it make its namespaces ("Error: cannot re-exec process")
    _environment(
        "podman-re-exec",
        ("cannot re-exec process",),
        r"^Error: cannot re-exec process$",
        None,
        message=lambda m: "podman: cannot re-exec process",
    ),
    # gVisor's sentry logging a system call it does not implement (Cloud Run's first generation: "Container Sandbox:
    # Unsupported syscall setsockopt(0x12e,0x1,0xd,...). It is very likely that you can safely ignore this message
    # ...", a number where it has no name: "UNKNOWN[439/0x1b7](...)"): which call, not its arguments; weak (it says
    # the program may go on)
    _environment(
        "gvisor-syscall",
        ("Unsupported syscall ",),
        r"\bUnsupported syscall (?:(?P<call>[a-z_]\w{0,40})|UNKNOWN\[(?P<number>\d{1,4})/0x[0-9a-f]{1,4}\])\(",
        None,
        message=_syscall,
        weak=True,
    ),
    # rootless Podman unpacking a layer whose files are owned by ids outside the user's subordinate ranges ("potentially
    # insufficient UIDs or GIDs available in user namespace (requested 0:42 for /etc/gshadow): Check /etc/subuid and
    # /etc/subgid ...", 4.x's "processing tar file(...)" or 5.x's "unpacking failed (...; output: ...)"): which ids,
    # not the file or the layer
    _environment(
        "rootless-ids",
        ("insufficient UIDs or GIDs available in user namespace",),
        r"potentially insufficient UIDs or GIDs available in user namespace \(requested (?P<ids>\d{1,12}:\d{1,12})\b",
        None,
        message=lambda m: f"podman: insufficient UIDs or GIDs in user namespace (requested {m['ids']})",
    ),
]
