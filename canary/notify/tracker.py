"""One issue per failure signature, one comment per run, never a duplicate.

The decisions, over any issue tracker that can list, create, close and comment (the GitHub client,
or the dry-run recorder that only prints what it would do):

* a failing run: find the open ``canary`` issue whose body carries the signature's fingerprint
  marker (or, when there is none, one an earlier canary opened under an older fingerprint of the
  same failure); comment on it, or open one. After opening, list again: when two notifiers raced, the
  lowest number is kept and the other is closed as its duplicate.
* a passing run that ends a failure streak: one "Recovered" comment on each open issue of the
  streak's signatures (closing it when asked).
* exactly once: every body and comment carries the run's marker; a marker already on the issue
  means this run was told, and nothing is posted.
* a passing run that brings a step to light in a metric its lane gates (a change point, see
  :mod:`canary.history.changes`): a comment on the lane's open ``canary-performance`` issue, or
  the issue opened; never on a failure issue. A step already announced there is not again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from canary.history import series
from canary.notify import performance
from canary.notify.compose import (
    duplicate_comment,
    new_issue,
    recovery_comment,
    recurrence_comment,
    signature_or_fallback,
    still_failing_on,
)
from canary.notify.markers import (
    also_marker,
    duplicate_marker,
    fingerprint_marker,
    group_marker,
    has_run_marker,
    issue_fingerprint,
)
from canary.notify.model import Facts, Message
from canary.notify.near import near_comment, nearest_issue
from canary.record import RunRecord

LABEL = "canary"
LABELS = {
    "canary": ("fbca04", "A failure found by the scheduled canary"),
    "bug": ("d73a4a", "Something isn't working"),
    "canary-infra": ("c5def5", "The scheduled canary could not run (capacity, lost job): not a code regression"),
    performance.LABEL: performance.LABEL_STYLE,
}


class IssueTracker(Protocol):
    def list_issues(self, labels: str, state: str = "open") -> list[dict[str, Any]]: ...
    def create_issue(self, title: str, body: str, labels: list[str]) -> dict[str, Any]: ...
    def close_issue(self, number: int, reason: str = "completed") -> dict[str, Any]: ...
    def update_issue(self, number: int, **fields: Any) -> dict[str, Any]: ...
    def list_comments(self, number: int) -> list[dict[str, Any]]: ...
    def create_comment(self, number: int, body: str) -> dict[str, Any]: ...
    def ensure_label(self, name: str, color: str, description: str) -> bool: ...


@dataclass
class Action:
    """What the notifier did (or, in a dry run, would do) about one issue."""

    kind: str  # opened | commented | closed | already-posted | closed-duplicate
    issue: int | None
    detail: str = ""
    url: str | None = None
    body: str | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "issue": self.issue, "detail": self.detail, "url": self.url}


def head_markers(body: str | None) -> str:
    """The hidden markers canary puts at the top of what it writes: the body's leading lines
    that are ``<!-- canary:... -->`` markers. A marker anywhere else is someone quoting it (a
    person pasting canary's issue into their own), which makes nothing canary's."""
    head = []
    for line in (body or "").lstrip("\ufeff").splitlines():
        if not (line.startswith("<!-- canary:") and line.rstrip().endswith("-->")):
            break
        head.append(line.rstrip())
    return "\n".join(head)


def _matching(issues: list[dict[str, Any]], fingerprint: str) -> list[dict[str, Any]]:
    """Canary's own issues for ``fingerprint``: the marker is the first line of the body, or (on an
    issue an earlier canary opened under an older fingerprint) among its head markers."""
    marker, also = fingerprint_marker(fingerprint), also_marker(fingerprint)
    return sorted(
        (
            i
            for i in issues
            if (i.get("body") or "").split("\n", 1)[0].rstrip() == marker
            or also in head_markers(i.get("body")).splitlines()
        ),
        key=lambda i: i["number"],
    )


def _mark_also(gh: IssueTracker, issue: dict[str, Any], fingerprint: str) -> None:
    """Put today's fingerprint under an issue's first marker (once): later runs find it directly."""
    body = issue.get("body") or ""
    if also_marker(fingerprint) in head_markers(body).splitlines():
        return
    first, _, rest = body.partition("\n")
    gh.update_issue(issue["number"], body=f"{first}\n{also_marker(fingerprint)}\n{rest}")


def older_names(fingerprint: str, facts: Facts, legacy: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The fingerprints ``fingerprint``'s failure had by earlier rules: its own record's, and
    those the history's runs of it were recorded with."""
    olds = [*legacy, *(old for fp, old in facts.aliases if fp == fingerprint)]
    return [f for f in dict.fromkeys(olds) if f != fingerprint]


def _issue_of(issues: list[dict[str, Any]], fingerprint: str, olds: list[str]) -> list[dict[str, Any]]:
    """The open issues of ``fingerprint``; when there is none, the oldest one an earlier canary
    opened for the same failure under an older fingerprint."""
    found = _matching(issues, fingerprint)
    if found or not olds:
        return found
    earlier = sorted((i for old in olds for i in _matching(issues, old)), key=lambda i: i["number"])
    return earlier[:1]


def _comment_once(gh: IssueTracker, issue: dict[str, Any], msg: Message, record: RunRecord) -> Action:
    n = issue["number"]
    if has_run_marker([head_markers(issue.get("body"))], record.run_id, record.lane) or has_run_marker(
        (head_markers(c.get("body")) for c in gh.list_comments(n)), record.run_id, record.lane
    ):
        return Action("already-posted", n, f"run {record.run_id} is already on #{n}", issue.get("html_url"))
    c = gh.create_comment(n, msg.body)
    return Action("commented", n, f"commented on #{n}", c.get("html_url") or issue.get("html_url"), msg.body)


def _close_as_duplicate(gh: IssueTracker, dup: dict[str, Any], keep: int, record: RunRecord) -> Action:
    n = dup["number"]
    if not any(duplicate_marker(keep) in head_markers(c.get("body")) for c in gh.list_comments(n)):
        gh.create_comment(n, duplicate_comment(keep, record.run_id, record.lane).body)
    gh.close_issue(n, "not_planned")
    return Action("closed-duplicate", n, f"closed #{n} as a duplicate of #{keep}", dup.get("html_url"))


def report_failure(
    gh: IssueTracker, record: RunRecord, facts: Facts, on_new: Callable[[Facts], Facts] | None = None
) -> list[Action]:
    """``on_new``: what a new issue adds to the facts (a bisect of its window), run only for one."""
    sig = signature_or_fallback(record)
    fingerprint = sig.fingerprint
    issues = gh.list_issues(LABEL)
    found = _issue_of(issues, fingerprint, older_names(fingerprint, facts, sig.legacy))
    if found:
        keep, extra = found[0], found[1:]
        actions = [_close_as_duplicate(gh, d, keep["number"], record) for d in extra]
        actions.append(_comment_once(gh, keep, recurrence_comment(record, facts), record))
        if issue_fingerprint(keep.get("body")) != fingerprint:
            _mark_also(gh, keep, fingerprint)
        return actions

    if on_new is not None:
        facts = on_new(facts)
    # Matched on the exact fingerprint only; an issue of the same group is named, not commented on.
    related = [i["number"] for i in issues if sig.group and group_marker(sig.group) in head_markers(i.get("body"))]
    # ... and the closest open issue is linked, never merged: "looks like #N"
    heads = ((i, head_markers(i.get("body"))) for i in issues)
    near = nearest_issue(heads, sig, facts.secrets) if record.signature else None
    msg = new_issue(record, facts, related=related, near=(near[0]["number"], near[1]) if near else None)
    for name in msg.labels:
        color, description = LABELS.get(name, ("ededed", ""))
        gh.ensure_label(name, color, description)
    created = gh.create_issue(msg.title or "", msg.body, list(msg.labels))
    actions = [Action("opened", created.get("number"), msg.title or "", created.get("html_url"), msg.body)]
    if near is not None:
        actions.append(_comment_once(gh, near[0], near_comment(record, created.get("number"), near[1]), record))

    # Another notifier may have opened the same signature's issue meanwhile: the lowest number wins.
    again = _matching(gh.list_issues(LABEL), fingerprint)
    if not again or again[0]["number"] == created.get("number") or created.get("number") is None:
        return actions
    keep = again[0]
    actions.append(_close_as_duplicate(gh, created, keep["number"], record))
    actions.append(_comment_once(gh, keep, recurrence_comment(record, facts), record))
    return actions


def report_recovery(gh: IssueTracker, record: RunRecord, facts: Facts, close: bool = False) -> list[Action]:
    if not facts.recovered:
        return []
    actions: list[Action] = []
    issues = gh.list_issues(LABEL)
    for fp in dict.fromkeys(facts.recovered):
        for issue in _issue_of(issues, fp, older_names(fp, facts))[:1]:
            closing = close and not still_failing_on(facts, fp)
            actions.append(_comment_once(gh, issue, recovery_comment(record, facts, closing, fp), record))
            if closing:
                gh.close_issue(issue["number"], "completed")
                actions.append(
                    Action("closed", issue["number"], f"closed #{issue['number']}: recovered", issue.get("html_url"))
                )
    return actions


def _performance_issues(gh: IssueTracker, record: RunRecord) -> list[dict[str, Any]]:
    marker = performance.issue_marker(record.lane, record.ferry)
    issues = gh.list_issues(performance.LABEL)
    return sorted(
        (i for i in issues if head_markers(i.get("body")).split("\n", 1)[0] == marker), key=lambda i: i["number"]
    )


def report_performance(gh: IssueTracker, record: RunRecord, facts: Facts) -> list[Action]:
    """The new steps of a passing run, on its lane's performance issue (opened for the first)."""
    if not facts.steps:
        return []
    found = _performance_issues(gh, record)
    if found:
        keep, extra = found[0], found[1:]
        actions = [_close_as_duplicate(gh, d, keep["number"], record) for d in extra]
        comments = gh.list_comments(keep["number"])
        told = performance.announced(head_markers(t.get("body")) for t in [keep, *comments])
        notes = performance.fresh(facts.steps, told)
        n = keep["number"]
        if not notes or has_run_marker(
            (head_markers(t.get("body")) for t in [keep, *comments]), record.run_id, record.lane
        ):
            return actions + [Action("already-posted", n, f"these steps are already on #{n}", keep.get("html_url"))]
        msg = performance.step_comment(record, facts, notes)
        c = gh.create_comment(n, msg.body)
        return actions + [
            Action("commented", n, f"commented on #{n}", c.get("html_url") or keep.get("html_url"), msg.body)
        ]
    msg = performance.new_issue(record, facts, facts.steps)
    gh.ensure_label(performance.LABEL, *performance.LABEL_STYLE)
    created = gh.create_issue(msg.title or "", msg.body, list(msg.labels))
    actions = [Action("opened", created.get("number"), msg.title or "", created.get("html_url"), msg.body)]
    again = _performance_issues(gh, record)  # another notifier may have opened it meanwhile: the lowest wins
    if again and created.get("number") is not None and again[0]["number"] != created.get("number"):
        actions.append(_close_as_duplicate(gh, created, again[0]["number"], record))
    return actions


def report(
    gh: IssueTracker,
    record: RunRecord,
    facts: Facts,
    close_on_recovery: bool = False,
    on_new: Callable[[Facts], Facts] | None = None,
) -> list[Action]:
    """Tell the tracker about one run: a failure, or the pass that ends a failure streak. A run
    stopped by a signal (verdict ``cancelled``) is neither, nor is an experiment (a ferry or gates
    file not the pinned one, :func:`canary.history.series.is_experiment`): nothing is said."""
    if record.verdict == "cancelled" or series.is_experiment(record):
        return []
    if record.verdict == "pass":
        return report_recovery(gh, record, facts, close_on_recovery) + report_performance(gh, record, facts)
    return report_failure(gh, record, facts, on_new)
