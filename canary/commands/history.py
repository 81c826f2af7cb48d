"""``canary history``: recent runs from the history store, and a pass/fail strip per lane."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import click
from rich.markup import escape

from canary import queries
from canary.commands._common import emit_json, handle_errors, json_option
from canary.history import open_store
from canary.record import RunRecord
from canary.render import console, fmt, narrow_table, verdict_strip
from canary.report.model import run_cache


def cache_facts(cache: dict[str, Any] | None) -> str:
    """``warm 12/12 hits``, ``cold``, ``warm 3/12 hits, 1 read error``; ``—`` when unknown."""
    if not cache:
        return "—"
    parts = [str(cache.get("mode") or "?")]
    if cache.get("requests"):
        parts.append(f"{cache.get('hits', 0)}/{cache['requests']} hits")
    errors = cache.get("errors")
    if errors:
        n = len(errors) if isinstance(errors, (list, tuple)) else errors
        parts.append(f"{n} read error{'s' if n != 1 else ''}")
    return " ".join(parts[:2]) + (", " + parts[2] if len(parts) > 2 else "")


def lane_summary(records: list[RunRecord], lane: str, last: int) -> dict[str, Any]:
    s = queries.current_streak(records, lane)
    lp = queries.last_pass(records, lane)
    return {
        "strip": queries.strip(records, lane, last),
        "runs": sum(r.lane == lane for r in records),
        "flakiness": round(queries.flakiness(records, lane, last), 3),
        "last_pass": lp.run_id if lp else None,
        "streak": {
            "runs": s.runs, "days": s.days, "consecutive_days": s.consecutive_days,
            "fingerprint": s.fingerprint, "same_fingerprint": s.same_fingerprint,
            "first_failure": s.first_failure.run_id if s.first_failure else None,
            "daily_ordinal": s.daily_ordinal,
        },
    }


def history_report(location: str | None, lane: str | None, since: str | None, last: int) -> dict[str, Any]:
    store = open_store(location)
    records = store.records(lane=lane, since=since)
    lanes = sorted({r.lane for r in records})
    return {
        "location": store.location,
        "records": records,
        "lanes": {name: lane_summary(records, name, last) for name in lanes},
        "occurrences": queries.occurrences(records),
    }


@click.command()
@click.option("--lane", default=None, help="Only this lane's runs.")
@click.option("--since", default=None, metavar="DATE", help="Only runs started on or after DATE (YYYY-MM-DD or ISO time).")
@click.option("--history", "history", default=None, metavar="PATH|gs://BUCKET/PREFIX",
              help="The history store [default: $CANARY_HISTORY, else SQLite in the user data dir].")
@click.option("--last", type=click.IntRange(min=1), default=30, show_default=True,
              help="Show this many most recent runs (the JSON has all that match).")
@json_option
@handle_errors
def history(lane, since, history, last, as_json):
    """Show recent runs (verdict, classification, fingerprint, steps, loss, cache facts) and a
    one-line pass/fail strip per lane, oldest to newest. Records that an earlier run could not
    upload (a storage outage) are uploaded now."""
    report = history_report(history, lane, since, last)
    records: list[RunRecord] = report["records"]
    if as_json:
        emit_json({
            "location": report["location"],
            "lanes": report["lanes"],
            "occurrences": {fp: asdict(o) for fp, o in report["occurrences"].items()},
            "records": [r.to_dict() for r in records],
        })
        return
    c = console()
    if not c.is_terminal:
        c.width = max(c.width, 160)  # a pipe or a CI log: wide enough for one line per run
    if not records:
        c.print(f"no runs recorded in {escape(report['location'])}" + (f" for lane {escape(lane)}" if lane else ""))
        return
    t = narrow_table(f"Runs in {escape(report['location'])}",
                     ("started (UTC)", "lane", "verdict", "classification", "kind", "fingerprint", "steps", "loss",
                      "cache", "tries", "commit"), numeric=("steps", "loss", "tries"))
    for r in records[-last:]:
        sig = r.signature
        verdict = {"pass": "[green]✓ pass[/]", "cancelled": "[yellow]○ cancelled[/]"}.get(r.verdict, "[red]✗ FAIL[/]")
        t.add_row(
            (r.started_at or "")[:16].replace("T", " "), r.lane, verdict, r.classification or "—",
            sig.kind if sig else "", sig.fingerprint if sig else "", fmt(r.steps_completed), fmt(r.final_loss),
            cache_facts(run_cache(r)), str(len(r.attempts)), (r.commit or "")[:8],
        )
    c.print(t)
    for name, s in report["lanes"].items():
        streak = s["streak"]
        tail = f"flakiness {s['flakiness']:.2f}"
        if streak["runs"]:
            tail += (f"  failing {streak['runs']} run{'s' if streak['runs'] != 1 else ''} over {streak['days']} "
                     f"day{'s' if streak['days'] != 1 else ''} ({streak['daily_ordinal']}), {streak['fingerprint'] or '?'}")
        c.print(f"{name:>6} {verdict_strip(s['strip'])}  {tail}")
    c.print("[dim]strip: oldest to newest, ✓ pass, ✗ fail[/]")
