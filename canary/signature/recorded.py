"""The signature a run recorded: what ``canary signature RUN_DIR`` reports, the same one the
history and the notifier use. Pure.

A run's record (``result.json``) holds the signature of its deciding attempt, whatever ended it:
a crash, a timeout, an infrastructure outcome (the job never started, was lost or stopped), or
gates that failed after the workload ran to the end. Reading the log again would miss the last
two: a run that never started leaves no log, and a gate regression prints no error. A signature
an earlier canary recorded is given as today's rules name it (its old fingerprint in ``legacy``).
"""

from __future__ import annotations

from canary.errors import ConfigError
from canary.record import RunRecord, Signature
from canary.signature.attempts import gate_signature
from canary.signature.identity import current, make


def of_record(record: RunRecord, attempt: int | None = None) -> Signature | None:
    """The run's signature (or attempt ``attempt``'s); ``None`` for a run that passed."""
    if attempt is not None:
        if not 1 <= attempt <= len(record.attempts):
            raise ConfigError(f"run {record.run_id} has no attempt {attempt} (it made {len(record.attempts)})")
        return current(record.attempts[attempt - 1].signature, record.ferry)
    if record.signature is not None or record.verdict != "fail":
        return current(record.signature, record.ferry)
    # A failed run recorded without a signature (by an older canary): its deciding attempt's, or
    # its gates', or what is known of how it ended.
    last = record.attempts[-1] if record.attempts else None
    if last is not None and last.signature is not None:
        return current(last.signature, record.ferry)
    gates = gate_signature(record.gates, ferry=record.ferry)
    if gates is not None:
        return gates
    if last is None:
        return make("infrastructure", None, "the run made no attempt" + (f": {record.error}" if record.error else ""))
    return make(
        "infrastructure" if last.outcome in ("never_started", "lost", "stopped") else "runtime_crash",
        None,
        f"attempt {last.number} {last.outcome.replace('_', ' ')}" + (f": {last.detail}" if last.detail else ""),
    )
