"""The folding rules of what the host a job runs on puts into a library's words: google-auth's check of a token's
times by the machine's clock. Pure. They take their place, in this order, in
:data:`canary.signature.word_folds.WORD_RULES`.
"""

from __future__ import annotations

import re

from canary.signature.rewordings import Parts, Rule

_TOKEN_TIME = re.compile(r"^(Token used too (?:early|late)), \d{1,20} [<>] \d{1,20}\b.*$")


def token_time(exc: str | None, message: str, frames: list[str]) -> Parts:
    """google-auth's check of a token's times without the two it compared and its advice."""
    if message.startswith("Token used too"):
        message = _TOKEN_TIME.sub(r"\1", message)
    return exc, message, frames


HOST_RULES: tuple[Rule, ...] = (
    Rule(
        "token-time",
        "google-auth refuses a token by the two times it compared ('Token used too early, 1642758070 < 1642758071. "
        "Check that your computer's clock is set correctly.'): that the machine's clock is off is the failure",
        token_time,
    ),
)
