"""Reading what a training run wrote: per-step ``metrics.jsonl`` and levanter's
``tracker_metrics.jsonl`` summary. Parsing is pure (``parse_*``); ``load_run_metrics`` is the one
function that touches the filesystem."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canary.errors import ConfigError
from canary.formats.directory import METRICS_FILE, TRACKER_FILE
from canary.record import as_float
from canary.textio import read_text

WARNING_PREFIX = "warning: "  # a workload log line the harness repeats under the verdict

# The model's statistics a golden bands besides the loss (docs/gates.md, "The model's
# statistics"): every ``stats/<part>/...`` metric, and these. Each is of one part of the model.
STAT_PREFIX = "stats/"
STAT_METRICS = {
    "train/cross_entropy_loss": "loss",
    "optim/grad_norm": "optimizer",
    "optim/update_norm": "optimizer",
}
# Derived from two losses a step logs: the loss's terms besides the cross-entropy (the LM head's
# and the router's z-loss, weighted): ``train/loss - train/cross_entropy_loss``. A loss computed
# another way (in another dtype) or a dropped or rescaled term moves it from the first step, while
# the model's own statistics follow only as training carries the change into the weights.
Z_TERMS = "stats/loss/z_terms"


def derived_statistics(step: dict[str, Any]) -> dict[str, float]:
    """The statistics a step's own figures imply (:data:`Z_TERMS`), unless the step logged them."""
    total, ce = as_float(step.get("train/loss")), as_float(step.get("train/cross_entropy_loss"))
    if total is None or ce is None or Z_TERMS in step:
        return {}
    return {Z_TERMS: total - ce}


def is_statistic(key: str) -> bool:
    return key.startswith(STAT_PREFIX) or key in STAT_METRICS


def part_of(key: str) -> str:
    """The part of the model a statistic is of: ``stats/router/layer0/z_loss`` is the router's."""
    if key.startswith(STAT_PREFIX):
        return key[len(STAT_PREFIX) :].split("/", 1)[0]
    return STAT_METRICS.get(key, "loss" if key.startswith("train/") else "other")


@dataclass(frozen=True)
class RunMetrics:
    """What the gates judge. ``losses`` is None when only a summary was available."""

    steps_completed: int | None
    final_loss: float | None
    losses: list[tuple[int, float]] | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    warnings: list[str] = field(default_factory=list)  # lines skipped (torn, not JSON objects)
    series: dict[str, list[tuple[int, float]]] = field(default_factory=dict)  # each statistic's steps


def flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"train": {"loss": 1}}`` -> ``{"train/loss": 1}`` (levanter writes both shapes)."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(flatten(v, key + "/"))
        else:
            out[key] = v
    return out


def workload_warnings(log: str | Iterable[str]) -> list[str]:
    """The workload's own warnings in its log (lines starting with ``WARNING_PREFIX``), once
    each, in order, without the prefix. ``log`` is its text or its lines (an open file: a log
    of any size is read a line at a time)."""
    lines = log.splitlines() if isinstance(log, str) else log
    found = (line[len(WARNING_PREFIX) :].strip() for line in lines if line.startswith(WARNING_PREFIX))
    return list(dict.fromkeys(w for w in found if w))


def _json_lines(text: str, source: str, warnings: list[str] | None = None) -> Iterable[dict[str, Any]]:
    """The JSON objects of a JSON-lines file. A torn line (a writer killed mid-line, a disk that
    filled up) is skipped: silently when it is the last line, the expected end of a killed
    process, with a note in ``warnings`` when it is in the middle."""
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line, parse_constant=float)
        except (json.JSONDecodeError, RecursionError):
            if n != len(lines) and warnings is not None:
                warnings.append(f"{source}:{n}: skipped a line that is not JSON (torn or truncated)")
            continue
        if isinstance(obj, dict):
            yield obj
        elif warnings is not None:
            warnings.append(f"{source}:{n}: skipped a line that is not a JSON object")


MAX_STEP = 2**53  # past this a step number is no count of steps: no float holds it exactly


def step_number(value: Any, where: str) -> int | None:
    """A logged step (``global_step``, ``_step``) as an int; None when absent or not a number;
    bad input when it is a number no run could reach (negative, infinite, 1e400, over 2**53)."""
    f = as_float(value)
    if f is None:
        return None
    if not math.isfinite(f) or f < 0 or f >= MAX_STEP:
        raise ConfigError(f"{where}: step {value!r} is not a step number (from 0 to 2**53)")
    return int(f)


def step_speeds(speeds: list[float]) -> dict[str, float]:
    """The run's throughput as a run's summary states it, from its steps' tokens/s: the median and
    the fastest steady step (the first step, which compiles, left out). Empty without steps."""
    steady = sorted(speeds[1:] or speeds)
    if not steady:
        return {}
    mid = len(steady) // 2
    median = steady[mid] if len(steady) % 2 else (steady[mid - 1] + steady[mid]) / 2
    return {"throughput/tokens_per_second": median, "throughput/best_tokens_per_second": steady[-1]}


def parse_step_metrics(text: str, loss_metric: str = "train/loss", source: str = METRICS_FILE) -> RunMetrics:
    losses: list[tuple[int, float]] = []
    last: dict[str, Any] = {}
    steps = 0
    warnings: list[str] = []
    speeds: list[float] = []
    series: dict[str, list[tuple[int, float]]] = {}
    for rec in _json_lines(text, source, warnings):
        rec = flatten(rec)
        step = step_number(rec.get("global_step", rec.get("_step")), source)
        step = len(losses) if step is None else step
        steps = max(steps, step + 1)
        loss = as_float(rec.get(loss_metric))
        if loss is not None:
            losses.append((step, loss))
        speed = as_float(rec.get("throughput/tokens_per_second"))
        if speed is not None and speed > 0:
            speeds.append(speed)
        for key, value in {**rec, **derived_statistics(rec)}.items():
            if is_statistic(key) and (v := as_float(value)) is not None:
                series.setdefault(key, []).append((step, v))
        last = rec
    return RunMetrics(
        steps_completed=steps if last else None,
        final_loss=losses[-1][1] if losses else None,
        losses=losses,
        summary={**last, **step_speeds(speeds)},
        source=source,
        warnings=warnings,
        series=series,
    )


def parse_tracker_summary(text: str, loss_metric: str = "train/loss", source: str = TRACKER_FILE) -> RunMetrics:
    """Levanter's summary line. ``_step`` is the 0-based index of the last logged step, so a
    run of 238 steps records ``_step`` 237: steps completed is ``_step + 1``."""
    warnings: list[str] = []
    records = list(_json_lines(text, source, warnings))
    if not records:
        raise ConfigError(f"{source}: no summary line")
    rec = records[-1]
    summary = rec.get("summary", rec)
    if not isinstance(summary, dict):
        raise ConfigError(f'{source}: "summary" is a JSON {type(summary).__name__}, not an object of metrics')
    summary = flatten(summary)
    step = step_number(summary.get("_step"), source)
    if step is None:
        step = step_number(summary.get("global_step"), source)
    return RunMetrics(
        steps_completed=step + 1 if step is not None else None,
        final_loss=as_float(summary.get(loss_metric)),
        losses=None,
        summary=summary,
        source=source,
        warnings=warnings,
    )


def tracker_config(text: str, source: str = TRACKER_FILE) -> dict[str, Any]:
    """The ``config`` of a tracker summary line: canary's names the run's ``ferry``, ``lane`` and
    ``steps``; levanter's is its trainer config. ``{}`` when there is none."""
    configs = [r["config"] for r in _json_lines(text, source) if isinstance(r.get("config"), dict)]
    return configs[-1] if configs else {}


def read_json_lines(path: Path) -> str:
    """A metrics file's text (bad bytes are bad input, naming the offset), or bad input when it is
    not JSON lines at all: a torn line is fine; a file none of whose lines is a JSON object is not
    a metrics file."""
    text = read_text(path)
    if text.strip() and not any(True for _ in _json_lines(text, str(path))):
        raise ConfigError(f"{path}: not JSON lines; expected a per-step {METRICS_FILE} or a {TRACKER_FILE} summary")
    return text


def load_run_metrics(path: Path, loss_metric: str = "train/loss") -> RunMetrics:
    """From a run directory (per-step metrics preferred, the summary filling in) or from a
    levanter ``tracker_metrics.jsonl`` / per-step ``metrics.jsonl`` file."""
    path = Path(path)
    if path.is_dir():
        steps_file, tracker_file = path / METRICS_FILE, path / TRACKER_FILE
        if steps_file.is_file():
            m = parse_step_metrics(read_text(steps_file), loss_metric, str(steps_file))
            if tracker_file.is_file():
                s = parse_tracker_summary(read_text(tracker_file), loss_metric, str(tracker_file))
                m = RunMetrics(
                    m.steps_completed,
                    m.final_loss,
                    m.losses,
                    {**m.summary, **s.summary},
                    m.source,
                    m.warnings + s.warnings,
                    m.series,
                )
            return m
        if tracker_file.is_file():
            return parse_tracker_summary(read_text(tracker_file), loss_metric, str(tracker_file))
        raise ConfigError(f"{path}: neither {METRICS_FILE} nor {TRACKER_FILE} found")
    if not path.is_file():
        raise ConfigError(f"no run directory or metrics file at {path}")
    text = read_json_lines(path)
    first = next(iter(_json_lines(text, str(path))), {})
    if "summary" in first or "config" in first:
        return parse_tracker_summary(text, loss_metric, str(path))
    return parse_step_metrics(text, loss_metric, str(path))
