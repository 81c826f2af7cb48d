"""A log that ends inside a traceback, before its exception's line (a post cut there, or a process killed while it
printed), named by what the log still shows of the failure. Pure."""

from __future__ import annotations

import re

from canary.record import Signature
from canary.signature import kinds
from canary.signature.call_paths import frame_path
from canary.signature.identity import CUT_TRACEBACK, make
from canary.signature.masks import canonical_class
from canary.signature.tracebacks import _parse_exception_line, unfinished

_CUT_FRAMES = 3  # the innermost frames that name a traceback cut before its exception


def cut_short(lines: list[str]) -> Signature | None:
    """A log that ends inside a traceback, before its exception's line (a post cut there, or a process
    killed while it printed): named by where it was, its innermost frames, the library's too (they are
    all it shows of the failure), and the class IPython's header names, if it does. Only when nothing
    else names the failure: an error logged before the traceback is what it was printing."""
    frames, exc, start = unfinished(lines)
    if not frames:
        return None
    path = [f"{frame_path(fr.file)[0]}:{fr.func}" for fr in frames[-_CUT_FRAMES:]]
    if not exc and (reported := _application_said(lines, start)):
        excerpt = "\n".join(lines[max(0, start - 3) :])[-2000:]
        return make("runtime_crash", kinds.words_class(reported), reported, [], excerpt)
    message = _said_above(lines, start, exc) or f"{CUT_TRACEBACK}{path[-1]}"
    excerpt = "\n".join(lines[max(0, start - 1) :])[-2000:]
    return make("runtime_crash", canonical_class(exc) if exc else None, message, path, excerpt)


def _said_above(lines: list[str], start: int, exc: str | None) -> str | None:
    """The message a post gives above a cut traceback on a line of the class its header names ("NamespaceNotFound:
    Namespace ALE not found. ..." over IPython's "NamespaceNotFound    Traceback (most recent call last)")."""
    if not exc:
        return None
    for line in reversed(lines[: max(0, start - 1)]):
        parsed = _parse_exception_line(line.strip())
        if parsed and parsed[0].rsplit(".", 1)[-1] == exc.rsplit(".", 1)[-1] and parsed[1]:
            return parsed[1]
    return None


# ComfyUI's report of a node's exception before its traceback: "!!! Exception during processing !!! <message>", later
# "!!! ERROR during execution: <message>" (the class is not printed, but an import's words give it); where the traceback
# is cut, the message is what names the failure, not where the cut fell
# (a post's stray backtick may open it; a message of several lines goes on, flush left, to the blank line before the
# traceback)
_APPLICATION_REPORT = re.compile(
    r"^`{0,3}!!! (?:Exception during processing ?!!!|ERROR during execution:)\s{1,4}(?P<msg>\S.{0,2000}?)\s*$"
)
_REPORT_ABOVE = 12


def _application_said(lines: list[str], start: int) -> str | None:
    for k in range(max(0, start - _REPORT_ABOVE), start):  # (Hydra's search path may come between)
        if m := _APPLICATION_REPORT.match(lines[k].strip()):
            said = [m["msg"]]
            for line in lines[k + 1 : start]:
                if not line.strip() or line[:1].isspace() or line.startswith("Traceback "):
                    break  # (its sentences run on flush left; an indented table below them is not its words)
                said.append(line.strip())
            return " ".join(said)
    return None
