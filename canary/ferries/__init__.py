"""Ferry kinds: what the harness does differently for each kind of ferry, behind one protocol (as
launchers have :class:`canary.launchers.Launcher`). One module per kind:

    builtin  canary's own JAX workload (``canary.workload``), which reads the attempt's spec.json
    stack    the same workload with its model assembled from a library stack (levanter's grug)
    command  a team's own trainer, launched as its ferry says; its metrics are collected after

    kind = kind_of(ferry)
    kind.check_flags(ferry, ragged_dot, tiling)  # the kernel flags it accepts (bad input otherwise)
    kind.check_extras(ferry, lane)               # the optional packages it needs on this machine
    kind.stack(ferry)                            # the library stack it needs (extras.STACKS), or None
    kind.checks_remote_cache                     # whether the harness checks a remote cache itself
    kind.prepare(ferry, inputs)                  # an attempt: what to launch, what to collect after
    kind.model(ferry, what)                      # its built-in model (to lower, record a golden of)
    kind.lowering                                # how it lowers: "model", "stack" (None: it cannot)
    kind.why_not_bisected(ferry)                 # why a failure cannot be bisected here (None: it can)
    kind.listed(ferry)                           # what `canary list` shows of it

:func:`kind_of` is the only place that tells the kinds apart.
"""

from __future__ import annotations

from canary.config import AnyFerry
from canary.ferries import builtin, command, stack
from canary.ferries.kind import AttemptInputs, FerryKind, Prepared

__all__ = ["AttemptInputs", "FerryKind", "Prepared", "kind_of"]


def kind_of(ferry: AnyFerry) -> FerryKind:
    """The kind of ``ferry``: its ``kind`` key, and for a built-in one whether it names a stack."""
    if ferry.kind == "command":
        return command.KIND
    return stack.KIND if getattr(ferry, "stack", None) else builtin.KIND
