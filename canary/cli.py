"""The ``canary`` command: a thin click skin over the library.

Subcommands live one per module under ``canary.commands`` and are imported only when invoked,
so ``canary --help`` and the commands that need no training start without importing JAX.
"""

from __future__ import annotations

import importlib
import sys

import click

from canary import __version__

# name -> "module:attribute" of a click command
COMMANDS: dict[str, str] = {
    "run": "canary.commands.run:run",
    "gate": "canary.commands.gate:gate",
    "list": "canary.commands.list:list_",
    "signature": "canary.commands.signature:signature",
    "history": "canary.commands.history:history",
    "lower": "canary.commands.lower:lower",
    "repro": "canary.commands.repro:repro",
    "notify": "canary.commands.notify:notify",
    "doctor": "canary.commands.doctor:doctor",
    "report": "canary.commands.report:report",
    "bisect": "canary.commands.bisect:bisect",
    "golden": "canary.commands.golden:golden",
}

SHORT_HELP: dict[str, str] = {
    "run": "Train the ferry on a lane and judge it against the gates.",
    "gate": "Judge an existing run directory or levanter tracker_metrics.jsonl.",
    "list": "Show the ferries, lanes and gates that are defined.",
    "signature": "Fingerprint the failure in a log: kind, exception, message, call path.",
    "history": "Show recent runs and a pass/fail strip per lane from the history store.",
    "lower": "Lower a lane's train step for TPU/CUDA on this machine (kernel preflight).",
    "repro": "Reproduce a lane's cold compile: run it cold, or cross-lower it off its hardware.",
    "notify": "Tell GitHub about a recorded run: one issue per failure signature.",
    "doctor": "Check, without training, everything a lane's run needs (packages, cache, history, ...).",
    "report": "Render the history as one self-contained HTML page (timeline, charts, signatures).",
    "bisect": "Find the first bad commit between a good and a bad revision, in a temporary worktree.",
    "golden": "Record a lane's golden curve and tolerances, or diff a new recording against it.",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx, formatter):
        rows = [(name, SHORT_HELP.get(name, "")) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="canary")
def cli() -> None:
    """Keep a pinned tiny training run healthy on every accelerator lane.

    \b
    canary run cpu                 train the pinned MoE ferry locally and judge it
    canary gate runs/<run_id>      judge an existing run (or a tracker_metrics.jsonl)
    canary list                    ferries, lanes and their settings
    canary history --lane tpu      recent runs, streaks and a pass/fail strip
    canary signature train.log     fingerprint the failure in a log
    canary notify RUN --repo O/N   one GitHub issue per failure signature, exactly once
    canary doctor tpu              check a lane's setup before a scheduled run
    canary report --out r.html     the history as one HTML page: timeline, charts, signatures

    Exit status: 0 the canary passed, 1 it failed, 2 bad input.
    """
    # every numeric CANARY_* setting, checked once before any command reads one
    from canary.errors import ConfigError
    from canary.textio import check_environment, printable

    try:
        check_environment()
    except ConfigError as e:
        click.echo(f"canary: {printable(str(e))}", err=True)
        sys.exit(e.exit_code)


def main() -> None:
    """The console script. Ctrl-C anywhere says "interrupted" and exits 130, as a shell reports
    SIGINT (click alone would print "Aborted!" and exit 1); ``canary run`` records a stopped run
    first (:mod:`canary.formats.signals`). The process ends without the collector's last walk
    (:mod:`canary.shutdown`)."""
    from canary.shutdown import freeze_at_exit

    freeze_at_exit()
    try:
        rv = cli.main(standalone_mode=False)
    except click.exceptions.Abort as e:
        if isinstance(e.__context__, KeyboardInterrupt):
            click.echo("canary: interrupted", err=True)
            sys.exit(130)
        click.echo("Aborted!", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("canary: interrupted", err=True)
        sys.exit(130)
    except click.exceptions.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    sys.exit(rv if isinstance(rv, int) else 0)
