"""A run directory without secrets: it is uploaded as a CI artifact, so every text file an
attempt leaves there (its log, the trainer's tracker_metrics.jsonl, metrics.jsonl, W&B's and
the cache's facts) is redacted in place before it is copied up to the run directory."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from canary.text.redact import redact_file

TEXT_SUFFIXES = (".log", ".json", ".jsonl", ".txt")
SPEC_FILE = "spec.json"  # canary's own, written before the attempt: nothing of the workload's in it


def scrub_attempt(attempt_dir: Path, log_path: Path, secrets: Iterable[str], redacted_window: str) -> None:
    """Redacts the attempt's log (``log_path``) and every other text file in ``attempt_dir``."""
    secrets = tuple(secrets)
    _redact_log(Path(log_path), secrets, redacted_window)
    for path in sorted(Path(attempt_dir).iterdir()):
        if path.name == SPEC_FILE or path == Path(log_path) or path.suffix not in TEXT_SUFFIXES:
            continue
        if path.is_file() and not path.is_symlink():
            try:
                redact_file(path, secrets)
            except OSError:  # a full disk: a file that cannot be redacted is not kept
                path.unlink(missing_ok=True)


def _redact_log(path: Path, secrets: tuple[str, ...], redacted_window: str) -> None:
    """The attempt's log file, redacted in place. Where that cannot be written (a full disk), the
    file is cut to its redacted error window, which is smaller: a log kept raw could leak."""
    if not path.is_file():
        return
    try:
        redact_file(path, secrets)
    except OSError:
        try:
            path.write_text(redacted_window)
        except OSError:
            path.unlink(missing_ok=True)
