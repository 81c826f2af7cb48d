"""The words the notifier posts: a new issue, a recurrence comment, a recovery comment.

Pure functions of a :class:`~canary.record.RunRecord` and a few :class:`Facts` that history
supplies (streak, last pass, regression window). Every message carries hidden markers that make
posting exactly-once checkable by reading the issue back:

    <!-- canary:fingerprint=<fingerprint> -->     in the body of the issue for that signature
    <!-- canary:run=<run_id> lane=<lane> -->      in every issue body and comment canary posts

All text that came from outside (logs, messages, commit subjects) is redacted, fenced or
escaped, and cannot forge a marker (see :mod:`canary.notify.redact`).
"""

from __future__ import annotations

import hashlib
import re
import urllib.parse
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Sequence

from canary.history.queries import INFRA_ALERT_DAYS, VersionChange, WindowCommit, daily_ordinal
from canary.notify.redact import (DEFAULT_LIMIT, clean, escape_inline, fence, fit, neutralize_markers,
                                  neutralize_mentions, neutralize_refs, trim_lines)
from canary.notify.reproduce import repro_commands, trained_to_the_end
from canary.record import Attempt, RunRecord, Signature
from canary.textio import printable

TITLE_MAX = 120
# Bounds on the parts of a message that are not the excerpt, so that trimming the excerpt alone
# always brings a message under GitHub's limit.
MESSAGE_MAX = 4000
FRAMES_MAX = 40
FIELD_MAX = 300


@dataclass(frozen=True)
class LastPass:
    run_id: str
    date: str
    commit: str | None = None


@dataclass(frozen=True)
class StreakFacts:
    """The current run of failures on the lane (of this signature, for a failure), this run included."""

    runs: int
    days: int  # distinct calendar days with a failure
    consecutive_days: int  # of those, how many in a row up to the latest
    first_failure: str  # date of the streak's first failure
    first_run_id: str | None = None


@dataclass(frozen=True)
class Previous:
    """The latest earlier failure with this signature: what a recurrence is compared with."""

    run_id: str
    date: str
    lane: str = ""
    classification: str | None = None
    attempts: int = 0
    failed_attempts: int = 0
    lowered_cold: bool | None = None  # None: no cache facts recorded
    cache_errors: bool | None = None
    commit: str | None = None

    @classmethod
    def of(cls, record: RunRecord) -> "Previous":
        cold, errors = _cache_summary(record)
        return cls(record.run_id, run_date(record), record.lane, record.classification, len(record.attempts),
                   sum(1 for a in record.attempts if failed_attempt(a)), cold, errors, record.commit)


@dataclass(frozen=True)
class FirstBad:
    """What bisecting the regression window found (``canary bisect``), for a new issue."""

    sha: str | None  # None: not named (see note)
    subject: str = ""
    test: str = ""  # lower | run
    tested: int = 0
    skipped: int = 0
    seconds: float = 0.0
    exhausted: bool = False  # the budget ran out
    budget_s: float | None = None
    candidates: tuple[str, ...] = ()  # not named: the commits it is among
    note: str = ""  # why none was named

    def __post_init__(self):
        object.__setattr__(self, "candidates", tuple(self.candidates))


@dataclass(frozen=True)
class InfraFacts:
    """The lane's trailing runs that never trained (infrastructure failures), this run included."""

    runs: int
    days: int
    since: str  # date of the first of them
    alert: bool  # two days or more without a verdict: the canary has gone silent
    last_verdict: str | None = None  # date of the latest run that trained and was judged


@dataclass(frozen=True)
class Facts:
    """What a message says beyond the run record itself; all optional (unknown is said as such)."""

    lane_context: str = ""  # "GCP, TPU v6e-4, europe-west4"
    platform: str = ""  # the lane's platform (tpu, cuda, cpu): picks the lowering repro command
    streak: StreakFacts | None = None
    last_pass: LastPass | None = None
    window: tuple[WindowCommit, ...] | None = None  # None: not known (no history or no git)
    window_note: str = ""  # why the window is unknown, or a caveat
    recovered: tuple[str, ...] = ()  # on a pass: fingerprints of the failure streak it ends
    failure_streak: StreakFacts | None = None  # on a pass: the streak of failures it ends
    previous: Previous | None = None  # on a recurrence: the latest earlier failure with this signature
    failing_elsewhere: tuple[tuple[str, str], ...] = ()  # on a pass: (fingerprint, lane) still failing on other lanes
    versions: tuple[VersionChange, ...] | None = None  # version changes since the last pass (None: unknown)
    infra: InfraFacts | None = None  # on an infrastructure failure: how long the lane has had no verdict
    first_bad: FirstBad | None = None  # a new signature's window, bisected
    program: str = ""  # the run's lowered program against the last pass's ("same program as the last pass")
    steps: tuple = ()  # on a pass: the new steps in gated metrics (canary.notify.performance.StepNote)
    # (fingerprint, older): what the same failure was named by earlier rules; issues opened then carry it
    aliases: tuple[tuple[str, str], ...] = ()
    secrets: tuple[str, ...] = field(default=(), repr=False)  # exact strings never to post

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("secrets")
        d["steps"] = [n.to_dict() for n in self.steps]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Facts":
        d = dict(d)
        for key, kind in (("streak", StreakFacts), ("failure_streak", StreakFacts), ("last_pass", LastPass),
                          ("previous", Previous), ("infra", InfraFacts), ("first_bad", FirstBad)):
            d[key] = kind(**d[key]) if d.get(key) else None
        if d.get("window") is not None:
            d["window"] = tuple(WindowCommit(c["sha"], c["subject"], list(c.get("paths", [])), c.get("watched", False),
                                             list(c.get("watched_paths", []))) for c in d["window"])
        if d.get("versions") is not None:
            d["versions"] = tuple(VersionChange(v["name"], v.get("before"), v.get("after")) for v in d["versions"])
        from canary.notify.performance import StepNote

        d["steps"] = tuple(StepNote.from_dict(n) for n in d.get("steps") or ())
        d["recovered"] = tuple(d.get("recovered", ()))
        d["failing_elsewhere"] = tuple((fp, lane) for fp, lane in d.get("failing_elsewhere", ()))
        d["aliases"] = tuple((fp, old) for fp, old in d.get("aliases", ()))
        d.pop("secrets", None)
        return cls(**d)


@dataclass(frozen=True)
class Message:
    """An issue (title and body) or a comment (body only)."""

    body: str
    title: str | None = None
    labels: tuple[str, ...] = ()


# ----------------------------------------------------------------------------- markers

_FP_MARKER = re.compile(r"<!-- canary:fingerprint=([A-Za-z0-9_.:%+-]+) -->")
_MARKER_SAFE = "._:+-"


def marker_value(text: str) -> str:
    """A value as a marker holds it: anything but letters, digits and ``._:+-`` percent-encoded, so
    no lane, run id or fingerprint can end the comment or add a key."""
    return urllib.parse.quote(str(text), safe=_MARKER_SAFE)
_RUN_MARKER = re.compile(r"<!-- canary:run=(\S+) lane=(\S+) -->")


def fingerprint_marker(fingerprint: str) -> str:
    return f"<!-- canary:fingerprint={marker_value(fingerprint)} -->"


def group_marker(group: str) -> str:
    """The coarser key of a signature (error class and failing op): related failures share it."""
    return f"<!-- canary:group={marker_value(group)} -->"


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


# ----------------------------------------------------------------------------- small pieces

def code(text: str) -> str:
    """Inline code that ``text`` cannot close (nor forge a marker with, nor drive a terminal)."""
    text = neutralize_refs(neutralize_markers(neutralize_mentions(" ".join(printable(str(text)).split()))))
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    bar = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{bar}{pad}{text}{pad}{bar}"


def run_date(record: RunRecord) -> str:
    return (record.started_at or record.ended_at or "")[:10] or "unknown date"


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
                f"{g.get('name', '?')}" + (f" ({g['detail']})" if g.get("detail") else "") for g in failed)
        else:
            text = "canary failed"
    text = " ".join(text.split())
    return text if len(text) <= TITLE_MAX else text[: TITLE_MAX - 1] + "…"


def _attempt_fingerprint(a: Attempt) -> str | None:
    return a.signature.fingerprint if a.signature else None


def read_errors(cache: dict[str, Any] | None) -> list[str]:
    """The cache's "Error reading ... cache entry" warnings (a failed write does not make a cold lowering)."""
    errors = (cache or {}).get("errors") or []
    texts = [str(e.get("text", e)) if isinstance(e, dict) else str(e) for e in errors]
    return [t for t in texts if "writing" not in t.lower()]


def cold_reason(cache: dict[str, Any] | None) -> str | None:
    """Why an attempt lowered cold (cache bypassed, missed or unreadable), or None if it did not.
    Raises nothing on partial facts; unknown cache facts give None."""
    if not cache:
        return None
    reasons = []
    if cache.get("mode") == "cold":
        reasons.append("cache bypassed (--cold)")
    misses = cache.get("misses")
    if isinstance(misses, int) and misses > 0:
        reasons.append(f"{misses} cache miss{'es' if misses != 1 else ''}")
    errors = read_errors(cache)
    if errors:
        reasons.append(f"{len(errors)} cache read error{'s' if len(errors) != 1 else ''}")
    return ", ".join(reasons) or None


def failed_attempt(a: Attempt) -> bool:
    """An attempt that crashed, or that ran to the end and failed its gates (it has a signature)."""
    return a.outcome != "succeeded" or a.signature is not None


def determinism(record: RunRecord) -> str:
    n = len(record.attempts)
    fp = record.signature.fingerprint if record.signature else None
    same = sum(1 for a in record.attempts if failed_attempt(a) and fp and _attempt_fingerprint(a) == fp)
    failed = sum(1 for a in record.attempts if failed_attempt(a))
    cls = record.classification
    if n == 1 and failed == 1 and cls in ("unconfirmed", "deterministic", None):  # older records said deterministic
        return ("Unconfirmed: the run's only attempt failed with this signature; one attempt cannot show that it "
                "repeats.")
    if cls == "deterministic" or (cls is None and n > 0 and same == n):
        return f"Deterministic across attempts: all {n} attempts failed with this signature."
    if cls == "cache-masked":
        return ("Cache-masked: it failed only on attempts that lowered cold; attempts served from the "
                f"compilation cache passed ({failed} of {n} attempts failed).")
    if cls == "intermittent":
        return f"Intermittent: {failed} of {n} attempts failed ({same} with this signature)."
    if n == 0:
        return "No attempt information was recorded."
    return f"{failed} of {n} attempts failed ({same} with this signature)."


# ----------------------------------------------------------------------------- sections


def _signature_section(record: RunRecord, secrets: tuple[str, ...]) -> str:
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
            frames = frames[:5] + [f"... {len(frames) - FRAMES_MAX + 5} frames ..."] + frames[-(FRAMES_MAX - 5):]
        lines += ["Call path:", "", fence("\n-> ".join(frames))]
    if sig.message:
        lines += ["", "Message:", "", fence(trim_lines(clean(sig.message, secrets), MESSAGE_MAX))]
    return "\n".join(lines).rstrip()


def _attempts_section(record: RunRecord) -> str:
    lines = ["### Attempts", determinism(record)]
    if record.attempts:
        lines += ["", "| attempt | outcome | fingerprint | lowered cold |", "|---|---|---|---|"]
        for a in record.attempts:
            fp = _attempt_fingerprint(a)
            cold = cold_reason(a.cache)
            known = a.cache is not None
            outcome = "trained to the end, failed its gates" if trained_to_the_end(a) else a.outcome
            lines.append(f"| {escape_inline(a.number)} | {escape_inline(outcome)} | {code(fp) if fp else '—'} | "
                         f"{('yes: ' + cold) if cold else ('no' if known else 'unknown')} |")
    return "\n".join(lines)


def _cache_section(record: RunRecord, secrets: tuple[str, ...]) -> str:
    caches = [(a.number, a.cache) for a in record.attempts if a.cache is not None]
    if not caches and record.cache:
        caches = [(0, record.cache)]
    if not caches:
        return "### Compilation cache\nNo cache facts were recorded for this run."
    cold = [(n, cold_reason(c)) for n, c in caches if cold_reason(c)]
    errors = [(n, e) for n, c in caches for e in read_errors(c)]

    def who(n: int) -> str:
        return f"attempt {n}" if n else "the run"

    lines = ["### Compilation cache"]
    if cold:
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
        lines += ["", fence("\n".join(clean(t, secrets)[:FIELD_MAX * 2] for t in seen[:5]))]
    else:
        lines.append("- Cache read errors before lowering: none")
    return "\n".join(lines)


def streak_sentence(streak: StreakFacts | None, ever_passed: bool = True) -> str:
    if streak is None:
        return "Streak: unknown (no run history)."
    span = (f"failing since {escape_inline(streak.first_failure)}: {streak.runs} run{'s' if streak.runs != 1 else ''} on "
            f"{streak.days} day{'s' if streak.days != 1 else ''}")
    if streak.consecutive_days > 1:
        return f"This is the {daily_ordinal(streak.consecutive_days)} ({span})."
    if streak.runs > 1:
        return f"Failing {streak.runs} runs in a row ({span})."
    if ever_passed:
        return "First failure since the last pass."
    return "First failure; no passing full run of this ferry on this lane is recorded."


def series_note(record: RunRecord, facts: Facts) -> str:
    """Which history the streak and the last pass are read from: the run's series (its lane and
    its ferry; a second ferry on the lane is another series, and short runs are not counted)."""
    if facts.streak is None and facts.last_pass is None:
        return ""
    return (f" (Streak and last pass of the {escape_inline(record.lane)}/{escape_inline(record.ferry)} series: "
            f"full runs of ferry {escape_inline(record.ferry)} on lane {escape_inline(record.lane)}.)")


def _cache_summary(record: RunRecord) -> tuple[bool | None, bool | None]:
    """(lowered cold on any attempt, a cache read error on any attempt); None where unrecorded."""
    caches = [a.cache for a in record.attempts if a.cache is not None] or ([record.cache] if record.cache else [])
    if not caches:
        return None, None
    return any(cold_reason(c) for c in caches), any(read_errors(c) for c in caches)


def what_is_new(record: RunRecord, previous: Previous | None) -> str:
    """How this occurrence differs from the previous one of the same signature."""
    if previous is None:
        return ""
    now = Previous.of(record)
    changes = []
    if previous.lane and previous.lane != now.lane:
        changes.append(f"last seen on the {escape_inline(previous.lane)} lane, now on {escape_inline(now.lane)}")
    if previous.classification != now.classification and now.classification:
        changes.append(f"classification {escape_inline(previous.classification or 'unknown')} → "
                       f"{escape_inline(now.classification)}")
    if (previous.failed_attempts, previous.attempts) != (now.failed_attempts, now.attempts):
        changes.append(f"{now.failed_attempts} of {now.attempts} attempts failed "
                       f"(was {previous.failed_attempts} of {previous.attempts})")
    for label, before, after in (("lowered cold", previous.lowered_cold, now.lowered_cold),
                                 ("cache read errors", previous.cache_errors, now.cache_errors)):
        if before is not None and after is not None and before != after:
            changes.append(f"{label}: {'yes' if after else 'no'} (was {'yes' if before else 'no'})")
    if previous.commit and now.commit and previous.commit != now.commit:
        changes.append(f"commit {code(now.commit[:12])} (was {code(previous.commit[:12])})")
    since = f"run {code(previous.run_id)} ({escape_inline(previous.date)})"
    if not changes:
        return f"Nothing new since the previous occurrence, {since}: same commit, attempts and cache facts."
    return f"New since the previous occurrence, {since}: " + "; ".join(changes) + "."


def _window_section(facts: Facts) -> str:
    s = facts.secrets
    lines = ["### Regression window"]
    lp = facts.last_pass
    if lp is None:
        lines.append("No passing run on this lane is recorded, so there is no window to show.")
        return "\n".join(lines + ([escape_inline(clean(facts.window_note, s))] if facts.window_note else []))
    since = f"run {code(lp.run_id)} on {escape_inline(lp.date)}" + (f" at {code(lp.commit[:12])}" if lp.commit else "")
    if facts.window is None:
        lines.append(f"Last pass: {since}. The commits since are unknown"
                     + (f": {escape_inline(clean(facts.window_note, s))}" if facts.window_note else "."))
        return "\n".join(lines + _versions_lines(facts))
    watched = [c for c in facts.window if c.watched]
    rest = [c for c in facts.window if not c.watched]
    n = len(facts.window)
    lines.append(f"{n} commit{'s' if n != 1 else ''} since the last pass ({since}); "
                 + (f"{len(watched)} touch{'es' if len(watched) == 1 else ''} watched paths (listed first):"
                    if watched else "none touches watched paths" + (":" if n else ".")))
    if n == 0:
        lines.append("No commits: the code is unchanged since the last pass (look at the environment, the "
                     "dependencies and the compilation cache).")
    shown = watched + rest
    for c in shown[:50]:
        paths = ", ".join(code(clean(p, s)[:FIELD_MAX]) for p in c.paths[:5]) + (" …" if len(c.paths) > 5 else "")
        mark = "**watched** " if c.watched else ""
        lines.append(f"- {mark}{code(c.sha[:12])} {escape_inline(clean(c.subject, s)[:FIELD_MAX])}"
                     + (f" ({paths})" if paths else ""))
    if len(shown) > 50:
        lines.append(f"- … and {len(shown) - 50} more")
    if facts.window_note:
        lines.append(escape_inline(clean(facts.window_note, s)))
    return "\n".join(lines + _versions_lines(facts))


def short_version(name: str, value: str | None) -> str:
    if value is None:
        return "not installed"
    return value[:12] if name == "ferry" else value


def _versions_lines(facts: Facts) -> list[str]:
    """The version changes since the last pass, under the commits, and whether the lowered
    program is the last pass's."""
    program = ["", f"Lowered program: {escape_inline(facts.program)}."] if facts.program else []
    return _version_changes(facts) + program


def _version_changes(facts: Facts) -> list[str]:
    if facts.last_pass is None:
        return []
    if facts.versions is None:
        return ["", "Version changes since the last pass: unknown."]
    if not facts.versions:
        return ["", "Versions since the last pass: unchanged (jax, jaxlib, the accelerator plugin, optax, python, "
                    "the ferry's content)."]
    n = len(facts.versions)
    out = ["", f"{n} version change{'s' if n != 1 else ''} since the last pass:"]
    for v in facts.versions:
        what = "ferry content sha256" if v.name == "ferry" else v.name
        out.append(f"- {escape_inline(what)}: {code(short_version(v.name, v.before))} → "
                   f"{code(short_version(v.name, v.after))}")
    return out


def _first_bad_section(fb: FirstBad, secrets: tuple[str, ...]) -> str:
    how = (f"{code('canary bisect --test ' + str(fb.test))}: {fb.tested} revision{'s' if fb.tested != 1 else ''} tested, "
           f"{fb.skipped} skipped, {fb.seconds:.0f} s")
    if fb.sha:
        return (f"### First bad commit\nfirst bad commit: {escape_inline(fb.sha)} {escape_inline(clean(fb.subject, secrets)[:FIELD_MAX])}"
                f"\n\nFound by {how}.")
    among = ""
    if fb.candidates:
        shown = ", ".join(code(c[:12]) for c in fb.candidates[:20])
        among = f" It is one of {len(fb.candidates)}: {shown}" + (" …" if len(fb.candidates) > 20 else "") + "."
    if fb.exhausted:
        budget = (f"{fb.budget_s / 60:g}-minute " if fb.budget_s % 60 == 0 else f"{fb.budget_s:g}-second ") if fb.budget_s else ""
        return f"### First bad commit\nBisect ran out of its {budget}budget ({how}) before naming it.{among}"
    why = escape_inline(clean(fb.note, secrets)[:FIELD_MAX * 2]).rstrip(".") if fb.note else "no reason given"
    return f"### First bad commit\nBisect named none ({how}): {why}.{among}"


def _repro_section(record: RunRecord, facts: Facts) -> str:
    return "### How to reproduce\n" + fence("\n".join(repro_commands(record, facts)), "sh")


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


def _with_excerpt(parts_before: list[str], parts_after: list[str], excerpt: str, secrets: tuple[str, ...],
                  limit: int) -> str:
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
    if record.classification == "unconfirmed" or (len(record.attempts) == 1 and record.classification == "deterministic"):
        return ("Unconfirmed until it recurs: this run made one attempt, so the failure is not yet known to repeat; "
                "the next run that fails with this signature confirms it.")
    return ""


def _failure_body(record: RunRecord, facts: Facts, head: list[str], limit: int) -> str:
    """A failure's whole story under ``head``: everything but the excerpt is kept whole."""
    s = facts.secrets
    new = what_is_new(record, facts.previous)
    said = confirmation(record, facts)
    before = [
        "\n".join(head + ["", streak_sentence(facts.streak, facts.last_pass is not None) + series_note(record, facts)]
                  + (["", said] if said else []) + (["", new] if new else [])),
        _signature_section(record, s),
        _attempts_section(record),
        _cache_section(record, s),
        _window_section(facts),
        *([_first_bad_section(facts.first_bad, s)] if facts.first_bad else []),
        _repro_section(record, facts),
    ]
    return _with_excerpt(before, [context_block(record, facts, s)], _excerpt_text(record), s, limit)


# ----------------------------------------------------------------------------- messages


def issue_title(record: RunRecord, secrets: tuple[str, ...] = ()) -> str:
    return " ".join(clean(f"[canary-{record.lane}] {summary_line(record)}", secrets).split())


INFRA_LABEL = "canary-infra"


def is_infrastructure(record: RunRecord) -> bool:
    """A run that never trained (no capacity, lost, stopped): posted under ``canary-infra``, apart
    from code regressions."""
    return record.classification == "infrastructure"


def labels_for(record: RunRecord) -> tuple[str, ...]:
    return ("canary", INFRA_LABEL) if is_infrastructure(record) else ("canary", "bug")


def silence_lines(facts: Facts) -> list[str]:
    """On an infrastructure failure, how long the lane has had no verdict; loud from two days on."""
    i = facts.infra
    if i is None:
        return []
    runs = f"{i.runs} run{'s' if i.runs != 1 else ''}"
    last = f"the last run that trained was on {escape_inline(i.last_verdict)}" if i.last_verdict else "no run has trained yet"
    if i.alert:
        return ["", f"**No verdict for {i.days} days**: all {runs} of this lane since {escape_inline(i.since)} failed before "
                    f"training; {last}. The canary is silent, not passing: the lane needs attention."]
    return ["", f"No verdict since {escape_inline(i.since)} ({runs}); {last}. After {INFRA_ALERT_DAYS} days without one this becomes an alert."]


def _head(record: RunRecord, facts: Facts, failed: str) -> list[str]:
    if is_infrastructure(record):
        return [f"**The {which_canary(record)} could not run ({escape_inline(run_date(record))})**: an "
                "infrastructure failure (it never trained), not a code regression."] + silence_lines(facts)
    return [failed]


def new_issue(record: RunRecord, facts: Facts, limit: int = DEFAULT_LIMIT, related: Sequence[int] = ()) -> Message:
    """The issue for a signature seen for the first time; ``related`` are the open issues whose
    signature shares its group (error class and failing op)."""
    sig = signature_or_fallback(record)
    head = [fingerprint_marker(sig.fingerprint)] + ([group_marker(sig.group)] if sig.group else []) + [
        run_marker(record.run_id, record.lane),
        *_head(record, facts, f"**The {which_canary(record)} failed ({escape_inline(run_date(record))})** with a "
                              f"failure signature not seen in any open canary issue (ferry {code(record.ferry)} "
                              f"v{escape_inline(record.ferry_version)})."),
    ]
    if related:
        refs = ", ".join(f"#{n}" for n in sorted(related))
        head.append(f"It shares its group (the same error class and failing op, another signature) with open "
                    f"{'issue' if len(related) == 1 else 'issues'} {refs}: perhaps one cause.")
    body = _failure_body(record, facts, head, limit)
    return Message(body=body, title=issue_title(record, facts.secrets), labels=labels_for(record))


def recurrence_comment(record: RunRecord, facts: Facts, limit: int = DEFAULT_LIMIT) -> Message:
    """The comment on the open issue of a signature that failed again."""
    return Message(body=_failure_body(record, facts, [
        run_marker(record.run_id, record.lane),
        *_head(record, facts, f"**Recurred on the {which_canary(record)} ({escape_inline(run_date(record))})**: "
                              "same signature and call path."),
    ], limit))


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
        lines += ["", f"The failure streak it ends began on {escape_inline(fs.first_failure)} and lasted {fs.runs} "
                      f"run{'s' if fs.runs != 1 else ''} over {fs.days} day{'s' if fs.days != 1 else ''}."]
    elsewhere = still_failing_on(facts, fingerprint)
    if elsewhere:
        lines += ["", f"Still failing on the {', '.join(escape_inline(e) for e in elsewhere)} lane{'s' if len(elsewhere) > 1 else ''}: "
                      "this issue stays open."]
    elif closing:
        lines += ["", "Closing this issue: the canary passes again. A recurrence opens a new issue."]
    lines += ["", context_block(record, facts, facts.secrets)]
    return Message(body="\n".join(lines) + "\n")


def duplicate_comment(keep: int, run_id: str, lane: str) -> Message:
    return Message(body="\n".join([
        run_marker(run_id, lane),
        duplicate_marker(keep),
        f"Duplicate of #{keep}: two notifiers opened an issue for the same failure signature at the same "
        f"time; #{keep} (the lower number) is kept.",
    ]) + "\n")


def fallback_fingerprint(record: RunRecord) -> str:
    """A record without a signature still needs one stable key: its kind of failure, by lane."""
    text = summary_line(record)
    return "unsigned-" + hashlib.sha256(f"{record.lane}\n{text}".encode()).hexdigest()[:12]


def signature_or_fallback(record: RunRecord) -> Signature:
    if record.signature is not None:
        return record.signature
    return Signature(fingerprint=fallback_fingerprint(record), kind="unknown", message=summary_line(record))
