"""The words of a lane's "performance" issue: a step in a gated metric, said once.

One issue per lane and ferry, under its own label (``canary-performance``), never a failure
issue: a run that passed every gate can still start a step (3% slower, a week later 6%). Each
post names the step's run, the commits between the run before it and its own (those on watched
paths first), the version changes there, and whether the lowered program changed. Markers:

    <!-- canary:performance=<lane>/<ferry> -->   the first line of the issue's body
    <!-- canary:run=<run_id> lane=<lane> -->      every post (a run is told once)
    <!-- canary:step=<metric>@<run_id> -->        every step a post announces

A step already announced at its run or a neighbour (a later analysis may place it a run
earlier or later) is not announced again. Pure, like :mod:`canary.notify.compose`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from canary.history.changes import METRICS, Step
from canary.notify.markers import run_marker
from canary.notify.model import Facts, Message, StepNote, run_date
from canary.notify.sections import context_block
from canary.notify.timeline import short_version
from canary.record import RunRecord
from canary.text.markdown import FIELD_MAX, clean, code, escape_inline

LABEL = "canary-performance"
LABEL_STYLE = ("5319e7", "A step in a lane's throughput, compile time, memory or loss across passing runs")
_STEP_MARKER = re.compile(r"<!-- canary:step=([A-Za-z0-9_]+)@(\S+) -->")


def issue_marker(lane: str, ferry: str) -> str:
    return f"<!-- canary:performance={lane}/{ferry} -->"


def step_marker(step: Step) -> str:
    return f"<!-- canary:step={step.metric}@{step.run_id} -->"


def announced(texts: Iterable[str | None]) -> set[tuple[str, str]]:
    """(metric, run id) of every step the texts (an issue's body and comments) announced."""
    return {(m, rid) for t in texts for m, rid in _STEP_MARKER.findall(t or "")}


def fresh(notes: Sequence[StepNote], told: set[tuple[str, str]]) -> list[StepNote]:
    """The notes whose step (at its run or a run beside it) was not announced yet."""
    return [n for n in notes if not any((n.step.metric, rid) in told for rid in (n.step.run_id, *n.nearby))]


def _value(metric: str, v: float) -> str:
    m = METRICS[metric]
    if metric == "peak_memory":
        return f"{v / 2**30:.2f} GiB"
    if metric == "final_loss":
        return f"{v:.4f}"
    return f"{v:,.0f} {m.unit}" if abs(v) >= 100 else f"{v:.3g} {m.unit}"


def _step_section(n: StepNote, secrets: tuple[str, ...]) -> str:
    s = n.step
    m = METRICS[s.metric]
    verb = "rose" if s.change > 0 else "fell"
    lines = [
        f"### {m.label}: {s.change:+.1%} from run {code(s.run_id)} ({run_date_of(s)})",
        f"**{m.label}** {verb} {abs(s.change):.1%}, {'worse' if s.worse else 'better'}: from "
        f"{_value(s.metric, s.before)} to {_value(s.metric, s.after)} (the medians of the passing runs before and "
        f"after), p = {s.pvalue:.3g} (E-divisive means, permutation test). No gate failed: each run is judged "
        "alone, within a tolerance a single noisy run needs.",
        "",
    ]
    since = f"the run before it, {code(s.previous_run)}" + (
        f" at {code(s.previous_commit[:12])}" if s.previous_commit else ""
    )
    at = f"{code(s.run_id)}" + (f" at {code(s.commit[:12])}" if s.commit else "")
    if n.window is None:
        lines.append(
            f"Between {since} and {at}, the commits are unknown"
            + (f": {escape_inline(clean(n.note, secrets))}" if n.note else ".")
        )
    else:
        watched = [c for c in n.window if c.watched]
        k = len(n.window)
        lines.append(
            f"{k} commit{'s' if k != 1 else ''} between {since} and {at}"
            + (
                f"; {len(watched)} on watched paths (listed first):"
                if watched
                else ("; none on watched paths:" if k else ": the code did not change.")
            )
        )
        for c in (watched + [c for c in n.window if not c.watched])[:30]:
            lines.append(
                f"- {'**watched** ' if c.watched else ''}{code(c.sha[:12])} "
                f"{escape_inline(clean(c.subject, secrets)[:FIELD_MAX])}"
            )
    if s.versions:
        lines += ["", "Version changes at the step:"]
        lines += [
            f"- {escape_inline(v.name)}: {code(short_version(v.name, v.before))} → "
            f"{code(short_version(v.name, v.after))}"
            for v in s.versions
        ]
    else:
        lines += ["", "Versions at the step: unchanged."]
    return "\n".join(lines)


def run_date_of(s: Step) -> str:
    return (s.started_at or "")[:10] or "unknown date"


def _body(record: RunRecord, facts: Facts, notes: Sequence[StepNote], head: list[str]) -> str:
    parts = ["\n".join(head + [run_marker(record.run_id, record.lane)] + [step_marker(n.step) for n in notes])]
    k = len(notes)
    parts.append(
        f"**{'A step' if k == 1 else f'{k} steps'} in the {record.lane} canary's passing runs** (ferry "
        f"{code(record.ferry)}), found after its run {code(record.run_id)} ({run_date(record)}), which "
        "passed; "
        f"every step is in `canary history --changes --lane {record.lane}`."
    )
    parts += [_step_section(n, facts.secrets) for n in notes]
    if facts.program:
        parts.append(f"Lowered program of run {code(record.run_id)}: {escape_inline(facts.program)}.")
    parts.append(context_block(record, facts, facts.secrets))
    return "\n\n".join(parts) + "\n"


def issue_title(record: RunRecord) -> str:
    return f"[canary-{record.lane}] performance: steps in the {record.ferry} ferry's passing runs"


def new_issue(record: RunRecord, facts: Facts, notes: Sequence[StepNote]) -> Message:
    head = [issue_marker(record.lane, record.ferry)]
    return Message(_body(record, facts, notes, head), issue_title(record), (LABEL,))


def step_comment(record: RunRecord, facts: Facts, notes: Sequence[StepNote]) -> Message:
    return Message(_body(record, facts, notes, []))
