"""A log in, the signature of the failure it shows out: which reader speaks when. Pure.

The last failure in the log names it: a Python exception chain, or a bare error line (an XLA
status, a Mosaic error code, NCCL, CUDA, a failed CHECK, a fatal Python error, the OOM killer,
a Ray task error), or what the launcher saw (a timeout, a signal, an exit status).
"""

from __future__ import annotations

import math
import re
import signal as signal_mod
from collections.abc import Sequence
from typing import Any

from canary.record import Signature, as_float
from canary.signature import bare, kinds
from canary.signature.identity import make, what_moved, with_ferry
from canary.signature.lines import clean_lines, window
from canary.signature.masks import canonical_class, canonical_message, numbers_masked
from canary.signature.tracebacks import (
    _FH_FRAME,
    _JAX_SOURCE_TRACE,
    _JAX_WRAPPERS,
    _MESSAGE_END,
    DEFAULT_OPTIONS,
    ExceptionBlock,
    Frame,
    Options,
    call_path,
    parse_chains,
)

_SHELL_SIGNAL = re.compile(
    r"(?:^|(?<=[\s\]*`]))(?P<name>Killed|Segmentation fault|Aborted|Bus error|Terminated)"
    r"(?:\s{1,8}\(core dumped\))?\s{0,80}(?:python\S{0,200}.{0,300})?[`*]{0,3}$"
)
_SIGNAL_WORDS = {
    "Killed": "SIGKILL",
    "Segmentation fault": "SIGSEGV",
    "Aborted": "SIGABRT",
    "Bus error": "SIGBUS",
    "Terminated": "SIGTERM",
}
_SIGNAL_TEXT = re.compile(r"(?:killed|terminated) by signal (?P<sig>SIG[A-Z]+|\d+)", re.I)
_EXIT_CODE = re.compile(r"exit(?:ed with)? (?:code|status) (?P<rc>\d+)", re.I)
_FH_HEADER = re.compile(r"^(?:Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):$")
_FH_TIMEOUT = re.compile(r"^Timeout \(\d+:\d{2}:\d{2}(?:\.\d+)?\)!$")
_LOSS_NAN = re.compile(r"\b(?:train/)?loss\b[\s:=]{1,8}(?:nan|-?inf)\b", re.I)


def _signal_name(value: str | int) -> str:
    if isinstance(value, str) and value.startswith("SIG"):
        return value
    try:
        return signal_mod.Signals(abs(int(value))).name
    except (ValueError, TypeError):
        return f"signal {value}"


def _is_jax_wrapper(b: ExceptionBlock) -> bool:
    return canonical_class(b.exc_type) in _JAX_WRAPPERS or canonical_class(b.exc_type) == _JAX_SOURCE_TRACE


def _from_chain(chain: list[ExceptionBlock], options: Options) -> Signature:
    real = [b for b in chain if not _is_jax_wrapper(b)] or chain
    root = real[0]
    # Wrappers that only re-raise (Ray's RayTaskError, a trainer's "training failed", JAX's
    # unfiltered trace) come later in the chain, linked as causes; the first exception names the
    # bug. The call path runs from the outermost wrapper's frames down to the root's innermost
    # ones; an exception raised while handling another (a failed cleanup) is not on that path.
    start = chain.index(root)
    frames: list[Frame] = list(chain[start].frames)
    for b in chain[start + 1 :]:
        if b.link != "cause":
            break
        frames = [*b.frames, *frames]
    for b in chain[:start]:
        if canonical_class(b.exc_type) == _JAX_SOURCE_TRACE:
            frames += b.frames
    path = call_path(frames, options)
    text = " ".join(f"{b.exc_type}: {b.message}" for b in real)
    kind = kinds.kind_of(
        root.exc_type, root.message, text, [(fr.file, fr.func, fr.code) for b in real for fr in b.frames]
    )
    excerpt = "\n".join(line for b in chain for line in b.lines)[-6000:]
    return make(kind, root.exc_type, root.message, path, excerpt)


def _faulthandler_frames(lines: list[str], start: int) -> list[Frame]:
    """The first thread in a faulthandler dump at/after ``start`` (most recent call first)."""
    for i in range(start, len(lines)):
        if _FH_HEADER.match(lines[i].strip()):
            frames = []
            for line in lines[i + 1 :]:
                m = _FH_FRAME.match(line)
                if not m:
                    break
                frames.append(Frame(m.group("file"), m.group("func").strip(), int(m.group("line"))))
            return list(reversed(frames))
    return []


def _crash_site(frames: list[Frame], options: Options) -> list[str]:
    """The call path of a crash; when none of its frames is the application's, the innermost frame
    (the library function that crashed) names where."""
    path = call_path(frames, options)
    if path or not frames:
        return path
    return call_path(frames[-1:], Options(keep=("*",), max_frames=1))


def _faulthandler_timeout(lines: list[str], options: Options) -> Signature | None:
    """A ``faulthandler.dump_traceback_later`` dump ("Timeout (0:30:00)!"): named by where it hung."""
    for i in range(len(lines) - 1, -1, -1):
        if _FH_TIMEOUT.match(lines[i].strip()):
            frames = call_path(_faulthandler_frames(lines, i), options)
            return make(
                "timeout",
                None,
                "hung: " + (frames[-1] if frames else "no frames"),
                frames,
                "\n".join(lines[i : i + 30]),
            )
    return None


def _last_output(lines: list[str], n: int = 1) -> list[str]:
    out: list[str] = []
    for line in reversed(lines):
        if line.strip():
            out.append(line)
            if len(out) == n:
                break
    return out[::-1]


_SENTENCE_END = (".", "!", "?", ")", "]")
# Lines that end a bare error's message (what XLA appends to an out-of-memory error, a C++ stack).
_BARE_END = re.compile(
    r"^(?:BufferAssignment OOM Debugging|\*\*\* (?:Begin stack trace|Check failure stack trace)|"
    r"terminate called after|Aborted \(core dumped\)|Traceback \(most recent call last\)|https?://|\*\*\* SIG)"
)


def _bare_message(lines: list[str], i: int, first: str, context: int) -> str:
    """A bare error's message: its line and the lines that continue it (up to ``context``): a
    message wrapped mid-sentence goes on; a finished sentence, a blank line or the next error ends it."""
    parts = [first]
    records = getattr(lines, "records", ())
    for k, line in enumerate(lines[i + 1 : i + 1 + context], start=i + 1):
        s = line.strip()
        if (
            not s
            or k in records
            or parts[-1].rstrip().endswith(_SENTENCE_END)
            or _MESSAGE_END.match(s)
            or _BARE_END.match(s)
            or s.startswith("File ")
            or kinds.INFRA_TEXT.match(s)
        ):
            break
        if any(b.match(s) for b in bare.BARE_ERRORS):
            break  # the next error, not this one's continuation
        parts.append(s)
    return " ".join(parts)


def _quoted(line: str, start: int, message: str) -> str:
    """A message quoted in backticks in prose ("I receive `RESOURCE_EXHAUSTED: ...` errors") ends
    at its closing backtick."""
    if line.count("`", 0, start) % 2 == 1 and "`" in message:
        return message[: message.index("`")]
    return message


# A process that aborts says so after the error that made it abort: that error names the failure.
_ABORTS = ("SIGABRT", "SIGSEGV", "SIGBUS", "FatalError")
_LOOK_BACK = 40  # lines searched for the error before an abort, or for the whole of a cut one


def _scan(
    lines: list[str], options: Options, stop: int = -1, start: int | None = None, skip: tuple[str, ...] = ()
) -> tuple[int, Signature, str, str] | None:
    """The last bare error in ``lines[stop+1:start]``: its line index, signature, recogniser and raw message."""
    weak = None
    for i in range(len(lines) - 1 if start is None else start, stop, -1):
        s = lines[i].strip()
        if not s:
            continue
        for rec in bare.BARE_ERRORS:
            if rec.name in skip:
                continue
            m = rec.match(s)
            if m is None:
                continue
            raw = _quoted(s, m.start(), _bare_message(lines, i, rec.message(m), rec.context))
            frames: list[str] = []
            if rec.name == "fatal-python":
                frames = _crash_site(_faulthandler_frames(lines, i), options)
            excerpt = "\n".join(lines[max(0, i - 3) : i + 1 + max(rec.context, 10)])
            exc = rec.exception_of(m)
            found = (i, make(rec.kind_of(f"{exc}: {raw}"), exc, raw, frames, excerpt), rec.name, raw)
            if not rec.weak:
                return found
            weak = weak or found
            break
    return weak


def bare_error(lines: list[str], options: Options) -> tuple[int, Signature] | None:
    """The last failure in the log that prints a line, not a traceback, with the index of its line.

    An excerpt may end mid-line: when the last error's message is the start of an earlier one's,
    the whole earlier one names it. A signal or abort names it only when no error came just before."""
    found = _scan(lines, options)
    if found is None:
        return None
    i, sig, name, raw = found
    if name == "signal":
        # absl's failure handler prints the signal after what aborted: a failed CHECK, a status
        cause = _scan(
            lines,
            options,
            stop=max(-1, i - _LOOK_BACK),
            start=i - 1,
            skip=("signal", "fatal-python", "python-exception", "ray-task"),
        )
        if cause is not None and cause[1].exception not in _ABORTS:
            return cause[0], cause[1]
        return i, sig
    if not any(line.strip() for line in lines[i + 1 :]):  # the log ends on it: perhaps cut mid-line
        j = i - 1
        while j > max(-1, i - _LOOK_BACK):
            earlier = _scan(lines, options, stop=max(-1, i - _LOOK_BACK), start=j)
            if earlier is None:
                break
            e_raw = earlier[3]
            if earlier[2] == name and len(e_raw) > len(raw) and _starts(e_raw, raw):
                return earlier[0], earlier[1]
            j = earlier[0] - 1
    return i, sig


def _starts(whole: str, cut: str) -> bool:
    return canonical_message(whole).startswith(canonical_message(cut).rstrip())


def _signal_from_text(lines: list[str]) -> str | None:
    for line in reversed(_last_output(lines, 5)):
        m = _SIGNAL_TEXT.search(line)
        if m:
            return _signal_name(m.group("sig"))
        m = _SHELL_SIGNAL.search(line.strip())
        if m:
            return _SIGNAL_WORDS[m.group("name")]
        m = _EXIT_CODE.search(line)
        if m and int(m.group("rc")) > 128:
            return _signal_name(int(m.group("rc")) - 128)
    return None


def extract(
    log_text: str,
    *,
    outcome: str | None = None,
    exit_code: int | None = None,
    signal: int | None = None,
    detail: str = "",
    options: Options = DEFAULT_OPTIONS,
) -> Signature | None:
    """The signature of the failure ``log_text`` shows, or ``None`` when it shows none and the
    launcher reported none (``outcome`` ``succeeded`` or unknown).

    ``outcome``/``exit_code``/``signal``/``detail`` are what the launcher saw (``timeout``,
    ``never_started``, ``lost``, ...); they decide when the log alone cannot."""
    lines = clean_lines(window(log_text))
    tail = "\n".join(_last_output(lines, 40))

    if outcome in ("never_started", "lost", "stopped"):
        what = {"never_started": "the job never started", "lost": "the job was lost", "stopped": "the job was stopped"}[
            outcome
        ]
        return make("infrastructure", None, what + (f": {detail}" if detail else ""), [], tail[-2000:])
    chains = parse_chains(lines)
    if outcome != "succeeded":
        reason = kinds.infrastructure_reason(tail)
        if reason and not chains:
            return make("infrastructure", None, reason, [], tail[-2000:])

    hang = _faulthandler_timeout(lines, options)
    if outcome == "timeout":
        # A hang: where it hung is the identity. A faulthandler dump says it best; otherwise the
        # last thing it printed, with step numbers and losses masked.
        if hang:
            return hang
        last = _last_output([ln for ln in lines if not _FH_HEADER.match(ln.strip())], 1)
        return make(
            "timeout", None, "hung after: " + (numbers_masked(last[0]) if last else "no output"), [], tail[-2000:]
        )
    # The last failure in the log names it: an exception logged and survived earlier does not
    # explain a later fatal signal, and a process the launcher saw killed did not die of one.
    crash = bare_error(lines, options)
    killed = bool(signal) or (exit_code is not None and exit_code < 0)
    if (
        chains
        and not killed
        and (
            crash is None or crash[0] < max(b.end for b in chains[-1]) or crash[1].exception == "CompilationCacheError"
        )
    ):
        return _from_chain(chains[-1], options)
    if crash and not (
        killed
        and crash[1].exception not in ("SIGKILL", "SIGSEGV", "SIGABRT", "SIGBUS")
        and crash[1].exception not in ("CheckFailed", "FatalError")
    ):
        return crash[1]
    if outcome is None or outcome == "failed":
        if hang:  # a watchdog dumped the stacks and ended the process
            return hang
        if kinds.TIMEOUT_TEXT.search(tail):
            line = next(ln for ln in reversed(_last_output(lines, 40)) if kinds.TIMEOUT_TEXT.search(ln))
            return make("timeout", None, numbers_masked(line), [], tail[-2000:])
        sig = (
            _signal_name(signal)
            if signal
            else (_signal_name(-exit_code) if exit_code is not None and exit_code < 0 else _signal_from_text(lines))
        )
        if sig:
            return make("runtime_crash", sig, f"process killed by {sig}", [], tail[-2000:])
        nan_line = next((ln for ln in reversed(lines) if _LOSS_NAN.search(ln)), None)
        if nan_line is not None:
            return make("nan", None, "loss became non-finite", [], tail[-2000:])
    if outcome == "failed":
        last = _last_output(lines, 1)
        status = f"exit status {exit_code}" if exit_code is not None else (detail or "failed")
        return make(
            "runtime_crash", None, f"{status}: " + (numbers_masked(last[0]) if last else "no output"), [], tail[-2000:]
        )
    return None


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
