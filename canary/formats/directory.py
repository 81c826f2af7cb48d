"""A run directory: the names of the files a run leaves behind, and its record written and read back.

    <out>/<run_id>/
        result.json              the run's record (:class:`~canary.record.RunRecord`)
        pending-record.json      the record, when the history could not take it (``canary history import``)
        notify-pending.json      a notification GitHub did not take (sent by the next ``canary notify``)
        metrics.jsonl            per-step metrics     \\
        tracker_metrics.jsonl    levanter's summary    | of the attempt that decided the verdict
        train.log                the workload's output | (the attempt's own file, linked: kept once)
        cache.json               compilation cache facts /
        loss.svg                 the loss curve
        attempt-N/               spec.json, wandb.json and the four files above, per attempt

Every reader of a record goes through :func:`read_record` (or :func:`canary.history.load_record`, which also
finds a run by its id): text it cannot read is one :class:`~canary.errors.ConfigError` line
(exit 2), never a traceback.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from canary.errors import ConfigError
from canary.record import RunRecord
from canary.textio import read_json_object

RESULT_FILE = "result.json"
PENDING_RECORD = "pending-record.json"
NOTIFY_PENDING = "notify-pending.json"
METRICS_FILE = "metrics.jsonl"
TRACKER_FILE = "tracker_metrics.jsonl"
LOG_FILE = "train.log"  # the workload's stdout and stderr, per attempt and for the deciding attempt
CACHE_FILE = "cache.json"
SPEC_FILE = "spec.json"
WANDB_FILE = "wandb.json"
LOSS_IMAGE = "loss.svg"
# What the run directory keeps of the attempt that decided the verdict.
PROMOTED = (METRICS_FILE, TRACKER_FILE, LOG_FILE, CACHE_FILE)


def attempt_dir(run_dir: Path, number: int) -> Path:
    return Path(run_dir) / f"attempt-{number}"


def promote_file(src: Path, dst: Path) -> None:
    """``src`` kept at ``dst`` too, over what was there: a hard link where the file system has
    them (a log of hundreds of MB is then kept once), else a copy."""
    tmp = dst.with_name(f".{dst.name}.promoting")
    tmp.unlink(missing_ok=True)
    try:
        os.link(src, tmp)
    except OSError:
        shutil.copyfile(src, tmp)
    os.replace(tmp, dst)


def decided_log(run_dir: Path) -> Path:
    """The log of the attempt that decided a run: its ``train.log``, or where that was left out
    (a CI artifact keeps the log once, in its ``attempt-N/``), the last attempt's."""
    top = Path(run_dir) / LOG_FILE
    if top.exists():
        return top
    found = [(p.parent.name.removeprefix("attempt-"), p) for p in Path(run_dir).glob(f"attempt-*/{LOG_FILE}")]
    attempts = [(int(n), p) for n, p in found if n.isdigit()]
    return max(attempts)[1] if attempts else top


def read_result(path: Path | str) -> dict[str, Any]:
    """What a record file (or a run directory's result.json) holds, as JSON: for readers that need
    only some of its keys and check their types themselves (``canary gate``, a golden's recording)."""
    path = Path(path)
    return read_json_object(path / RESULT_FILE if path.is_dir() else path)


def read_record(path: Path | str) -> RunRecord:
    """The record in ``path``: a run directory (its result.json) or a record file."""
    path = Path(path)
    if path.is_dir():
        path = path / RESULT_FILE
    try:
        return RunRecord.from_dict(read_result(path))
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        raise ConfigError(f"{path}: not a canary run record ({e})") from None


def write_record(path: Path | str, record: RunRecord) -> Path:
    """``record`` as JSON in ``path`` (a run directory: its result.json)."""
    path = Path(path)
    if path.is_dir():
        path = path / RESULT_FILE
    tmp = path.with_name(f".{path.name}.tmp")  # whole or not at all: a sibling renamed over it
    tmp.write_text(json.dumps(record.to_dict(), indent=2))
    os.replace(tmp, path)
    return path
