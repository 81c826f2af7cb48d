"""``canary run`` as a library call: resolve the ferry, lane and gates, launch attempts of the
workload, read what they wrote, judge it, and leave a run directory behind.

    result = run_canary(RunOptions(lane="cpu"))
    result.verdict  # "pass" | "fail"

The run directory (``<out>/<run_id>/``, :mod:`canary.formats.directory`) holds ``result.json`` (this call's answer),
``metrics.jsonl``, ``tracker_metrics.jsonl`` and ``train.log`` of the attempt that decided the
verdict, and one ``attempt-N/`` folder per attempt with its spec, log and metrics.
"""

from __future__ import annotations

import os
import platform
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from canary import history as history_mod
from canary import signature as signature_mod
from canary.config import (
    AnyFerry,
    CommandFerry,
    GatesFile,
    Lane,
    config_identity,
    experiment,
    get_lane,
    load_ferry,
    load_gates,
    resolve,
)
from canary.errors import ConfigError
from canary.formats import compile_cache, directory, signals
from canary.formats.directory import LOG_FILE, METRICS_FILE, SPEC_FILE
from canary.formats.metrics import RunMetrics
from canary.formats.spec import CacheSpec, build_spec, ragged_dot_override
from canary.git import head_commit
from canary.golden import store as golden_store
from canary.judge import gates as gates_mod
from canary.judge.classify import classify
from canary.judge.platform import SUMMARY_KEY as PLATFORM_KEY
from canary.judge.platform import accelerator_gate
from canary.judge.results import GateResult, not_judged
from canary.judge.results import verdict as gates_verdict
from canary.launchers import AttemptRequest, for_lane
from canary.record import Attempt, RunRecord
from canary.run import command_ferry
from canary.run.attempt import error_excerpt, metrics_or_empty, promote, read_log, with_tracking
from canary.run.context import run_context
from canary.run.disk import disk_trouble, ensure_writable
from canary.run.ownership import failing_distribution
from canary.run.progress import MetricsTail, NoProgress, Progress
from canary.run.scrub import scrub_attempt
from canary.run.workload import versions, workload_argv, workload_env
from canary.text.redact import env_secrets, redact


@dataclass
class RunOptions:
    lane: str = "cpu"
    ferry: str = "moe-canary"
    gates: str | None = None  # default: the gates file named like the ferry
    steps: int | None = None
    out: Path = Path("runs")
    ragged_dot: str | None = None
    tiling: str | None = None
    cache: CacheSpec | None = None
    lanes_file: str | None = None
    run_id: str | None = None
    ray_address: str | None = None  # a ray lane's cluster, instead of RAY_ADDRESS or the lane's
    history: str | None = None  # a path or gs://bucket/prefix; None: the default store
    store: history_mod.HistoryStore | None = None  # that history, opened once by the command (None: opened to record)
    record_history: bool = True
    job_id: str | None = None
    ci_run_url: str | None = None
    wandb_url: str | None = None
    env: dict[str, str] | None = None  # extra environment for the workload (a golden recording's variants)
    judge_golden: bool = True  # False: judge without the lane's golden (while recording one)


def new_run_id(lane: str, now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    return f"{now:%Y%m%dT%H%M%SZ}-{lane}-{secrets.token_hex(2)}"


def resolve_inputs(opts: RunOptions) -> tuple[AnyFerry, Path, Lane, GatesFile]:
    ferry, ferry_path = load_ferry(opts.ferry)
    lane = get_lane(opts.lane, opts.lanes_file)
    ferry.lane(lane.name)  # the ferry must have settings for this lane
    gates_file, gates_path = load_gates(opts.gates or ferry.name)
    if gates_file.ferry is not None and gates_file.ferry != ferry.name:
        raise ConfigError(f"{gates_path}: ferry: these gates are for ferry {gates_file.ferry!r}, not {ferry.name!r}")
    gates_file.lane(lane.name)
    return ferry, ferry_path, lane, gates_file


def run_canary(opts: RunOptions, progress: Progress | None = None) -> RunRecord:
    progress = progress or NoProgress()
    ferry, ferry_path, lane, gates_file = resolve_inputs(opts)
    if isinstance(ferry, CommandFerry):
        chosen = [f"--{k.replace('_', '-')}" for k in ("ragged_dot", "tiling") if getattr(opts, k)]
        if chosen:
            raise ConfigError(
                f"{', '.join(chosen)}: ferry {ferry.name!r} runs its own trainer (a command ferry); "
                "canary's kernel choices do not reach it"
            )
    if getattr(ferry, "stack", None):
        from canary.extras import STACKS, require

        if opts.ragged_dot or opts.tiling:
            raise ConfigError(
                f"--ragged-dot/--tiling: ferry {ferry.name!r} is a {ferry.stack} stack ferry; its "
                "kernels are the library's own choice"
            )
        if lane.launcher.kind == "local":  # a remote worker's environment is its own (canary doctor checks)
            require(STACKS[ferry.stack], f"ferry {ferry.name!r}")
    identity = {
        **config_identity("ferry", ferry_path),
        **config_identity("gates", resolve("gates", opts.gates or ferry.name)),
    }
    lane_gates = gates_file.lane(lane.name)
    golden = golden_store.load_golden(ferry.name, lane.name, opts.gates, ferry.version) if opts.judge_golden else None
    if opts.record_history:
        history_mod.backend(opts.history or history_mod.default_location())  # a bad --history fails now
    # A command ferry's trainer reads a remote cache in its own environment, not the harness's.
    cache = compile_cache.resolve(
        opts.cache, lane.name, lane.cache_dir, check_remote=not isinstance(ferry, CommandFerry)
    )
    ragged_dot = ragged_dot_override(opts.ragged_dot, os.environ)
    run_id = opts.run_id or new_run_id(lane.name)
    launcher = for_lane(lane, ray_address=opts.ray_address)
    ensure_writable(Path(opts.out), "--out")  # a symlink loop too: bad input, before resolve() meets it
    run_dir = Path(opts.out).resolve() / run_id
    if cache.mode == "warm" and cache.dir and not compile_cache.is_remote(cache.dir):
        ensure_writable(Path(cache.dir), "--cache-dir")
    run_dir.mkdir(parents=True, exist_ok=False)
    started = datetime.now(UTC)

    attempts: list[Attempt] = []
    metrics = RunMetrics(None, None, [], {})
    results: list[GateResult] = []
    error: str | None = None
    steps_requested: int | None = None
    sig_options = signature_mod.Options().with_keep(ferry.call_path)
    secrets = env_secrets({**os.environ, **workload_env(lane)})
    # A disk that fills up (or goes read-only) under --out ends the attempts, not the run: the
    # verdict so far is still given and recorded, and the command says which path it was.
    with disk_trouble(run_dir) as trouble:
        for n in range(1, lane.attempts + 1):
            if signals.requested() is not None:  # told to stop: no further attempt
                break
            attempt_dir = directory.attempt_dir(run_dir, n)
            attempt_dir.mkdir()
            name = f"{run_id}-attempt-{n}"
            if isinstance(ferry, CommandFerry):
                holders = command_ferry.placeholders(
                    ferry_path,
                    attempt_dir,
                    run_id=run_id,
                    attempt=n,
                    steps=command_ferry.steps_for(ferry, lane, opts.steps),
                    lane=lane.name,
                )
                steps_requested = holders.steps
                request = command_ferry.attempt_request(ferry, lane, holders, cache, name=name)
            else:
                spec = build_spec(
                    ferry,
                    lane,
                    run_id=run_id,
                    out_dir=attempt_dir,
                    steps=opts.steps,
                    ragged_dot=ragged_dot,
                    tiling=opts.tiling,
                    cache=cache,
                )
                steps_requested = spec.steps
                request = AttemptRequest(
                    argv=workload_argv(spec.write(attempt_dir / SPEC_FILE)),
                    env={**workload_env(lane), **(opts.env or {})},
                    cwd=Path.cwd(),
                    log_path=attempt_dir / LOG_FILE,
                    timeout_s=lane.timeout_s,
                    name=name,
                )
            secrets = (*secrets, *env_secrets(request.env))  # a command ferry's own settings too
            progress.attempt_started(n, lane.attempts, steps_requested)
            outcome = launcher.launch(request, poll=MetricsTail(attempt_dir / METRICS_FILE, progress))
            progress.attempt_ended(n, outcome)
            no_summary = command_ferry.collect(ferry, holders) if isinstance(ferry, CommandFerry) else None
            metrics = metrics_or_empty(attempt_dir, lane_gates.loss_metric)
            results = gates_mod.evaluate(
                lane_gates, metrics, requested_steps=steps_requested, golden=golden, ferry_version=ferry.version
            )
            log_text = read_log(outcome.log_path)
            log_text = redact(log_text, secrets)  # controls stripped, then redacted, before any excerpt is cut
            scrub_attempt(attempt_dir, outcome.log_path, secrets, log_text)  # the run directory is a CI artifact too
            lost = accelerator_gate(lane.platform, metrics.summary, log_text)  # the CPU in the accelerator's place
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
                    sig_options,
                    ferry=ferry.name,
                )
            attempts.append(
                Attempt(
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
                    cache=compile_cache.read_facts(attempt_dir),
                )
            )
            promote(attempt_dir, run_dir)
            # A workload that ran to the end has spoken: its gates decide, and trying again would
            # only repeat a deterministic run. Crashes, timeouts and lost jobs are retried.
            if outcome.ok or signals.requested() is not None:
                break

    verdict = gates_verdict(results) if attempts and attempts[-1].outcome == "succeeded" else "fail"
    stopped_by = signals.requested() if not attempts or attempts[-1].outcome != "succeeded" else None
    if stopped_by is not None:  # a stopped run is no regression: it says so and is never notified
        said = attempts[-1].detail if attempts and attempts[-1].outcome == signals.CANCELLED else ""
        verdict, error = signals.CANCELLED, said or f"stopped by {signals.signal_name(stopped_by)}"
        results = not_judged(results, f"the run was stopped by {signals.signal_name(stopped_by)}")
    result = RunRecord(
        run_id=run_id,
        lane=lane.name,
        ferry=ferry.name,
        ferry_version=ferry.version,
        verdict=verdict,
        steps_completed=metrics.steps_completed,
        final_loss=metrics.final_loss,
        gates=[r.to_dict() for r in results],
        run_dir=str(run_dir),
        attempts=attempts,
        error=error,
        # milliseconds: two runs started within one second still keep their order in the history
        started_at=started.isoformat(timespec="milliseconds"),
        ended_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        summary={k: metrics.summary[k] for k in SUMMARY_KEYS if k in metrics.summary},
        versions=versions(ferry_path),
        steps_requested=steps_requested,
        ferry_steps=ferry.lane(lane.name).steps,
        commit=head_commit(str(Path.cwd())),
        classification=signals.CANCELLED if stopped_by is not None else classify(attempts),
        signature=attempts[-1].signature if verdict == "fail" and attempts else None,
        failing_distribution=failing_distribution(attempts[-1].signature) if verdict == "fail" and attempts else None,
        context=with_tracking(
            run_context(
                os.environ,
                job_id=opts.job_id or (attempts[-1].job_id if attempts else None),
                ci_run_url=opts.ci_run_url,
                wandb_url=opts.wandb_url,
                lane_context=lane.context,
                host=platform.node(),
            ),
            run_dir,
            attempts,
        ),
        cache=attempts[-1].cache if attempts else None,
        experiment=experiment(ferry.name, identity),
        **identity,
    )
    # result.json, history, spool: nothing a terminal would act on, then no secret (redact strips
    # the controls first: what they interrupt is rejoined before it is looked at)
    result = result.scrubbed(lambda text: redact(text, secrets))
    if golden is not None and golden.note:  # a copied gates file judged against the pinned golden
        result.context["golden_note"] = golden.note
    if metrics.warnings:  # lines of the metrics that were skipped: said with the verdict
        result.context["metrics_warnings"] = metrics.warnings[:20]
    if trouble.said:
        result.context["disk"] = trouble.said
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
        if again.said:
            result.context.setdefault("disk", again.said)
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
