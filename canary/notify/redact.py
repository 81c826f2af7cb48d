"""Make untrusted text safe to post: no secrets, no markdown injection, no pings, bounded size.

Everything here is pure string work. Text that came from logs, commit subjects or exception
messages goes through :func:`clean` before it reaches a GitHub issue; log excerpts are put in a
code fence by :func:`fence`, which picks a fence longer than any backtick run inside them.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

REDACTED = "[REDACTED]"

# GitHub limits an issue body or comment to 65536 characters; stay a little under it.
GITHUB_BODY_LIMIT = 65536
DEFAULT_LIMIT = 65000

# (name, pattern, replacement). Patterns with a group keep the group (a key's name) and redact
# only the value after it.
_PATTERNS: list[tuple[str, re.Pattern[str], str]] = [
    # Authorization headers and bearer tokens, whatever the token looks like.
    ("authorization", re.compile(r"(?i)(\bauthorization\b[\"']?\s*[:=]\s*[\"']?)(?:(?:bearer|token|basic)\s+)?[^\s\"',;]+"),
     r"\1" + REDACTED),
    ("bearer", re.compile(r"(?i)(\bbearer\s+)[A-Za-z0-9\-._~+/]+=*"), r"\1" + REDACTED),
    # GitHub tokens: classic and app tokens (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained PATs.
    ("github", re.compile(r"\bgh[opusr]_[A-Za-z0-9]{20,}\b"), REDACTED),
    ("github_pat", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}"), REDACTED),
    # Google OAuth access tokens.
    ("google_oauth", re.compile(r"\bya29\.[0-9A-Za-z\-_.]+"), REDACTED),
    # W&B API keys: 40 or more word characters (86 for newer keys; self-hosted ones prefixed, as in
    # local-<key>), with no shape of their own, so recognised by what carries them: the setting,
    # wandb login, wandb.login(key=...), a netrc entry. A bare 40-hex string may well be a commit id.
    ("wandb", re.compile(r"(?i)(\bwandb[_-]?(?:api[_-]?)?key[\"']?\s*[:=]\s*[\"']?)[^\s\"',;]+"), r"\1" + REDACTED),
    ("wandb_login", re.compile(r"(?i)(\bwandb\s+login\s+(?:--\S+\s+)*)[^\s\"',;-][^\s\"',;]*"), r"\1" + REDACTED),
    ("wandb_login_call", re.compile(r"(?i)(\bwandb\.login\([^)]{0,200}?\bkey\s*=\s*[\"'])[^\"']+"), r"\1" + REDACTED),
    ("netrc", re.compile(r"(?i)(\bmachine\s+\S+[\s\S]{0,200}?\bpassword\s+)\S+"), r"\1" + REDACTED),
    ("wandb_onprem", re.compile(r"\b(?:local|vm)-[A-Za-z0-9_]{40,}\b"), REDACTED),
    # AWS access key ids and secret access keys.
    ("aws_key_id", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b"), REDACTED),
    ("aws_secret", re.compile(r"(?i)(\baws_?secret_?(?:access_?)?key[\"']?\s*[:=]\s*[\"']?)[A-Za-z0-9/+=]{40}"),
     r"\1" + REDACTED),
    # Anything handed over as KEY=VALUE whose key says it is secret.
    ("secret_env", re.compile(r"(?i)(\b[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|API_KEY)\b[\"']?\s*[:=]\s*[\"']?)(?!\[REDACTED\])[^\s\"',;]{8,}"),
     r"\1" + REDACTED),
]


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """Replace every secret-looking token in ``text`` (and each exact string in ``secrets``)."""
    for s in sorted({s for s in secrets if s and len(s) >= 6}, key=len, reverse=True):
        text = text.replace(s, REDACTED)
    for _, pattern, repl in _PATTERNS:
        text = pattern.sub(repl, text)
    return text


_MENTION = re.compile(r"(?<![\w@`/.+-])@(?=[A-Za-z0-9])")
_HTML_COMMENT = re.compile(r"<!--")


def neutralize_mentions(text: str) -> str:
    """``@user`` and ``@org/team`` no longer notify anyone (a zero-width space follows the @)."""
    return _MENTION.sub("@\u200b", text)


def neutralize_markers(text: str) -> str:
    """Untrusted text must not be able to forge canary's hidden ``<!-- canary:... -->`` markers."""
    return _HTML_COMMENT.sub("<!\u200b--", text)


def clean(text: str, secrets: Iterable[str] = ()) -> str:
    """Redact secrets, defuse mentions and hidden markers: for any untrusted text."""
    return neutralize_markers(neutralize_mentions(redact(text, secrets)))


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~!])")


def escape_inline(text: str) -> str:
    """One line of untrusted prose (a commit subject, a summary), shown as plain text."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


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
        return text[: keep // 2] + marker + text[len(text) - (keep - keep // 2):]
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
