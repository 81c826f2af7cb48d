"""How the secret shapes (:mod:`canary.text.secret_shapes`) are looked for in a long text, a
log of hundreds of MB included: each only where one of its words is, and where those words are
rare, only near them (the lines around each), with the patterns that share their words together.
The result is what running every pattern over the whole text gives (a stretch starts at a line's
start, or _BACK characters before the word on a longer line, where a pattern may redact a little
more). Pure string work.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from canary.text.secret_shapes import NEEDLES, PATTERNS, Word

# A shape whose words are rare in a text is looked for only near them: from the start of the line
# holding a word (at most _BACK characters before it) to the end of the line after it (a value may
# follow its key on the next line), _REACH further for a netrc entry. Where they are common (more
# than one in _DENSE characters), and for key blocks (which run on past their word), it is looked
# for everywhere.
_DENSE = 2048
_BACK = 512
_REACH = {"netrc": 256}
_WHOLE = ("pem", "pgp")


def replace_shapes(text: str) -> str:
    """``text`` with every secret shape redacted (a shape is looked for only in text that holds
    one of its words, and where they are rare, only near them)."""
    lower: str | None = None
    found: dict[Word, list[int] | None] = {}  # where each word is in the text as it is now (None: common)
    absent: set[Word] = set()  # words the text never held (a redaction adds none)
    for needles, group in _GROUPS:
        if lower is None:
            lower, found = text.lower(), {}
        limit = len(text) // _DENSE
        hits: list[int] | None = []
        for n in needles:
            if n in absent:
                continue
            if n not in found:
                found[n] = _positions(lower, n, limit)
            at = found[n]
            if at is None:
                hits = None
                break
            if not at:
                absent.add(n)
            hits += at
        if hits is not None and not hits:
            continue
        if hits is None or group[0][0] in _WHOLE or len(hits) > limit:
            out = text
            for _, pattern, repl in group:
                out = pattern.sub(repl, out)
        else:
            out = _sub_near(group, text, _windows(lower, sorted(hits), _REACH.get(group[0][0], 0)))
        if out != text:
            text, lower = out, None
    return text


def _grouped() -> list[tuple[tuple[Word, ...], list[tuple[str, re.Pattern[str], Any]]]]:
    """The patterns, in order, with those next to each other that share their words together:
    looked for in the same stretches of text."""
    groups: list[tuple[tuple[Word, ...], list[tuple[str, re.Pattern[str], Any]]]] = []
    for name, pattern, repl in PATTERNS:
        needles = NEEDLES[name]
        if groups and groups[-1][0] == needles and name not in _REACH and groups[-1][1][0][0] not in _REACH:
            groups[-1][1].append((name, pattern, repl))
        else:
            groups.append((needles, [(name, pattern, repl)]))
    return groups


_GROUPS = _grouped()


def _positions(lower: str, word: Word, limit: int) -> list[int] | None:
    """Where ``word`` is in ``lower``; None once it is found more than ``limit`` times."""
    found = (m.start() for m in word.finditer(lower)) if isinstance(word, re.Pattern) else _finds(lower, word)
    out: list[int] = []
    for pos in found:
        out.append(pos)
        if len(out) > limit:
            return None
    return out


def _finds(lower: str, word: str) -> Iterator[int]:
    pos = lower.find(word)
    while pos != -1:
        yield pos
        pos = lower.find(word, pos + 1)


def _windows(lower: str, hits: list[int], reach: int) -> list[tuple[int, int]]:
    """The stretches of text around each of ``hits`` (sorted), merged where they overlap."""
    merged: list[tuple[int, int]] = []
    for pos in hits:
        if merged and pos < merged[-1][1]:
            continue  # its line is in the last stretch already
        nl = lower.rfind("\n", max(0, pos - _BACK), pos)
        lo = nl + 1 if nl != -1 else max(0, pos - _BACK)
        end = lower.find("\n", pos)
        hi = len(lower) if end == -1 else lower.find("\n", end + 1 + reach)
        hi = len(lower) if hi == -1 else hi
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def _sub_near(group: list[tuple[str, re.Pattern[str], Any]], text: str, windows: list[tuple[int, int]]) -> str:
    """Each pattern of ``group`` in turn, over each of ``windows`` only (a window starts at a
    line's start, so a pattern reads its edges as it would in the whole text)."""
    out, at = [], 0
    for lo, hi in windows:
        part = text[lo:hi]
        for _, pattern, repl in group:
            part = pattern.sub(repl, part)
        out += [text[at:lo], part]
        at = hi
    return "".join(out) + text[at:] if out else text
