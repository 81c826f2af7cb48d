"""Near matches: a new issue linked to the open issue whose failure is closest to its own, never
merged with it. The exact fingerprint alone decides recurrence (:mod:`canary.notify.tracker`);
when no open issue has it, the open issue whose identity text is at least
:data:`canary.signature.similar.THRESHOLD` similar is named in the new issue ("looks like #N") and
gets one comment naming the new one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from canary.notify.markers import issue_identity, run_marker
from canary.notify.model import Message, run_date
from canary.notify.sections import which_canary
from canary.record import RunRecord, Signature
from canary.signature.similar import identity_text, nearest
from canary.text.markdown import code, escape_inline
from canary.text.redact import redact
from canary.textio import printable


def identity_of(sig: Signature, secrets: Iterable[str] = ()) -> str:
    """A signature's identity text as an issue's marker holds it: secrets redacted, controls stripped."""
    return printable(redact(identity_text(sig), secrets))


def nearest_issue(
    heads: Iterable[tuple[dict[str, Any], str]], sig: Signature, secrets: Iterable[str] = ()
) -> tuple[dict[str, Any], float] | None:
    """The open issue (with its head markers) closest to ``sig``, and the similarity; None when none
    is close enough or carries an identity."""
    candidates = ((issue, issue_identity(head)) for issue, head in heads)
    return nearest(identity_of(sig, secrets), ((i, text) for i, text in candidates if text))


def looks_like(number: int, score: float) -> str:
    """The new issue's line naming its near match."""
    return (
        f"It looks like #{number} (similarity {score:.2f}): a close failure signature, not the same one, "
        "so it has its own issue; only the exact fingerprint counts as a recurrence."
    )


def near_comment(record: RunRecord, number: int | None, score: float) -> Message:
    """The one comment on the near match's issue, naming the new issue."""
    sig = record.signature
    what = f" ({code(sig.exception or sig.kind)})" if sig is not None else ""
    return Message(
        body="\n".join(
            [
                run_marker(record.run_id, record.lane),
                f"**A failure that looks like this one** on the {which_canary(record)} "
                f"({escape_inline(run_date(record))}): #{number}{what}, similarity {score:.2f}. Its signature "
                "is not this issue's, so it has its own issue; they may share a cause.",
            ]
        )
        + "\n"
    )
