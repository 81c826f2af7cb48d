"""What ``canary run`` answers, as one library call: the run (or its cold and warm pair, ``--cache
both``), the notification of its failure, what is left beside the verdict (the loss image, the job
summary), the workload's warnings, and the exit status with the line that says why.

    answer = run_and_tell(opts, RunChoices(both=False, notifying=None), progress)
    answer.to_dict()   # canary run --json
    answer.ending()    # ("...", 1) or (None, 0)
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from canary.formats import signals
from canary.formats.metrics import workload_warnings
from canary.launchers import AttemptOutcome
from canary.record import RunRecord
from canary.run.context import check_urls
from canary.run.progress import Progress
from canary.run.runner import RunOptions, run_canary
from canary.textio import printable

if TYPE_CHECKING:
    from canary.report.after_run import AfterRun

# What is needed only once the run is judged (the notifier, the after-run extras: a third of the
# command's imports): imported while the first attempt's workload starts, not before it.
AFTER_THE_RUN = ("canary.notify.after_run", "canary.report.after_run")


@dataclass(frozen=True)
class RunChoices:
    """How ``canary run`` runs besides its :class:`RunOptions`."""

    both: bool = False  # --cache both: cold, then warm, compared
    notifying: Any = None  # the notify settings (canary.notify.after_run.NotifyOptions); None: no notifying
    log: Callable[[str], None] = lambda msg: None  # what the notifier says meanwhile


@dataclass(frozen=True)
class RunAnswer:
    result: RunRecord
    stopped: int | None  # the signal that stopped the run (None: none did)
    notified: Any  # the notifier's result (canary.notify.result.NotifyResult), or None
    after: AfterRun
    warnings: list[str]

    def to_dict(self) -> dict:
        """``canary run --json``."""
        return {
            **self.result.to_dict(),
            "warnings": self.warnings,
            "after_run": self.after.to_dict(),
            **({"notify": self.notified.to_dict()} if self.notified else {}),
        }

    def ending(self) -> tuple[str | None, int]:
        """The line said on stderr after the verdict (None: none), and the exit status."""
        notified, result = self.notified, self.result
        if notified is not None and notified.stopped is not None:
            name = signals.signal_name(notified.stopped)
            return (
                f"notifying was stopped by {name}; what was not sent is kept for the next notify",
                signals.exit_code(notified.stopped),
            )
        if result.context.get("disk"):  # the verdict is given; what could not be written is said
            return printable(str(result.context["disk"])), 1
        if self.stopped is not None:
            return f"{printable(result.error or '')}; the run is recorded as cancelled", signals.exit_code(self.stopped)
        return None, 0 if result.verdict == "pass" else 1


def run_and_tell(opts: RunOptions, choices: RunChoices, progress: Progress) -> RunAnswer:
    """Train and judge (a stop signal ends the run as cancelled), then notify a failure and leave
    the after-run extras; neither of those ever changes the verdict."""
    check_urls(os.environ, opts.ci_run_url, opts.wandb_url)  # links that are not http(s): bad input, now
    with signals.cancellable():
        watched = ImportingMeanwhile(progress)
        try:
            if choices.both:
                from canary.run.consistency import run_both

                result = run_both(opts, watched)
            else:
                result = run_canary(opts, watched)
        finally:
            progress.stop()
        stopped = signals.requested() if result.verdict == signals.CANCELLED else None
    from canary.notify.after_run import notify_run, run_facts
    from canary.report.after_run import after_run

    notified = None
    facts = run_facts(result, opts.store)  # the history's and git's facts, computed once for the issue and the summary
    # a stopped run is no regression, an experiment is not the canary's: nothing to tell
    if choices.notifying and stopped is None and not result.experiment:
        with signals.interruptible():  # stopped meanwhile: the notification is kept, the verdict still notified
            notified = notify_run(result, choices.notifying, facts, opts.store, log=choices.log)
    warnings = warnings_of(result)
    after = after_run(result, facts, notified=notified)  # loss image, sparkline, job summary; never the verdict
    return RunAnswer(result, stopped, notified, after, warnings)


class ImportingMeanwhile:
    """The run's :class:`Progress`, passed through, that imports :data:`AFTER_THE_RUN` in a thread of
    its own when the first attempt starts: while the workload's interpreter starts and imports JAX
    (one core), the harness's imports take the other, instead of adding to the time before the
    workload starts or after it ends. An import the thread has not finished is waited for where
    it is needed (Python's import lock)."""

    def __init__(self, progress: Progress):
        self.progress, self.started = progress, False

    def attempt_started(self, attempt: int, of: int, total_steps: int) -> None:
        self.progress.attempt_started(attempt, of, total_steps)
        if not self.started:
            self.started = True
            threading.Thread(target=_import_all, args=(AFTER_THE_RUN,), name="canary-imports", daemon=True).start()

    def step(self, record: dict[str, Any]) -> None:
        self.progress.step(record)

    def attempt_ended(self, attempt: int, outcome: AttemptOutcome) -> None:
        self.progress.attempt_ended(attempt, outcome)

    def stop(self) -> None:
        self.progress.stop()


def _import_all(names: tuple[str, ...]) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - imported again where needed, which says what failed
            return


def warnings_of(result: RunRecord) -> list[str]:
    """What the deciding attempt's workload warned about (e.g. a slower fallback backend)."""
    skipped = list(result.context.get("metrics_warnings", []))
    if not result.attempts:
        return skipped
    try:
        with open(result.attempts[-1].log_path, errors="replace") as log:  # streamed: a log may be huge
            return workload_warnings(iter(lambda: log.readline(1 << 16), "")) + skipped
    except OSError:
        return skipped
