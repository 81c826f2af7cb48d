"""``canary history``: recent runs from the history store, and a pass/fail strip per series
(lane, ferry)."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import click
from rich.markup import escape

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._options import ferry_option, history_option, lane_option
from canary.history import queries, series
from canary.record import RunRecord
from canary.render import cache_brief, console, fmt, narrow_table, steps_cell, verdict_strip


def program_cell(r: RunRecord, records: list[RunRecord]) -> str:
    """``same`` or ``new`` program against the last pass before the run; ``—`` when unknown."""
    from canary.history.programs import program_note

    note = program_note(r, records)
    return "—" if note is None else ("same" if note.startswith("same") else "[yellow]new[/]")


def experiments(c, records: list[RunRecord]) -> None:
    """The experiments among the runs shown, apart: counted in no series."""
    if not records:
        return
    t = narrow_table(
        "Experiments (a ferry or gates file not the pinned one): recorded, never counted",
        ("started (UTC)", "series", "verdict", "fingerprint", "steps", "why"),
        numeric=("steps",),
    )
    for r in records:
        t.add_row(
            (r.started_at or "")[:16].replace("T", " "),
            escape(str(series.series_of(r))),
            r.verdict,
            queries.fingerprint_of(r) or "",
            fmt(r.steps_completed),
            escape(r.experiment or ""),
        )
    c.print(t)


def render_changes(location: str, steps: list, c) -> None:
    if not c.is_terminal:
        c.width = max(c.width, 160)  # a pipe or a CI log: one line per step
    if not steps:
        c.print(f"no steps found in the passing runs of {escape(location)}")
        return
    t = narrow_table(
        f"Steps in the passing runs of {escape(location)}",
        ("started (UTC)", "lane", "ferry", "metric", "run", "commit", "before", "after", "change", "p", "versions"),
        numeric=("before", "after", "change", "p"),
    )
    for s in steps:
        colour = "red" if s.worse else "green"
        t.add_row(
            (s.started_at or "")[:16].replace("T", " "),
            s.lane,
            s.ferry,
            s.metric,
            s.run_id,
            (s.commit or "")[:8],
            fmt(s.before),
            fmt(s.after),
            f"[{colour}]{s.change:+.1%}[/]",
            f"{s.pvalue:.3f}",
            escape(", ".join(f"{v.name} {v.before or '—'} → {v.after or '—'}" for v in s.versions)) or "—",
        )
    c.print(t)
    c.print(
        f"[dim]E-divisive means over the passing full runs among each (lane, ferry)'s latest {series.WINDOW}; "
        "a step's run is the first after the change, its before and after the medians of the segments either side[/]"
    )


@click.group(invoke_without_command=True)
@lane_option("Only this lane's runs.")
@ferry_option(None, help="Only this ferry's runs (the series is lane and ferry).", metavar="NAME")
@click.option(
    "--changes",
    "show_changes",
    is_flag=True,
    help="List the steps (change points) in throughput, compile time, peak memory and final loss "
    f"over each series' passing runs among its latest {series.WINDOW}, instead of the runs.",
)
@click.option(
    "--since", default=None, metavar="DATE", help="Only runs started on or after DATE (YYYY-MM-DD or ISO time)."
)
@history_option()
@click.option(
    "--last",
    type=click.IntRange(min=1),
    default=30,
    show_default=True,
    help="Show this many most recent runs (the JSON has all that match).",
)
@json_option
@click.pass_context
@handle_errors
def history(ctx, lane, ferry, show_changes, since, history, last, as_json):
    """Show recent runs (ferry, verdict, classification, fingerprint, steps, loss, cache facts) and
    a one-line pass/fail strip per series, oldest to newest. A series is one lane and one ferry;
    a run that asked for fewer steps than its ferry's (a repro, --steps) is listed, marked short,
    but is never the series' last pass, nor part of its strip, streak or flakiness. An experiment
    (a run whose ferry or gates file is not the pinned one) is counted nowhere either, and listed
    apart, below the series' runs, with what made it one. For a failing
    series, its regression window (commits and version changes since the last pass) is in --json.
    With --changes, the steps found in the passing runs among each series' latest 365 (docs/gates.md,
    "Change points").
    An unknown lane (none in lanes.toml, no runs recorded) exits 2. Reading writes nothing:
    records an earlier run could not upload are shown from the local spool, and uploaded by the
    next `canary run` or by `canary history import RUN_DIR`.

    \b
    canary history import RUN_DIR   add a run directory's pending record to the history
    """
    if ctx.invoked_subcommand is not None:
        ctx.obj = {"history": history}
        return
    if show_changes:
        from canary.history.changes import changes
        from canary.history.lanes import read_records

        location, latest = read_records(history, lane, since, ferry, per_series=series.WINDOW)
        steps = changes(latest, lane, ferry)
        if as_json:
            emit_json({"location": location, "changes": [s.to_dict() for s in steps]})
        else:
            render_changes(location, steps, console())
        return
    from canary.git import checkout_commits
    from canary.history.lanes import history_report

    report = history_report(history, lane, since, last, ferry, commits=checkout_commits)
    records: list[RunRecord] = report["records"]
    if as_json:
        _emit_report(report, records)
    else:
        _render_report(console(), report, records, lane, ferry, since, last)


def _emit_report(report: dict, records: list[RunRecord]) -> None:
    from canary.history.programs import program_notes
    from canary.history.store import no_collection

    with no_collection():
        emit_json(
            {
                "location": report["location"],
                "series": report["series"],
                "occurrences": {fp: asdict(o) for fp, o in report["occurrences"].items()},
                "records": (
                    {
                        **r.to_dict(),
                        "series": str(series.series_of(r)),
                        "short": series.is_short(r),
                        "counted": series.counts(r),
                    }
                    for r in records
                ),
                "programs": program_notes(records),
            },
            one_per_line=("records",),
        )


RUN_COLUMNS = (
    "started (UTC)",
    "lane",
    "ferry",
    "verdict",
    "classification",
    "kind",
    "fingerprint",
    "steps",
    "loss",
    "cache",
    "tries",
    "program",
    "commit",
)
VERDICT_CELL = {"pass": "[green]✓ pass[/]", "cancelled": "[yellow]○ cancelled[/]"}


def _run_row(r: RunRecord, records: list[RunRecord]) -> tuple[str, ...]:
    sig = r.signature
    return (
        (r.started_at or "")[:16].replace("T", " "),
        r.lane,
        f"{r.ferry} v{r.ferry_version}",
        VERDICT_CELL.get(r.verdict, "[red]✗ FAIL[/]"),
        r.classification or "—",
        sig.kind if sig else "",
        queries.fingerprint_of(r) or "",
        steps_cell(r),
        fmt(r.final_loss),
        cache_brief(r.run_cache()),
        str(len(r.attempts)),
        program_cell(r, records),
        (r.commit or "")[:8],
    )


def _series_line(s: dict) -> str:
    streak = s["streak"]
    tail = f"flakiness {s['flakiness']:.2f}"
    if streak["runs"]:
        tail += (
            f"  failing {streak['runs']} run{'s' if streak['runs'] != 1 else ''} over {streak['days']} "
            f"day{'s' if streak['days'] != 1 else ''} ({streak['daily_ordinal']}), {streak['fingerprint'] or '?'}"
            f", {'confirmed' if streak['confirmed'] else 'unconfirmed'}"
        )
    if s["short_runs"]:
        tail += f"  ({s['short_runs']} short run{'s' if s['short_runs'] != 1 else ''} not counted)"
    if s["experiments"]:
        tail += f"  ({s['experiments']} experiment{'s' if s['experiments'] != 1 else ''} not counted)"
    return f"{verdict_strip(s['strip'])}  {tail}"


def _render_report(c, report: dict, records: list[RunRecord], lane, ferry, since, last: int) -> None:
    if not c.is_terminal:
        c.width = max(c.width, 160)  # a pipe or a CI log: wide enough for one line per run
    if not records:
        c.print(
            f"no runs recorded in {escape(report['location'])}"
            + (f" for lane {escape(lane)}" if lane else "")
            + (f" of ferry {escape(ferry)}" if ferry else "")
            + (f" since {escape(since)}" if since else "")
        )
        return
    t = narrow_table(f"Runs in {escape(report['location'])}", RUN_COLUMNS, numeric=("steps", "loss", "tries"))
    shown = records[-last:]
    counted = [r for r in shown if not series.is_experiment(r)]
    for r in counted:
        t.add_row(*_run_row(r, records))
    if counted:
        c.print(t)
    experiments(c, [r for r in shown if series.is_experiment(r)])
    width = max(len(s["series"]) for s in report["series"])
    for s in report["series"]:
        c.print(f"{escape(s['series']):>{width}} {_series_line(s)}")
    c.print(
        "[dim]one strip per series (lane/ferry), oldest to newest: ✓ pass, ✗ fail; a short run (fewer steps "
        "than its ferry's) is listed above but not counted, an experiment is listed apart; program: the "
        "lowered train step, same as or new since the series' last pass[/]"
    )


@history.command("import")
@click.argument("run_dir", type=click.Path(exists=True, path_type=Path))
@history_option("the one given to `canary history`, else $CANARY_HISTORY, else SQLite in the user data dir")
@json_option
@click.pass_context
@handle_errors
def import_(ctx, run_dir, history, as_json):
    """Add RUN_DIR's record to the history: its pending-record.json (left there when the run could
    not write the history, e.g. a CI runner's storage outage; the workflow keeps the run directory
    as an artifact), else its result.json. Storing a run already there replaces it.

    Exit status: 0 stored, 1 the history still cannot take it, 2 bad input."""
    from canary.history import import_pending

    record, location = import_pending(run_dir, history or (ctx.obj or {}).get("history"))
    if as_json:
        emit_json({"run_id": record.run_id, "lane": record.lane, "location": location, "status": "stored"})
    else:
        console().print(
            f"stored run {escape(record.run_id)} ({escape(record.lane)}, {record.verdict}) in {escape(location)}",
            highlight=False,
        )
