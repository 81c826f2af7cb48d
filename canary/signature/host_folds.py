"""The folding rules of what the host a job runs on puts into a library's words: google-auth's check of a token's
times by the machine's clock, pkg_resources' conflict by the versions and paths the machine has, Python's warning of
fork() in a threaded process by the process's id, runc's relay of a container hook's error and the container's root
on the host, a path through 'x/../' and a program built for another machine, Matplotlib's backend without a
display. Pure. They take their place, in this order, in :data:`canary.signature.word_folds.WORD_RULES`.
"""

from __future__ import annotations

import re

from canary.signature.rewordings import Parts, Rule, rewrite

_TOKEN_TIME = re.compile(r"^(Token used too (?:early|late)), \d{1,20} [<>] \d{1,20}\b.*$")
_TZ_OFFSET = re.compile(r"^(Timezone offset does not match system offset): -?\d{1,6} != -?\d{1,6}\b")


def token_time(exc: str | None, message: str, frames: list[str]) -> Parts:
    """google-auth's check of a token's times without the two it compared and its advice; tzlocal's of the zone's
    offset without the two offsets."""
    if message.startswith("Token used too"):
        message = _TOKEN_TIME.sub(r"\1", message)
    elif message.startswith("Timezone offset does not match"):
        message = _TZ_OFFSET.sub(r"\1", message)
    return exc, message, frames


# pkg_resources' conflict names the version installed and where, then what a package requires of it ("(numpy 1.19.1
# (/usr/share/miniconda/lib/python3.7/site-packages), Requirement.parse('numpy<1.19.0,>=1.16.0'), {'tensorflow'})")
_CONFLICT = re.compile(
    r"^\((\S{1,100}) \S{1,40} \([^)]{0,500}\), Requirement\.parse\('([^']{1,200})'\)(?:, \{([^}]{0,200})\})?\)$"
)


# ... and a distribution a console script pins that is not installed, by release ("The 'pip==9.0.1' distribution was not
# found and is required by the application", before setuptools 8 the requirement alone: "pip==6.1.1"): a script
# another release of the package wrote, by the package, not the version it pinned
_NOT_FOUND = re.compile(
    r"^(?:The ')?(?P<dist>[A-Za-z0-9][\w.-]{0,100})(?:\[[^\]]{0,100}\])?"
    r"(?:[<>=!~]=?[^\s',]{1,60}(?:,[<>=!~]=?[^\s',]{1,60}){0,4})?"
    r"(?:' distribution was not found and is required by .{1,200})?$"
)


def pkg_conflict(exc: str | None, message: str, frames: list[str]) -> Parts:
    """pkg_resources' conflict by the requirement and who requires it, not the version installed or its path; a
    distribution not found by its name, not the version pinned."""
    if exc in ("ContextualVersionConflict", "VersionConflict") and (m := _CONFLICT.match(message)):
        message = f"{m[1]} installed does not meet {m[2]}" + (f" required by {m[3]}" if m[3] else "")
    elif exc == "DistributionNotFound" and (m := _NOT_FOUND.match(message)):
        message = f"The '{m['dist']}' distribution was not found and is required"
    return exc, message, frames


# Python 3.12's "This process (pid=75) is multi-threaded, use of fork() may lead to deadlocks in the child."
fork_pid = rewrite(
    "This process (pid=",
    re.compile(r"^This process \(pid=[^)]{1,12}\) is multi-threaded"),
    "This process is multi-threaded",
)


_NON_GUI = re.compile(
    r"^(?:Matplotlib is currently using (?P<old>\w{1,20}), which is a non-GUI backend, so cannot show the figure|"
    r"FigureCanvas(?P<new>\w{1,20}) is non-interactive, and thus cannot be shown)\.?$"
)


def non_gui(exc: str | None, message: str, frames: list[str]) -> Parts:
    """Matplotlib's warning of a figure a non-GUI backend cannot show, in either release's words, by the backend."""
    if message.startswith(("Matplotlib is currently using ", "FigureCanvas")) and (m := _NON_GUI.match(message)):
        message = f"Matplotlib: the {(m['old'] or m['new']).lower()} backend is non-GUI and cannot show the figure"
    return exc, message, frames


# runc relaying a hook's error with its own status after it ("... cannot open shared object file: no such file or
# directory: unknown"), and the container's root under Docker's overlay2 in the hook's paths
# ("/var/lib/docker/overlay2/<hex>/merged/run/nvidia-persistenced/socket")
_RUNC_UNKNOWN = re.compile(r": unknown\.?$")
_OVERLAY_ROOT = re.compile(r"/\S{0,300}?/overlay2/(?:<hex>|[0-9a-f]{64})/merged/")


def container_relay(exc: str | None, message: str, frames: list[str]) -> Parts:
    """A hook's error without runc's status after it or the container's root directory on the host."""
    if message.endswith((": unknown", ": unknown.")) and ("load library failed" in message or "CDI devices" in message):
        message = _RUNC_UNKNOWN.sub("", message)
    if "/overlay2/" in message:
        message = _OVERLAY_ROOT.sub("<container root>/", message)
    return exc, message, frames


# a file named by the path it was found through: the loader's library from whichever module loaded it
# ("sklearn/utils/../../scikit_learn.libs/libgomp-<hex>.so.1.0.0: cannot allocate memory in static TLS block"), a
# package's own program by the directory it computed it from ("pulp/apis/../solverdir/cbc/linux/64/cbc")
_UP = re.compile(r"(?<![^/\s'\"(])(?!\.\.?/)[^/\s'\"(]{1,200}/\.\./")
# the kernel refusing a program built for another machine: Linux's ENOEXEC, macOS's EBADARCH ("[Errno 86] Bad CPU type
# in executable: '/x/site-packages/pulp/solverdir/cbc/osx/64/cbc'"); which directory the release keeps it in is not
_WRONG_ARCH = re.compile(
    r"^(\[Errno (?:8|86)\] (?:Exec format error|Bad CPU type in executable)): '(?:[^']{0,500}/)?([^/']{1,200})'"
)


# (what is left above the package a path was cut to: "torch/lib/../../../../libsycl.so.8", "x/../.././libcurl.so.4")
_ABOVE = re.compile(r"(?<![^\s'\"(])(?:\.\.?/)+")


def up_paths(exc: str | None, message: str, frames: list[str]) -> Parts:
    """A path with each "x/../" taken out, and what it climbs above where it starts; a program the kernel could not run
    on this machine by its name."""
    if "/../" in message:
        while _UP.search(message):
            message = _UP.sub("", message, count=1)
        message = _ABOVE.sub("", message)
    if message.startswith("[Errno ") and (m := _WRONG_ARCH.match(message)):
        message = f"{m[1]}: '{m[2]}'"
    return exc, message, frames


HOST_RULES: tuple[Rule, ...] = (
    Rule(
        "token-time",
        "google-auth refuses a token by the two times it compared ('Token used too early, 1642758070 < 1642758071. "
        "Check that your computer's clock is set correctly.'), tzlocal the zone's offset and the system's: that "
        "the machine's clock or zone is off is the failure",
        token_time,
    ),
    Rule(
        "pkg-conflict",
        "pkg_resources names the version of a package installed and where ('(numpy 1.19.1 (/x/site-packages), "
        "Requirement.parse('numpy<1.19.0,>=1.16.0'), {'tensorflow'})'), a distribution not found by the pin, worded "
        "by release: the requirement and who requires it, or which distribution, are the failure",
        pkg_conflict,
    ),
    Rule(
        "fork-pid",
        "Python warns of fork() in a process with threads by its pid ('This process (pid=75) is multi-threaded, use "
        "of fork() may lead to deadlocks in the child.'), in a later release without it: the pid is the machine's",
        fork_pid,
    ),
    Rule(
        "container-relay",
        "runc relays the NVIDIA hook's error with its own ': unknown' after it by release, and the hook names the "
        "container's root under Docker's overlay2 directory (the host's): the hook's error is the failure",
        container_relay,
    ),
    Rule(
        "up-paths",
        "a file is named by the way it was found ('sklearn/utils/../../scikit_learn.libs/...', "
        "'pulp/apis/../solverdir'), a program built for another machine ('Exec format error', 'Bad CPU type in "
        "executable') by where a release keeps it: the file, by its path without 'x/../' or by its name",
        up_paths,
    ),
    Rule(
        "non-gui",
        "Matplotlib warns of a figure it cannot show on a machine without a display in two releases' words "
        "('Matplotlib is currently using agg, which is a non-GUI backend, so cannot show the figure', 3.8's "
        "'FigureCanvasAgg is non-interactive, and thus cannot be shown'): one warning, by the backend",
        non_gui,
    ),
)
