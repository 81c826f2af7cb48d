"""A log in, the signature of the failure it shows out: which reader speaks when. Pure.

The last failure in the log names it: a Python exception chain, or a bare error line (an XLA
status, a Mosaic error code, NCCL, CUDA, a failed CHECK, a fatal Python error, the OOM killer,
a Ray task error), or what the launcher saw (a timeout, a signal, an exit status).
"""

from __future__ import annotations

import re
from functools import partial

from canary.record import Signature
from canary.signature import kinds
from canary.signature.bare import BARE_ERRORS
from canary.signature.bare_scan import (
    _FH_HEADER,
    NOT_A_CHECK,
    NOT_CUDA,
    _faulthandler_frames,
    bare_error,
    error_before,
    named_before,
    pip_built,
    pip_relayed,
    relayed_cause,
)
from canary.signature.call_paths import call_path
from canary.signature.cut_tracebacks import cut_short
from canary.signature.identity import CUT_TRACEBACK, make
from canary.signature.infra import infrastructure_reason
from canary.signature.lines import clean_lines, last_output, unescaped
from canary.signature.masks import canonical_class, numbers_masked
from canary.signature.numerics import non_finite
from canary.signature.recogniser import BareError
from canary.signature.said import any_warning, error_said
from canary.signature.signals import UNTHROWN, died_importing, launcher_signal, signal_from_text, signal_name
from canary.signature.source_words import fallback_probe, words_from_source
from canary.signature.tracebacks import (
    _CAUSE,
    _CONTEXT,
    _JAX_SOURCE_TRACE,
    _JAX_WRAPPERS,
    _TB_START,
    DEFAULT_OPTIONS,
    ExceptionBlock,
    Frame,
    Options,
    _parse_exception_line,
    naming_chain,
    parse_chains,
    unfinished,
)
from canary.signature.windows import window

_FH_TIMEOUT = re.compile(r"^Timeout \(\d+:\d{2}:\d{2}(?:\.\d+)?\)!$")
# ("loss: nan", "train/loss=inf", a program's own check: "Loss is nan, stopping training", Lightning's "The loss
# returned in `training_step` is nan or inf.")


def _is_jax_wrapper(b: ExceptionBlock) -> bool:
    return canonical_class(b.exc_type) in _JAX_WRAPPERS or canonical_class(b.exc_type) == _JAX_SOURCE_TRACE


def _lookup_translated(chain: list[ExceptionBlock], first: ExceptionBlock) -> tuple[str, str] | None:
    """A library's words for the lookup that missed in ``first``: a KeyError of one name, raised from as another
    class whose message names it (jax's ``primitive_transposes[p]`` missing, raised from as "NotImplementedError:
    Transpose rule (for reverse-mode differentiation) for 'p' not implemented", also inside jax's trace of where the
    operation came from), or while handling it (gym's registry: "KeyError: 'seals/CartPole-v0'", then "DeprecatedEnv:
    Env seals/CartPole-v0 not found ..."); the words name the failure (which rule), the dict's key alone does not."""
    i = chain.index(first)
    if canonical_class(first.exc_type) != "KeyError" or i + 1 >= len(chain) or not chain[i + 1].link:
        return None
    then = chain[i + 1]
    exc, message = (
        (_parse_exception_line(then.message) or ("", "")) if _is_jax_wrapper(then) else (then.exc_type, then.message)
    )
    key = first.message.strip().strip("'\"")
    named = f"'{key}'" in message or re.search(rf"(?<!\S){re.escape(key)}(?!\S)", message)
    if not key or " " in key or "(" in exc or not named or exc == "KeyError" or "KeyError" in message:
        return None
    return exc, message


def _from_chain(chain: list[ExceptionBlock], options: Options) -> Signature:
    real = [b for b in chain if not _is_jax_wrapper(b)] or chain
    if len(real) > 1 and fallback_probe(real[0].exc_type, real[0].message, real[1].exc_type, real[1].link):
        real = real[1:]  # (a private extension probed for, its pure fallback's failure while handling it)
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
    exc_type, message = _lookup_translated(chain, root) or (root.exc_type, root.message)
    if root.frames:
        message = words_from_source(message, root.frames[-1].code)
    if _is_jax_wrapper(root):  # only jax's wrapper left (the traceback it wraps cut): what it prints is the failure
        exc_type, message = _parse_exception_line(message) or (exc_type, message)
    kind = kinds.kind_of(exc_type, message, text, [(fr.file, fr.func, fr.code) for b in real for fr in b.frames])
    excerpt = "\n".join(line for b in chain for line in b.lines)[-6000:]
    return make(kind, exc_type, message, path, excerpt)


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
    ``never_started``, ``lost``, ...); they decide when the log alone cannot. Where nothing is found, a traceback
    inside one line with its newlines escaped (a JSON field, an Ansible module's stderr) is read as its lines."""
    read = partial(_extract, outcome=outcome, exit_code=exit_code, signal=signal, detail=detail, options=options)
    found = read(log_text, last_resort=False)
    if found is None and (text := unescaped(log_text)) is not None:
        found = read(text, last_resort=False)
    return found if found is not None or outcome != "failed" else read(log_text, last_resort=True)


def _extract(
    log_text: str,
    *,
    outcome: str | None,
    exit_code: int | None,
    signal: int | None,
    detail: str,
    options: Options,
    last_resort: bool,
) -> Signature | None:
    lines = clean_lines(window(log_text))
    tail = "\n".join(last_output(lines, 40))
    chains = parse_chains(lines)
    said = _launcher_said(outcome, detail, tail, chains)
    if said is not None:
        return said
    hang = _faulthandler_timeout(lines, options)
    if outcome == "timeout":
        return hang or _hung_after(lines, tail)
    killed = bool(signal) or (exit_code is not None and exit_code < 0)
    last = _last_failure(lines, chains, killed, options)
    if last is not None and last.message.startswith("No module named "):
        last = pip_built(lines, len(lines), last)
    if last is not None:
        return (_child_signal(lines, tail) or last) if last.exception == "ChildFailedError" else last
    if outcome is None or outcome == "failed":
        died = hang or _died_without_a_trace(lines, tail, signal, exit_code) or cut_short(lines)
        if died is None or died.message.startswith(_LAUNCHER_CUT):  # (torch elastic's own traceback, cut)
            died = _child_signal(lines, tail) or died
        if died is not None:
            return died
        said = error_said(lines)
        if said is not None:
            return said[1]
        # (a log alone: where the launcher saw the process fail, its exit status says more than a warning before it)
        warned = any_warning(lines) if outcome is None else None
        if warned is not None:
            return warned
    if outcome == "failed" and last_resort:  # (the launcher's exit status, where no text of the log says more)
        last_line = last_output(lines, 1)
        status = f"exit status {exit_code}" if exit_code is not None else (detail or "failed")
        return make(
            "runtime_crash",
            None,
            f"{status}: " + (numbers_masked(last_line[0]) if last_line else "no output"),
            [],
            tail[-2000:],
        )
    return None


_LAUNCHER_CUT = f"{CUT_TRACEBACK}torch/distributed/"


def _child_signal(lines: list[str], tail: str) -> Signature | None:
    """torch elastic's report of a child it saw die of a signal ("failed (exitcode: -9) local_rank: 0"), before its
    own ChildFailedError's traceback (whole or cut): the signal names it."""
    died_of = launcher_signal(lines)
    return make("runtime_crash", died_of, f"process killed by {died_of}", [], tail[-2000:]) if died_of else None


def _launcher_said(outcome: str | None, detail: str, tail: str, chains) -> Signature | None:
    """An infrastructure outcome the launcher saw (the job never started, was lost or stopped), or
    one the log's tail names when no traceback says otherwise."""
    if outcome in ("never_started", "lost", "stopped"):
        what = {"never_started": "the job never started", "lost": "the job was lost", "stopped": "the job was stopped"}[
            outcome
        ]
        return make("infrastructure", None, what + (f": {detail}" if detail else ""), [], tail[-2000:])
    if outcome != "succeeded":
        reason = infrastructure_reason(tail)
        if reason and not chains:
            return make("infrastructure", None, reason, [], tail[-2000:])
    return None


def _hung_after(lines: list[str], tail: str) -> Signature:
    """A hang without a faulthandler dump: the last thing it printed, step numbers and losses masked."""
    last = last_output([ln for ln in lines if not _FH_HEADER.match(ln.strip())], 1)
    return make("timeout", None, "hung after: " + (numbers_masked(last[0]) if last else "no output"), [], tail[-2000:])


_AFTER_WARNING = 40  # lines after a warning in which what the process died of is looked for


def _last_failure(lines: list[str], chains, killed: bool, options: Options) -> Signature | None:
    """The last failure in the log names it: an exception logged and survived earlier does not
    explain a later fatal signal, and a process the launcher saw killed did not die of one."""
    crash = bare_error(lines, options)
    if crash is not None and _warned_before_a_cut(lines, crash[0]):
        crash = None  # a traceback the log is cut inside, after a warning, was printing what failed
    if chains and not killed and crash is not None and crash[0] >= max(b.end for b in chains[-1]):
        raised = _explained(lines, chains[naming_chain(chains)], options)
        if raised.message == crash[1].message:
            return raised  # (NCCL's watchdog, or an abort, repeating after the traceback the error it raised)
        if pip_relayed(lines, max(b.end for b in chains[-1]), crash[0]):
            return pip_built(lines, crash[0], raised)
    if (
        chains
        and not killed
        and (
            crash is None
            or crash[0] < max(b.end for b in chains[-1])
            or crash[1].exception == "CompilationCacheError"
            or crash[1].message == UNTHROWN  # (the process tearing down after the traceback's exception)
        )
    ):
        start = chains[-1][0].end - len(chains[-1][0].lines)
        logged = crash if crash is not None and crash[0] < start else named_before(lines, start, options)
        if logged is not None and _cause_of_a_cut(lines, chains[-1], logged[0]):
            return logged[1]
        if (child := _launched_child(lines, chains[-1], start, options)) is not None:
            return child
        return _explained(lines, chains[naming_chain(chains)], options)
    if (
        crash
        and _warning(lines[crash[0]])
        and (
            killed
            or signal_from_text(lines)
            or any(kinds.TIMEOUT_TEXT.search(line) for line in lines[crash[0] + 1 : crash[0] + 1 + _AFTER_WARNING])
        )
    ):
        crash = None  # a process that went on after an environment warning died of something after it
    if crash and not (
        killed
        and crash[1].exception not in ("SIGKILL", "SIGSEGV", "SIGABRT", "SIGBUS")
        and crash[1].exception not in ("CheckFailed", "FatalError")
    ):
        return _no_dnn(lines, crash[0], crash[1], options)
    return None


# a launcher that re-raises its child's failure as its own (accelerate launch's CalledProcessError, torchrun's): what
# the child printed just before the launcher's traceback is the failure
_LAUNCHERS = ("accelerate/commands/launch.py", "deepspeed/launcher/", "torch/distributed/run.py")


def _launched_child(lines: list[str], chain: list[ExceptionBlock], start: int, options: Options) -> Signature | None:
    """The error the launched child logged just before ``chain``, when ``chain`` is a launcher's re-raise of it."""
    last = chain[-1]
    files = [f.file.replace("\\", "/") for f in last.frames]
    if not last.exc_type.endswith("CalledProcessError") or not any(s in f for f in files for s in _LAUNCHERS):
        return None
    logged = error_before(lines, start, options, (), _LINKED_CUT)
    return logged[1] if logged is not None else None


def _warning(line: str) -> BareError | None:
    """The recogniser of the warning ``line`` is, one a process carries on after (an environment mismatch, on the
    CPU or slower; a deprecation; a slow compile), or None."""
    return next((b for b in BARE_ERRORS if b.weak and b.match(line.strip())), None)


def _warned_before_a_cut(lines: list[str], i: int) -> bool:
    """Whether line ``i`` is a warning (a run goes on after one) and the log ends inside a traceback after it (an
    environment mismatch warned of is the cause of what follows it, cut or not, and jax's notice of a nan is what the
    traceback after it raises)."""
    warning = _warning(lines[i])
    if warning is None or warning.kind in ("environment", "nan"):
        return False
    frames, _, start = unfinished(lines)
    return bool(frames) and start > i


_LINKED_CUT = 3  # lines between an error logged and the chain it was printing


def _cause_of_a_cut(lines: list[str], chain: list[ExceptionBlock], logged: int) -> bool:
    """Whether ``chain`` is only the cause of a traceback the log is cut inside ("The above exception was the
    direct cause ..." and a traceback that never reaches its line), printed just after the error logged at
    ``logged``: that error is what it was printing (wandb's init timing out, then asyncio's CancelledError)."""
    start = chain[0].end - len(chain[0].lines)
    rest = [ln.strip() for ln in lines[max(b.end for b in chain) :] if ln.strip()]
    return (
        0 < start - logged <= _LINKED_CUT
        and len(rest) >= 2
        and rest[0] in (_CAUSE, _CONTEXT)
        and rest[1] == _TB_START
        and not any(_parse_exception_line(ln) for ln in lines[max(b.end for b in chain) :])
    )


# XLA's CUDA backend finds no device ("No visible GPU devices") when cuInit failed, and logs cuInit's error
# just before it: CUDA's error code (no device, the system not ready, an unknown error) is which failure,
# raised as the status the traceback shows; likewise "DNN library initialization failed" after cuDNN's
# "Could not create cudnn handle: CUDNN_STATUS_X" (not initialised, an internal error, out of memory)
_NO_DEVICE = re.compile(r"\bNo visible \w{1,20} devices\b")
_NO_DNN = re.compile(r"\bDNN library initialization failed\b")
# (TensorFlow's "Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, so try
# looking to see if a warning log message was printed above": the cuDNN check logged above it is what failed)
_NO_CONV = re.compile(r"\bcuDNN failed to initialize\b")
_BUILD_LACKS_GPU = ("PyTorch no longer supports this GPU", "CUDA capability sm_")


def _explained(lines: list[str], chain: list[ExceptionBlock], options: Options) -> Signature:
    """The signature of ``chain``; when its backend has no device, named by the cuInit error logged before it."""
    sig = _from_chain(chain, options)
    start = chain[0].end - len(chain[0].lines)
    # (a message that is a traceback, whole or cut inside its header)
    relays = len(sig.message) >= len("Traceback") and _TB_START.startswith(sig.message)
    if relays and (relayed := relayed_cause(lines, start, options)) is not None:
        return relayed
    if _NO_DEVICE.search(sig.message):
        cause = error_before(lines, start, options, NOT_A_CHECK)
        if cause is not None and "cuInit" in cause[1].message:
            return make("environment", sig.exception, cause[1].message, [], sig.excerpt)
    if _NO_CONV.search(sig.message):
        cause = error_before(lines, start, options, NOT_A_CHECK)
        if cause is not None and "cuDNN" in cause[1].message:
            return cause[1]
    return _no_dnn(lines, start, sig, options)


def _no_dnn(lines: list[str], index: int, sig: Signature, options: Options) -> Signature:
    """``sig``, or when it is XLA's "DNN library initialization failed", the cuDNN error logged before it; when it is
    CUDA's "no kernel image", PyTorch's warning before it that its build lacks the GPU (too old, too new)."""
    if _NO_DNN.search(sig.message):
        cause = error_before(lines, index, options, NOT_CUDA)
        if cause is not None and cause[1].message.startswith("CUDNN_STATUS_"):
            return cause[1]
    if "no kernel image is available" in sig.message:
        cause = error_before(lines, index, options, NOT_A_CHECK)
        if cause is not None and cause[1].message.startswith(_BUILD_LACKS_GPU):
            return cause[1]
    return sig


def _died_without_a_trace(lines: list[str], tail: str, signal: int | None, exit_code: int | None) -> Signature | None:
    """A failed process with no traceback: a timeout it printed, the signal that killed it, or a
    loss that became non-finite."""
    if kinds.TIMEOUT_TEXT.search(tail):
        line = next(ln for ln in reversed(last_output(lines, 40)) if kinds.TIMEOUT_TEXT.search(ln))
        named = error_said([line])  # (a timeout a post words as its exception, "... DistStoreError: Socket Timeout")
        if named is not None and named[1].exception:
            return named[1]
        return make("timeout", None, numbers_masked(line), [], tail[-2000:])
    sig = (
        signal_name(signal)
        if signal
        else (signal_name(-exit_code) if exit_code is not None and exit_code < 0 else signal_from_text(lines))
    )
    if sig:
        module = died_importing(lines)
        said = f"process killed by {sig}" + (f" importing {module}" if module else "")
        return make("runtime_crash", sig, said, [], tail[-2000:])
    if said := non_finite(lines):
        return make("nan", None, said, [], tail[-2000:])
    return None
