"""What a run tells its watcher while it goes on: the :class:`Progress` protocol the CLI draws
with rich, and the tail of an attempt's growing ``metrics.jsonl`` that feeds it step by step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Protocol

from canary.formats.metrics import flatten
from canary.launchers import AttemptOutcome


class Progress(Protocol):
    """What the harness tells a watcher while a run goes on (the CLI draws it with rich)."""

    def attempt_started(self, attempt: int, of: int, total_steps: int) -> None: ...
    def step(self, record: dict[str, Any]) -> None: ...
    def attempt_ended(self, attempt: int, outcome: AttemptOutcome) -> None: ...
    def stop(self) -> None: ...  # the run is over: nothing more is drawn


class NoProgress:
    def attempt_started(self, attempt, of, total_steps): ...
    def step(self, record): ...
    def attempt_ended(self, attempt, outcome): ...
    def stop(self): ...


class MetricsTail:
    """Reads new complete lines from a growing metrics.jsonl."""

    def __init__(self, path: Path, sink: Progress):
        self.path, self.sink, self.offset, self.buf = path, sink, 0, b""

    def __call__(self) -> None:
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return
        self.offset += len(data)
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        for line in lines:
            if line.strip():
                try:
                    rec = json.loads(line)
                except (ValueError, RecursionError):  # torn, not UTF-8: the final read judges the file
                    continue
                if isinstance(rec, dict):
                    self.sink.step(flatten(rec))
