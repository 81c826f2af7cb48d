"""Where a failure stands in time, as parts of its message: the streak, what is new since the
previous occurrence, the regression window (the commits since the last pass, the version changes,
whether the lowered program is the last pass's) and the first bad commit a bisect named. Pure
functions of a :class:`~canary.record.RunRecord` and its :class:`~canary.notify.model.Facts`; all
text that came from outside is redacted, fenced or escaped (:mod:`canary.text.markdown`).
"""

from __future__ import annotations

from canary.history.queries import daily_ordinal
from canary.notify.model import Facts, FirstBad, Previous, StreakFacts
from canary.record import RunRecord
from canary.text.markdown import FIELD_MAX, clean, code, escape_inline


def streak_sentence(streak: StreakFacts | None, ever_passed: bool = True) -> str:
    if streak is None:
        return "Streak: unknown (no run history)."
    span = (
        f"failing since {escape_inline(streak.first_failure)}: {streak.runs} run{'s' if streak.runs != 1 else ''} on "
        f"{streak.days} day{'s' if streak.days != 1 else ''}"
    )
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
    return (
        f" (Streak and last pass of the {escape_inline(record.lane)}/{escape_inline(record.ferry)} series: "
        f"full runs of ferry {escape_inline(record.ferry)} on lane {escape_inline(record.lane)}.)"
    )


def what_is_new(record: RunRecord, previous: Previous | None) -> str:
    """How this occurrence differs from the previous one of the same signature."""
    if previous is None:
        return ""
    now = Previous.of(record)
    changes = []
    if previous.lane and previous.lane != now.lane:
        changes.append(f"last seen on the {escape_inline(previous.lane)} lane, now on {escape_inline(now.lane)}")
    if previous.classification != now.classification and now.classification:
        changes.append(
            f"classification {escape_inline(previous.classification or 'unknown')} → "
            f"{escape_inline(now.classification)}"
        )
    if (previous.failed_attempts, previous.attempts) != (now.failed_attempts, now.attempts):
        changes.append(
            f"{now.failed_attempts} of {now.attempts} attempts failed "
            f"(was {previous.failed_attempts} of {previous.attempts})"
        )
    for label, before, after in (
        ("lowered cold", previous.lowered_cold, now.lowered_cold),
        ("cache read errors", previous.cache_errors, now.cache_errors),
    ):
        if before is not None and after is not None and before != after:
            changes.append(f"{label}: {'yes' if after else 'no'} (was {'yes' if before else 'no'})")
    if previous.commit and now.commit and previous.commit != now.commit:
        changes.append(f"commit {code(now.commit[:12])} (was {code(previous.commit[:12])})")
    since = f"run {code(previous.run_id)} ({escape_inline(previous.date)})"
    if not changes:
        return f"Nothing new since the previous occurrence, {since}: same commit, attempts and cache facts."
    return f"New since the previous occurrence, {since}: " + "; ".join(changes) + "."


def window_section(facts: Facts) -> str:
    s = facts.secrets
    lines = ["### Regression window"]
    lp = facts.last_pass
    if lp is None:
        lines.append("No passing run on this lane is recorded, so there is no window to show.")
        return "\n".join(lines + ([escape_inline(clean(facts.window_note, s))] if facts.window_note else []))
    since = f"run {code(lp.run_id)} on {escape_inline(lp.date)}" + (f" at {code(lp.commit[:12])}" if lp.commit else "")
    if facts.window is None:
        lines.append(
            f"Last pass: {since}. The commits since are unknown"
            + (f": {escape_inline(clean(facts.window_note, s))}" if facts.window_note else ".")
        )
        return "\n".join(lines + _versions_lines(facts))
    # a version that changed is the likelier cause than a commit: its diff comes first
    changed = _version_changes(facts) if facts.versions else []
    lines += changed[1:] + [""] if changed else []
    watched = [c for c in facts.window if c.watched]
    rest = [c for c in facts.window if not c.watched]
    n = len(facts.window)
    lines.append(
        f"{n} commit{'s' if n != 1 else ''} since the last pass ({since}); "
        + (
            f"{len(watched)} touch{'es' if len(watched) == 1 else ''} watched paths (listed first):"
            if watched
            else "none touches watched paths" + (":" if n else ".")
        )
    )
    if n == 0 and facts.versions is not None and not facts.versions:
        lines.append(
            "No commits and no version changes: the code and every version are the last pass's, so the "
            "machine, the compilation cache or the data changed."
        )
    elif n == 0:
        lines.append(
            "No commits: the code is unchanged since the last pass (look at the environment, the "
            "dependencies and the compilation cache)."
        )
    shown = watched + rest
    for c in shown[:50]:
        paths = ", ".join(code(clean(p, s)[:FIELD_MAX]) for p in c.paths[:5]) + (" …" if len(c.paths) > 5 else "")
        mark = "**watched** " if c.watched else ""
        lines.append(
            f"- {mark}{code(c.sha[:12])} {escape_inline(clean(c.subject, s)[:FIELD_MAX])}"
            + (f" ({paths})" if paths else "")
        )
    if len(shown) > 50:
        lines.append(f"- … and {len(shown) - 50} more")
    if facts.window_note:
        lines.append(escape_inline(clean(facts.window_note, s)))
    return "\n".join(lines + (_program_lines(facts) if changed else _versions_lines(facts)))


def short_version(name: str, value: str | None) -> str:
    if value is None:
        return "not installed"
    return value[:12] if name == "ferry" else value


def _versions_lines(facts: Facts) -> list[str]:
    """The version changes since the last pass, under the commits, and whether the lowered
    program is the last pass's."""
    return _version_changes(facts) + _program_lines(facts)


def _program_lines(facts: Facts) -> list[str]:
    return ["", f"Lowered program: {escape_inline(facts.program)}."] if facts.program else []


def _version_changes(facts: Facts) -> list[str]:
    if facts.last_pass is None:
        return []
    if facts.versions is None:
        return ["", "Version changes since the last pass: unknown."]
    if not facts.versions:
        return [
            "",
            "Versions since the last pass: unchanged (jax, jaxlib, the accelerator plugin, optax, python, "
            "the ferry's content).",
        ]
    n = len(facts.versions)
    out = ["", f"{n} version change{'s' if n != 1 else ''} since the last pass:"]
    for v in facts.versions:
        what = "ferry content sha256" if v.name == "ferry" else v.name
        out.append(
            f"- {escape_inline(what)}: {code(short_version(v.name, v.before))} → "
            f"{code(short_version(v.name, v.after))}"
            + (" (owns the failing frame: listed first)" if v.owns_failure else "")
        )
    return out


def first_bad_section(fb: FirstBad, secrets: tuple[str, ...]) -> str:
    how = (
        f"{code('canary bisect --test ' + str(fb.test))}: {fb.tested} revision{'s' if fb.tested != 1 else ''} tested, "
        f"{fb.skipped} skipped, {fb.seconds:.0f} s"
    )
    if fb.sha:
        return (
            f"### First bad commit\nfirst bad commit: {escape_inline(fb.sha)} "
            f"{escape_inline(clean(fb.subject, secrets)[:FIELD_MAX])}"
            f"\n\nFound by {how}."
        )
    among = ""
    if fb.candidates:
        shown = ", ".join(code(c[:12]) for c in fb.candidates[:20])
        among = f" It is one of {len(fb.candidates)}: {shown}" + (" …" if len(fb.candidates) > 20 else "") + "."
    if fb.exhausted:
        budget = (
            (f"{fb.budget_s / 60:g}-minute " if fb.budget_s % 60 == 0 else f"{fb.budget_s:g}-second ")
            if fb.budget_s
            else ""
        )
        return f"### First bad commit\nBisect ran out of its {budget}budget ({how}) before naming it.{among}"
    why = escape_inline(clean(fb.note, secrets)[: FIELD_MAX * 2]).rstrip(".") if fb.note else "no reason given"
    return f"### First bad commit\nBisect named none ({how}): {why}.{among}"
