"""``canary doctor LANE``: check, without training, everything the lane's run needs."""

from __future__ import annotations

import sys

import click
from rich.markup import escape

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._options import ferry_option, history_option
from canary.doctor import DoctorOptions, diagnose
from canary.render import console


@click.command()
@click.argument("lane")
@ferry_option(metavar="NAME|PATH", help="The run's ferry: the history and git checks read its series (lane, ferry).")
@history_option()
@click.option("--cache-dir", default=None, metavar="URL", help="The run's compilation cache [default: the lane's].")
@click.option(
    "--ray-address",
    default=None,
    metavar="URL",
    help="A ray lane's job server [default: RAY_ADDRESS, else the lane's].",
)
@click.option(
    "--notify",
    "notify",
    type=click.Choice(["github"]),
    default=None,
    help="The run notifies GitHub: check the token and the repository.",
)
@click.option("--repo", default=None, help="OWNER/NAME to notify [default: $GITHUB_REPOSITORY].")
@json_option
@handle_errors
def doctor(lane, ferry, history, cache_dir, ray_address, notify, repo, as_json):
    """Check everything LANE's run needs, without training: packages (the lane's extras),
    cache (a probe object written to and deleted from the compilation cache), history (read, and
    a probe write), launcher (the Ray job server answers, or the command is found), github (when
    --notify github: the token is set and the repository answers), git (the checkout reaches
    back to the last pass's commit, or can fetch it) and, for a TPU lane, libtpu (installed and
    paired with the installed JAX). Give it the flags the run gets.

    Exit status: 0 every check passed, 1 a check failed, 2 bad input.
    """
    report = diagnose(
        DoctorOptions(
            lane=lane,
            ferry=ferry,
            cache_dir=cache_dir,
            history=history,
            ray_address=ray_address,
            notify=notify,
            repo=repo,
        )
    )
    if as_json:
        emit_json(report.to_dict())
    else:
        out = console()
        for c in report.checks:
            mark = "[green]ok  [/]" if c.ok else "[red]FAIL[/]"
            out.print(f"{mark} {c.name:<9} {escape(c.detail)}", highlight=False)
            if not c.ok and c.fix:
                out.print(f"     {'':<9} fix: {escape(c.fix)}", highlight=False)
        out.print(f"{report.lane}: " + ("[green]ready[/]" if report.ok else "[red]not ready[/]"))
    sys.exit(0 if report.ok else 1)
