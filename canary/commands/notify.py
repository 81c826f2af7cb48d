"""``canary notify RUN``: tell GitHub about a recorded run, exactly once."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from canary.commands._common import emit_json, handle_errors, json_option
from canary.errors import ConfigError
from canary.textio import read_json_object
from canary.record import RunRecord
from canary.render import console

if TYPE_CHECKING:
    from canary.history import HistoryStore

RESULT_FILE = "result.json"


def repo_option(fn):
    return click.option("--repo", default=lambda: os.environ.get("GITHUB_REPOSITORY"),
                        help="OWNER/NAME of the repository to file issues in [default: $GITHUB_REPOSITORY].")(fn)


def notify_options(fn):
    """Flags shared by ``canary notify`` and ``canary run --notify``."""
    fn = click.option("--no-bisect", is_flag=True, help="Do not bisect a new signature's regression window.")(fn)
    fn = click.option("--bisect-budget", type=click.FloatRange(min=1), default=None, metavar="SECONDS",
                      help="A new signature whose window holds several commits and whose failure can be tested "
                           "here (a lowering error, a cpu-lane failure) is bisected for at most this long; the "
                           "issue names the first bad commit [default: 600].")(fn)
    fn = click.option("--dry-run", is_flag=True,
                      help="Print the markdown and the API calls it would make; post nothing.")(fn)
    fn = click.option("--close-on-recovery", is_flag=True,
                      help="Close an issue when the first pass after its failures is reported.")(fn)
    return repo_option(fn)


def run_notify_options(fn):
    """``canary run``'s notify flags."""
    fn = notify_options(fn)
    return click.option("--notify", "notify_backend", type=click.Choice(["github"]), default=None,
                        help="After the run, tell GitHub: an issue per failure signature, a comment per "
                             "recurrence, a recovery comment. Never changes the verdict or the exit status.")(fn)


def check_run_notify(opts: dict) -> bool:
    """True when ``canary run`` is to notify; bad notify flags are bad input before any training."""
    if opts["notify_backend"] is None:
        used = [flag for flag, key in (("--dry-run", "dry_run"), ("--close-on-recovery", "close_on_recovery"),
                                       ("--no-bisect", "no_bisect"), ("--bisect-budget", "bisect_budget"))
                if opts[key]]
        if used:
            raise ConfigError(f"{' and '.join(used)} only appl{'y' if len(used) > 1 else 'ies'} with --notify github")
        return False
    from canary.notify.github import GitHubClient, RetryPolicy

    GitHubClient(require_repo(opts["repo"]), None, retry=RetryPolicy.from_env())  # validates the names
    require_token(opts["dry_run"])
    return True


def bisect_hook(no_bisect: bool, budget_s: float | None):
    """The notifier's bisect of a new signature (None: off)."""
    if no_bisect:
        return None
    from canary.notify.bisecting import DEFAULT_BUDGET_S, bisector

    return bisector(budget_s or DEFAULT_BUDGET_S, log=lambda msg: click.echo(f"canary: {msg}", err=True))


def notify_after_run(record: RunRecord, opts: dict, history: str | None, use_history: bool):
    """Notify about a finished run. Never raises: whatever happens, the run's verdict stands."""
    from canary.notify import Delivery, NotifyResult
    from canary.notify import notify as notify_lib
    from canary.notify.facts import facts_from_store, open_history

    try:
        store, why_not = open_history(history, use_history)
        return notify_lib(record, facts=facts_from_store(record, store, why_not), store=store, repo=opts["repo"],
                          backend=opts["notify_backend"],
                          close_on_recovery=opts["close_on_recovery"], dry_run=opts["dry_run"],
                          log=lambda msg: click.echo(f"canary: {msg}", err=True),
                          bisect=bisect_hook(opts["no_bisect"], opts["bisect_budget"]))
    except Exception as e:  # noqa: BLE001 - a notifier bug must not turn into a failed canary
        from canary.notify import failure, keep

        error = failure(e)
        kept = None if opts["dry_run"] else keep(record, opts["repo"], opts["notify_backend"], error,
                                                 opts["close_on_recovery"])
        if kept is None:
            return NotifyResult([Delivery(record.run_id, "failed", error=error)])
        return NotifyResult([Delivery(record.run_id, "spooled", error=error, spool_path=kept)])


def require_token(dry_run: bool) -> None:
    """GITHUB_TOKEN is set (unless a dry run) and usable as a header; GITHUB_API_URL is http(s)."""
    from canary.notify.settings import API_URL_VAR, check_api_url, check_token

    check_token(os.environ.get("GITHUB_TOKEN"))
    if os.environ.get(API_URL_VAR):
        check_api_url(os.environ[API_URL_VAR])
    if not dry_run and not os.environ.get("GITHUB_TOKEN"):
        raise ConfigError("set GITHUB_TOKEN to a token that may write issues (in GitHub Actions: "
                          "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }} with permissions issues: write), or use --dry-run")


def require_repo(repo: str | None) -> str:
    if not repo:
        raise ConfigError("say which repository to notify with --repo OWNER/NAME (or set GITHUB_REPOSITORY)")
    return repo


def load_record(run: str, runs_dir: Path, store: "HistoryStore | None" = None, why_not: str = "") -> RunRecord:
    """A run by its directory, its result.json, its id under ``runs_dir``, or its id in the history."""
    p = Path(run)
    candidates = [p / RESULT_FILE, p] if p.suffix == ".json" or p.exists() else []
    candidates.append(runs_dir / run / RESULT_FILE)
    for c in candidates:
        if c.is_file():
            try:
                record = RunRecord.from_dict(read_json_object(c))
            except (ValueError, TypeError, KeyError) as e:
                raise ConfigError(f"{c}: not a canary run record ({e})") from None
            record.run_dir = str(c.resolve().parent)  # where it is now: a pending notification waits here
            return record
    if store is not None and "/" not in run:
        try:
            record = store.get(run)
        except Exception as e:  # noqa: BLE001 - any storage failure is reported as such
            why_not = f"the history cannot be read: {type(e).__name__}: {e}"
        else:
            if record is not None:
                return record
    raise ConfigError(f"no run {run!r}: give a run directory, its result.json, or a run id under {runs_dir} "
                      "or in the history" + (f" ({why_not})" if why_not else ""))


def render_result(result, as_json: bool) -> None:
    if as_json:
        emit_json(result.to_dict())
        return
    from rich.markup import escape

    out = console()
    for d in result.deliveries:
        label = f"run {d.run_id}" + (" (spooled earlier)" if d.resent else "")
        if d.status == "dry-run":
            # plain echo, not rich: the markdown is printed byte for byte as it would be posted
            if d.error:
                what = "GitHub was unreachable" if d.unreachable else "GitHub could not be read"
                click.echo(f"dry run for {label}: {what}, nothing was posted; deciding as if the repository "
                           "had no canary issues, these calls would be made (a guess, so the exit status is 1: "
                           "with the open issues read, a recurrence comments instead of opening one)")
            elif not d.calls:
                click.echo(f"dry run for {label}: nothing to say, so GitHub was not contacted")
            else:
                click.echo(f"dry run for {label}: nothing was posted; these calls would be made")
            for call in d.calls:
                click.echo(f"  {call}")
            for i, m in enumerate(d.messages, 1):
                click.echo(f"\n--- markdown {i}: {m['call']}" + (f"  title: {m['title']}" if m["title"] else ""))
                click.echo(m["body"], nl=False)
        elif d.status == "failed":
            out.print(f"[red]notify failed[/] for {label}: {d.error} (the verdict stands)", highlight=False)
        elif d.status == "spooled":
            out.print(f"[yellow]not sent[/] {label}: {escape(d.error or '')}", highlight=False)
            out.print(f"  kept in {d.spool_path}; the next notify sends it", highlight=False)
        else:
            if not d.actions:
                out.print(f"{label}: nothing to say")
            for a in d.actions:
                out.print(f"{label}: {a.kind} #{a.issue} {a.url or ''} {a.detail}".rstrip(), highlight=False)


@click.command()
@click.argument("run")
@click.option("--runs", "runs_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("runs"),
              show_default=True, help="Where to look up RUN when it is a run id.")
@click.option("--notify", "backend", type=click.Choice(["github"]), default="github", show_default=True,
              help="Where to say it.")
@click.option("--history", "history", default=None, metavar="PATH|gs://BUCKET/PREFIX",
              help="The run history the streak, window and recoveries are computed from "
                   "[default: $CANARY_HISTORY, else SQLite in the user data dir].")
@click.option("--no-history", is_flag=True, help="Read no history: the message leaves streak and window unknown.")
@notify_options
@json_option
@handle_errors
def notify(run, runs_dir, backend, history, no_history, repo, close_on_recovery, dry_run, bisect_budget, no_bisect,
           as_json):
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
    from canary.notify import notify as notify_lib
    from canary.notify.facts import facts_from_store, open_history

    store, why_not = open_history(history, not no_history)
    record = load_record(run, runs_dir, store, why_not)
    require_repo(repo)
    require_token(dry_run)
    result = notify_lib(record, facts=facts_from_store(record, store, why_not), store=store, repo=repo,
                        backend=backend,
                        close_on_recovery=close_on_recovery, dry_run=dry_run,
                        log=lambda msg: click.echo(f"canary: {msg}", err=True),
                        bisect=bisect_hook(no_bisect, bisect_budget))
    render_result(result, as_json)
    sys.exit(0 if result.ok else 1)
