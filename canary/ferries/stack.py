"""A stack ferry: the built-in workload with its model assembled from a library stack (``stack =
"levanter"``: levanter's grug MoE over haliax, :mod:`canary.workload.stack`). The library picks
every kernel, so canary's kernel flags are refused, and the stack's packages must be installed
where the workload runs."""

from __future__ import annotations

from canary.config import Ferry, Lane
from canary.errors import ConfigError
from canary.extras import STACKS, require
from canary.ferries.builtin import Builtin


class Stack(Builtin):
    name = "stack"
    lowering = "stack"

    def check_flags(self, ferry: Ferry, ragged_dot: str | None, tiling: str | None) -> None:
        if ragged_dot or tiling:
            raise ConfigError(
                f"--ragged-dot/--tiling: ferry {ferry.name!r} is a {ferry.stack} stack ferry; its "
                "kernels are the library's own choice"
            )

    def check_extras(self, ferry: Ferry, lane: Lane) -> None:
        if lane.launcher.kind == "local":  # a remote worker's environment is its own (canary doctor checks)
            require(STACKS[ferry.stack], f"ferry {ferry.name!r}")

    def stack(self, ferry: Ferry) -> str | None:
        return ferry.stack


KIND = Stack()
