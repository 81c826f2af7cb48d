"""``canary gate PATH``: judge an existing run directory or a levanter tracker_metrics.jsonl."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from canary.judge import gates as gates_mod
from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._options import gates_option, lane_option
from canary.record import jsonable
from canary.render import console, fmt, gates_table, verdict_line
from canary.run.gate import judge_path


@click.command()
@click.argument("path", type=click.Path(path_type=Path))
@lane_option("Whose gates apply [default: the run's own lane, from its result.json "
             "or the config line of a tracker file canary wrote].")
@gates_option("the run's ferry, else moe-canary")
@json_option
@handle_errors
def gate(path, lane, gates, as_json):
    """Evaluate the gates on PATH: a run directory, a per-step metrics.jsonl, or levanter's
    tracker_metrics.jsonl (flat `train/loss` or nested {"train": {"loss": ...}} keys).

    A run is judged by the same rules from its directory or from its tracker file alone: canary's
    tracker file names the lane and the steps asked for, so a quick --steps run is judged as one.
    A bare per-step metrics.jsonl, or levanter's own tracker file, names neither: give --lane.

    Exit status: 0 all gates pass, 1 a gate failed, 2 bad input (including a file that is not JSON lines).
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
