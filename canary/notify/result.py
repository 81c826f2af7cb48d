"""What became of a notification: one :class:`Delivery` per run told about (or not), gathered in a
:class:`NotifyResult`, and what stopped one, in one line (:func:`failure`) and whether it is worth
sending again by itself (:func:`gives_up`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from canary.notify.tracker import Action
from canary.notify.transport import GitHubError
from canary.text import redact as redact_mod
from canary.textio import printable

SENT, SPOOLED, GIVEN_UP, DRY_RUN, FAILED = "sent", "spooled", "given-up", "dry-run", "failed"


@dataclass
class Delivery:
    """The fate of one run's notification."""

    run_id: str
    status: str  # sent | spooled (sent again by the next notify) | given-up (kept, listed) | dry-run | failed
    actions: list[Action] = field(default_factory=list)
    error: str | None = None
    spool_path: str | None = None
    calls: list[str] = field(default_factory=list)  # dry run: the API calls it would make
    messages: list[dict[str, str]] = field(default_factory=list)  # dry run: the markdown it would post
    resent: bool = False  # a spooled notification of an earlier run, sent now
    unreachable: bool = False  # the error is GitHub's host not resolving, refusing or having no route
    repo: str = ""  # the repository it was for

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "status": self.status,
            "resent": self.resent,
            "repo": self.repo,
            "actions": [a.to_dict() for a in self.actions],
            "error": self.error,
            "unreachable": self.unreachable,
            "spool_path": self.spool_path,
            "calls": self.calls,
            "messages": self.messages,
        }


@dataclass
class NotifyResult:
    deliveries: list[Delivery]
    stopped: int | None = None  # the signal that stopped notifying half-way (what was not sent is kept)

    @property
    def delivered(self) -> bool:
        """Everything that had to be said was said to GitHub. Never true of a dry run: it
        delivers nothing."""
        return bool(self.deliveries) and all(d.status == SENT for d in self.deliveries)

    @property
    def dry_run(self) -> bool:
        return any(d.status == DRY_RUN for d in self.deliveries)

    @property
    def unreachable(self) -> str | None:
        """Why GitHub could not be reached, when that is what stopped a delivery or a dry run's reads."""
        return next((d.error for d in self.deliveries if d.unreachable and d.error), None)

    @property
    def ok(self) -> bool:
        """Did its job: this run's own notification delivered (an earlier run's that waits or was
        given up is listed, not this run's failure), or a dry run that read GitHub and so shows
        what a real run would do."""
        if self.dry_run:
            return all(d.status == DRY_RUN and d.error is None for d in self.deliveries)
        own = [d for d in self.deliveries if not d.resent]
        return self.stopped is None and bool(own) and all(d.status == SENT for d in own)

    def to_dict(self) -> dict[str, Any]:
        return {
            "delivered": self.delivered,
            "dry_run": self.dry_run,
            "unreachable": self.unreachable,
            "stopped": self.stopped,
            "deliveries": [d.to_dict() for d in self.deliveries],
        }


def failure(e: BaseException) -> str:
    """What stopped a delivery, in one line: GitHub's own error, or what was wrong with its answer."""
    if isinstance(e, GitHubError):
        return str(e)
    return f"GitHub's answer could not be used ({type(e).__name__}: {printable(redact_mod.redact(str(e)[:300]))})"


def gives_up(e: BaseException) -> bool:
    """GitHub refused for good (a 404, 401, 422 or other 4xx that is no rate limit): kept and
    listed, never sent again by itself. Anything else (no answer, a 5xx, a 429, a rate limit, an
    answer that could not be used) is worth trying again later."""
    return isinstance(e, GitHubError) and e.gives_up
