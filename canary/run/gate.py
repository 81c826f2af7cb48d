"""``canary gate PATH``: the gates on an existing run directory or metrics file (a levanter
``tracker_metrics.jsonl`` included), with the lane, ferry and steps its record says it ran."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from canary.config import load_gates
from canary.errors import ConfigError
from canary.formats.directory import METRICS_FILE, RESULT_FILE, TRACKER_FILE, read_result
from canary.formats.metrics import RunMetrics, load_run_metrics, read_json_lines, tracker_config
from canary.golden import store as golden_store
from canary.judge import gates as gates_mod
from canary.judge.results import GateResult


def _tracker_prior(path: Path) -> dict[str, Any]:
    """What a run record would say of a tracker file's run: lane, ferry and the steps asked for."""
    if not path.is_file():
        return {}
    config = tracker_config(read_json_lines(path), str(path))
    steps = config.get("steps")
    return {
        "lane": config.get("lane") if isinstance(config.get("lane"), str) else None,
        "ferry": config.get("ferry") if isinstance(config.get("ferry"), str) else None,
        "steps_requested": steps if isinstance(steps, int) and not isinstance(steps, bool) and steps > 0 else None,
    }


class Judgement(NamedTuple):
    """What ``canary gate`` found: the lane, the metrics, the gate results, the gates file used and
    notes on how the run was read (a file inside a run directory is read as that run)."""

    lane: str
    metrics: RunMetrics
    results: list[GateResult]
    gates_path: Path
    notes: list[str]


def judge_path(path: Path, lane: str | None, gates: str | None, requested_steps: int | None = None) -> Judgement:
    """``canary gate``: gates on an existing run directory or metrics file. A metrics or tracker
    file inside a run directory (beside its result.json) is judged as that run, as ``canary run``
    judged it: one run, one judgement."""
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"no run directory or metrics file at {path}")
    notes: list[str] = []
    if path.is_file() and path.name in (METRICS_FILE, TRACKER_FILE) and (path.parent / RESULT_FILE).is_file():
        notes.append(f"{path.name} is in the run directory {path.parent}: judged as that run")
        path = path.parent
    lane_name = lane
    result_file = path / RESULT_FILE if path.is_dir() else None
    if result_file and result_file.is_file():
        prior, source = read_result(result_file), result_file
    else:  # a tracker file canary wrote names its run in its config (levanter's names no lane)
        source = path / TRACKER_FILE if path.is_dir() else path
        prior = _tracker_prior(source)
    lane_name = lane_name or _prior(prior, "lane", str, source)
    ferry_name = _prior(prior, "ferry", str, source)
    ferry_version = _prior(prior, "ferry_version", int, source)
    requested_steps = requested_steps or _prior(prior, "steps_requested", int, source)
    recorded_gates = _prior(prior, "gates_path", str, source)  # a command ferry's gates are often a path
    if gates is None and recorded_gates and Path(recorded_gates).is_file():
        gates = recorded_gates
        notes.append(f"the gates file the run recorded: {recorded_gates} (--gates chooses another)")
    if lane_name is None:
        raise ConfigError(f"{path}: say which lane's gates apply with --lane (e.g. --lane tpu)")
    gates_file, gates_path = load_gates(gates or ferry_name or "moe-canary")
    lane_gates = gates_file.lane(lane_name)
    golden = golden_store.golden_of(
        gates_file,
        gates_path,
        gates_file.ferry or ferry_name or "moe-canary",
        lane_name,
        gates or ferry_name,
        ferry_version,
    )  # a broken golden is bad input before the run is read
    if golden is not None and golden.note:
        notes.append(golden.note)
    metrics = load_run_metrics(path, lane_gates.loss_metric)
    results = gates_mod.evaluate(
        lane_gates, metrics, requested_steps=requested_steps, golden=golden, ferry_version=ferry_version
    )
    return Judgement(lane_name, metrics, results, gates_path, notes)


def _prior(record: dict[str, Any], key: str, kind: type, path: Path) -> Any:
    value = record.get(key)
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise ConfigError(f"{path}: {key!r} is a JSON {type(value).__name__}, expected {kind.__name__}")
    return value
