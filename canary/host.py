"""What kind of machine a run ran on: its CPU model and count. Performance figures (a golden's
throughput floor) are only a yardstick on the same kind of machine; elsewhere they inform."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def cpu_model(cpuinfo: str | None = None) -> str:
    """The CPU's model name (Linux's /proc/cpuinfo), else what the platform module says."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(errors="replace")
        except OSError:
            cpuinfo = ""
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("model name", "Model", "cpu model") and value.strip():
            return value.strip()
    return platform.processor() or platform.machine()


def facts() -> dict[str, object]:
    return {"cpus": os.cpu_count(), "cpu_model": cpu_model(), "machine": platform.machine()}
