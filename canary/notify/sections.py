"""The parts of a failure message (the new issue, the recurrence comment): the summary line, the
signature, the attempts, the compilation cache, the repro commands, the run's context and the log
excerpt, with where the failure stands in time (:mod:`canary.notify.timeline`). Pure functions of a
:class:`~canary.record.RunRecord` and its :class:`~canary.notify.model.Facts`; all text that came
from outside is redacted, fenced or escaped (:mod:`canary.text.redact`).
"""

from __future__ import annotations

from canary.notify.model import Facts, run_date
from canary.notify.reproduce import repro_commands, trained_to_the_end
from canary.notify.timeline import first_bad_section, series_note, streak_sentence, what_is_new, window_section
from canary.record import RunRecord, cache_read_errors, cold_in_part, cold_reason
from canary.text.markdown import FIELD_MAX, clean, code, escape_inline, fence, fit, trim_lines

TITLE_MAX = 120
# Bounds on the parts of a message that are not the excerpt, so that trimming the excerpt alone
# always brings a message under GitHub's limit.
MESSAGE_MAX = 4000
FRAMES_MAX = 40


def trigger(record: RunRecord) -> str:
    """How the run was started: ``scheduled`` (a ``schedule`` event), ``manual`` (a dispatch), the
    name of another Actions event, or ``""`` outside Actions."""
    ctx = record.context or {}
    event = ctx.get("event") or (ctx.get("ci") or {}).get("event_name")
    return {"schedule": "scheduled", "workflow_dispatch": "manual"}.get(event, escape_inline(event or ""))


def which_canary(record: RunRecord) -> str:
    """The canary a message speaks of: "scheduled tpu canary", or "tpu canary run by hand on HOST"."""
    how = trigger(record)
    lane = escape_inline(record.lane)
    if how:
        return f"{how} {lane} canary"
    if (record.context or {}).get("ci"):
        return f"{lane} canary run by GitHub Actions"  # an event it did not record
    host = (record.context or {}).get("host")
    return f"{lane} canary run by hand on {escape_inline(host) if host else 'an unrecorded host'}"


def summary_line(record: RunRecord) -> str:
    """One line that names the failure: the issue title's text."""
    sig = record.signature
    if sig is not None:
        first = next((ln.strip() for ln in (sig.message or "").splitlines() if ln.strip()), "")
        head = sig.exception or sig.kind.replace("_", " ")
        text = f"{head}: {first}" if first else head
    else:
        failed = [g for g in record.gates if g.get("status") == "FAIL"]
        if record.error:
            last = [ln.strip() for ln in record.error.splitlines() if ln.strip()]
            text = last[-1] if last else "training failed"
        elif failed:
            text = "gate failed: " + "; ".join(
                f"{g.get('name', '?')}" + (f" ({g['detail']})" if g.get("detail") else "") for g in failed
            )
        else:
            text = "canary failed"
    text = " ".join(text.split())
    return text if len(text) <= TITLE_MAX else text[: TITLE_MAX - 1] + "…"


def determinism(record: RunRecord) -> str:
    n = len(record.attempts)
    fp = record.signature.fingerprint if record.signature else None
    same = sum(1 for a in record.attempts if a.failed and fp and a.fingerprint == fp)
    failed = sum(1 for a in record.attempts if a.failed)
    cls = record.classification
    if n == 1 and failed == 1 and cls in ("unconfirmed", None):
        return (
            "Unconfirmed: the run's only attempt failed with this signature; one attempt cannot show that it repeats."
        )
    if cls == "deterministic" or (cls is None and n > 0 and same == n):
        return f"Deterministic across attempts: all {n} attempts failed with this signature."
    if cls == "cache-masked":
        return (
            "Cache-masked: it failed only on attempts that lowered cold; attempts served from the "
            f"compilation cache passed ({failed} of {n} attempts failed)."
        )
    if cls == "cache-poisoned":
        return f"Cache-poisoned: {failed} of {n} attempts stopped on a cache entry that differs from a fresh compile."
    if cls == "intermittent":
        return f"Intermittent: {failed} of {n} attempts failed ({same} with this signature)."
    if n == 0:
        return "No attempt information was recorded."
    return f"{failed} of {n} attempts failed ({same} with this signature)."


# ----------------------------------------------------------------------------- sections


def signature_section(record: RunRecord, secrets: tuple[str, ...]) -> str:
    sig = record.signature
    if sig is None:
        return "### Signature\nNo failure signature was recorded for this run."
    lines = [
        "### Signature",
        f"- Fingerprint: {code(sig.fingerprint)} ({code(sig.kind)})",
    ]
    if sig.exception:
        lines.append(f"- Exception: {code(clean(sig.exception, secrets)[:FIELD_MAX])}")
    if sig.frames:
        lines.append("")
        frames = [clean(f, secrets)[:FIELD_MAX] for f in sig.frames]
        if len(frames) > FRAMES_MAX:
            frames = frames[:5] + [f"... {len(frames) - FRAMES_MAX + 5} frames ..."] + frames[-(FRAMES_MAX - 5) :]
        lines += ["Call path:", "", fence("\n-> ".join(frames))]
    if sig.message:
        lines += ["", "Message:", "", fence(trim_lines(clean(sig.message, secrets), MESSAGE_MAX))]
    return "\n".join(lines).rstrip()


def gates_section(record: RunRecord) -> str:
    """The run's gates as `canary run` tables them: value, threshold, margin and status."""
    from canary.judge.results import fmt, gate_value

    if not record.gates:
        return ""
    lines = ["### Gates", "", "| gate | value | threshold | margin | status |", "|---|---|---|---|---|"]
    for g in record.gates:
        margin = g.get("margin")
        cells = [
            gate_value(g),
            fmt(g.get("threshold")),
            "" if margin is None else f"{margin:+.1%}",
            g.get("status", "?"),
        ]
        lines.append(f"| {code(str(g.get('name', '?')))} | " + " | ".join(escape_inline(c) for c in cells) + " |")
    return "\n".join(lines)


def attempts_section(record: RunRecord) -> str:
    lines = ["### Attempts", determinism(record)]
    if record.attempts:
        lines += ["", "| attempt | outcome | fingerprint | lowered cold |", "|---|---|---|---|"]
        for a in record.attempts:
            fp = a.fingerprint
            cold = a.cold_reason()
            known = a.cache is not None
            outcome = "trained to the end, failed its gates" if trained_to_the_end(a) else a.outcome
            lines.append(
                f"| {escape_inline(a.number)} | {escape_inline(outcome)} | {code(fp) if fp else '—'} | "
                f"{('yes: ' + cold) if cold else ('no' if known else 'unknown')} |"
            )
    return "\n".join(lines)


def cache_section(record: RunRecord, secrets: tuple[str, ...]) -> str:
    caches = [(a.number, a.cache) for a in record.attempts if a.cache is not None]
    if not caches and record.cache:
        caches = [(0, record.cache)]
    if not caches:
        return "### Compilation cache\nNo cache facts were recorded for this run."
    cold = [(n, cold_reason(c)) for n, c in caches if cold_reason(c)]
    errors = [(n, e) for n, c in caches for e in cache_read_errors(c)]

    def who(n: int) -> str:
        return f"attempt {n}" if n else "the run"

    lines = ["### Compilation cache"]
    in_part = cold and all(cold_in_part(c) for _, c in caches if cold_reason(c))
    if in_part:  # most programs were read from the cache: a few compiled afresh is no cold lowering
        lines.append(
            "- Lowered cold: in part (" + "; ".join(f"{who(n)}: {r}" for n, r in cold) + "): most programs were "
            "read from the cache, so this is not a cold lowering of the train step"
        )
    elif cold:
        lines.append("- Lowered cold: yes (" + "; ".join(f"{who(n)}: {r}" for n, r in cold) + ")")
    else:
        lines.append("- Lowered cold: no (every attempt was served from the compilation cache)")
    if errors:
        on = sorted({n for n, _ in errors})
        lines.append("- Cache read errors before lowering: yes, on " + ", ".join(who(n) for n in on) + ":")
        seen: list[str] = []
        for _, text in errors:
            if text not in seen:
                seen.append(text)
        lines += ["", fence("\n".join(clean(t, secrets)[: FIELD_MAX * 2] for t in seen[:5]))]
    else:
        lines.append("- Cache read errors before lowering: none")
    return "\n".join(lines)


def _repro_section(record: RunRecord, facts: Facts) -> str:
    return "### How to reproduce\n" + fence("\n".join(repro_commands(record, facts)), "sh")


def reproducer_section(record: RunRecord, secrets: tuple[str, ...] = ()) -> str:
    """A preflight's ``repro.py`` (:mod:`canary.run.reproducer`) in a collapsed block, saying
    whether it reproduced the failure when canary ran it; empty when the run wrote none."""
    repro = (record.context or {}).get("repro")
    if not isinstance(repro, dict) or not repro.get("script"):
        return ""
    said = escape_inline(clean(str(repro.get("detail") or ""), secrets))
    return (
        f"<details><summary>repro.py: {'reproduced' if repro.get('reproduced') else 'not reproduced'} "
        f"when canary ran it ({said})</summary>\n\n"
        + fence(clean(repro["script"], secrets), "python")
        + "\n\n</details>"
    )


def context_block(record: RunRecord, facts: Facts, secrets: tuple[str, ...] = ()) -> str:
    """The run context block, in the form the team's on-call people already read."""
    ctx = record.context or {}
    job = ctx.get("job_id") or next((a.job_id for a in reversed(record.attempts) if a.job_id), None)
    lane = record.lane + (f" ({facts.lane_context})" if facts.lane_context else "")
    lines = [
        f"Lane: {lane}",
        f"Job: {job or 'n/a'}",
        f"GHA run: {ctx.get('ci_run_url') or 'n/a'}",
        f"W&B run: {ctx.get('wandb_url') or 'n/a'}",
        f"Date: {run_date(record)}",
    ]
    return "### Canary run context\n" + fence(clean("\n".join(lines), secrets))


def _excerpt_text(record: RunRecord) -> str:
    if record.signature and record.signature.excerpt:
        return record.signature.excerpt
    if record.error:
        return record.error
    return next((a.error for a in reversed(record.attempts) if a.error), "") or ""


def _with_excerpt(
    parts_before: list[str], parts_after: list[str], excerpt: str, secrets: tuple[str, ...], limit: int
) -> str:
    excerpt = clean(excerpt, secrets)

    def render(text: str) -> str:
        mid = ["### Log excerpt\n" + fence(text)] if text.strip() else []
        return "\n\n".join(parts_before + mid + parts_after) + "\n"

    return fit(render, excerpt, limit)


def confirmation(record: RunRecord, facts: Facts) -> str:
    """Whether the failure is confirmed: its lane's last two runs failed with this signature. A run
    that made one attempt alone is unconfirmed until the next one fails the same way."""
    if facts.streak is not None and facts.streak.runs >= 2:
        return "Confirmed: the last two runs on this lane failed with this signature."
    if record.classification == "unconfirmed":
        return (
            "Unconfirmed until it recurs: this run made one attempt, so the failure is not yet known to repeat; "
            "the next run that fails with this signature confirms it."
        )
    return ""


def failure_body(record: RunRecord, facts: Facts, head: list[str], limit: int, new_issue: bool = False) -> str:
    """A failure's whole story under ``head``: everything but the excerpt is kept whole; a new
    issue's carries the run's reproducer, when it wrote one."""
    s = facts.secrets
    new = what_is_new(record, facts.previous)
    confirmed = confirmation(record, facts)
    before = [
        "\n".join(
            head
            + ["", streak_sentence(facts.streak, facts.last_pass is not None) + series_note(record, facts)]
            + (["", confirmed] if confirmed else [])
            + (["", new] if new else [])
        ),
        signature_section(record, s),
        *([gates_section(record)] if record.gates else []),
        attempts_section(record),
        cache_section(record, s),
        window_section(facts),
        *([first_bad_section(facts.first_bad, s)] if facts.first_bad else []),
        _repro_section(record, facts),
    ]
    attached = reproducer_section(record, s) if new_issue else ""
    before += [attached] if attached else []
    return _with_excerpt(before, [context_block(record, facts, s)], _excerpt_text(record), s, limit)
