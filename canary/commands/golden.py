"""``canary golden record LANE`` and ``canary golden diff LANE``: the lane's golden curve."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._options import ferry_option, gates_option
from canary.render import console, fmt


@click.group()
def golden() -> None:
    """A lane's golden: the loss curve (windowed means), final loss, throughput, compile seconds
    and peak memory of healthy runs, with tolerances measured from their spread (docs/gates.md).

    \b
    canary golden record cpu         train the recording runs, write gates/<ferry>.cpu.golden.json
    canary golden diff cpu           the working golden against the committed one
    canary golden diff cpu NEW       the stored golden against NEW (a golden file or a run directory)
    """


@golden.command()
@click.argument("lane")
@click.option(
    "--runs",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Runs of the lane as configured (on cpu the equivalent variants run once each besides).",
)
@click.option(
    "--nudged",
    type=click.IntRange(min=0),
    default=8,
    show_default=True,
    help="On cpu lanes: runs from weights nudged one float32 step each, which measure how far "
    "rounding alone (another CPU, another library build) moves the loss curve.",
)
@click.option(
    "--window",
    type=click.IntRange(min=1),
    default=None,
    help="Steps per loss window [default: 20 on cpu lanes, 1 (per step) elsewhere].",
)
@ferry_option()
@gates_option()
@click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write it [default: the golden the lane's gates name, else gates/<ferry>.<lane>.golden.json].",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("runs"),
    show_default=True,
    help="Where the recording's run directories are created.",
)
@click.option(
    "--from",
    "source",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Derive the golden from a former recording's runs (its golden-LANE-... directory) instead of training.",
)
@click.option(
    "--perf-only",
    is_flag=True,
    help="Re-measure only the stored golden's performance figures (throughput, compile seconds, "
    "peak memory) and machine on this machine, from the lane's own runs; the curve stays. "
    "For a new kind of runner: a throughput floor fails only on the kind of machine it was measured on.",
)
@json_option
@handle_errors
def record(lane, runs, nudged, window, ferry, gates, output, out, source, perf_only, as_json):
    """Train LANE's recording runs (cold cache, no history) and write its golden.

    With --perf-only, only the speed figures are re-measured here, and the runs must still draw
    the stored curve (a changed curve is a new golden).

    Review the change with `canary golden diff LANE` (or git diff) and commit it. Exit status:
    0 written, 1 a recording run failed (nothing written), 2 bad input.
    """
    from canary.run.recording import record as do_record

    err = console(stderr=True)
    rec = do_record(
        lane,
        ferry=ferry,
        gates=gates,
        runs=runs,
        window=window,
        out=out,
        output=output,
        log=lambda s: err.print(f"[dim]{s}[/]", highlight=False),
        source=source,
        perf_only=perf_only,
        nudged=nudged,
    )
    g = rec.golden
    if as_json:
        emit_json({"path": str(rec.path), "runs": rec.runs, "golden": g.to_dict()})
        return
    c = console()
    t = Table(
        title=f"golden of {g.ferry} v{g.ferry_version} on {g.lane}: {len(g.windows)} windows of {g.window} steps",
        title_justify="left",
    )
    for col in ("gate", "tolerance", "observed", "floor"):
        t.add_column(col, justify="left" if col == "gate" else "right")
    from canary.judge.golden_gates import curve_band

    for name, tol in g.tolerance.items():
        shown = f"{curve_band(g)} by window" if name == "loss_curve" else f"{tol.rtol * 100:.2f}%"
        t.add_row(
            name, shown + (" (cap)" if tol.capped else ""), f"{tol.observed * 100:.3f}%", f"{tol.floor * 100:.1f}%"
        )
    c.print(t)
    if g.stats:
        tols = [w.rtol or 0.0 for ws in g.stats.values() for w in ws]
        c.print(
            f"statistics: {len(g.stats)} banded, {min(tols) * 100:.2f}-{max(tols) * 100:.2f}% by window",
            highlight=False,
        )
    c.print(f"runs: {', '.join(r['variant'] for r in rec.runs)}", highlight=False)
    c.print(f"wrote {rec.path}; review it with `canary golden diff {g.lane}` and commit it", highlight=False)


@golden.command()
@click.argument("lane")
@click.argument("new", required=False, type=click.Path(exists=True, path_type=Path))
@click.option("--rev", default="HEAD", show_default=True, help="Without NEW: the commit whose golden is the old side.")
@ferry_option()
@gates_option()
@click.option("--all", "show_all", is_flag=True, help="Show unchanged rows too.")
@json_option
@handle_errors
def diff(lane, new, rev, ferry, gates, show_all, as_json):
    """Compare two goldens: how a new recording differs from the stored golden, window by window,
    judged with the stored golden's tolerances.

    NEW is a golden file or a run directory (the golden that one run would record: its curve and
    perf figures, no tolerances of its own); without it, the lane's golden file as it is now is
    compared with the one committed at --rev. This compares goldens, it does not judge a run: for
    a run directory the run's own verdict (the one `canary run` and `canary gate` give) is shown
    beside the comparison.

    Exit status: 0 the goldens agree within the stored tolerances, 1 they differ beyond them (for a
    run directory: its curve would make another golden, whatever its verdict), 2 bad input.
    """
    from canary.golden.diff import compare

    result = compare(lane, new, rev=rev, ferry=ferry, gates=gates)
    verdict = None
    if result.run_dir is not None:
        from canary.judge.results import verdict as verdict_of
        from canary.run.gate import judge_path

        verdict = verdict_of(judge_path(result.run_dir, lane, gates).results)
    if as_json:
        emit_json(
            {
                "compares": "goldens",
                "old": result.old_label,
                "new": result.new_label,
                "rows": [r.to_dict() for r in result.rows],
                "outside": len(result.outside),
                "unchanged": result.unchanged,
                **({"run_verdict": verdict} if verdict else {}),
                **({"note": result.note} if result.note else {}),
            }
        )
    else:
        _render_diff(console(), result, show_all, verdict)
    sys.exit(1 if result.outside else 0)


DIFF_STYLE = {"same": "dim", "within": "green", "outside": "bold red", "added": "yellow", "removed": "yellow"}


def _render_diff(c, result, show_all: bool, verdict: str | None) -> None:
    if result.note:
        c.print(escape(result.note), highlight=False)
    if result.unchanged and not show_all:
        c.print(
            f"{escape(result.new_label)} is unchanged from {escape(result.old_label)}: every window, the final "
            "loss, the tolerances and the perf figures are the same",
            highlight=False,
        )
        return
    t = Table(
        title=f"comparing goldens: {escape(result.old_label)}  ->  {escape(result.new_label)}", title_justify="left"
    )
    for col in ("what", "old", "new", "change", "tolerance", "status"):
        t.add_column(col, justify="left" if col in ("what", "status") else "right")
    for r in result.rows if show_all else [r for r in result.rows if r.status != "same"]:
        t.add_row(
            r.what,
            fmt(r.old),
            fmt(r.new),
            "" if r.change is None else f"{r.change * 100:+.3f}%",
            "" if r.rtol is None else f"±{r.rtol * 100:.2f}%",
            f"[{DIFF_STYLE[r.status]}]{r.status}[/]",
        )
    c.print(t)
    c.print(
        f"the goldens differ: {len(result.outside)} figure(s) outside the stored tolerances"
        if result.outside
        else "the goldens agree: every change is within the stored tolerances",
        highlight=False,
    )
    if verdict:
        c.print(
            f"this compares goldens; the run's own verdict (canary gate {escape(str(result.run_dir))}): "
            f"{verdict.upper()}",
            highlight=False,
        )
