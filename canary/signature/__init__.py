"""Failure signatures: log text in, :class:`canary.record.Signature` out. Pure; no I/O.

A signature says what kind of failure a log shows (``compile_error``, ``runtime_crash``, ``nan``,
``timeout``, ``gate_regression``, ``infrastructure``), the exception's canonical class, a
normalised message, the in-app call path, a short stable ``fingerprint`` and a coarser ``group``
(error class plus failing op or kernel). Two occurrences of one bug give one fingerprint; two bugs
that raise the same exception class give two.

One module per concern:

* :mod:`~canary.signature.lines`: reading log lines (scheduler, logger, markdown, pytest and
  IPython decorations; long logs cut to their tail and error region);
* :mod:`~canary.signature.tracebacks`: Python exception chains and call paths;
* :mod:`~canary.signature.masks`: masking what varies, canonical error classes;
* :mod:`~canary.signature.kinds`: the kinds, which kind an exception is, the failing op or kernel;
* :mod:`~canary.signature.bare`: failures that print a line, not a traceback;
* :mod:`~canary.signature.folds`: the rules that fold one failure's drift across releases;
* :mod:`~canary.signature.identity`: the two grains of identity, and a recorded one made current;
* :mod:`~canary.signature.failure`: which of them names a log's failure;
* :mod:`~canary.signature.recorded`: the signature a run's record holds.

    sig = extract(log_text)                        # a log of a crashed attempt
    sig = extract(log_text, outcome="timeout")     # the launcher's word on how it ended
    sig = gate_signature(gate_results)             # a run that completed but failed its gates
"""

from canary.signature.attempts import for_attempt, gate_signature
from canary.signature.call_paths import call_path, frame_path
from canary.signature.failure import bare_error, extract
from canary.signature.folds import RULES
from canary.signature.identity import FINGERPRINT_LEN, current, fingerprint, frame_key, group, group_key, make
from canary.signature.infra import infrastructure_reason
from canary.signature.kinds import KINDS, known_kinds
from canary.signature.lines import clean_lines, strip_prefix
from canary.signature.masks import canonical_class, normalize, status_code
from canary.signature.recorded import of_record
from canary.signature.tracebacks import (
    DEFAULT_KEEP,
    DEFAULT_MAX_FRAMES,
    ExceptionBlock,
    Frame,
    Options,
    parse_chains,
)
from canary.signature.windows import read_window, window

__all__ = [
    "DEFAULT_KEEP",
    "DEFAULT_MAX_FRAMES",
    "FINGERPRINT_LEN",
    "KINDS",
    "RULES",
    "ExceptionBlock",
    "Frame",
    "Options",
    "bare_error",
    "call_path",
    "canonical_class",
    "clean_lines",
    "current",
    "extract",
    "fingerprint",
    "for_attempt",
    "frame_key",
    "frame_path",
    "gate_signature",
    "group",
    "group_key",
    "infrastructure_reason",
    "known_kinds",
    "make",
    "normalize",
    "of_record",
    "parse_chains",
    "read_window",
    "status_code",
    "strip_prefix",
    "window",
]
