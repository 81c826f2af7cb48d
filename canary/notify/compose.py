"""The words the notifier posts: a new issue, a recurrence comment, a recovery comment, a
duplicate's closing comment.

Pure functions of a :class:`~canary.record.RunRecord` and the :class:`~canary.notify.model.Facts`
that history supplies (streak, last pass, regression window). Every message carries the hidden
markers of :mod:`canary.notify.markers`; its parts are :mod:`canary.notify.sections` and
:mod:`canary.notify.timeline`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from canary.history.queries import INFRA_ALERT_DAYS
from canary.notify.markers import duplicate_marker, fingerprint_marker, group_marker, identity_marker, run_marker
from canary.notify.model import Facts, Message, run_date
from canary.notify.near import identity_of, looks_like
from canary.notify.sections import context_block, failure_body, summary_line, which_canary
from canary.record import RunRecord, Signature, poisoned_entry
from canary.text.markdown import DEFAULT_LIMIT, clean, code, escape_inline


def issue_title(record: RunRecord, secrets: tuple[str, ...] = ()) -> str:
    return " ".join(clean(f"[canary-{record.lane}] {summary_line(record)}", secrets).split())


INFRA_LABEL = "canary-infra"


def is_infrastructure(record: RunRecord) -> bool:
    """A run that never trained (no capacity, lost, stopped): posted under ``canary-infra``, apart
    from code regressions."""
    return record.classification == "infrastructure"


CACHE_LABEL = "canary-cache"


def labels_for(record: RunRecord) -> tuple[str, ...]:
    if record.classification == "cache-poisoned":
        return ("canary", CACHE_LABEL)
    return ("canary", INFRA_LABEL) if is_infrastructure(record) else ("canary", "bug")


def poisoned_head(record: RunRecord) -> str:
    """A run ``--cache verify`` stopped: which entry, and that the code is not at fault."""
    entry = poisoned_entry(record.cache) or "(not recorded: see the signature)"
    return (
        f"**The {which_canary(record)} met a poisoned compilation cache entry ({escape_inline(run_date(record))})**: "
        f"{code(entry)} does not match a fresh compile of the same program under the same key (checked with "
        "`--cache verify`, JAX's `jax_compilation_cache_check_contents`; signature kind `cache_poisoned`). A "
        "poisoned or stale cache entry, not a code regression: delete that entry (or run `--cold`) and rerun."
    )


def silence_lines(facts: Facts) -> list[str]:
    """On an infrastructure failure, how long the lane has had no verdict; loud from two days on."""
    i = facts.infra
    if i is None:
        return []
    runs = f"{i.runs} run{'s' if i.runs != 1 else ''}"
    last = (
        f"the last run that trained was on {escape_inline(i.last_verdict)}"
        if i.last_verdict
        else "no run has trained yet"
    )
    if i.alert:
        return [
            "",
            f"**No verdict for {i.days} days**: all {runs} of this lane since {escape_inline(i.since)} failed before "
            f"training; {last}. The canary is silent, not passing: the lane needs attention.",
        ]
    return [
        "",
        f"No verdict since {escape_inline(i.since)} ({runs}); {last}. "
        f"After {INFRA_ALERT_DAYS} days without one this becomes an alert.",
    ]


def _head(record: RunRecord, facts: Facts, failed: str) -> list[str]:
    if record.classification == "cache-poisoned":
        return [poisoned_head(record)]
    if is_infrastructure(record) and record.signature is not None and record.signature.kind == "environment":
        return [
            f"**The {which_canary(record)} ran on a mismatched environment ({escape_inline(run_date(record))})**: "
            "its toolchain, libraries or accelerator are not what the program was built for (signature kind "
            "`environment`): an infrastructure failure, not a code regression."
        ] + silence_lines(facts)
    if is_infrastructure(record):
        return [
            f"**The {which_canary(record)} could not run ({escape_inline(run_date(record))})**: an "
            "infrastructure failure (it never trained), not a code regression."
        ] + silence_lines(facts)
    return [failed]


def new_issue(
    record: RunRecord,
    facts: Facts,
    limit: int = DEFAULT_LIMIT,
    related: Sequence[int] = (),
    near: tuple[int, float] | None = None,
) -> Message:
    """The issue for a signature seen for the first time; ``related`` are the open issues whose
    signature shares its group (error class and failing op); ``near``, the open issue whose
    signature is closest to it, and how close (:mod:`canary.notify.near`)."""
    sig = signature_or_fallback(record)
    head = (
        [fingerprint_marker(sig.fingerprint)]
        + ([group_marker(sig.group)] if sig.group else [])
        + ([identity_marker(identity_of(sig, facts.secrets))] if record.signature is not None else [])
        + [
            run_marker(record.run_id, record.lane),
            *_head(
                record,
                facts,
                f"**The {which_canary(record)} failed ({escape_inline(run_date(record))})** with a "
                f"failure signature not seen in any open canary issue (ferry {code(record.ferry)} "
                f"v{escape_inline(record.ferry_version)}).",
            ),
        ]
    )
    if related:
        refs = ", ".join(f"#{n}" for n in sorted(related))
        head.append(
            f"It shares its group (the same error class and failing op, another signature) with open "
            f"{'issue' if len(related) == 1 else 'issues'} {refs}: perhaps one cause."
        )
    if near is not None:
        head.append(looks_like(*near))
    body = failure_body(record, facts, head, limit, new_issue=True)
    return Message(body=body, title=issue_title(record, facts.secrets), labels=labels_for(record))


def recurrence_comment(record: RunRecord, facts: Facts, limit: int = DEFAULT_LIMIT) -> Message:
    """The comment on the open issue of a signature that failed again."""
    return Message(
        body=failure_body(
            record,
            facts,
            [
                run_marker(record.run_id, record.lane),
                *_head(
                    record,
                    facts,
                    f"**Recurred on the {which_canary(record)} ({escape_inline(run_date(record))})**: "
                    "same signature and call path.",
                ),
            ],
            limit,
        )
    )


def still_failing_on(facts: Facts, fingerprint: str) -> list[str]:
    """The other lanes where a recovered signature still fails."""
    return sorted({lane for fp, lane in facts.failing_elsewhere if fp == fingerprint})


def recovery_comment(record: RunRecord, facts: Facts, closing: bool = False, fingerprint: str = "") -> Message:
    """The one comment on an issue whose signature stopped failing on the lane."""
    facts_line = []
    if record.steps_completed is not None:
        facts_line.append(f"{record.steps_completed} steps")
    if record.final_loss is not None:
        facts_line.append(f"final loss {record.final_loss:.4f}")
    if record.commit:
        facts_line.append(f"commit {code(record.commit[:12])}")
    lines = [
        run_marker(record.run_id, record.lane),
        f"**Recovered on the {which_canary(record)} ({escape_inline(run_date(record))})**: run "
        f"{code(record.run_id)} passed" + (f" ({', '.join(facts_line)})" if facts_line else "") + ".",
    ]
    fs = facts.failure_streak
    if fs is not None:
        lines += [
            "",
            f"The failure streak it ends began on {escape_inline(fs.first_failure)} and lasted {fs.runs} "
            f"run{'s' if fs.runs != 1 else ''} over {fs.days} day{'s' if fs.days != 1 else ''}.",
        ]
    elsewhere = still_failing_on(facts, fingerprint)
    if elsewhere:
        lines += [
            "",
            f"Still failing on the {', '.join(escape_inline(e) for e in elsewhere)} "
            f"lane{'s' if len(elsewhere) > 1 else ''}: "
            "this issue stays open.",
        ]
    elif closing:
        lines += ["", "Closing this issue: the canary passes again. A recurrence opens a new issue."]
    lines += ["", context_block(record, facts, facts.secrets)]
    return Message(body="\n".join(lines) + "\n")


def duplicate_comment(keep: int, run_id: str, lane: str) -> Message:
    return Message(
        body="\n".join(
            [
                run_marker(run_id, lane),
                duplicate_marker(keep),
                f"Duplicate of #{keep}: two notifiers opened an issue for the same failure signature at the same "
                f"time; #{keep} (the lower number) is kept.",
            ]
        )
        + "\n"
    )


def fallback_fingerprint(record: RunRecord) -> str:
    """A record without a signature still needs one stable key: its kind of failure, by lane."""
    text = summary_line(record)
    return "unsigned-" + hashlib.sha256(f"{record.lane}\n{text}".encode()).hexdigest()[:12]


def signature_or_fallback(record: RunRecord) -> Signature:
    if record.signature is not None:
        return record.signature
    return Signature(fingerprint=fallback_fingerprint(record), kind="unknown", message=summary_line(record))
