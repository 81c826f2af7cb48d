"""What the report shows, as plain data computed from run records. Pure; no I/O.

lanes = lane_views(records)          # per series (lane, ferry): one cell per run, oldest first
details = run_details(record)        # what a cell opens: verdict, gates, signature, cache, links
sigs = signature_rows(records)       # the failure signatures, those still failing first
series = perf_series(records)        # step time, tokens/s, compile seconds per series (full runs)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote_plus

from canary.history import queries, series
from canary.record import RunRecord

# classification -> (short label shown in the cell, colour, what it means)
CLASSES: dict[str, tuple[str, str, str]] = {
    "pass": ("P", "#2e7d32", "every attempt passed"),
    "unconfirmed": ("U", "#e57373", "the run's only attempt failed: not yet seen twice"),
    "deterministic": ("D", "#c62828", "every attempt failed the same way"),
    "intermittent": ("I", "#ef6c00", "attempts failed differently, or one passed after failures"),
    "cache-masked": ("CM", "#6a1b9a", "failed only where the program was lowered cold"),
    "cache-poisoned": ("CP", "#4a148c", "a cache entry did not match a fresh compile (--cache verify)"),
    "infrastructure": ("INF", "#1565c0", "the job never ran (no worker, lost, provisioning)"),
    "cancelled": ("X", "#616161", "stopped before it could finish"),
}
UNKNOWN = ("?", "#9e9e9e", "not classified")
FAIL_UNCLASSIFIED = ("F", "#b71c1c", "failed (not classified)")


def run_class(r: RunRecord) -> str:
    """The classification a cell shows: the record's, else ``pass``/``fail`` from its verdict."""
    if r.classification:
        return r.classification
    return "pass" if r.verdict == "pass" else "fail"


def class_style(name: str) -> tuple[str, str, str]:
    if name in CLASSES:
        return CLASSES[name]
    return FAIL_UNCLASSIFIED if name == "fail" else UNKNOWN


def ordered(records: Iterable[RunRecord], lane: str | None = None) -> list[RunRecord]:
    return sorted((r for r in records if lane is None or r.lane == lane), key=lambda r: (r.started_at or "", r.run_id))


def gate_margin(g: dict[str, Any]) -> str:
    """How far a gate's value is from its threshold, signed so that positive is headroom:
    ``+38`` steps above a minimum, ``+2.2`` loss below a maximum, ``-1`` past it; ``""`` when unknown."""
    value, threshold = g.get("value"), g.get("threshold")
    if not isinstance(value, (int, float)) or not isinstance(threshold, (int, float)) or isinstance(value, bool):
        return ""
    if not (math.isfinite(value) and math.isfinite(threshold)):
        return ""
    name = str(g.get("name", ""))
    headroom = threshold - value if name.startswith("max") else value - threshold
    if isinstance(value, int) and isinstance(threshold, int):
        return f"{headroom:+d}"
    return f"{headroom:+.4g}"


def issue_search_url(r: RunRecord) -> str | None:
    """Where the failure's GitHub issue is: the record's own link if the notifier left one, else a
    search of the repository's issues for the fingerprint (every issue body carries it)."""
    ctx = r.context or {}
    for key in ("issue_url", "github_issue_url"):
        if ctx.get(key):
            return str(ctx[key])
    notify = ctx.get("notify")
    if isinstance(notify, dict) and notify.get("url"):
        return str(notify["url"])
    fp = queries.fingerprint_of(r)
    repo = repo_url(r)
    if fp and repo:
        return f"{repo}/issues?q={quote_plus(f'is:issue {fp}')}"
    return None


def repo_url(r: RunRecord) -> str | None:
    """``https://github.com/OWNER/NAME`` from the record's Actions run URL, if it has one."""
    url = str((r.context or {}).get("ci_run_url") or "")
    if "/actions/runs/" in url:
        return url.split("/actions/runs/", 1)[0]
    return None


@dataclass(frozen=True)
class Link:
    label: str
    url: str


def links(r: RunRecord) -> list[Link]:
    ctx = r.context or {}
    out = []
    if ctx.get("ci_run_url"):
        out.append(Link("Actions run", str(ctx["ci_run_url"])))
    if ctx.get("wandb_url"):
        out.append(Link("W&B run", str(ctx["wandb_url"])))
    if r.verdict != "pass":
        issue = issue_search_url(r)
        if issue:
            out.append(Link("GitHub issue", issue))
    return out


def cache_facts(cache: dict[str, Any] | None) -> list[tuple[str, str]]:
    if not cache:
        return []
    rows = [("mode", str(cache.get("mode") or "?"))]
    for key in ("requests", "hits", "misses"):
        if cache.get(key) is not None:
            rows.append((key, str(cache[key])))
    if cache.get("compile_seconds") is not None:
        rows.append(("compile seconds", f"{float(cache['compile_seconds']):.2f}"))
    errors = cache.get("errors")
    if errors:
        errs = errors if isinstance(errors, (list, tuple)) else [str(errors)]
        rows.append(("read errors", f"{len(errs)}: {errs[0]}"))
    if cache.get("dir"):
        rows.append(("dir", str(cache["dir"])))
    return rows


@dataclass(frozen=True)
class RunDetails:
    run_id: str
    lane: str
    started_at: str
    verdict: str
    classification: str
    steps: str
    final_loss: str
    gates: list[dict[str, Any]]  # name, value, threshold, status, margin, detail
    signature: dict[str, Any] | None
    cache: list[tuple[str, str]]
    versions: dict[str, str]
    commit: str
    attempts: list[str]
    links: list[Link]


def _num(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.4f}" if math.isfinite(v) else str(v)
    return str(v)


def run_details(r: RunRecord) -> RunDetails:
    sig = r.signature
    return RunDetails(
        run_id=r.run_id,
        lane=r.lane,
        started_at=r.started_at,
        verdict=r.verdict,
        classification=run_class(r),
        steps=_num(r.steps_completed) + (f" / {r.steps_requested}" if r.steps_requested else ""),
        final_loss=_num(r.final_loss),
        gates=[
            {**g, "value": _num(g.get("value")), "threshold": _num(g.get("threshold")), "margin": gate_margin(g)}
            for g in r.gates
        ],
        signature=None
        if sig is None
        else {
            "fingerprint": sig.fingerprint,
            "kind": sig.kind,
            "error": f"{sig.exception}: {sig.message}" if sig.exception else sig.message,
            "frames": list(sig.frames),
        },
        cache=cache_facts(r.run_cache()),
        versions=dict(r.versions or {}),
        commit=r.commit or "",
        attempts=[
            f"{a.number}: {a.outcome}" + (f" ({a.signature.fingerprint})" if a.signature else "") for a in r.attempts
        ],
        links=links(r),
    )


@dataclass(frozen=True)
class Cell:
    run_id: str
    classification: str
    label: str
    colour: str
    title: str  # the tooltip: date, verdict, classification, fingerprint


@dataclass(frozen=True)
class LaneView:
    """One series' timeline: a lane and a ferry (``series`` reads ``cpu/moe-canary``)."""

    lane: str
    cells: list[Cell]
    runs: int
    passes: int
    flakiness: float
    streak: queries.Streak
    latest: RunRecord
    ferry: str = ""
    short: int = 0  # runs that asked for fewer steps than the ferry's: shown, never counted
    experiments: int = 0  # runs with a ferry or gates file not the pinned one: shown, never counted

    @property
    def series(self) -> str:
        return f"{self.lane}/{self.ferry}" if self.ferry else self.lane


def cell(r: RunRecord) -> Cell:
    name = run_class(r)
    label, colour, _ = class_style(name)
    fp = queries.fingerprint_of(r)
    title = f"{(r.started_at or '')[:16].replace('T', ' ')}  {r.verdict}  {name}" + (f"  {fp}" if fp else "")
    if series.is_experiment(r):
        title += f"  experiment ({r.experiment}), not counted"
    elif series.is_short(r):
        title += f"  short run: {r.steps_requested} of {r.ferry_steps} steps, not counted"
    return Cell(r.run_id, name, label if series.counts(r) else label.lower(), colour, title)


def lane_views(records: Iterable[RunRecord]) -> list[LaneView]:
    records = list(records)
    views = []
    for key in series.series_keys(records):
        rs = series.in_series(records, key.lane, key.ferry)
        full = [r for r in rs if series.counts(r)]
        views.append(
            LaneView(
                lane=key.lane,
                ferry=key.ferry,
                cells=[cell(r) for r in rs],
                runs=len(rs),
                passes=sum(r.verdict == "pass" for r in full),
                short=sum(series.uncounted(r) == "short" for r in rs),
                experiments=sum(series.is_experiment(r) for r in rs),
                flakiness=queries.flakiness(rs, key.lane, ferry=key.ferry),
                streak=queries.current_streak(rs, key.lane, ferry=key.ferry),
                latest=(full or rs)[-1],
            )
        )
    return views


@dataclass(frozen=True)
class SignatureRow:
    fingerprint: str
    kind: str
    error: str
    first_seen: str
    last_seen: str
    occurrences: int
    lanes: list[str]
    streak: int  # failing runs in a row with this fingerprint, summed over the lanes where it is current
    failing_now: bool
    issue_url: str | None


def signature_rows(records: Iterable[RunRecord]) -> list[SignatureRow]:
    """Every failure signature of the records; those that are the current failure of a lane
    (its latest runs fail with it) first, then the most recently seen."""
    records = ordered(records)
    occ = queries.occurrences(records)
    latest = {
        fp: next(r for r in reversed(records) if queries.fingerprint_of(r) == fp and r.verdict != "pass") for fp in occ
    }
    rows = []
    for fp, o in occ.items():
        streak = sum(
            queries.current_streak(records, k.lane, fingerprint=fp, ferry=k.ferry).runs
            for k in series.series_keys(records)
            if k.lane in o.lanes
        )
        sig = latest[fp].signature
        error = f"{sig.exception}: {sig.message}" if sig and sig.exception else (sig.message if sig else "")
        rows.append(
            SignatureRow(
                fingerprint=fp,
                kind=o.kind,
                error=error if len(error) <= 200 else error[:197] + "...",
                first_seen=o.first_seen,
                last_seen=o.last_seen,
                occurrences=o.count,
                lanes=o.lanes,
                streak=streak,
                failing_now=streak > 0,
                issue_url=issue_search_url(latest[fp]),
            )
        )
    rows.sort(key=lambda s: s.last_seen, reverse=True)
    return sorted(rows, key=lambda s: not s.failing_now)


PERF_METRICS = (
    ("step_seconds", "step time (s, median)"),
    ("tokens_per_second", "tokens/s"),
    ("compile_seconds", "compile (s)"),
    ("peak_gib", "peak memory (GiB)"),
    ("final_loss", "final loss"),
)
# the change points' metrics (canary.history.changes) on the charts that draw them
STEP_CHARTS = {
    "throughput": "tokens_per_second",
    "compile_seconds": "compile_seconds",
    "peak_memory": "peak_gib",
    "final_loss": "final_loss",
}


def perf_point(r: RunRecord) -> dict[str, float | None]:
    """A run's step time, throughput and compile time, from its summary (compile: the cache facts
    when the summary lacks it)."""
    s = r.summary or {}

    def f(v: Any) -> float | None:
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None

    compile_s = f(s.get("compile/seconds"))
    if compile_s is None:
        compile_s = f((r.run_cache() or {}).get("compile_seconds"))
    peak = f(s.get("memory/peak_bytes"))
    return {
        "step_seconds": f(s.get("throughput/median_step_seconds")),
        "tokens_per_second": f(s.get("throughput/tokens_per_second")),
        "compile_seconds": compile_s,
        "peak_gib": peak / 2**30 if peak is not None else None,
        "final_loss": f(r.final_loss),
    }


@dataclass(frozen=True)
class Series:
    lane: str
    started_at: list[str] = field(default_factory=list)
    values: dict[str, list[float | None]] = field(default_factory=dict)
    ferry: str = ""

    @property
    def label(self) -> str:
        return f"{self.lane}/{self.ferry}" if self.ferry else self.lane


@dataclass(frozen=True)
class StepMark:
    """A change point drawn on a chart: at the run it starts from, labelled with its size."""

    lane: str
    ferry: str
    chart: str  # a key of PERF_METRICS
    started_at: str
    run_id: str
    label: str  # "-3.1% (p 0.005)"
    worse: bool


def step_marks(records: Iterable[RunRecord]) -> list[StepMark]:
    """The steps found in each lane's (and ferry's) passing runs, as marks on the charts."""
    from canary.history.changes import changes

    return [
        StepMark(s.lane, s.ferry, STEP_CHARTS[s.metric], s.started_at, s.run_id, f"{s.change:+.1%}", s.worse)
        for s in changes(records)
        if s.metric in STEP_CHARTS
    ]


def perf_series(records: Iterable[RunRecord]) -> list[Series]:
    """Per series (lane, ferry), oldest first: each metric of :data:`PERF_METRICS` per full run
    (None where unknown); a short run's figures are mostly compilation, an experiment's are not the
    series', and a cancelled run's are cut short: they are left out."""
    records = list(records)
    out = []
    for key in series.series_keys(records):
        rs = [r for r in series.in_series(records, key.lane, key.ferry) if series.charted(r)]
        if not rs:
            continue
        points = [perf_point(r) for r in rs]
        out.append(
            Series(
                key.lane,
                [r.started_at for r in rs],
                {k: [p[k] for p in points] for k, _ in PERF_METRICS},
                ferry=key.ferry,
            )
        )
    return out
