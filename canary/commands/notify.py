"""``canary notify RUN``: tell GitHub about a recorded run, exactly once."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._options import history_option, notify_options
from canary.render import notify_result


@click.command()
@click.argument("run")
@click.option(
    "--runs",
    "runs_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("runs"),
    show_default=True,
    help="Where to look up RUN when it is a run id.",
)
@click.option(
    "--notify", "backend", type=click.Choice(["github"]), default="github", show_default=True, help="Where to say it."
)
@history_option()
@click.option("--no-history", is_flag=True, help="Read no history: the message leaves streak and window unknown.")
@notify_options
@json_option
@handle_errors
def notify(
    run, runs_dir, backend, history, no_history, repo, close_on_recovery, dry_run, bisect_budget, no_bisect, as_json
):
    """Tell GitHub about RUN (a run directory, its result.json, or a run id in --runs or the
    history): open an issue for a
    new failure signature, comment on the open issue of a recurring one, say "Recovered" on the
    first pass after failures. Every post carries a hidden marker, so notifying twice posts once.

    The token is read from GITHUB_TOKEN and the API from GITHUB_API_URL (GitHub Actions sets both).
    When GitHub cannot be reached the notification is kept beside the run record and sent by the
    next notify.

    With --dry-run nothing is posted: it reads the repository's canary issues (when there is
    anything to say) to decide as a real notify would, and prints the calls and the markdown.
    A host that does not resolve or refuses the connection is not retried: the notify says
    GitHub was unreachable within a second or two.

    A new signature is bisected when its regression window holds more than one commit and the
    failure can be tested here (`canary bisect`: a lowering error with `--test lower`, a cpu-lane
    failure with `--test run`), within --bisect-budget; the new issue names the first bad commit,
    or says the budget ran out and which commits it is among. --no-bisect turns this off.

    Exit status: 0 said (or nothing to say; a dry run that could read GitHub), 1 not sent now (kept
    for the next notify), or a dry run that could not read GitHub: it shows what it would post as if
    the repository had no canary issues, which is a guess (a recurrence would comment on its open
    issue instead), so it does not exit 0; 2 bad input.
    """
    from canary.history import load_record
    from canary.notify.after_run import NotifyOptions, require_repo, require_token, tell
    from canary.notify.facts import open_history

    store, why_not = open_history(history, not no_history)
    record = load_record(run, runs_dir, store, why_not)
    require_repo(repo)
    require_token(dry_run)
    opts = NotifyOptions(
        repo=repo,
        backend=backend,
        close_on_recovery=close_on_recovery,
        dry_run=dry_run,
        no_bisect=no_bisect,
        bisect_budget=bisect_budget,
    )
    result = tell(record, opts, store, why_not, log=lambda msg: click.echo(f"canary: {msg}", err=True))
    if as_json:
        emit_json(result.to_dict())
    else:
        notify_result(result)
    sys.exit(0 if result.ok else 1)
