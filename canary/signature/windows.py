"""Long logs cut to what can name a failure: a long log's tail and the region of its last error line, read
in bounded memory (:func:`window` for a text, :func:`read_window` for a stream). Pure; no I/O beyond
reading a stream it is given.
"""

from __future__ import annotations

import io
from collections import deque
from typing import IO

from canary.signature.lines import MAX_LINE, cap_line

TAIL_LINES = 4000  # lines kept from the end of a long log
REGION_BEFORE, REGION_AFTER = 100, 300  # lines kept around the last error line before the tail
MAX_TEXT = 4 * 1024 * 1024  # a log text longer than this is windowed before it is read
MAX_LINES = 3 * TAIL_LINES  # and one of more lines than this (a long training log of short lines)

# What a failure's first line holds: the last of them outside the tail marks the error region.
# Plain substrings, found by str.rfind (a C scan of each batch), never a regular expression.
ERROR_MARKERS = (
    "Traceback (most recent call last)",
    "Error",
    "Exception",
    "Check failed",
    "CHECK failed",
    "Fatal Python error",
    "_EXHAUSTED",
    "INTERNAL: ",
    "DEADLINE_EXCEEDED",
    "UNAVAILABLE: ",
    "INVALID_ARGUMENT",
    "FAILED_PRECONDITION",
    "Mosaic",
    "NCCL WARN",
    "CUDA_ERROR",
    "cuda error",
    "Out of memory",
    "Killed process",
    "oom-kill",
    "*** SIG",
)


class Window:
    """A long log's lines, read once, kept in bounded memory: the last :data:`TAIL_LINES` lines,
    and the lines around the last error line seen (:data:`REGION_BEFORE` before it,
    :data:`REGION_AFTER` from it on). Lines come in batches with their text; error lines are
    found by one regular-expression scan of each batch's text, at C speed."""

    def __init__(self, tail: int = TAIL_LINES) -> None:
        self.tail: deque[str] = deque(maxlen=tail)
        self.total = 0  # lines seen
        self.region: list[str] = []
        self.region_start = 0  # the index (among all lines) of the region's first line
        self._need = 0  # lines still to come in the region

    def extend(self, lines: list[str]) -> None:
        lines = [line if len(line) <= MAX_LINE else cap_line(line) for line in lines]
        if self._need:
            self.region.extend(lines[: self._need])
            self._need -= min(self._need, len(lines))
        text = "\n".join(lines)
        at = max(text.rfind(marker) for marker in ERROR_MARKERS)
        if at >= 0:
            idx = text.count("\n", 0, at)
            before = list(self.tail)[len(self.tail) - max(0, REGION_BEFORE - idx) :] if idx < REGION_BEFORE else []
            start = max(0, idx - REGION_BEFORE)
            self.region = before + lines[start : idx + REGION_AFTER]
            self.region_start = self.total + start - len(before)
            self._need = max(0, idx + REGION_AFTER - len(lines))
        self.tail.extend(lines)
        self.total += len(lines)

    def lines(self) -> list[str]:
        tail_start = self.total - len(self.tail)
        if not self.region or self.region_start >= tail_start:
            return list(self.tail)
        keep = self.region[: tail_start - self.region_start]
        skipped = tail_start - self.region_start - len(keep)
        return [*keep, *([f"[… {skipped} lines not read …]"] if skipped else []), *self.tail]


def window(text: str, limit: int = MAX_TEXT, max_lines: int = MAX_LINES) -> str:
    """``text``, or for a log longer than ``limit`` characters or ``max_lines`` lines the lines a
    :class:`Window` keeps (its tail and the region of its last error: what can name the failure)."""
    if len(text) <= limit and (len(text) < max_lines or text.count("\n", 0, limit) <= max_lines):
        return text
    return read_window(io.StringIO(text))


def read_window(stream: IO[str], chunk: int = 1 << 20) -> str:
    """A log read from ``stream`` in chunks, in bounded memory: what a :class:`Window` keeps. A
    line longer than :data:`MAX_LINE` is held as its head and tail while it is read."""
    w = Window()
    half = MAX_LINE // 2
    head, tail, long = "", "", False  # the line being read: its start, and its end when long

    def grow(data: str) -> None:
        nonlocal head, tail, long
        if long:
            tail = (tail + data)[-half:]
        elif len(head) + len(data) > MAX_LINE:
            joined = head + data
            head, tail, long = joined[:half], joined[-half:], True
        else:
            head += data

    def line() -> str:
        return head + " … " + tail if long else head

    while True:
        data = stream.read(chunk)
        if not data:
            break
        nl = data.find("\n")
        if nl < 0:
            grow(data)
            continue
        grow(data[:nl])
        done = [line()]
        last = data.rfind("\n")
        if last > nl:
            done.extend(data[nl + 1 : last].split("\n"))
        w.extend(done)
        head, tail, long = "", "", False
        grow(data[last + 1 :])
    if head or long:
        w.extend([line()])
    return "\n".join(w.lines())
