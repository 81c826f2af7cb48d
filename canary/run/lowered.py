"""What a cross-platform lowering found, per platform (:class:`PlatformResult`), and the pure
parsing of a Pallas TPU block-shape failure into its parts (``parse_block_shape_error``). Shared
by canary's own lowering (:mod:`canary.run.lowering`) and a stack ferry's
(:mod:`canary.run.stack_lowering`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass
class PlatformResult:
    platform: str
    lane: str
    ok: bool
    error: str | None
    seconds: float
    ragged_dot: str
    tiling: str
    batch_size: int  # per device
    seq_len: int
    devices: int
    kernel: str | None = None
    gmm: str | None = None  # forward | grad-lhs | grad-rhs
    projection: str | None = None  # gate/up | down
    operand: str | None = None  # as the lowering names it: outputs | args[i]
    tensor: str | None = None  # which of the grouped matmul's lhs | rhs | out
    array_shape: list[int] | None = None
    block_shape: list[int | None] | None = None
    diagnosis: str | None = None
    failures: list[dict[str, Any]] = field(default_factory=list)  # every failing grouped matmul
    notes: list[str] = field(default_factory=list)
    fingerprint: str | None = None  # sha256 of the lowered module, noise stripped (program_fingerprint)
    fingerprint_seconds: float | None = None  # what printing and hashing the module cost
    program: dict[str, Any] | None = None  # compared with the last pass's (canary.history.programs)
    # a stack ferry's: the failing kernel's call path through the library's files (outermost first),
    # the distribution and version owning its innermost frame, and the stack's installed versions
    call_path: list[str] = field(default_factory=list)
    owner: str | None = None
    distributions: dict[str, str] = field(default_factory=dict)
    # the tpu lane's: the whole program on the lane's topology (canary.run.topology) and its
    # grouped-matmul kernel executed for parity (canary.run.parity)
    topology: dict[str, Any] | None = None
    parity: dict[str, Any] | None = None


_BLOCK_RE = re.compile(
    r"Block spec for (?P<operand>.+?) in pallas_call kernel at (?P<where>\S+?):(?P<line>\d+) "
    r"has block shape \((?P<block>.*?)\), array shape \((?P<array>[\d, ]*)\)",
    re.S,
)
_DIM_RE = re.compile(r"Blocked\(block_size=(\d+)\)|(Squeezed\(\)|None)|(\d+)")


def _dims(text: str) -> list[int | None]:
    out: list[int | None] = []
    for blocked, squeezed, plain in _DIM_RE.findall(text):
        out.append(None if squeezed else int(blocked or plain))
    return out


def parse_block_shape_error(text: str) -> dict[str, Any] | None:
    """The Pallas TPU block-shape failure in an error text, or None when there is none:
    {kernel, location, operand, block_shape, array_shape}. Line breaks (as in a wrapped log) are spaces."""
    m = _BLOCK_RE.search(" ".join(text.split()))
    if not m:
        return None
    where = m["where"]
    parts = where.replace("\\", "/").split("/")
    kernel = "/".join(parts[-2:]).removesuffix(".py") if len(parts) > 1 else where
    return {
        "kernel": kernel,
        "location": f"{where}:{m['line']}",
        "operand": m["operand"],
        "block_shape": _dims(m["block"]),
        "array_shape": [int(x) for x in m["array"].replace(" ", "").split(",") if x],
    }
