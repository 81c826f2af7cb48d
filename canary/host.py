"""What kind of machine a run ran on: its CPU model and count, and on x86 its newest instruction
set. Performance figures (a golden's throughput floor) are only a yardstick on the same kind of
machine; elsewhere they inform. The instruction sets below this CPU's are what a golden
recording compiles for, to see how another machine's rounding moves the curve."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def _cpuinfo() -> str:
    """Linux's /proc/cpuinfo ("" where there is none)."""
    try:
        return Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return ""


def cpu_model(cpuinfo: str | None = None) -> str:
    """The CPU's model name (Linux's /proc/cpuinfo), else what the platform module says."""
    for line in (_cpuinfo() if cpuinfo is None else cpuinfo).splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("model name", "Model", "cpu model") and value.strip():
            return value.strip()
    return platform.processor() or platform.machine()


def facts() -> dict[str, object]:
    return {"cpus": os.cpu_count(), "cpu_model": cpu_model(), "machine": platform.machine()}


# XLA's CPU instruction-set tiers (its ``--xla_cpu_max_isa`` values on x86), oldest first.
X86_ISAS = ("SSE4_2", "AVX", "AVX2", "AVX512")
_ISA_FLAG = {"avx512f": "AVX512", "avx2": "AVX2", "avx": "AVX", "sse4_2": "SSE4_2"}


def isa(cpuinfo: str | None = None, machine: str | None = None) -> str | None:
    """The newest of :data:`X86_ISAS` this CPU has (Linux's /proc/cpuinfo flags), or None off x86
    or where the flags are unknown."""
    if (machine or platform.machine()).lower() not in ("x86_64", "amd64"):
        return None
    for line in (_cpuinfo() if cpuinfo is None else cpuinfo).splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            have = set(value.split())
            return max((_ISA_FLAG[f] for f in _ISA_FLAG if f in have), key=X86_ISAS.index, default=None)
    return None


def older_isas(native: str | None) -> list[str]:
    """The x86 tiers below ``native``, newest first (what XLA can be told to stay within)."""
    if native not in X86_ISAS:
        return []
    return list(reversed(X86_ISAS[: X86_ISAS.index(native)]))
