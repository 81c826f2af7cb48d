"""The folding rules of what the host a job runs on puts into a library's words: google-auth's check of a token's
times by the machine's clock, pkg_resources' conflict by the versions and paths the machine has, Python's warning of
fork() in a threaded process by the process's id, Matplotlib's backend without a display. Pure. They take their
place, in this order, in :data:`canary.signature.word_folds.WORD_RULES`.
"""

from __future__ import annotations

import re

from canary.signature.rewordings import Parts, Rule, rewrite

_TOKEN_TIME = re.compile(r"^(Token used too (?:early|late)), \d{1,20} [<>] \d{1,20}\b.*$")


def token_time(exc: str | None, message: str, frames: list[str]) -> Parts:
    """google-auth's check of a token's times without the two it compared and its advice."""
    if message.startswith("Token used too"):
        message = _TOKEN_TIME.sub(r"\1", message)
    return exc, message, frames


# pkg_resources' conflict names the version installed and where, then what a package requires of it ("(numpy 1.19.1
# (/usr/share/miniconda/lib/python3.7/site-packages), Requirement.parse('numpy<1.19.0,>=1.16.0'), {'tensorflow'})")
_CONFLICT = re.compile(
    r"^\((\S{1,100}) \S{1,40} \([^)]{0,500}\), Requirement\.parse\('([^']{1,200})'\)(?:, \{([^}]{0,200})\})?\)$"
)


def pkg_conflict(exc: str | None, message: str, frames: list[str]) -> Parts:
    """pkg_resources' conflict by the requirement and who requires it, not the version installed or its path."""
    if exc in ("ContextualVersionConflict", "VersionConflict") and (m := _CONFLICT.match(message)):
        message = f"{m[1]} installed does not meet {m[2]}" + (f" required by {m[3]}" if m[3] else "")
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


HOST_RULES: tuple[Rule, ...] = (
    Rule(
        "token-time",
        "google-auth refuses a token by the two times it compared ('Token used too early, 1642758070 < 1642758071. "
        "Check that your computer's clock is set correctly.'): that the machine's clock is off is the failure",
        token_time,
    ),
    Rule(
        "pkg-conflict",
        "pkg_resources names the version of a package installed and where ('(numpy 1.19.1 (/x/site-packages), "
        "Requirement.parse('numpy<1.19.0,>=1.16.0'), {'tensorflow'})'): the requirement and who requires it are "
        "the failure",
        pkg_conflict,
    ),
    Rule(
        "fork-pid",
        "Python warns of fork() in a process with threads by its pid ('This process (pid=75) is multi-threaded, use "
        "of fork() may lead to deadlocks in the child.'), in a later release without it: the pid is the machine's",
        fork_pid,
    ),
    Rule(
        "non-gui",
        "Matplotlib warns of a figure it cannot show on a machine without a display in two releases' words "
        "('Matplotlib is currently using agg, which is a non-GUI backend, so cannot show the figure', 3.8's "
        "'FigureCanvasAgg is non-interactive, and thus cannot be shown'): one warning, by the backend",
        non_gui,
    ),
)
