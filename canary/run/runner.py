"""``canary run`` as a library call: resolve the ferry, lane and gates, launch attempts of the
workload, read what they wrote, judge it, and leave a run directory behind.

    result = run_canary(RunOptions(lane="cpu"))
    result.verdict  # "pass" | "fail"

The run directory (``<out>/<run_id>/``, :mod:`canary.formats.directory`) holds ``result.json`` (this call's answer),
``metrics.jsonl``, ``tracker_metrics.jsonl`` and ``train.log`` of the attempt that decided the
verdict, and one ``attempt-N/`` folder per attempt with its spec, log and metrics.

Its steps: :func:`canary.run.inputs.resolve_inputs` (the reviewed files, read once),
:func:`canary.run.inputs.preflight` (bad input found before training, the run directory made),
:func:`run_attempts` (each attempt prepared by its ferry's kind, :mod:`canary.ferries`),
:func:`judged` (the verdict and the record) and :func:`keep` (result.json and the history).
"""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from canary import history as history_mod
from canary import signature as signature_mod
from canary.config import Lane, experiment
from canary.ferries import AttemptInputs
from canary.ferries.builtin import workload_env
from canary.formats import compile_cache, directory, signals
from canary.formats.directory import METRICS_FILE
from canary.formats.metrics import RunMetrics
from canary.git import head_commit
from canary.judge import gates as gates_mod
from canary.judge.classify import classify
from canary.judge.platform import SUMMARY_KEY as PLATFORM_KEY
from canary.judge.platform import accelerator_gate
from canary.judge.results import GateResult, not_judged
from canary.judge.results import verdict as gates_verdict
from canary.launchers import AttemptOutcome
from canary.record import Attempt, RunRecord
from canary.run.attempt import error_excerpt, metrics_or_empty, promote, read_log, with_tracking
from canary.run.context import run_context
from canary.run.disk import disk_trouble
from canary.run.inputs import RunInputs, RunOptions, Setup, preflight, resolve_inputs
from canary.run.ownership import failing_distribution
from canary.run.progress import MetricsTail, NoProgress, Progress
from canary.run.scrub import scrub_attempt
from canary.run.workload import versions
from canary.text.redact import env_secrets, redact


@dataclass
class Tried:
    """What the attempts so far left: each attempt, and the deciding one's metrics, gates and error."""

    secrets: tuple[str, ...]
    attempts: list[Attempt] = field(default_factory=list)
    metrics: RunMetrics = field(default_factory=lambda: RunMetrics(None, None, [], {}))
    results: list[GateResult] = field(default_factory=list)
    error: str | None = None
    steps_requested: int | None = None
    disk: str | None = None


def run_canary(opts: RunOptions, progress: Progress | None = None, inputs: RunInputs | None = None) -> RunRecord:
    """One run of ``opts``; ``inputs``: its reviewed files, when its caller read them already
    (the passes of ``--cache both``, a golden recording's runs)."""
    inputs = inputs or resolve_inputs(opts)
    setup = preflight(opts, inputs)
    started = datetime.now(UTC)
    tried = run_attempts(opts, inputs, setup, progress or NoProgress())
    return keep(opts, judged(opts, inputs, setup, tried, started), setup.run_dir)


def run_attempts(opts: RunOptions, inputs: RunInputs, setup: Setup, progress: Progress) -> Tried:
    """Attempts until one runs to the end, the lane's attempts are spent, or the harness is told to stop."""
    tried = Tried(secrets=env_secrets({**os.environ, **workload_env(inputs.lane)}))
    # A disk that fills up (or goes read-only) under --out ends the attempts, not the run: the
    # verdict so far is still given and recorded, and the command says which path it was.
    with disk_trouble(setup.run_dir) as trouble:
        for n in range(1, inputs.lane.attempts + 1):
            if signals.requested() is not None:  # told to stop: no further attempt
                break
            outcome = _attempt(n, opts, inputs, setup, tried, progress)
            # A workload that ran to the end has spoken: its gates decide, and trying again would
            # only repeat a deterministic run. Crashes, timeouts and lost jobs are retried.
            if outcome.ok or signals.requested() is not None:
                break
    tried.disk = trouble.said
    return tried


def _attempt(
    n: int, opts: RunOptions, inputs: RunInputs, setup: Setup, tried: Tried, progress: Progress
) -> AttemptOutcome:
    """Attempt ``n``: prepared by the ferry's kind, launched, judged, and kept in ``tried``."""
    lane = inputs.lane
    attempt_dir = directory.attempt_dir(setup.run_dir, n)
    attempt_dir.mkdir()
    prepared = inputs.kind.prepare(
        inputs.ferry,
        AttemptInputs(
            ferry_path=inputs.ferry_path,
            attempt_dir=attempt_dir,
            run_id=setup.run_id,
            attempt=n,
            lane=lane,
            name=f"{setup.run_id}-attempt-{n}",
            cache=setup.cache,
            steps=opts.steps,
            ragged_dot=setup.ragged_dot,
            tiling=opts.tiling,
            env=_attempt_env(lane.platform, setup.cache, opts.env or {}),
        ),
    )
    tried.steps_requested = prepared.steps
    tried.secrets = (*tried.secrets, *env_secrets(prepared.request.env))  # a command ferry's own settings too
    progress.attempt_started(n, lane.attempts, tried.steps_requested)
    outcome = setup.launcher.launch(prepared.request, poll=MetricsTail(attempt_dir / METRICS_FILE, progress))
    progress.attempt_ended(n, outcome)
    no_summary = prepared.collect()
    tried.attempts.append(_judge_attempt(n, outcome, attempt_dir, no_summary, inputs, setup, tried))
    promote(attempt_dir, setup.run_dir)
    return outcome


def _attempt_env(platform: str, cache, env: dict[str, str]) -> dict[str, str]:
    """The workload's extra environment: ``--cache verify`` on a lane whose compiles are not
    reproducible as they stand (cuda) compiles deterministically, so that JAX's byte comparison of
    a cached executable with a fresh one means something."""
    if cache.mode == "verify":
        return compile_cache.check_env(platform, env, os.environ) or env
    return env


def _judge_attempt(
    n: int,
    outcome: AttemptOutcome,
    attempt_dir: Path,
    no_summary: str | None,
    inputs: RunInputs,
    setup: Setup,
    tried: Tried,
) -> Attempt:
    """What attempt ``n`` left, judged: its gates, its error and its failure's signature."""
    ferry, lane_gates, secrets, golden = inputs.ferry, inputs.lane_gates, tried.secrets, setup.golden
    metrics = metrics_or_empty(attempt_dir, lane_gates.loss_metric)
    results = gates_mod.evaluate(
        lane_gates, metrics, requested_steps=tried.steps_requested, golden=golden, ferry_version=ferry.version
    )
    log_text = read_log(outcome.log_path)
    log_text = redact(log_text, secrets)  # controls stripped, then redacted, before any excerpt is cut
    scrub_attempt(attempt_dir, outcome.log_path, secrets, log_text)  # the run directory is a CI artifact too
    lost = accelerator_gate(inputs.lane.platform, metrics.summary, log_text)  # the CPU in the accelerator's place
    results += [lost] if lost is not None else []
    error = None if outcome.ok else (error_excerpt(log_text) or outcome.detail)
    if outcome.ok and no_summary:
        # The trainer exited 0 but left nothing to judge: its own failure kind, not a gate regression.
        results.append(GateResult("summary", None, "present", "FAIL", no_summary))
        error = no_summary
        signature = signature_mod.make("missing_summary", None, "the trainer wrote no summary", [], no_summary)
    else:
        signature = signature_mod.for_attempt(
            log_text,
            outcome.outcome,
            outcome.exit_code,
            outcome.signal,
            outcome.detail,
            [r.to_dict() for r in results],
            signature_mod.Options().with_keep(ferry.call_path),
            ferry=ferry.name,
        )
    tried.metrics, tried.results, tried.error = metrics, results, error
    return Attempt(
        n,
        outcome.outcome,
        outcome.exit_code,
        outcome.duration_s,
        str(outcome.log_path),
        metrics.steps_completed,
        metrics.final_loss,
        outcome.detail,
        error,
        signature=signature,
        job_id=outcome.job_id,
        cache=compile_cache.read_facts(attempt_dir) or compile_cache.said_poisoned(log_text, setup.cache),
    )


def verdict_of(tried: Tried) -> tuple[str, int | None]:
    """The run's verdict, and the signal that stopped it (None: none did). A stopped run is no
    regression: ``tried`` then says so, its gates not judged."""
    attempts = tried.attempts
    verdict = gates_verdict(tried.results) if attempts and attempts[-1].outcome == "succeeded" else "fail"
    stopped_by = signals.requested() if not attempts or attempts[-1].outcome != "succeeded" else None
    if stopped_by is not None:  # a stopped run is no regression: it says so and is never notified
        said = attempts[-1].detail if attempts and attempts[-1].outcome == signals.CANCELLED else ""
        verdict, tried.error = signals.CANCELLED, said or f"stopped by {signals.signal_name(stopped_by)}"
        tried.results = not_judged(tried.results, f"the run was stopped by {signals.signal_name(stopped_by)}")
    return verdict, stopped_by


def judged(opts: RunOptions, inputs: RunInputs, setup: Setup, tried: Tried, started: datetime) -> RunRecord:
    """The run's record: its verdict and everything the history keeps of it, made safe to keep."""
    verdict, stopped_by = verdict_of(tried)
    ferry, lane, attempts, metrics = inputs.ferry, inputs.lane, tried.attempts, tried.metrics
    last = attempts[-1] if attempts else None
    result = RunRecord(
        run_id=setup.run_id,
        lane=lane.name,
        ferry=ferry.name,
        ferry_version=ferry.version,
        verdict=verdict,
        steps_completed=metrics.steps_completed,
        final_loss=metrics.final_loss,
        gates=[r.to_dict() for r in tried.results],
        run_dir=str(setup.run_dir),
        attempts=attempts,
        error=tried.error,
        # milliseconds: two runs started within one second still keep their order in the history
        started_at=started.isoformat(timespec="milliseconds"),
        ended_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        summary={k: metrics.summary[k] for k in SUMMARY_KEYS if k in metrics.summary},
        versions=versions(inputs.ferry_path),
        steps_requested=tried.steps_requested,
        ferry_steps=ferry.lane(lane.name).steps,
        commit=head_commit(str(Path.cwd())),
        classification=signals.CANCELLED if stopped_by is not None else classify(attempts),
        signature=last.signature if verdict == "fail" and last else None,
        failing_distribution=failing_distribution(last.signature) if verdict == "fail" and last else None,
        context=with_tracking(_context(opts, lane, last), setup.run_dir, attempts),
        cache=last.cache if last else None,
        experiment=experiment(ferry.name, setup.identity),
        **setup.identity,
    )
    secrets = tried.secrets
    # result.json, history, spool: nothing a terminal would act on, then no secret (redact strips
    # the controls first: what they interrupt is rejoined before it is looked at)
    result = result.scrubbed(lambda text: redact(text, secrets))
    if setup.golden is not None and setup.golden.note:  # a copied gates file judged against the pinned golden
        result.context["golden_note"] = setup.golden.note
    if metrics.warnings:  # lines of the metrics that were skipped: said with the verdict
        result.context["metrics_warnings"] = metrics.warnings[:20]
    if tried.disk:
        result.context["disk"] = tried.disk
    return result


def _context(opts: RunOptions, lane: Lane, last: Attempt | None) -> dict:
    return run_context(
        os.environ,
        job_id=opts.job_id or (last.job_id if last else None),
        ci_run_url=opts.ci_run_url,
        wandb_url=opts.wandb_url,
        lane_context=lane.context,
        host=platform.node(),
    )


def keep(opts: RunOptions, result: RunRecord, run_dir: Path) -> RunRecord:
    """``result`` written to the run directory and recorded in the history."""
    # result.json first: killed during the history write, the run is still where `canary history
    # import` finds it; written again after, saying how the recording went.
    # What could not be written is said in the history's copy too.
    with disk_trouble(run_dir) as writing:
        directory.write_record(run_dir, result)
    if writing.said:
        result.context.setdefault("disk", writing.said)
    if opts.record_history:
        result.context["history"] = history_mod.record_run(result, opts.history, opts.store)
        with disk_trouble(run_dir) as again:
            directory.write_record(run_dir, result)
        if again.said and "disk" not in result.context:  # the history's copy says it too
            result.context["disk"] = again.said
            history_mod.record_run(result, opts.history, opts.store)
    return result


SUMMARY_KEYS = (
    "throughput/tokens_per_second",
    "throughput/median_step_seconds",
    "compile/seconds",
    "throughput/best_tokens_per_second",
    "throughput/best_step_seconds",
    "throughput/median_step_cpu_seconds",
    "throughput/quiet_steps",
    "throughput/others_share",
    "memory/peak_bytes",
    "memory/source",
    "host/cpus",
    "kernels/ragged_dot",
    "devices",
    PLATFORM_KEY,
    "data/entropy_floor",
    "parameter_count",
    "program/fingerprint",
    "program/platform",
    "program/fingerprint_seconds",
    "program/error",
    "_runtime",
)
