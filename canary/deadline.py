"""A call given a deadline: its answer, or ``TimeoutError`` when it has none in time. For calls that
may wait on a network that does not answer (gcsfs alone retries for most of a minute), where a
slow "cannot say" is worse than a quick one."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def answer_within(seconds: float, call: Callable[[], T], name: str = "canary-deadline") -> T:
    """``call()``'s value, or its exception; ``TimeoutError`` when it has not returned within
    ``seconds`` (it is left to finish on a daemon thread, which the process does not wait for)."""
    box: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            box.append(call())
        except BaseException as e:  # noqa: BLE001 - handed back to the caller's thread
            failed.append(e)

    worker = threading.Thread(target=run, name=name, daemon=True)
    worker.start()
    worker.join(seconds)
    if failed:
        raise failed[0]
    if not box:
        raise TimeoutError(seconds)
    return box[0]
