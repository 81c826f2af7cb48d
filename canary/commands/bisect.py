"""``canary bisect``: name the first bad commit between a good and a bad revision."""

from __future__ import annotations

import sys

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._options import ferry_option, lane_option
from canary.render import console

VERDICT_STYLE = {"good": "bold green", "bad": "bold red", "skip": "bold yellow"}


class RichProgress:
    """A bar on stderr: revisions tested of roughly how many, and the one under test."""

    def __init__(self, p: Progress, what: str = "commits"):
        self.p, self.task, self.done, self.what = p, None, 0, what
        self.preparation = None

    def preparing(self, what):
        if self.preparation is None:
            self.preparation = self.p.add_task("preparing", total=None, now="")
        self.p.update(self.preparation, now=what[:100])

    def started(self, commits, estimate):
        if self.preparation is not None:
            self.p.remove_task(self.preparation)
        self.task = self.p.add_task(f"bisecting {commits} {self.what}", total=estimate, now="")

    def testing(self, sha, subject, role):
        rev = sha if self.what == "versions" else sha[:12]
        self.p.update(self.task, now=f"{role or 'testing'} {rev} {subject[:50]}")

    def tested(self, step, left):
        self.done += 1
        self.p.update(self.task, completed=self.done, total=max(self.done + left, self.done))


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def render(result, c) -> None:
    versions = hasattr(result, "versions")
    if versions:
        title = (
            f"bisect of {', '.join(result.packages)} {result.old}..{result.new} ({len(result.versions)} "
            f"versions) on lane {result.lane} with `canary {result.test}`, Python {result.python_version}"
        )
    else:
        title = (
            f"bisect of lane {result.lane} with `canary {result.test}`: {result.good[:12]}..{result.bad[:12]} "
            f"({result.commits} commits)"
        )
    t = Table(title=title, title_justify="left")
    what = "version" if versions else "commit"
    for col in ("#", what, "installed" if versions else "subject", "verdict", "seconds", "detail"):
        t.add_column(col, no_wrap=col in ("#", what, "seconds"), justify="right" if col == "seconds" else "left")
    for i, s in enumerate(result.log, 1):
        verdict = f"[{VERDICT_STYLE[s.verdict]}]{s.verdict}[/]" + (f" [dim]({s.role})[/]" if s.role else "")
        t.add_row(
            str(i),
            s.sha if versions else s.sha[:12],
            _cut(s.subject, 40),
            verdict,
            f"{s.seconds:.1f}",
            _cut(s.detail, 100),
            end_section=bool(s.role),
        )
    c.print(t)
    summary = f"{result.tested} tested, {len(result.skipped)} skipped, {result.seconds:.1f} s"
    if versions:
        c.print(
            f"[dim]Python {result.python_version} ({result.python}); moving together: "
            f"{', '.join(result.moved)}; environment {result.environment}[/]",
            highlight=False,
        )
    for end in getattr(result, "untestable", ()):
        instead = (
            f"; {end['stand_in']} stands in for it, the {'oldest' if end['end'] == 'old' else 'newest'} that can be"
            if end["stand_in"]
            else ""
        )
        untested = f" ({len(end['untested'])} between them stepped over untested)" if end["untested"] else ""
        c.print(
            f"[bold yellow]--{end['end']} {end['version']}[/] {_cut(end['error'], 200)}{instead}{untested}",
            highlight=False,
        )
    if result.found and versions:
        which = "first bad version" if result.first_bad else "first fixed version"
        c.print(f"[bold]{which}:[/] {result.first} ({result.subject})", highlight=False)
    elif result.found:
        c.print(f"[bold]first bad commit:[/] {result.first_bad} {result.subject}", highlight=False)
    else:
        c.print(
            f"[bold red]no first {'version' if versions else 'bad commit'} named:[/] {result.reason}", highlight=False
        )
        for sha in result.candidates[:20]:
            c.print(f"  candidate {sha}", highlight=False)
        if len(result.candidates) > 20:
            c.print(f"  ... and {len(result.candidates) - 20} more")
    c.print(f"[dim]{summary}[/]")


HELP = """Find the first commit between --good and --bad that breaks LANE, with no person in the loop;
    or, with --package, the first published version between --old and --new whose verdict differs.

    It drives `git bisect` in a temporary worktree (`git worktree add --detach`, removed after):
    your checkout, its HEAD and its files are never touched. Each revision is tested with its own
    code: `python -m canary ...` runs in the worktree with it as PYTHONPATH, so the package, the
    ferry and the lanes at that revision are what runs.

    \b
    --test lower  `canary lower --lane LANE`: bad when the train step fails to lower for the
                  lane's platform (seconds, any CPU). The test for compile and lowering errors.
    --test run    `canary run LANE --no-history` on a local cpu lane: bad only when the run
                  fails with the same signature fingerprint as the failing run. A revision that
                  fails differently cannot show whether this bug is there (another failure came
                  first), so it is skipped; --other-failure good counts it as good ("not this
                  bug", as git bisect would) when the other failure is known to come later.

    Both ends are tested first: the failure must reproduce at --bad, and a --good that fails the
    same way means the bug is older than the window. A revision that cannot be tested (canary
    exits 2 there, e.g. a ferry that does not validate, or prints no result: an import error, a
    missing dependency) is skipped, as `git bisect skip` does.

    \b
    Published versions (--package NAME --old V1 --new V2 [--python PY]): the candidates are the
    versions the registry publishes for that Python from V1 to V2, .dev builds included, in PEP 440
    order. One venv per Python holds canary's requirements and V2's dependencies (built once, in the
    user cache dir); each candidate's wheels are laid over it, first on PYTHONPATH, the packages
    given moving together with every distribution they pin to their own version. This canary runs
    the test inside each candidate's environment, judged as above (a lowering failure too is told
    apart by its fingerprint). It names the first version whose verdict differs from V1's: the
    first bad version when V1 passes, the first fixed one when V1 fails. A version that cannot be
    installed or imported is skipped; when an end cannot be, a binary search steps inward from it
    to the nearest version that can, which stands in for it (the versions stepped over are listed
    as skipped). The cache keeps the 3 most recently used venvs and removes older ones (never one
    that a running bisect is using).

    --json prints first_bad (the full sha, or null), subject, tested (revisions tested), skipped
    (their shas), seconds, log (one entry per revision: sha, subject, verdict, seconds, detail,
    role), reason, exhausted, candidates. A version bisect prints the same keys with versions for
    shas (first_bad is null for a fix), and adds first (the version named), first_fixed, direction
    (regression or fix), old, new, packages, moved, python, python_version, environment, versions,
    unpublished and untestable (each end that cannot be tested: end, version, error, stand_in, and
    untested: the versions stepped over without a test).

    Exit status: 0 the first bad commit (or differing version) was named, 1 it was not (only
    skipped ones left, the failure does not reproduce at --bad, both ends agree, or the budget ran
    out), 2 bad input (an unknown revision, --good not an ancestor of --bad, an unknown lane, an
    unknown package or version, no such Python).
"""


@click.command(help=HELP)
@lane_option("The failing lane [default: the --run's].")
@click.option("--good", default=None, metavar="REV", help="A revision where the lane passed (the last pass).")
@click.option("--bad", default=None, metavar="REV", help="A revision where it fails (the first failure).")
@click.option(
    "--package",
    "packages",
    multiple=True,
    metavar="NAME",
    help="Bisect published versions of this distribution instead of commits; repeat for several that move together.",
)
@click.option("--old", default=None, metavar="VERSION", help="--package: the older end of the version window.")
@click.option("--new", default=None, metavar="VERSION", help="--package: the newer end of the version window.")
@click.option(
    "--python",
    "python",
    default=None,
    metavar="PY",
    help="--package: the interpreter of the environments: a path, a command or a version such as "
    "3.12 [default: this one, else the newest found that is offered both ends].",
)
@click.option(
    "--cache",
    "cache",
    default=None,
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="--package: where the environments and wheels are kept (the 3 most recently used venvs; "
    "older ones are removed) [default: the user cache dir].",
)
@click.option(
    "--test",
    "test",
    type=click.Choice(["lower", "run"]),
    default=None,
    help="lower: cross-lower the lane's train step; run: train the cpu lane [default: lower, or what "
    "the --run's failure needs].",
)
@ferry_option(None, note="the --run's, else moe-canary", more=" (each revision's own ferries/)")
@click.option(
    "--fingerprint",
    default=None,
    help="The signature fingerprint that counts as bad [default: the --run's, else the one the failing end shows].",
)
@click.option(
    "--run",
    "run",
    default=None,
    metavar="RUN_DIR",
    help="The failing run (directory, result.json or run id): its lane, fingerprint and test.",
)
@click.option(
    "--steps",
    type=click.IntRange(min=1),
    default=None,
    help="run: train this many steps [default: the --run's, else the lane's].",
)
@click.option(
    "--other-failure",
    type=click.Choice(["skip", "good"]),
    default="skip",
    show_default=True,
    help="run, and lower over versions: what one that fails with another signature counts as.",
)
@click.option(
    "--budget",
    "budget_s",
    type=click.FloatRange(min=1),
    default=None,
    metavar="SECONDS",
    help="Stop after this long and name the commits the first bad one is among [default: no limit].",
)
@click.option(
    "-C",
    "--checkout",
    default=".",
    show_default=True,
    type=click.Path(file_okay=False),
    help="The git checkout whose history is bisected.",
)
@json_option
@handle_errors
def bisect(
    lane,
    good,
    bad,
    packages,
    old,
    new,
    python,
    cache,
    test,
    ferry,
    fingerprint,
    run,
    steps,
    other_failure,
    budget_s,
    checkout,
    as_json,
):
    from canary.bisect.request import Request, prepare

    what, work = prepare(
        Request(
            lane=lane,
            good=good,
            bad=bad,
            packages=list(packages),
            old=old,
            new=new,
            python=python,
            cache=cache,
            test=test,
            ferry=ferry,
            fingerprint=fingerprint,
            run=run,
            steps=steps,
            other_failure=other_failure,
            budget_s=budget_s,
            checkout=checkout,
        )
    )
    err = console(stderr=True)
    columns = [
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[now]}"),
    ]
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as p:
        result = work(RichProgress(p, what))
    if as_json:
        emit_json(result.to_dict())
    else:
        render(result, console())
    sys.exit(0 if result.found else 1)
