"""The options several commands share, each declared once: --history, --ferry, --gates, --lane and
--out and the notify flags. A command says only what the option means for it where that differs (which
lane, what the default is)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from canary.errors import ConfigError

if TYPE_CHECKING:
    from canary.notify.after_run import NotifyOptions

HISTORY_DEFAULT = "$CANARY_HISTORY, else SQLite in the user data dir"


def history_option(default: str = HISTORY_DEFAULT) -> Callable:
    """``--history``: the run history (``default``: what is used without it)."""
    return click.option(
        "--history",
        "history",
        default=None,
        metavar="PATH|gs://BUCKET/PREFIX",
        help=f"The run history: a SQLite file or a gs:// prefix [default: {default}].",
    )


def out_option(help: str = "Where run directories are created.") -> Callable:  # noqa: A002 - click's own keyword
    """``--out``: where run directories are created (default ``runs``)."""
    from pathlib import Path

    return click.option(
        "--out", type=click.Path(file_okay=False, path_type=Path), default=Path("runs"), show_default=True, help=help
    )


def ferry_option(
    default: str | None = "moe-canary",
    note: str = "",
    more: str = "",
    *,
    help: str | None = None,  # noqa: A002
    metavar: str | None = None,
) -> Callable:
    """``--ferry``: a ferry's name (in ferries/) or a ferry TOML's path (``note``: the default in
    words, where it is not a name; ``more``: what else the command says of it; ``help``: what it
    means instead, for a command that picks runs by ferry)."""
    shown = f" [default: {note}]" if note else ""
    return click.option(
        "--ferry",
        default=default,
        show_default=default is not None and not note,
        metavar=metavar,
        help=help or f"Ferry name (in ferries/) or path to a ferry TOML{more}{shown}.",
    )


def gates_option(default_note: str = "the ferry's name") -> Callable:
    """``--gates``: a gates file's name (in gates/) or path."""
    return click.option("--gates", default=None, help=f"Gates name or TOML path [default: {default_note}].")


def lane_option(help: str) -> Callable:  # noqa: A002 - click's own keyword
    """``--lane`` (optional; ``help`` says which lane it picks for this command)."""
    return click.option("--lane", default=None, help=help)


def repo_option(fn: Callable) -> Callable:
    return click.option(
        "--repo",
        default=lambda: os.environ.get("GITHUB_REPOSITORY"),
        help="OWNER/NAME of the repository to file issues in [default: $GITHUB_REPOSITORY].",
    )(fn)


def notify_options(fn: Callable) -> Callable:
    """Flags shared by ``canary notify`` and ``canary run --notify``."""
    fn = click.option("--no-bisect", is_flag=True, help="Do not bisect a new signature's regression window.")(fn)
    fn = click.option(
        "--bisect-budget",
        type=click.FloatRange(min=1),
        default=None,
        metavar="SECONDS",
        help="A new signature whose window holds several commits and whose failure can be tested "
        "here (a lowering error, a cpu-lane failure) is bisected for at most this long; the "
        "issue names the first bad commit [default: 600].",
    )(fn)
    fn = click.option(
        "--dry-run", is_flag=True, help="Print the markdown and the API calls it would make; post nothing."
    )(fn)
    fn = click.option(
        "--close-on-recovery", is_flag=True, help="Close an issue when the first pass after its failures is reported."
    )(fn)
    return repo_option(fn)


def run_notify_options(fn: Callable) -> Callable:
    """``canary run``'s notify flags."""
    fn = notify_options(fn)
    return click.option(
        "--notify",
        "notify_backend",
        type=click.Choice(["github"]),
        default=None,
        help="After the run, tell GitHub: an issue per failure signature, a comment per "
        "recurrence, a recovery comment. Never changes the verdict or the exit status.",
    )(fn)


def run_notify(opts: dict) -> NotifyOptions | None:
    """What ``canary run`` is to notify (None: nothing); bad notify flags are bad input before any training."""
    if opts["notify_backend"] is None:
        used = [
            flag
            for flag, key in (
                ("--dry-run", "dry_run"),
                ("--close-on-recovery", "close_on_recovery"),
                ("--no-bisect", "no_bisect"),
                ("--bisect-budget", "bisect_budget"),
            )
            if opts[key]
        ]
        if used:
            raise ConfigError(f"{' and '.join(used)} only appl{'y' if len(used) > 1 else 'ies'} with --notify github")
        return None
    from canary.notify.after_run import NotifyOptions, check

    chosen = NotifyOptions(
        repo=opts["repo"],
        backend=opts["notify_backend"],
        close_on_recovery=opts["close_on_recovery"],
        dry_run=opts["dry_run"],
        no_bisect=opts["no_bisect"],
        bisect_budget=opts["bisect_budget"],
    )
    check(chosen)
    return chosen
