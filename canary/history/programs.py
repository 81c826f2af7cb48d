"""The lowered program's fingerprint across runs: is this the program the last pass ran?

    last = last_pass_program(records, "tpu", "moe-canary", "tpu")     # the record, or None
    program_note(record, records)          # "same program as the last pass" | "new program ..." | None
    program_notes(records)                 # every run's note, in one pass: {run_id: note}
    c = compare("tpu", "tpu", "moe-canary", fingerprint, records, versions_now, window)
    c.message    # "the tpu program changed since <run>, <commit>; a shared compilation cache will miss, ..."

A run records the fingerprint of its lane's train step (``canary.workload.program.run_fingerprint``) in
its summary; ``canary lower`` computes the same for each platform it lowers. A shared persistent
compilation cache keys its entries on that program: when it changed, the next run misses the
cache and lowers cold, which is when a broken lowering shows (the incident hid behind warm runs).
Pure functions over records; the commits and versions are given. No I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from canary.history.changes import passing_runs
from canary.history.windows import VersionChange, WindowCommit, version_changes
from canary.record import RunRecord

FINGERPRINT = "program/fingerprint"
PLATFORM = "program/platform"
SHORT = 12  # hex digits shown


def program_of(r: RunRecord, platform: str | None = None) -> str | None:
    """The run's recorded program fingerprint (for ``platform``, when given), else None."""
    s = r.summary or {}
    fp = s.get(FINGERPRINT)
    if not isinstance(fp, str) or not fp:
        return None
    if platform is not None and s.get(PLATFORM) not in (None, platform):
        return None
    return fp


def last_pass_program(
    records: Iterable[RunRecord],
    lane: str,
    ferry: str | None,
    platform: str | None = None,
    before: RunRecord | None = None,
) -> RunRecord | None:
    """The lane's (and ferry's) latest passing full run that recorded a fingerprint (for
    ``platform``), started before ``before`` when given."""
    key = (before.started_at or "", before.run_id) if before is not None else None
    for r in reversed(passing_runs(records, lane, ferry)):
        if key is not None and (r.started_at or "", r.run_id) >= key:
            continue
        if program_of(r, platform):
            return r
    return None


def program_note(record: RunRecord, records: Iterable[RunRecord]) -> str | None:
    """What a run's fingerprint says against the last pass's before it: "same program as the
    last pass" or "new program since the last pass, <run>"; None when either is not recorded."""
    platform = (record.summary or {}).get(PLATFORM)
    mine = program_of(record, platform)
    last = last_pass_program(records, record.lane, record.ferry, platform, before=record) if mine else None
    if last is None:
        return None
    return _note(mine, last, platform)


def _note(mine: str, last: RunRecord, platform: str | None) -> str:
    if program_of(last, platform) == mine:
        return "same program as the last pass"
    return f"new program since the last pass, {last.run_id} ({mine[:SHORT]}, was {program_of(last)[:SHORT]})"


def program_notes(records: Iterable[RunRecord]) -> dict[str, str | None]:
    """:func:`program_note` of every run (by run id), walking each series once in order: the
    latest passing full run with a fingerprint so far is kept per platform it recorded."""
    from canary.history.series import is_short

    out: dict[str, str | None] = {}
    latest: dict[tuple[str, str], dict[str | None, RunRecord]] = {}  # (lane, ferry) -> platform -> run
    for r in sorted(records, key=lambda r: (r.started_at or "", r.run_id)):
        seen = latest.setdefault((r.lane, r.ferry), {})
        platform = (r.summary or {}).get(PLATFORM)
        mine = program_of(r, platform)
        # program_of(run, None) takes a run of any platform; program_of(run, p), of p or none recorded
        wanted = seen.values() if platform is None else [seen[p] for p in (None, platform) if p in seen]
        candidates = list(wanted) if mine else []
        last = max(candidates, key=lambda c: (c.started_at or "", c.run_id), default=None)
        out[r.run_id] = None if last is None else _note(mine, last, platform)
        if r.verdict == "pass" and not is_short(r) and mine:
            seen[platform] = r
    return out


@dataclass(frozen=True)
class Comparison:
    """A lowered program's fingerprint against the last pass's on its lane."""

    platform: str
    lane: str
    ferry: str
    fingerprint: str
    last_pass: str | None = None  # the run compared with; None: none recorded a fingerprint
    last_commit: str | None = None
    last_fingerprint: str | None = None
    changed: bool | None = None  # None: nothing to compare with
    message: str = ""
    causes: list[str] = field(default_factory=list)  # the likely causes, most likely first

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def causes(window: Sequence[WindowCommit] | None, versions: Sequence[VersionChange], note: str = "") -> list[str]:
    """The likely causes of a program change, from its window: version changes and commits on
    watched paths; else what little is known."""
    out = [f"{v.name} {v.before or 'not installed'} -> {v.after or 'not installed'}" for v in versions]
    if window is None:
        out.append(f"the commits since are unknown{': ' + note if note else ''}")
        return out
    watched = [c for c in window if c.watched]
    out += [f"commit {c.sha[:SHORT]} {c.subject} (touches {', '.join(c.watched_paths[:3])})" for c in watched]
    if not out:
        n = len(window)
        out.append(
            f"no version change and no commit on a watched path; {n} other commit{'s' if n != 1 else ''} in the window"
            if n
            else "no version change and no commit since: the environment changed"
        )
    return out


def compare(
    platform: str,
    lane: str,
    ferry: str,
    fingerprint: str,
    records: Iterable[RunRecord],
    versions_now: dict[str, str] | None = None,
    window: Sequence[WindowCommit] | None = None,
    window_note: str = "",
) -> Comparison:
    """``fingerprint`` (just lowered for ``platform``) against the lane's last pass's. The
    ``window`` is the commits from the last pass's commit to now (watched ones flagged)."""
    last = last_pass_program(records, lane, ferry, platform)
    if last is None:
        return Comparison(
            platform,
            lane,
            ferry,
            fingerprint,
            message=f"no passing {lane} run of {ferry} recorded a {platform} program fingerprint yet",
        )
    theirs = program_of(last, platform)
    where = f"{last.run_id}, {(last.commit or 'no commit recorded')[:SHORT]}"
    changed = theirs != fingerprint
    if changed:
        message = (
            f"the {platform} program changed since {where}; a shared compilation cache will miss, "
            "and this lane lowers cold"
        )
        found = causes(window, version_changes(last.versions, versions_now), window_note)
    else:
        message, found = f"the {platform} program is the one the last pass ran ({where})", []
    return Comparison(platform, lane, ferry, fingerprint, last.run_id, last.commit, theirs, changed, message, found)
