"""The hidden markers in what the notifier posts, which make posting exactly-once checkable by
reading an issue back:

    <!-- canary:fingerprint=<fingerprint> -->     in the body of the issue for that signature
    <!-- canary:group=<group> -->                 beside it, for related signatures
    <!-- canary:identity=<class: message> -->     beside it, for near matches (canary.notify.near)
    <!-- canary:run=<run_id> lane=<lane> -->      in every issue body and comment canary posts
    <!-- canary:duplicate-of=<number> -->         in the comment that closes a duplicate issue
    <!-- canary:also-fingerprint=<fingerprint> --> under the first, on an issue an earlier canary opened
                                                  under an older fingerprint of the same failure

Text from outside cannot forge one (see :mod:`canary.text.redact`).
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterable

_FP_MARKER = re.compile(r"<!-- canary:fingerprint=([A-Za-z0-9_.:%+-]+) -->")
_MARKER_SAFE = "._:+-"


def marker_value(text: str) -> str:
    """A value as a marker holds it: anything but letters, digits and ``._:+-`` percent-encoded, so
    no lane, run id or fingerprint can end the comment or add a key."""
    return urllib.parse.quote(str(text), safe=_MARKER_SAFE)


_RUN_MARKER = re.compile(r"<!-- canary:run=(\S+) lane=(\S+) -->")


def fingerprint_marker(fingerprint: str) -> str:
    return f"<!-- canary:fingerprint={marker_value(fingerprint)} -->"


def also_marker(fingerprint: str) -> str:
    """Added to an issue opened under an older fingerprint of the failure: today's, so later runs
    find it without the history that tied the two."""
    return f"<!-- canary:also-fingerprint={marker_value(fingerprint)} -->"


def group_marker(group: str) -> str:
    """The coarser key of a signature (error class and failing op): related failures share it."""
    return f"<!-- canary:group={marker_value(group)} -->"


def identity_marker(text: str) -> str:
    """A signature's normalised identity text (``class: message``), for near matches."""
    return f"<!-- canary:identity={marker_value(text)} -->"


_IDENTITY_MARKER = re.compile(r"<!-- canary:identity=(\S+) -->")


def issue_identity(head: str | None) -> str | None:
    """The identity text an issue's head markers carry, or None (issues from before it carry none)."""
    m = _IDENTITY_MARKER.search(head or "")
    return urllib.parse.unquote(m.group(1)) if m else None


def run_marker(run_id: str, lane: str) -> str:
    return f"<!-- canary:run={marker_value(run_id)} lane={marker_value(lane)} -->"


def duplicate_marker(number: int) -> str:
    return f"<!-- canary:duplicate-of={number} -->"


def issue_fingerprint(body: str | None) -> str | None:
    """The fingerprint an issue body is for (the first marker), or None."""
    m = _FP_MARKER.search(body or "")
    return urllib.parse.unquote(m.group(1)) if m else None


def has_run_marker(texts: Iterable[str | None], run_id: str, lane: str) -> bool:
    marker = run_marker(run_id, lane)
    return any(marker in (t or "") for t in texts)
