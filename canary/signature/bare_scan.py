"""Finding the last bare error line in a log (an XLA status, a Mosaic error code, NCCL, CUDA, a
failed CHECK, a fatal Python error, the OOM killer...: :mod:`canary.signature.bare` names them) with
its whole message, read across the lines it was cut into, and the error an abort followed. Pure."""

from __future__ import annotations

import re
from collections.abc import Collection

from canary.record import Signature
from canary.signature import bare
from canary.signature.bare_message import GOES_ON_BELOW, bare_message
from canary.signature.call_paths import call_path
from canary.signature.identity import make
from canary.signature.masks import canonical_message
from canary.signature.quoting import quoted
from canary.signature.sandboxes import startup_error
from canary.signature.signals import MALLOC_CHECK, malloc_caller, terminate_error
from canary.signature.tracebacks import _CAUSE, _FH_FRAME, PIP_WORDS, Frame, Options

_FH_HEADER = re.compile(r"^(?:Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):$")
# A process that aborts says so after the error that made it abort: that error names the failure.
_ABORTS = ("SIGABRT", "SIGSEGV", "SIGBUS", "FatalError")
_LOOK_BACK = 40  # lines searched for the error before an abort, or for the whole of a cut one
_FALLBACK = "env-fallback"
# weak findings that report what a nearby warning before them says better: jax's fallback to the CPU (the check
# that failed just before it), the buffer comparator's lines (the autotuner's check that printed them), TensorFlow's
# "Cannot dlopen some GPU libraries" (the library its loader could not load just before it), TF-TRT's missing
# TensorRT (the driver TensorFlow could not find before it)
_TRT, _NO_DRIVER = "env-tf-trt", "env-tf-no-driver"
_EXPLAINED = frozenset({_FALLBACK, "autotune-difference", "env-tf-skip-gpu", _TRT})
# a backend jax tried that says only that its hardware is not there (a GPU host's "Unable to initialize backend 'tpu':
# INVALID_ARGUMENT: TpuPlatform is not available.", a jaxlib built without plugins): not why it fell back, where a
# backend listed above it says why
_ABSENT = re.compile(
    r"TpuPlatform is not available|Unable to find driver in registry|no attributes named get_plugin_device_client|"
    # (a GPU host without libtpu)
    r"Failed to open libtpu\.so: libtpu\.so: cannot open"
)
# an error quoted below the line that brings it in: jit's "Non-hashable static arguments are not supported. ... The
# error was:" (hash()'s TypeError), a warning a library went on from (pymfe's "Will ignore this method. Error message:")
_QUOTES_NEXT = "The error was:"
_WARNING_QUOTES = re.compile(r"Warning: .{0,500}Error message:$")


def _warning_quotes(above: str) -> bool:
    return above.endswith("Error message:") and _WARNING_QUOTES.search(above) is not None


def _scan(
    lines: list[str], options: Options, stop: int = -1, start: int | None = None, skip: Collection[str] = ()
) -> tuple[int, Signature, str, str] | None:
    """The last bare error in ``lines[stop+1:start]``: its line index, signature, recogniser and raw message."""
    weak = tried = None
    info = getattr(lines, "info", ())
    readers = [rec for rec in bare.BARE_ERRORS if rec.name not in skip] if skip else bare.BARE_ERRORS
    for i in range(len(lines) - 1 if start is None else start, stop, -1):
        s = lines[i].strip()
        above = lines[i - 1].rstrip() if i else ""
        if not s or above.endswith(_QUOTES_NEXT) or GOES_ON_BELOW.search(above) or _warning_quotes(above):
            # an error quoted as the cause inside another's message is that one's (and the loader's message goes on
            # below the extension it names: "ImportError: /x/te.so: " above "undefined symbol: ...", Mosaic's below
            # its head: "...: Mosaic failed to compile TPU kernel:" above "Failed to set window params ...: E2002: ")
            continue
        # (what is read only above INFO is read at INFO too where it may say why jax fell back to the CPU)
        quiet = i in info and not (weak is not None and weak[2] == _FALLBACK and tried is None)
        for rec in readers:
            m = rec.match(s)
            if m is None or (not rec.at_info and quiet):
                continue
            raw = quoted(s, m.start(), bare_message(lines, i, rec.message(m), rec.context))
            raw = rec.below(lines, i, raw) if rec.below else raw
            frames: list[str] = []
            if rec.name == "fatal-python":
                if rec.exception_of(m) == "SIGABRT" and _abort_said_before(lines, i):
                    break  # faulthandler's report of the abort the line before it said why of
                frames = _crash_site(_faulthandler_frames(lines, i), options)
            elif rec.name == "malloc-check":
                frames = malloc_caller(lines, i) or _crash_site(_faulthandler_frames(lines, i, _FH_NEAR), options)
            excerpt = "\n".join(lines[max(0, i - 3) : i + 1 + max(rec.context, 10)])
            exc = rec.exception_of(m)
            if rec.name == "cpp-terminate":
                exc, raw = terminate_error(lines, i, m) or (exc, "process killed by SIGABRT")
            elif rec.name == "env-python-startup":
                exc, raw = startup_error(lines, i, m)
            found = (i, make(rec.kind_of(f"{exc}: {raw}"), exc, raw, frames, excerpt), rec.name, raw)
            if i in info and weak is not None and not (weak[2] == _TRT and rec.name == _NO_DRIVER):
                # what jax logged at INFO of the backends it tried explains its fallback only when nothing
                # logged louder does (cuInit's error before "Unable to initialize backend 'tpu': ..."); TensorFlow's
                # stub logs its missing driver at INFO, before TF-TRT's warning
                if weak[2] == _FALLBACK and tried is None and weak[0] - i <= _LOOK_BACK and not _ABSENT.search(raw):
                    tried = found
                break
            if not rec.weak and not (exc and not raw and s.endswith(":")):
                return found  # (a class cut at its colon, torch elastic's "ChildFailedError:", names it only alone)
            # jax's fallback to the CPU is what it did about a check that failed just before (cuInit's
            # error, a backend that could not start): that warning names it
            if weak is None or (weak[2] in _EXPLAINED and rec.name != weak[2] and weak[0] - i <= _LOOK_BACK):
                weak = found
            break
    return tried if weak is not None and weak[2] == _FALLBACK and tried is not None else weak


def bare_error(lines: list[str], options: Options) -> tuple[int, Signature] | None:
    """The last failure in the log that prints a line, not a traceback, with the index of its line.

    An excerpt may end mid-line: when the last error's message is the start of an earlier one's,
    the whole earlier one names it. A signal or abort names it only when no error came just before."""
    found = _last_bare(lines, options)
    if found is not None and _UNRESOLVED.match(found[1].message):
        # pip finding no version because it could not fetch the index (a certificate, a proxy), or because it ignored
        # the release asked for, whose metadata is invalid: that names it
        fetch = _scan(lines, options, stop=max(-1, found[0] - _LOOK_BACK), start=found[0] - 1, skip=_NOT_NETWORK)
        if fetch is not None:
            return fetch[0], fetch[1]
    if found is None or (found[1].kind == "environment" and not PIP_WORDS.match(lines[found[0]].strip())):
        return found
    # a toolchain that does not match explains the errors that follow it (cuDNN too old, then "DNN
    # library initialization failed"): the mismatch names the failure
    cause = _scan(lines, options, stop=max(-1, found[0] - _LOOK_BACK), start=found[0] - 1, skip=bare.NOT_ENVIRONMENT)
    return (cause[0], cause[1]) if cause is not None else found


_UNRESOLVED = re.compile(r"(?:pip: )?(?:No matching distribution found for|Could not find a version that satisfies)")
_FETCHES = ("connection-pool", "pip-retry", "env-pip-ssl", "env-pip-invalid-metadata")
_NOT_NETWORK = frozenset(b.name for b in bare.BARE_ERRORS if b.name not in _FETCHES)
# every recogniser but the toolchain and environment checks, warnings included; every one but CUDA's
NOT_A_CHECK = frozenset(b.name for b in bare.BARE_ERRORS if b not in bare.ENVIRONMENT_ERRORS)
NOT_CUDA = frozenset(b.name for b in bare.BARE_ERRORS if b.name != "cuda")


def error_before(
    lines: list[str], index: int, options: Options, skip: Collection[str] = (), within: int = _LOOK_BACK
) -> tuple[int, Signature] | None:
    """The error logged in the ``within`` lines just before ``index`` (by the recognisers not in ``skip``: a CUDA
    error, a toolchain or environment check, a warning too)."""
    found = _scan(lines, options, stop=max(-1, index - within), start=index - 1, skip=skip)
    return (found[0], found[1]) if found is not None else None


# (all but the logged lines that name the class of a traceback printed after them, one a log cuts, leaving its cause)
_NOT_NAMING = frozenset(b.name for b in bare.BARE_ERRORS) - {"rendezvous-shutdown"}


def named_before(lines: list[str], index: int, options: Options) -> tuple[int, Signature] | None:
    """A line logged just before ``index`` that names the class of the traceback printed after it."""
    return error_before(lines, index, options, _NOT_NAMING, 3)


def relayed_cause(lines: list[str], index: int, options: Options) -> Signature | None:
    """The exception printed bare (without its traceback) above "The above exception was the direct cause ..." just
    before line ``index``, where a chain begins whose exception relays another process's traceback as its message
    (a test harness's ``raise RuntimeError(res.traceback) from res``): that exception is the failure."""
    k = index - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    if k < 1 or lines[k].strip() != _CAUSE:
        return None
    found = _scan(lines, options, stop=max(-1, k - _LOOK_BACK), start=k - 1)
    return found[1] if found is not None and found[1].exception else None


_NOT_NCCL = frozenset(b.name for b in bare.BARE_ERRORS if b.name != "nccl")
_NCCL_AFTER = re.compile(r"NCCL WARN Error while creating shared memory segment \S{1,300} \(size \d{1,15}\)$")
_NCCL_BACK = 6  # lines looked back for the cause NCCL warned of first


_CUDA_CODE = re.compile(r"\bCUDA_ERROR_[A-Z_]{2,60}")
_AFTERMATH = 12  # lines before the CUDA driver's error in which a status that named it is looked for


# the end of pip's box around a build step's output: pip's words below it (tracebacks.PIP_WORDS) relay the error in it
_PIP_BOX_END = re.compile(r"^\[end of output\]$|^note: This error originates from a subprocess")
# a build step run in an isolated environment, with only its build requirements (PEP 517's hooks under pip, uv's
# builds), not in the one pip installs into (setup.py's egg_info): a module it could not import is missing there
_ISOLATED = re.compile(
    r"[Gg]etting requirements to build (?:wheel|editable)|Preparing metadata \(pyproject\.toml\)|build_meta\.|"
    r"The build backend returned an error|as a build dependency|--no-build-isolation"
)


def pip_relayed(lines: list[str], end: int, said: int) -> bool:
    """Whether the line ``said`` is pip's (or uv's) report of a build step whose output, closed after ``end``, held the
    error."""
    m = PIP_WORDS.match(lines[said].strip())
    return bool(m) and (bool(m["after"]) or any(_PIP_BOX_END.match(line.strip()) for line in lines[end:said]))


def pip_built(lines: list[str], said: int, raised: Signature) -> Signature:
    """The error a build step raised, a module it could not import named with where the step ran."""
    if not raised.message.startswith("No module named ") or not any(
        _ISOLATED.search(line) for line in lines[max(0, said - 200) : said]
    ):
        return raised
    said_so = f"in an isolated build: {raised.message}"
    return make(raised.kind, raised.exception, said_so, raised.frames, raised.excerpt)


def _last_bare(lines: list[str], options: Options) -> tuple[int, Signature] | None:
    """The last bare error (an excerpt cut mid-line matched to its whole line, an abort to its cause)."""
    found = _scan(lines, options)
    if found is None:
        return None
    i, sig, name, raw = found
    if pip_relayed(lines, max(0, i - _LOOK_BACK), i):
        cause = _scan(lines, options, stop=max(-1, i - _LOOK_BACK), start=i - 1)
        if cause is not None and cause[1].exception and not PIP_WORDS.match(lines[cause[0]].strip()):
            return cause[0], pip_built(lines, i, cause[1])
    if name == "nccl" and _NCCL_AFTER.search(raw):
        # NCCL warns of a failure's cause, then of the segment it could not create for it: the cause names it
        cause = _scan(lines, options, stop=max(-1, i - _NCCL_BACK), start=i - 1, skip=_NOT_NCCL)
        if cause is not None:
            return cause[0], make(sig.kind, sig.exception, f"{cause[3]}, then: {raw}", [], cause[1].excerpt)
    if name in ("signal", "llvm", "cpp-terminate-unthrown", "qemu-signal"):
        # absl's failure handler (and qemu, its guest's) prints the signal after what aborted: a failed CHECK, a status;
        # LLVM its fatal error after the diagnostic that made it abort; std::terminate with nothing thrown the error it
        # tore down after (a Python exception's line too; a traceback's, in failure._last_failure)
        quiet = ("signal",) if name == "cpp-terminate-unthrown" else ("signal", "fatal-python", "python-exception")
        cause = _scan(lines, options, stop=max(-1, i - _LOOK_BACK), start=i - 1, skip=(*quiet, "ray-task"))
        # (a warning the process went on after, a slow TPU backend, did not make it crash)
        # (an environment check naming its abort, OpenBLAS' memory regions, or the allocator's own check, is its cause)
        if (
            cause is not None
            and (cause[1].exception not in _ABORTS or cause[1].kind == "environment" or cause[2] == "malloc-check")
            and (cause[2] not in _WEAK)
        ):
            return cause[0], cause[1]
        return i, sig
    code = _CUDA_CODE.search(raw) if name == "cuda" else None
    if code:
        # the CUDA driver's lines after a status that named its error (a sticky error: "could not synchronize on CUDA
        # context: CUDA_ERROR_ILLEGAL_ADDRESS ...") are that failure's aftermath: the status names it
        cause = _scan(lines, options, stop=max(-1, i - _AFTERMATH), start=i - 1, skip=("cuda",))
        if cause is not None and code[0] in cause[3]:
            return cause[0], cause[1]
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


_WEAK = frozenset(b.name for b in bare.BARE_ERRORS if b.weak)  # warnings a process goes on after


def _starts(whole: str, cut: str) -> bool:
    return canonical_message(whole).startswith(canonical_message(cut).rstrip())


_FH_NEAR = 4  # lines after the C allocator's check within which faulthandler's dump of it starts


_CHECK_FAILED = next(b for b in bare.BARE_ERRORS if b.name == "check-failed")


# XLA's own abort after a replica failed ("Replicated computation launch failed, but not all replicas terminated.
# Aborting process to work around deadlock. Failure message (...): " and the replica's error below it): the error
# logged before it is the failure
_DEADLOCK_ABORT = "Aborting process to work around deadlock."


def _abort_said_before(lines: list[str], i: int) -> bool:
    """Whether what aborted is said just before faulthandler's report: the C allocator's check, a failed CHECK, or
    XLA's abort for a replica that failed."""
    return any(
        MALLOC_CHECK.search(ln.strip()) or _CHECK_FAILED.match(ln.strip()) for ln in lines[max(0, i - 2) : i]
    ) or any(_DEADLOCK_ABORT in ln for ln in lines[max(0, i - 4) : i])


def _faulthandler_frames(lines: list[str], start: int, within: int | None = None) -> list[Frame]:
    """The first thread in a faulthandler dump at/after ``start`` (most recent call first), its header
    ``within`` lines of it when given."""
    for i in range(start, len(lines) if within is None else min(len(lines), start + within)):
        if _FH_HEADER.match(lines[i].strip()):
            i = _current_thread(lines, i)
            frames = []
            for line in lines[i + 1 :]:
                m = _FH_FRAME.match(line)
                if not m:
                    break
                frames.append(Frame(m.group("file"), m.group("func").strip(), int(m.group("line"))))
            return list(reversed(frames))
    return []


def _current_thread(lines: list[str], first: int) -> int:
    """The header of the thread that crashed ("Current thread 0x..."), where the dump that starts at ``first`` lists
    other threads before it (tqdm's monitor, a prefetcher); ``first`` when it lists none."""
    for j in range(first, len(lines)):
        line = lines[j].strip()
        if line.startswith("Current thread 0x") and _FH_HEADER.match(line):
            return j
        if line and not (_FH_HEADER.match(line) or _FH_FRAME.match(lines[j])):
            break
    return first


# Python's import machinery, the frames between an import and the module it runs (or the extension it loads)
_IMPORTING = re.compile(r"^<frozen importlib\._bootstrap(?:_external)?>$|(?:^|/)(?:imp|importlib/__init__)\.py$")


def _crash_site(frames: list[Frame], options: Options) -> list[str]:
    """The call path of a crash; when none of its frames is the application's, the innermost frame
    (the library function that crashed) names where, or the module being imported when the crash was in
    the import machinery's frames (loading an extension): none when a dump cut before that module's frame."""
    path = call_path(frames, options)
    if path or not frames:
        return path
    loaded = [f for f in frames if not _IMPORTING.search(f.file)]
    return call_path(loaded[-1:], Options(keep=("*",), max_frames=1))
