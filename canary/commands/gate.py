"""``canary gate PATH``: judge an existing run directory or a levanter tracker_metrics.jsonl."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from canary import gates as gates_mod
from canary.commands._common import emit_json, handle_errors, json_option
from canary.record import jsonable
from canary.render import console, fmt, gates_table, verdict_line
from canary.runner import judge_path


@click.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--lane", default=None, help="Whose gates apply [default: the run's own lane].")
@click.option("--gates", default=None, help="Gates name or TOML path [default: the run's ferry, else moe-canary].")
@json_option
@handle_errors
def gate(path, lane, gates, as_json):
    """Evaluate the gates on PATH: a run directory, a per-step metrics.jsonl, or levanter's
    tracker_metrics.jsonl (flat `train/loss` or nested {"train": {"loss": ...}} keys).

    Exit status: 0 all gates pass, 1 a gate failed, 2 bad input.
    """
    lane_name, metrics, results = judge_path(path, lane, gates)
    for w in metrics.warnings:  # torn lines skipped, not fatal
        click.echo(f"canary: warning: {w}", err=True)
    verdict = gates_mod.verdict(results)
    if as_json:
        emit_json(jsonable({
            "path": str(path), "lane": lane_name, "verdict": verdict,
            "steps_completed": metrics.steps_completed, "final_loss": metrics.final_loss,
            "gates": [r.to_dict() for r in results],
        }))
    else:
        c = console()
        c.print(gates_table([r.to_dict() for r in results], title=f"gates for lane {lane_name}: {metrics.source}"))
        c.print(verdict_line(verdict, f"steps {fmt(metrics.steps_completed)}  final loss {fmt(metrics.final_loss)}"))
    sys.exit(0 if verdict == "pass" else 1)
