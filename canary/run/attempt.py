"""What one attempt left in its ``attempt-N/`` folder, read back for the verdict: its log (bounded,
and the excerpt a failure shows), its metrics (an attempt that wrote them badly failed, it is not
bad input), its W&B run, and the files promoted into the run directory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from canary import signature as signature_mod
from canary.errors import ConfigError
from canary.formats import directory
from canary.formats.directory import METRICS_FILE, PROMOTED, TRACKER_FILE
from canary.formats.metrics import RunMetrics, load_run_metrics
from canary.record import Attempt
from canary.workload.tracking import run_context as tracking_context


def read_log(path: Path) -> str:
    """An attempt's log, or its tail and error region when it is long (bounded memory)."""
    if not path.is_file():
        return ""
    with path.open(errors="replace") as f:
        return signature_mod.read_window(f)


def error_excerpt(log_text: str, max_lines: int = 40) -> str | None:
    """The last traceback (or the last lines) of a failed attempt's log."""
    lines = log_text.rstrip().splitlines()
    if not lines:
        return None
    start = None
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].startswith("Traceback (most recent call last)"):
            start = i
            break
    chunk = lines[start:] if start is not None else lines[-max_lines:]
    if len(chunk) > max_lines:
        chunk = chunk[:5] + ["..."] + chunk[-(max_lines - 6) :]
    return "\n".join(chunk)


def metrics_or_empty(path: Path, loss_metric: str) -> RunMetrics:
    """What an attempt wrote. Metrics it wrote badly (binary, absurd numbers) are that attempt's
    failure, judged by the gates as missing, never bad input that loses the run."""
    if (path / METRICS_FILE).is_file() or (path / TRACKER_FILE).is_file():
        try:
            return load_run_metrics(path, loss_metric)
        except ConfigError as e:
            return RunMetrics(None, None, [], {}, str(path), warnings=[f"metrics unreadable: {e}"])
    return RunMetrics(None, None, [], {}, str(path))


def promote(attempt_dir: Path, run_dir: Path) -> None:
    """An attempt's files, kept in the run directory too (each attempt's over the one before, so
    the deciding attempt's stay; linked, not copied, where the file system allows)."""
    for name in PROMOTED:
        src = attempt_dir / name
        if src.is_file():
            directory.promote_file(src, run_dir / name)


def with_tracking(ctx: dict[str, Any], run_dir: Path, attempts: list[Attempt]) -> dict[str, Any]:
    """Adds the deciding attempt's W&B run (its wandb.json): ``wandb`` (mode, id, error) and
    ``wandb_url`` when it was online, unless a URL was given (--wandb-url)."""
    if attempts:
        tracked = tracking_context(directory.attempt_dir(run_dir, attempts[-1].number))
        url = tracked.pop("wandb_url", None)
        if url:
            ctx.setdefault("wandb_url", url)
        ctx.update(tracked)
    return ctx
