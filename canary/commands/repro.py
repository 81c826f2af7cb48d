"""``canary repro LANE``: reproduce a lane's cold compile here (a cold run, or a cross-lowering)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._kernel import kernel_options
from canary.commands._options import ferry_option
from canary.render import cache_line, console, gates_table, lowering_report, verdict_line


@click.command()
@click.argument("lane")
@click.option(
    "--cold/--warm",
    default=True,
    show_default=True,
    help="Bypass the compilation cache (the point of a repro), or use it to compare.",
)
@click.option(
    "--both",
    is_flag=True,
    help="Train cold, then warm, and compare the losses bit for bit and the cache hits "
    "(a difference fails as cache_inconsistency).",
)
@click.option(
    "--steps",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Steps to run where the lane's hardware is present.",
)
@ferry_option()
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("runs"),
    show_default=True,
    help="Where the run directory is created.",
)
@kernel_options
@click.option("--cache-dir", default=None, metavar="URL", help="Cache directory for --warm.")
@json_option
@handle_errors
def repro(lane, cold, both, steps, ferry, out, ragged_dot, tiling, cache_dir, as_json):
    """Compile LANE's train step fresh, with the persistent compilation cache bypassed, and run a
    few steps, where the lane's hardware is present. Where it is not, say so and cross-lower the
    train step for the lane's platform instead (what `canary lower --lane LANE` does).

    The verdict: the step compiled and ran with finite losses (a few steps cannot meet a
    final-loss gate). Exit status: 0 pass, 1 fail, 2 bad input.
    """
    from canary.run.repro import reproduce

    result = reproduce(
        lane,
        cold=cold,
        steps=steps,
        ferry=ferry,
        out=out,
        ragged_dot=ragged_dot,
        tiling=tiling,
        cache_dir=cache_dir,
        progress=None,
        both=both,
    )
    if as_json:
        emit_json(result.to_dict())
    else:
        c = console()
        if not result.hardware.present:
            c.print(f"[bold yellow]{result.message}[/]", highlight=False)
            lowering_report(result.lowering, c)
            c.print("cache: not used (a lowering compiles nothing, so nothing is read or written)")
        else:
            run = result.run
            c.print(gates_table(result.gates, title=f"repro of lane {result.lane} ({run['run_id']})", width=c.width))
            if run.get("error"):
                c.print("[bold red]training failed:[/]")
                c.print(run["error"], markup=False, highlight=False)
            if result.cache:
                c.print(cache_line(result.cache), highlight=False)
            c.print(f"[dim]run directory: {run['run_dir']}[/]")
        c.print(verdict_line(result.verdict, result.message), highlight=False)
    sys.exit(0 if result.verdict == "pass" else 1)
