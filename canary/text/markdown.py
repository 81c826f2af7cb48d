"""Untrusted text made safe to post as markdown: no markdown injection, no pings, no forged
markers, no terminal controls, bounded size.

Text that came from logs, commit subjects, exception messages or a record's names goes through
:func:`clean` (fenced text) or :func:`escape_inline` (prose) before it reaches a GitHub issue;
both redact secrets first (:mod:`canary.text.redact`, which strips terminal controls before
it looks, so that nothing they interrupt gets past it), and so does :func:`code`. Log excerpts
are put in a code fence by :func:`fence`, which picks a fence longer than any backtick run inside
them. Pure string work.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from canary.text.redact import redact

# GitHub limits an issue body or comment to 65536 characters; stay a little under it.
GITHUB_BODY_LIMIT = 65536
DEFAULT_LIMIT = 65000
FIELD_MAX = 300  # characters of one field of a message (a frame, a path, a commit subject) shown

# A mention pings unless a word character comes right before the @ (an e-mail address): after
# ".", "-", "+", "/" or a bracket GitHub still links it.
_MENTION = re.compile(r"(?<![A-Za-z0-9_])@(?=[A-Za-z0-9])")
_HTML_COMMENT = re.compile(r"<!--")
_GH_REF = re.compile(r"(?i)\b(GH)-(?=\d)")  # GH-3: GitHub's other spelling of #3


def neutralize_mentions(text: str) -> str:
    """``@user`` and ``@org/team`` no longer notify anyone (a zero-width space follows the @)."""
    return _MENTION.sub("@\u200b", text)


def neutralize_markers(text: str) -> str:
    """Untrusted text must not be able to forge canary's hidden ``<!-- canary:... -->`` markers."""
    return _HTML_COMMENT.sub("<!\u200b--", text)


def neutralize_refs(text: str) -> str:
    """``GH-3`` no longer links (and so no longer notifies) issue 3."""
    return _GH_REF.sub("\\1\u200b-", text)


def clean(text: str, secrets: Iterable[str] = ()) -> str:
    """Strip terminal controls, then redact secrets (:func:`redact` does both, in that order),
    defuse mentions, issue references and hidden markers: for any untrusted text, fenced or not."""
    return neutralize_refs(neutralize_markers(neutralize_mentions(redact(text, secrets))))


# Markdown specials, and & (an entity, &commat; or &#64;, would become its character where the
# text renders, after every other defence: a live mention, a marker, a tag).
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~!&])")


def escape_inline(text: object, secrets: Iterable[str] = ()) -> str:
    """The one way untrusted text (a lane, a ferry, a run id, a commit subject, a summary) is
    put into markdown prose: on one line, secrets redacted, controls stripped, markdown specials
    escaped, mentions, issue references and markers defused."""
    text = " ".join(redact(str(text), secrets).split())
    return neutralize_refs(neutralize_markers(neutralize_mentions(_MD_SPECIAL.sub(r"\\\1", text))))


def code(text: str, secrets: Iterable[str] = ()) -> str:
    """Inline code that ``text`` cannot close (nor leak a secret, forge a marker with, nor drive a
    terminal)."""
    text = neutralize_refs(neutralize_markers(neutralize_mentions(" ".join(redact(str(text), secrets).split()))))
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    bar = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{bar}{pad}{text}{pad}{bar}"


def fence(text: str, info: str = "text") -> str:
    """A code block that ``text`` cannot close: the fence is longer than any backtick run inside."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    bar = "`" * max(3, longest + 1)
    return f"{bar}{info}\n{text.rstrip()}\n{bar}"


def trim_lines(text: str, max_chars: int) -> str:
    """Shorten ``text`` to at most ``max_chars`` by dropping lines from its middle (the head says
    where it happened, the tail says what happened); a single huge line is cut by characters."""
    if len(text) <= max_chars:
        return text
    if max_chars <= 0:
        return ""
    lines = text.splitlines()
    head: list[str] = []
    tail: list[str] = []
    used = 0
    lo, hi = 0, len(lines) - 1
    take_tail = True
    while lo <= hi:
        line = lines[hi] if take_tail else lines[lo]
        note = len(f"... {hi - lo + 1} lines trimmed ...") + 2
        if used + len(line) + 1 + note > max_chars:
            break
        if take_tail:
            tail.insert(0, line)
            hi -= 1
        else:
            head.append(line)
            lo += 1
        used += len(line) + 1
        take_tail = not take_tail
    dropped = hi - lo + 1
    if not head and not tail:  # one line longer than the whole budget
        marker = " ... [trimmed] ... "
        if max_chars <= len(marker):
            return text[:max_chars]
        keep = max_chars - len(marker)
        return text[: keep // 2] + marker + text[len(text) - (keep - keep // 2) :]
    return "\n".join(head + [f"... {dropped} lines trimmed ..."] + tail)


def fit(render: Callable[[str], str], excerpt: str, limit: int = DEFAULT_LIMIT) -> str:
    """``render(excerpt)`` trimmed to at most ``limit`` characters by shortening only the excerpt.

    ``render`` builds the whole markdown around an excerpt; the context it adds is never cut.
    """
    out = render(excerpt)
    if len(out) <= limit:
        return out
    budget = len(excerpt) - (len(out) - limit)
    while budget > 0:
        out = render(trim_lines(excerpt, budget))
        if len(out) <= limit:
            return out
        budget -= max(64, len(out) - limit)  # the fence may have grown; try again, smaller
    out = render("")
    if len(out) > limit:
        raise ValueError(f"the message without its excerpt is {len(out)} characters, over the limit {limit}")
    return out
