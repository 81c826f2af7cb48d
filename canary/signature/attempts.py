"""An attempt's signature: read from its log when it did not run to the end (:func:`~canary.signature.failure.extract`),
from its gates when it did and they failed, ``None`` when it passed. Pure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from canary.record import Signature, as_float
from canary.signature import kinds
from canary.signature.failure import extract
from canary.signature.identity import make, what_moved, with_ferry
from canary.signature.tracebacks import DEFAULT_OPTIONS, Options


def gate_signature(gates: Sequence[dict[str, Any]], excerpt: str = "", ferry: str = "") -> Signature | None:
    """The signature of a run that completed but failed its gates: ``nan`` when the loss went
    non-finite, else ``gate_regression`` naming the failed gates (not their values, which vary),
    the ``ferry`` that failed them and what the curve gates saw leave its band (``moved``:
    :func:`~canary.signature.identity.what_moved`)."""
    failed = [g for g in gates if g.get("status") == "FAIL"]
    if not failed:
        return None
    detail = excerpt or "\n".join(
        f"{g['name']}: {g.get('value')} (threshold {g.get('threshold')}) {g.get('detail', '')}".rstrip() for g in failed
    )
    if any(g["name"] == "finite_loss" or _is_nonfinite(g.get("value")) for g in failed):
        return make("nan", None, "loss became non-finite", [], detail)
    if any(g["name"] == "platform" for g in failed):  # canary.judge.platform: the lane's accelerator unused
        return make("environment", "RuntimeError", "No GPU/TPU found, falling back to CPU", [], detail)
    names = sorted(g["name"] for g in failed)
    kind = "perf_regression" if all(n in kinds.PERF_GATES for n in names) else "gate_regression"
    message, legacy = with_ferry("failed gates: " + ", ".join(names), ferry), _named_before(kind, names, ferry)
    what = what_moved(failed)  # said since the curve gates record it: the older names are legacy
    return make(kind, None, f"{message}; moved: {what}" if what else message, [], detail, legacy)


def _named_before(kind: str, names: list[str], ferry: str) -> list[str]:
    """The fingerprints earlier canaries gave these failed gates: by their names, with and without
    the ferry, and without the gates added since (stats_curve): a recurrence reaches its old issue."""
    out = []
    for gates in dict.fromkeys([tuple(names), tuple(n for n in names if n != "stats_curve")]):
        message = "failed gates: " + ", ".join(gates)
        out += [make(kind, None, m).fingerprint for m in (message, with_ferry(message, ferry)) if gates]
    return out


def _is_nonfinite(v: Any) -> bool:
    x = as_float(v)
    return x is not None and not math.isfinite(x)


def for_attempt(
    log_text: str,
    outcome: str,
    exit_code: int | None = None,
    signal: int | None = None,
    detail: str = "",
    gates: Sequence[dict[str, Any]] = (),
    options: Options = DEFAULT_OPTIONS,
    ferry: str = "",
) -> Signature | None:
    """The signature of one attempt: from its log when it did not run to the end, from its gates
    when it did and they failed, ``None`` when it passed."""
    if outcome != "succeeded":
        return extract(log_text, outcome=outcome, exit_code=exit_code, signal=signal, detail=detail, options=options)
    return gate_signature(gates, ferry=ferry)
