"""``canary run LANE``: train the ferry on a lane, judge it, print the verdict."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._kernel import kernel_options
from canary.commands._options import ferry_option, gates_option, history_option, run_notify, run_notify_options
from canary.config import MAX_STEPS, source_note
from canary.formats import signals
from canary.formats.spec import CacheSpec
from canary.history import open_on_first_use
from canary.record import as_float
from canary.render import cache_line, console, failure_line, fmt, gates_table, history_line, notify_result, verdict_line
from canary.run.answer import RunAnswer, RunChoices, run_and_tell
from canary.run.runner import RunOptions
from canary.textio import printable


class RichProgress:
    """Draws one progress bar per attempt on stderr: step, loss, tokens/s. Until the attempt's
    first step is recorded it is starting and compiling the train step; it says "compiling"."""

    def __init__(self, progress: Progress):
        self.p = progress
        self.task = None
        self.prefix = ""
        self.started = False

    def stop(self) -> None:
        if self.started:  # rich's stop prints a line break on a pipe, even for a bar never drawn
            self.p.stop()

    def attempt_started(self, attempt, of, total_steps):
        if not self.started:  # drawn from the first attempt on: an error before it prints no empty line
            self.p.start()
            self.started = True
        self.prefix = f"attempt {attempt}/{of} " if of > 1 else ""
        self.task = self.p.add_task(f"{self.prefix}compiling", total=total_steps, loss="—", tps="—")

    def step(self, record):
        loss = record.get("train/loss")
        tps = record.get("throughput/tokens_per_second")
        step = as_float(record.get("global_step", record.get("_step", 0)))
        if step is None or not 0 <= step < MAX_STEPS:  # drawn only; the metrics file is judged later
            return
        self.p.update(
            self.task,
            description=f"{self.prefix}training",
            completed=int(step) + 1,
            loss=fmt(loss),
            tps=f"{tps:,.0f}" if isinstance(tps, (int, float)) else "—",
        )

    def attempt_ended(self, attempt, outcome):
        if not outcome.ok:
            self.p.console.print(f"[red]attempt {attempt}: {outcome.outcome}[/] {outcome.detail}")


def _shown(path: str) -> str:
    """A path under the working directory as ./relative, any other as it is."""
    p = Path(path)
    return f"./{p.relative_to(Path.cwd())}" if p.is_relative_to(Path.cwd()) else path


def _bars(as_json: bool) -> RichProgress:
    err = console(stderr=True)
    columns = [
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("loss {task.fields[loss]}"),
        TextColumn("last step {task.fields[tps]} tok/s"),
        TimeElapsedColumn(),
    ]
    # redrawn 4 times a second, not rich's 10: the workload's step uses every core meanwhile
    p = Progress(*columns, console=err, transient=False, refresh_per_second=4, disable=not err.is_terminal and as_json)
    return RichProgress(p)


@click.command()
@click.argument("lane", required=False, default="cpu")
@click.option(
    "--steps",
    type=click.IntRange(min=1, max=MAX_STEPS),
    help="Train this many steps instead of the lane's (a quick run: the step gate follows it, and a "
    "finite final loss is shown but not judged, SKIP, since the loss threshold is for a full run).",
)
@ferry_option(
    more=": the built-in model, or a command ferry wrapping a team's own trainer (README: Wrapping an existing canary)"
)
@gates_option()
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("runs"),
    show_default=True,
    help="Where run directories are created.",
)
@kernel_options
@click.option(
    "--cache",
    "cache_mode",
    type=click.Choice(["warm", "cold", "both", "verify"]),
    default="warm",
    show_default=True,
    help="warm: JAX's persistent compilation cache; cold: bypass it (nothing read or written); both: "
    "train cold, then warm, and fail as cache_inconsistency unless the losses match bit for bit (on a cuda "
    "lane both with XLA's deterministic GPU ops; a tpu lane's to a relative 1e-6); verify: "
    "the cache with JAX's jax_compilation_cache_check_contents, each cached program compared with a fresh "
    "compile on first use, a mismatch failing as cache_poisoned (classified cache-poisoned) naming the entry "
    "(on a cuda lane compiled with XLA's deterministic GPU ops, as autotuned compiles differ; not for a cpu "
    "lane's own workload: XLA:CPU's compiles are not byte-reproducible).",
)
@click.option("--cold", is_flag=True, help="Same as --cache cold.")
@click.option(
    "--cache-dir",
    default=None,
    metavar="URL",
    help="Compilation cache directory or gs:// URL [default: the lane's, else the user cache dir].",
)
@click.option(
    "--ray-address",
    default=None,
    metavar="URL",
    help="A ray lane's job server (e.g. http://127.0.0.1:8265) [default: RAY_ADDRESS, else the lane's].",
)
@history_option()
@click.option("--no-history", is_flag=True, help="Do not record the run in the history.")
@click.option("--job-id", default=None, help="The scheduler's job id, for the run's context [default: $CANARY_JOB_ID].")
@click.option("--ci-run-url", default=None, help="The CI run's URL [default: from GitHub Actions' environment].")
@click.option("--wandb-url", default=None, help="The W&B run's URL [default: $CANARY_WANDB_URL].")
@run_notify_options
@json_option
@handle_errors
def run(
    lane,
    steps,
    ferry,
    gates,
    out,
    ragged_dot,
    tiling,
    cache_mode,
    cold,
    cache_dir,
    ray_address,
    history,
    no_history,
    job_id,
    ci_run_url,
    wandb_url,
    as_json,
    **notify_opts,
):
    """Train the pinned ferry on LANE (cpu, tpu, gpu; default cpu, which needs no accelerator) and
    judge it against the gates. `canary list` shows every lane.

    The workload runs in its own process: a crash or hang in training is a failed canary,
    never a harness crash. A run directory (metrics.jsonl, tracker_metrics.jsonl, train.log,
    result.json) is left under --out.

    Exit status: 0 pass, 1 the canary failed (a gate failed or training crashed), 2 bad input,
    128 + a signal's number when stopped by SIGTERM, SIGINT or SIGHUP (the run is recorded as
    cancelled; stopped while notifying, the verdict is still printed and the notification kept).
    """
    notifying = run_notify(notify_opts)  # bad notify flags fail now, not after training
    both = cache_mode == "both" and not cold
    store = None if no_history else open_on_first_use(history)  # recording, notifying, the summary: opened once
    opts = RunOptions(
        lane=lane,
        ferry=ferry,
        gates=gates,
        steps=steps,
        out=out,
        ragged_dot=ragged_dot,
        tiling=tiling,
        cache=CacheSpec(mode="cold" if cold else ("warm" if both else cache_mode), dir=cache_dir),
        ray_address=ray_address,
        history=history,
        store=store,
        record_history=not no_history,
        job_id=job_id,
        ci_run_url=ci_run_url,
        wandb_url=wandb_url,
    )
    choices = RunChoices(both, notifying, log=lambda msg: click.echo(f"canary: {msg}", err=True))
    _answer(run_and_tell(opts, choices, _bars(as_json)), as_json, (bool(notifying), no_history))


def _answer(answer: RunAnswer, as_json: bool, flags: tuple[bool, bool]) -> None:
    """The notes beside the verdict, the verdict (or ``--json``), and the exit status."""
    for note in answer.after.notes:
        console(stderr=True).print(f"[yellow]note:[/] {escape(printable(note))}", highlight=False)
    if as_json:
        emit_json(answer.to_dict())
    else:
        _render(answer, *flags)
    line, code = answer.ending()
    if line is not None:
        click.echo(f"canary: {line}", err=True)
    sys.exit(code)


def _render(answer: RunAnswer, notifying: bool, no_history: bool) -> None:
    """The verdict as text: the files used, the gates, the loss, the failure, the run's facts."""
    result, after, out_c = answer.result, answer.after, console()
    for kind in ("ferry", "gates"):
        path = getattr(result, f"{kind}_path")
        note = source_note(kind, path, getattr(result, f"{kind}_sha256"))
        if note:
            out_c.print(f"{kind}: {_shown(path)} ({note})", markup=False, highlight=False)
    if result.experiment:
        out_c.print(
            f"experiment: {result.experiment}; never counted in its series"
            + ("" if no_history else " (run with --no-history to leave it out of the history)")
            + (", and not notified" if notifying else ""),
            markup=False,
            highlight=False,
        )
    title = f"{result.ferry} v{result.ferry_version} on {result.lane}  ({result.run_id})"
    out_c.print(gates_table(result.gates, title=title, width=out_c.width))
    if after.loss_line:
        out_c.print(f"loss {after.loss_line}", highlight=False)
    if result.error and result.verdict != signals.CANCELLED:
        out_c.print("[bold red]training failed:[/]")
        out_c.print(printable(result.error), markup=False, highlight=False)
    s = result.summary
    facts = [f"steps {fmt(result.steps_completed)}", f"final loss {fmt(result.final_loss)}"]
    if "throughput/tokens_per_second" in s:
        facts.append(f"median step {s['throughput/tokens_per_second']:,.0f} tokens/s")
    if "compile/seconds" in s:
        facts.append(f"compile {s['compile/seconds']:.1f}s")
    out_c.print(verdict_line(result.verdict, "  ".join(facts)))
    if result.cache:
        out_c.print(cache_line(result.cache), highlight=False)
    if result.context.get("golden_note"):
        out_c.print(f"[yellow]note:[/] {escape(result.context['golden_note'])}", highlight=False)
    for w in answer.warnings:
        out_c.print(f"[yellow]warning:[/] {escape(printable(w))}", highlight=False)
    if result.verdict == "fail" or result.classification not in (None, "pass", signals.CANCELLED):
        out_c.print(failure_line(result))
    out_c.print(f"[dim]run directory: {result.run_dir}[/]")
    out_c.print(history_line(result.context.get("history"), result))
    if answer.notified:
        notify_result(answer.notified)
