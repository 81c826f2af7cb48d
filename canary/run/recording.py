"""``canary golden record LANE``: train the lane's recording runs and write its golden.

On a cpu lane the runs are numerically equivalent variants of one computation, so the spread
among them is what "the same model, computed another legitimate way" may move the figures:

* ``base`` x ``runs``: the lane as configured (their speed, compile time and memory are the
  golden's perf figures);
* ``devices=4``: the batch split over 4 forced host devices (data parallel, per-device routing);
* ``ragged_dot=<b>``: every other ragged_dot backend that computes the same function on CPU;
* ``isa=<tier>``: on x86, XLA told to stay within each older instruction set than this CPU's
  (``--xla_cpu_max_isa``): the same program, compiled as for another machine. Another CPU rounds
  differently, and MoE routing amplifies the difference: in ferry v2 the same commit's curve moved
  0.5% from one x86 machine to another, and 1.6% under ``isa=AVX``, late in training where the
  loss falls fastest. Without these runs a golden would fail every other kind of runner;
* ``nudged=<seed>`` x ``nudged``: the lane as configured from weights moved one float32 step
  each (``$CANARY_NUDGE_SEED``, :func:`canary.workload.train.nudged`). Where a rounding
  difference sets the trajectory drifting is chance; these runs sample it, so the band is not
  set by the two or three ways of computing the step this machine happens to offer.

On any other lane the runs are ``runs`` repetitions of the lane itself (accelerators are not
bit-reproducible run to run; that spread is the one to tolerate). Every run compiles cold, so
the golden's compile seconds are a cold compile's, the ceiling a warm run stays far under.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from canary import host as host_mod
from canary.config import load_gates
from canary.errors import CanaryError, ConfigError
from canary.formats.directory import METRICS_FILE, RESULT_FILE, read_result
from canary.formats.metrics import load_run_metrics
from canary.formats.spec import NUDGE_ENV, CacheSpec, xla_flag_env
from canary.git import head_commit
from canary.golden import curve as golden_curve
from canary.golden import store as golden_store
from canary.golden.model import Golden, file_name

FORCED_DEVICES = 4
EQUIVALENT_RAGGED_DOT = ("xla", "grouped")  # on CPU: the same function, computed differently
DEFAULT_RUNS = 3
DEFAULT_NUDGED = 8  # with 12 such runs, each left out in turn stayed inside the others' band (docs/gates.md)


class RecordingFailed(CanaryError):
    exit_code = 1


@dataclass(frozen=True)
class Variant:
    name: str
    ragged_dot: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    perf_comparable: bool = False


def forced_devices_env(n: int, environ: dict[str, str] | os._Environ = os.environ) -> dict[str, str]:
    return xla_flag_env("xla_force_host_platform_device_count", n, environ)


def base_backend(ragged_dot: str, platform: str) -> str | None:
    """What the lane's ragged_dot setting resolves to here (None: unknown)."""
    try:
        from canary.workload import ragged_dot as backends

        return backends.resolve(ragged_dot, platform)
    except Exception:  # noqa: BLE001 - an unknown base only means one more variant runs
        return None


def variants(
    platform: str,
    runs: int,
    ragged_dot: str,
    batch_size: int,
    perf_only: bool = False,
    native_isa: str | None = "here",
    nudged: int = DEFAULT_NUDGED,
    stack: bool = False,
) -> list[Variant]:
    """The recording's runs for a lane (pure but for resolving ``auto`` and, by default, reading
    this CPU's instruction set): with ``perf_only``, only the lane as configured (its speed is
    what is re-measured). A ``stack`` ferry's kernels are its library's, so no other ragged_dot."""
    out = [Variant("base", perf_comparable=True) for _ in range(runs)]
    if platform != "cpu" or perf_only:
        return out
    if batch_size % FORCED_DEVICES == 0:
        out.append(Variant(f"devices={FORCED_DEVICES}", env=forced_devices_env(FORCED_DEVICES)))
    base = base_backend(ragged_dot, platform)
    out += [Variant(f"ragged_dot={b}", ragged_dot=b) for b in EQUIVALENT_RAGGED_DOT if b != base and not stack]
    native = host_mod.isa() if native_isa == "here" else native_isa
    older = host_mod.older_isas(native)
    out += [Variant(f"isa={t}", env=xla_flag_env("xla_cpu_max_isa", t, os.environ)) for t in older]
    out += [Variant(f"nudged={seed}", env={NUDGE_ENV: str(seed)}) for seed in range(1, nudged + 1)]
    return out


def default_path(ferry: str, lane: str, gates: str | None = None) -> Path:
    """The golden the lane's gates name, else ``<ferry>.<lane>.golden.json`` beside the gates file."""
    named = golden_store.lane_golden_path(ferry, lane, gates)
    if named:
        return named
    _, gates_path = load_gates(gates or ferry)
    return gates_path.parent / file_name(ferry, lane)


@dataclass
class Recording:
    golden: Golden
    path: Path | None
    runs: list[dict[str, Any]]  # variant, run_id, run_dir, verdict


def run_name(n: int, variant: str) -> str:
    return f"{n:02d}-{variant.replace('=', '-')}"


def variant_of(run_name: str) -> str:
    """The variant a recording's run directory is of (``03-ragged_dot-xla`` -> ``ragged_dot=xla``)."""
    name = run_name.split("-", 1)[1] if run_name[:2].isdigit() and "-" in run_name else run_name
    return name if name == "base" or "-" not in name else name.replace("-", "=", 1)


def record(
    lane_name: str,
    *,
    ferry: str = "moe-canary",
    gates: str | None = None,
    runs: int = DEFAULT_RUNS,
    window: int | None = None,
    out: Path = Path("runs"),
    output: Path | None = None,
    write: bool = True,
    progress=None,
    log=lambda s: None,
    source: Path | None = None,
    perf_only: bool = False,
    nudged: int = DEFAULT_NUDGED,
) -> Recording:
    """Train the recording's runs under ``out`` and write the golden; with ``source`` (a former
    recording's directory), derive it from those runs instead of training (``--from``). With
    ``perf_only``, re-measure only the stored golden's performance figures on this machine (see
    :func:`with_perf_of`): the lane's own runs, none of the equivalent variants."""
    from canary.run.inputs import RunOptions, resolve_inputs

    opts = RunOptions(lane=lane_name, ferry=ferry, gates=gates)
    inputs = resolve_inputs(opts)
    f, lane, gates_file = inputs.kind.model(inputs.ferry, "record a golden of"), inputs.lane, inputs.gates_file
    o = f.lane(lane.name)
    window = window or golden_curve.default_window(lane.platform)
    _check_counts(window, runs, nudged)
    metric = gates_file.lane(lane.name).loss_metric
    stored_path = output or default_path(f.name, lane.name, gates)
    stored = _stored(stored_path, lane.name) if perf_only else None
    if source is not None:
        done = _read_runs(Path(source))
    else:
        where = Path(out) / f"golden-{lane.name}-{datetime.now(UTC):%Y%m%dT%H%M%SZ}"
        vs = variants(lane.platform, runs, o.ragged_dot, o.batch_size, perf_only, nudged=nudged, stack=bool(f.stack))
        done = _train_runs(vs, where, inputs, opts, progress, log)
    facts = _run_facts(done, metric)
    _say_busy(busy_runs(facts), stored is not None, lane.name, log)
    if stored is not None:
        check_curve(stored, facts)
    recorded = _recorded(lane.name, sum(d["variant"] == "base" for d in done), window, done)
    g = golden_curve.build(
        facts,
        ferry=f.name,
        ferry_version=f.version,
        lane=lane.name,
        steps=o.steps,
        window=stored.window if stored else window,
        metric=metric,
        host=_host(facts),
        recorded=recorded,
    )
    if stored is not None:
        g = with_perf_of(
            stored, g, {**recorded, "command": f"canary golden record {lane.name} --perf-only --runs {runs}"}
        )
    path = golden_store.write(g, stored_path) if write else None
    return Recording(g, path, [{k: d[k] for k in ("variant", "run_id", "run_dir", "verdict")} for d in done])


def _check_counts(window: int, runs: int, nudged: int) -> None:
    if window < 1 or runs < 1:
        raise ConfigError("--window and --runs must be at least 1")
    if nudged < 0:
        raise ConfigError("--nudged must be 0 or more")


def _outcome(variant: str, run_id: str, run_dir: str, verdict: str, error, gates) -> dict[str, Any]:
    return {
        "variant": variant,
        "run_id": run_id,
        "run_dir": run_dir,
        "verdict": verdict,
        "error": error,
        "gates": gates,
    }


def _read_runs(source: Path) -> list[dict[str, Any]]:
    """A former recording's runs (``--from``), as they ended."""
    dirs = sorted(d for d in source.iterdir() if (d / RESULT_FILE).is_file())
    if not dirs:
        raise ConfigError(f"{source}: no recording runs (run directories with a result.json) in it")
    done = []
    for d in dirs:
        rec = read_result(d)
        done.append(
            _outcome(variant_of(d.name), rec["run_id"], str(d), rec["verdict"], rec.get("error"), rec.get("gates"))
        )
    return done


def _train_runs(vs: list[Variant], where: Path, inputs, opts, progress, log) -> list[dict[str, Any]]:
    """Each variant trained once, cold, under ``where``, unjudged against any golden and kept out
    of the history; the first that fails stops the recording (:func:`_check`)."""
    from canary.run.runner import RunOptions, run_canary

    done = []
    for n, v in enumerate(vs, 1):
        log(f"recording run {n}: {v.name}")
        rec = run_canary(
            RunOptions(
                lane=opts.lane,
                ferry=opts.ferry,
                gates=opts.gates,
                out=where,
                run_id=run_name(n, v.name),
                ragged_dot=v.ragged_dot,
                cache=CacheSpec(mode="cold"),
                record_history=False,
                env=v.env,
                judge_golden=False,
            ),
            progress,
            inputs,  # the ferry, lane and gates read once for every run
        )
        done.append(_outcome(v.name, rec.run_id, rec.run_dir, rec.verdict, rec.error, rec.gates))
        _check(done[-1])
    return done


def _run_facts(done: list[dict[str, Any]], metric: str) -> list[golden_curve.RunFacts]:
    facts = []
    for d in done:
        _check(d)
        m = load_run_metrics(Path(d["run_dir"]), metric)
        summary = {**_best_step(Path(d["run_dir"]), m.summary), **m.summary}
        facts.append(
            golden_curve.RunFacts(
                d["variant"], m.losses or [], summary, d["run_id"], d["variant"] == "base", dict(m.series)
            )
        )
    return facts


def _say_busy(busy: str, perf_only: bool, lane: str, log) -> None:
    """A busy machine's speed figures would set the floor too low: ``--perf-only`` refuses them,
    a full recording keeps its curve and says to re-measure them."""
    if busy and perf_only:
        raise RecordingFailed(
            f"the machine was busy during {busy}: speed figures measured there would set the "
            "floor too low; measure again while nothing else runs"
        )
    if busy:
        log(
            f"warning: the machine was busy during {busy}: the golden's speed figures are too slow; re-measure "
            f"them on a quiet machine with `canary golden record {lane} --perf-only`"
        )


def _stored(path: Path, lane: str) -> Golden:
    if not path.is_file():
        raise ConfigError(f"{path}: no golden to re-measure; record one first with `canary golden record {lane}`")
    return golden_store.read(path)


def busy_runs(facts: list[golden_curve.RunFacts]) -> str:
    """The perf-comparable runs too busy to measure speed on (:func:`canary.judge.golden_gates.quiet_steps_needed`),
    as one phrase; empty when none was."""
    from canary.judge.golden_gates import quiet_steps_needed

    out = []
    for r in facts:
        quiet, share = r.summary.get("throughput/quiet_steps"), r.summary.get("throughput/others_share")
        if r.perf_comparable and isinstance(quiet, (int, float)) and quiet_steps_needed(quiet, len(r.losses) or None):
            out.append(
                f"{r.run_id or r.variant} ({quiet:.0f} quiet steps"
                + (f", others used {share:.0%} of the CPUs)" if isinstance(share, float) else ")")
            )
    return ", ".join(out)


def check_curve(stored: Golden, facts: list[golden_curve.RunFacts]) -> None:
    """A perf-only recording's runs must still draw the stored curve: a changed curve is a new
    golden, not a new machine."""
    from canary.formats.metrics import RunMetrics
    from canary.judge import golden_gates

    for r in facts:
        final = r.losses[-1][1] if r.losses else None
        curve = golden_gates.loss_curve(stored, RunMetrics(len(r.losses), final, list(r.losses), r.summary))
        if curve.status != "PASS":
            raise RecordingFailed(
                f"run {r.run_id}: its loss curve left the golden's ({curve.detail}): a changed "
                f"curve is a new golden (`canary golden record {stored.lane}`), not a new machine"
            )


def with_perf_of(stored: Golden, measured: Golden, recorded: dict[str, Any]) -> Golden:
    """The stored golden with the performance figures, their tolerances and the machine of a new
    recording on this machine; its curve, final loss and their tolerances unchanged."""
    if (stored.ferry, stored.ferry_version, stored.steps) != (measured.ferry, measured.ferry_version, measured.steps):
        raise ConfigError(
            f"{stored.path}: the golden is of {stored.ferry} v{stored.ferry_version}, {stored.steps} steps; "
            f"this recording is of {measured.ferry} v{measured.ferry_version}, {measured.steps} steps: "
            "record the whole golden, not --perf-only"
        )
    curve_gates = ("loss_curve", "final_loss_golden")
    tol = {k: v if k in curve_gates else measured.tolerance.get(k, v) for k, v in stored.tolerance.items()}
    tol.update({k: v for k, v in measured.tolerance.items() if k not in tol and k not in curve_gates})
    return dataclasses.replace(
        stored, perf=measured.perf, host=measured.host, tolerance=tol, recorded={**stored.recorded, "perf": recorded}
    )


def _best_step(run_dir: Path, summary: dict[str, Any]) -> dict[str, float]:
    """The fastest steady step of a run whose summary predates ``throughput/best_*`` (--from on an
    older recording), from its per-step durations."""
    tps, median = summary.get("throughput/tokens_per_second"), summary.get("throughput/median_step_seconds")
    try:
        steps = [json.loads(line) for line in (run_dir / METRICS_FILE).read_text().splitlines() if line.strip()]
        best = min(s["throughput/duration"] for s in steps[1:])
    except (OSError, ValueError, KeyError):
        return {}
    if not (tps and median and best > 0):
        return {}
    return {"throughput/best_step_seconds": best, "throughput/best_tokens_per_second": tps * median / best}


def _check(run: dict[str, Any]) -> None:
    if run["verdict"] != "pass":
        why = run["error"].splitlines()[-1] if run.get("error") else f"gates {run.get('gates')}"
        raise RecordingFailed(
            f"recording run {run['variant']} ({run['run_dir']}) failed: {why}; "
            "a golden is recorded from healthy runs only"
        )


def _host(facts: list[golden_curve.RunFacts]) -> dict[str, Any]:
    """The recording machine, from its runs' summaries (this machine's facts where a summary
    predates them: ``--from`` re-derives on the machine that recorded)."""
    here = host_mod.facts()
    s = facts[0].summary
    return {
        "cpus": s.get("host/cpus", here["cpus"]),
        "cpu_model": s.get("host/cpu_model", here["cpu_model"]),
        "machine": here["machine"],
    }


def _recorded(lane: str, runs: int, window: int, done: list[dict[str, Any]]) -> dict[str, Any]:
    from canary.run.workload import versions

    return {
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": head_commit(str(Path.cwd())),
        "versions": versions(),
        "command": f"canary golden record {lane} --runs {runs} --window {window}"
        + (f" --nudged {n}" if (n := sum(d["variant"].startswith("nudged=") for d in done)) else ""),
        "runs": [d["variant"] for d in done],
    }
