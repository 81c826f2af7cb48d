"""``canary gate PATH``: judge an existing run directory or a levanter tracker_metrics.jsonl."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._options import gates_option, lane_option
from canary.judge.results import verdict as verdict_of
from canary.record import jsonable
from canary.render import console, fmt, gates_table, verdict_line
from canary.run.gate import judge_path


@click.command()
@click.argument("path", type=click.Path(path_type=Path))
@lane_option(
    "Whose gates apply [default: the run's own lane, from its result.json "
    "or the config line of a tracker file canary wrote]."
)
@gates_option("the run's ferry, else moe-canary")
@json_option
@handle_errors
def gate(path, lane, gates, as_json):
    """Evaluate the gates on PATH: a run directory, a per-step metrics.jsonl, or levanter's
    tracker_metrics.jsonl (flat `train/loss` or nested {"train": {"loss": ...}} keys).

    A run is judged as `canary run` judged it, whatever the door: a metrics.jsonl or tracker file
    inside a run directory is read as that run (its record, summary and recorded gates), and a
    tracker file canary wrote names the lane and the steps asked for, so a quick --steps run is
    judged as one. A bare per-step metrics.jsonl, or levanter's own tracker file, names neither:
    give --lane; its throughput is its fastest step after the first, as a run's is. The header
    names the gates file used (without --gates: the one the run recorded, else the ferry's).

    Exit status: 0 all gates pass, 1 a gate failed, 2 bad input (including a file that is not JSON lines).
    """
    judged = judge_path(path, lane, gates)
    metrics, results = judged.metrics, judged.results
    for w in metrics.warnings:  # torn lines skipped, not fatal
        click.echo(f"canary: warning: {w}", err=True)
    verdict = verdict_of(results)
    if as_json:
        emit_json(
            jsonable(
                {
                    "path": str(path),
                    "lane": judged.lane,
                    "verdict": verdict,
                    "gates_file": str(judged.gates_path),
                    "notes": judged.notes,
                    "steps_completed": metrics.steps_completed,
                    "final_loss": metrics.final_loss,
                    "gates": [r.to_dict() for r in results],
                }
            )
        )
    else:
        c = console()
        for note in judged.notes:
            c.print(f"[yellow]note:[/] {escape(note)}", highlight=False)
        c.print(
            gates_table(
                [r.to_dict() for r in results],
                width=c.width,
                title=f"gates for lane {judged.lane} from {judged.gates_path}: {metrics.source}",
            )
        )
        c.print(verdict_line(verdict, f"steps {fmt(metrics.steps_completed)}  final loss {fmt(metrics.final_loss)}"))
    sys.exit(0 if verdict == "pass" else 1)
