"""``canary notify RUN``: tell GitHub about a recorded run, exactly once; ``--pending``,
``--resend`` and ``--drop``: the notifications that wait."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._options import history_option, notify_options
from canary.errors import ConfigError
from canary.render import notify_result

HELP = """Tell GitHub about RUN (a run directory, its result.json, or a run id in --runs or the
history): open an issue for a
new failure signature, comment on the open issue of a recurring one, say "Recovered" on the
first pass after failures. Every post carries a hidden marker, so notifying twice posts once.

The token is read from GITHUB_TOKEN and the API from GITHUB_API_URL (GitHub Actions sets both).
When GitHub cannot be reached the notification is kept beside the run record and sent by the
next notify. The notification is written before it is sent: a notify stopped by SIGTERM keeps
it and exits 143 (130 for SIGINT, 129 for SIGHUP); one killed outright leaves it to the next.

Notifications that wait are resent first, each on its own: one that fails never stops the
others or this run's. What GitHub refuses for good (404, 401, 422, another 4xx that is no rate
limit) is kept as given up and not resent by itself; only notifications this canary spooled,
for --repo, are resent by themselves. --pending lists them (state, repository, last error),
--resend RUN_ID sends one now to --repo (given up or not), --drop RUN_ID removes one; `all`
names every one.

With --dry-run nothing is posted: it reads the repository's canary issues (when there is
anything to say) to decide as a real notify would, and prints the calls and the markdown.
A host that does not resolve or refuses the connection is not retried: the notify says
GitHub was unreachable within a second or two.

A new signature is bisected when its regression window holds more than one commit and the
failure can be tested here (`canary bisect`: a lowering error with `--test lower`, a cpu-lane
failure with `--test run`), within --bisect-budget; the new issue names the first bad commit,
or says the budget ran out and which commits it is among. --no-bisect turns this off.

Exit status: 0 said (or nothing to say; a dry run that could read GitHub; --pending, --drop
done; --resend sent them all), 1 not sent now (kept for the next notify), or a dry run that
could not read GitHub: it shows what it would post as if the repository had no canary issues,
which is a guess (a recurrence would comment on its open issue instead), so it does not exit 0;
2 bad input; 128 + the signal's number when stopped by one while notifying.
"""


@click.command(help=HELP)
@click.argument("run", required=False)
@click.option(
    "--runs",
    "runs_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("runs"),
    show_default=True,
    help="Where to look up RUN when it is a run id, and for notifications that wait.",
)
@click.option(
    "--notify", "backend", type=click.Choice(["github"]), default="github", show_default=True, help="Where to say it."
)
@click.option(
    "--pending",
    is_flag=True,
    help="List the notifications that wait (in --runs, the spool and the history); send nothing.",
)
@click.option(
    "--resend",
    multiple=True,
    metavar="RUN_ID|all",
    help="Send these waiting notifications now, given-up ones too, to --repo (repeatable).",
)
@click.option(
    "--drop", multiple=True, metavar="RUN_ID|all", help="Remove these waiting notifications unsent (repeatable)."
)
@history_option()
@click.option("--no-history", is_flag=True, help="Read no history: the message leaves streak and window unknown.")
@notify_options
@json_option
@handle_errors
def notify(
    run,
    runs_dir,
    backend,
    pending,
    resend,
    drop,
    history,
    no_history,
    repo,
    close_on_recovery,
    dry_run,
    bisect_budget,
    no_bisect,
    as_json,
):
    from canary.formats import signals
    from canary.history import load_record
    from canary.notify.after_run import NotifyOptions, check, notify_run, run_facts
    from canary.notify.facts import open_history

    chosen = [
        what for what, given in (("RUN", run), ("--pending", pending), ("--resend", resend), ("--drop", drop)) if given
    ]
    if len(chosen) != 1:
        raise ConfigError(
            "give RUN, or one of --pending, --resend RUN_ID, --drop RUN_ID"
            + (f" (not {' and '.join(chosen)})" if chosen else "")
        )
    store, why_not = open_history(history, not no_history)
    log = lambda msg: click.echo(f"canary: {msg}", err=True)  # noqa: E731
    if run is None:
        return _backlog(runs_dir, store, pending, resend, drop, repo, dry_run, as_json, log)
    record = load_record(run, runs_dir, store, why_not)
    opts = NotifyOptions(
        repo=repo,
        backend=backend,
        close_on_recovery=close_on_recovery,
        dry_run=dry_run,
        no_bisect=no_bisect,
        bisect_budget=bisect_budget,
    )
    check(opts)
    with signals.interruptible():
        result = notify_run(record, opts, run_facts(record, store, why_not), store, log=log)
    if as_json:
        emit_json(result.to_dict())
    else:
        notify_result(result)
    sys.exit(signals.exit_code(result.stopped) if result.stopped else 0 if result.ok else 1)


def _backlog(runs_dir, store, pending, resend, drop, repo, dry_run, as_json, log) -> None:
    from canary.formats import signals
    from canary.notify import backlog, notify, spool
    from canary.notify.after_run import require_repo, require_token
    from canary.render import console, pending_table

    entries, unreadable = backlog.gather([runs_dir, spool.default_root()], store)
    if pending:
        rows = backlog.listing(entries, repo)
        if as_json:
            emit_json({"pending": rows, "unreadable": unreadable})
        else:
            pending_table(rows, unreadable, console())
        sys.exit(0)
    if drop:
        dropped = backlog.drop(backlog.select(entries, drop), store)
        if as_json:
            emit_json({"dropped": dropped})
        else:
            click.echo(f"dropped the notification of {len(dropped)} run(s): {', '.join(dropped) or 'none'}")
        sys.exit(0)
    if dry_run:
        raise ConfigError("--dry-run applies to RUN, not to --resend")
    chosen = backlog.select(entries, resend)
    require_token(False)
    with signals.interruptible():
        result = notify(None, repo=require_repo(repo), store=store, log=log, resend=chosen)
    if as_json:
        emit_json(result.to_dict())
    else:
        notify_result(result)
    sys.exit(signals.exit_code(result.stopped) if result.stopped else 0 if result.delivered or not chosen else 1)
