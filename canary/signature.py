"""Failure signatures: log text in, :class:`canary.record.Signature` out. Pure; no I/O.

A signature says what kind of failure a log shows (``compile_error``, ``runtime_crash``, ``nan``,
``timeout``, ``gate_regression``, ``infrastructure``), the exception type, a normalized message,
the in-app call path, and a short stable ``fingerprint``. Two occurrences of one bug in different
runs give one fingerprint; two bugs that raise the same exception class give two.

Normalizing keeps what identifies a bug (tensor and block shapes, kernel and metric names) and
masks what varies between occurrences (addresses, pids, timestamps, temp and home paths, run and
job ids, UUIDs, hex, durations, byte counts, line numbers). The call path keeps application frames
and frames of named libraries (``keep`` globs: the ragged-dot wrapper, Pallas ops, ...), never line
numbers. Scheduler log prefixes (Ray's ``(Worker pid=.., ip=..)``, timestamps, glog/absl headers,
``srun --label`` task numbers) are stripped first; JAX's filtered tracebacks and Python's chained
exceptions are read as one failure whose root cause names it.

    sig = extract(log_text)                        # a log of a crashed attempt
    sig = extract(log_text, outcome="timeout")     # the launcher's word on how it ended
    sig = gate_signature(gate_results)             # a run that completed but failed its gates
"""

from __future__ import annotations

import hashlib
import math
import re
import signal as signal_mod
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any, Iterable, Sequence

from canary.metrics import as_float
from canary.record import Signature

KINDS = ("compile_error", "runtime_crash", "nan", "timeout", "gate_regression", "infrastructure",
         "missing_summary")

# Frames kept in the call path besides the application's own (globs over the normalized path,
# which for installed packages starts at the package: ``jax/experimental/pallas/ops/...``).
DEFAULT_KEEP: tuple[str, ...] = (
    "canary/*",
    "*ragged_dot*",
    "*/pallas/ops/*",
    "*megablox*",
    "levanter/*",
    "haliax/*",
)
DEFAULT_MAX_FRAMES = 12
FINGERPRINT_LEN = 12


@dataclass(frozen=True)
class Options:
    """How signatures are taken: which library frames count as the call path, and how many."""

    keep: tuple[str, ...] = DEFAULT_KEEP
    max_frames: int = DEFAULT_MAX_FRAMES

    def roots(self) -> set[str]:
        """Package directories named by the globs (``canary/*`` names ``canary``)."""
        return {g.split("/", 1)[0] for g in self.keep if re.fullmatch(r"[\w.-]+/.*", g)}

    def with_keep(self, extra: Iterable[str]) -> "Options":
        return Options(tuple(dict.fromkeys((*self.keep, *extra))), self.max_frames)


# ----------------------------------------------------------------------------- log prefixes

_PREFIXES = [
    # Ray: "(TrainWorker pid=4242, ip=10.0.0.3) ", "(raylet) ", "(pid=4242) "
    re.compile(r"^\((?=[^)\n]*(?:pid=|ip=|raylet|gcs_server|autoscaler|dashboard))[^()\n]*\) ?"),
    # ISO timestamps, optionally bracketed, with a logging level and "file.py:12 --" source
    re.compile(
        r"^\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?"
        r"(?:\s+(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\b:?)?(?:\s+[\w./-]+:\d+)?(?:\s+--)? ?"
    ),
    # glog / absl: "E0828 03:15:02.123456  4242 pjit.py:123] "
    re.compile(r"^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+ [\w./-]+:\d+\] ?"),
    # srun --label / multi-host fan-out: "0: ", "task 3: ", "[worker-0] ", "tpu-worker-1 | "
    re.compile(r"^(?:\d{1,4}|task \d+|[\w.]+-\d+):(?: |$)"),
    re.compile(r"^\[(?:[\w.]+-)?(?:worker|host|node|task|rank)[-_ ]?\d+\] ?"),
    re.compile(r"^[\w.-]+-\d+\s+\| ?"),
]
_RAY_REPEAT = re.compile(r"\s*\[repeated \d+x across cluster\]\s*$")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def strip_prefix(line: str) -> str:
    """One log line without the scheduler's and logger's decorations."""
    line = _RAY_REPEAT.sub("", _ANSI.sub("", line.rstrip("\r\n")))
    for _ in range(4):
        for rx in _PREFIXES:
            m = rx.match(line)
            if m and m.end() > 0:
                line = line[m.end():]
                break
        else:
            break
    return line


def clean_lines(text: str) -> list[str]:
    return [strip_prefix(line) for line in text.splitlines()]


# ----------------------------------------------------------------------------- normalizing

_NORMALIZERS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"), "<uuid>"),
    (re.compile(r"\b\d{8}T\d{6}Z-[\w.-]+?-[0-9a-f]{4}\b"), "<run>"),  # canary run ids
    (re.compile(r"\braysubmit_\w+"), "<job>"),
    (re.compile(r"\b((?:job|run|task|attempt|trace|request)[ _-]?id)([=: ]+)['\"]?[\w.:/-]+"), r"\1\2<id>"),
    (re.compile(r"/runner/[\w.-]+"), "/runner/<id>"),
    (re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?"), "<time>"),
    (re.compile(r"\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b"), "<time>"),
    (re.compile(r"\btime=\d+(?:\.\d+)?"), "time=<n>"),
    (re.compile(r"\b0x[0-9a-fA-F]+\b"), "<hex>"),
    (re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{8,}\b"), "<hex>"),
    # paths: installed packages from the package down, temp dirs whole, home dirs as ~
    (re.compile(r"(?:[\w.~-]*/)*(?:site|dist)-packages/"), ""),
    (re.compile(r"(?:/usr|/opt|/nix)[\w./+-]*/lib/python3\.\d+/"), "<stdlib>/"),
    (re.compile(r"(?:/private)?(?:/tmp|/var/tmp|/var/folders|/dev/shm)(?:/[^\s'\":,)\]]*)?"), "<tmp>"),
    (re.compile(r"(?:/home|/Users)/[^/\s'\"]+|/root(?=/)"), "~"),
    (re.compile(r"\b(pid|tid|process|thread|worker)([=: ]+)\d+\b", re.I), r"\1\2<n>"),
    (re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b"), "<ip>"),
    (re.compile(r"\b(localhost|127\.0\.0\.1):\d+\b"), r"\1:<port>"),
    # XLA's per-compile numbering: program ids, HLO instruction suffixes (%fusion.123, all-reduce-start.3)
    (re.compile(r"\bprogram_id=\d+"), "program_id=<n>"),
    (re.compile(r"((?:%|current tracing scope: )[\w-]+)\.\d+\b"), r"\1.<n>"),
    # line numbers drift with every unrelated edit
    (re.compile(r"(\.(?:py|cc|h|cpp|c|mlir)):\d+(?::\d+)?"), r"\1:<line>"),
    (re.compile(r"\bline \d+"), "line <n>"),
    # pointers to documentation are not part of what failed
    (re.compile(r"\s*(?:For more (?:details|information), )?[Ss]ee (?:details at |more at )?https?://\S+"), ""),
    # quantities that differ run to run: durations and byte counts
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|us|µs|ns|s|sec|secs|seconds?|minutes?|mins?|hours?|h)\b"), "<duration>"),
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:bytes?|[KMGTP]i?B|[KMGTP])\b"), "<bytes>"),
]
_SPACES = re.compile(r"\s+")


def normalize(text: str) -> str:
    """Mask what varies between occurrences of one failure; keep shapes, names and wording."""
    for rx, repl in _NORMALIZERS:
        text = rx.sub(repl, text)
    return _SPACES.sub(" ", text).strip()


# ----------------------------------------------------------------------------- tracebacks

_TB_START = "Traceback (most recent call last):"
_CAUSE = "The above exception was the direct cause of the following exception:"
_CONTEXT = "During handling of the above exception, another exception occurred:"
_FRAME = re.compile(r'^\s{2,}File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<func>\S.*)$')
# faulthandler's dumps: '  File "x.py", line 12 in f' (most recent call first)
_FH_FRAME = re.compile(r'^\s{2,}File "(?P<file>[^"]+)", line (?P<line>\d+) in (?P<func>\S.*)$')
# "ValueError: msg", "jaxlib._jax.XlaRuntimeError: ...", Ray's "ray.exceptions.RayTaskError(ValueError): ..."
_EXC_LINE = re.compile(r"^(?P<type>[A-Za-z_][\w.]*(?:\([\w.]+\))?)(?::\s?(?P<msg>.*))?$")
_JAX_WRAPPERS = {"UnfilteredStackTrace", "SimplifiedTraceback"}
# JAX prints where a failing operation was traced (the model code that called it) as a cause of
# the lowering error: those frames are the inner part of the call path.
_JAX_SOURCE_TRACE = "JaxStackTraceBeforeTransformation"
_MESSAGE_END = re.compile(
    r"^(?:-{10,}|For simplicity, JAX has removed|The stack trace below excludes JAX-internal frames"
    r"|The preceding is the original exception|The preceding stack trace is the source of the JAX operation"
    r"|Set JAX_TRACEBACK_FILTERING|Traceback \(most recent call last\)"
    r"|The above exception was the direct cause|During handling of the above exception"
    r"|Fatal Python error:|\*\*\* SIG[A-Z]+ received|(?:Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\)"
    r"|Timeout \(\d+:\d\d:\d\d)"
)
_MAX_MESSAGE_LINES = 12


@dataclass(frozen=True)
class Frame:
    file: str
    func: str
    line: int
    code: str = ""


@dataclass
class ExceptionBlock:
    """One exception as Python printed it: its traceback frames, type and message."""

    frames: list[Frame]
    exc_type: str
    message: str
    lines: list[str] = field(default_factory=list)  # the raw lines, for the excerpt
    link: str = ""  # how it follows the previous block: "cause" (raise ... from), "context" (during handling)
    end: int = 0  # the index of the log line after it


def _parse_exception_line(line: str) -> tuple[str, str] | None:
    if not line or line[0].isspace():
        return None
    m = _EXC_LINE.match(line)
    if not m:
        return None
    return m.group("type"), (m.group("msg") or "").strip()


def _read_block(lines: list[str], i: int) -> tuple[ExceptionBlock | None, int]:
    """Read the traceback starting at ``lines[i]`` (its header line); return it and the index after."""
    start = i
    i += 1
    frames: list[Frame] = []
    while i < len(lines):
        m = _FRAME.match(lines[i])
        if m:
            code = ""
            j = i + 1
            # the source line, and 3.11+'s caret markers under it
            while j < len(lines) and lines[j].startswith("    ") and not _FRAME.match(lines[j]):
                if not code and lines[j].strip() and set(lines[j].strip()) - set("^~ "):
                    code = lines[j].strip()
                j += 1
            frames.append(Frame(m.group("file"), m.group("func").strip(), int(m.group("line")), code))
            i = j
            continue
        if lines[i].startswith("  ") or not lines[i].strip():
            i += 1  # "[Previous line repeated N more times]", stray indented output
            continue
        break
    if i >= len(lines):
        return None, i
    parsed = _parse_exception_line(lines[i])
    if parsed is None:
        return None, i
    exc_type, first = parsed
    message_lines = [first] if first else []
    i += 1
    while i < len(lines) and len(message_lines) < _MAX_MESSAGE_LINES:
        line = lines[i]
        if not line.strip() or _MESSAGE_END.match(line.strip()) or _FRAME.match(line):
            break
        message_lines.append(line.strip())
        i += 1
    message = " ".join(message_lines)
    return ExceptionBlock(frames, exc_type, message, lines[start:i], end=i), i


def parse_chains(lines: list[str]) -> list[list[ExceptionBlock]]:
    """Every exception chain in the log, in order. A chain is the tracebacks Python prints for one
    uncaught exception: its causes and contexts first, the exception that escaped last."""
    chains: list[list[ExceptionBlock]] = []
    current: list[ExceptionBlock] = []
    linked = ""
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if stripped == _TB_START:
            block, i = _read_block(lines, i)
            if block is None:
                continue
            group = [block]
            if "(" in block.exc_type and i < len(lines) and _FRAME.match(lines[i]):
                # Ray's RayTaskError(ValueError) carries the remote traceback below its line: the
                # remote exception is the cause; the driver's frames are not on its call path.
                inner, i = _read_block(lines, i - 1)
                if inner is not None:
                    block.link = "remote"
                    group = [inner, block]
            if current and linked:
                group[0].link = linked
                current.extend(group)
            else:
                if current:
                    chains.append(current)
                current = group
            linked = ""
            continue
        if stripped in (_CAUSE, _CONTEXT) and current:
            linked = "cause" if stripped == _CAUSE else "context"
        elif stripped and current and not linked and not _MESSAGE_END.match(stripped):
            # other output after a chain ends it (a later traceback starts a new one)
            chains.append(current)
            current = []
        i += 1
    if current:
        chains.append(current)
    return chains


# ----------------------------------------------------------------------------- frames


def frame_path(file: str, roots: Iterable[str] = ()) -> tuple[str, bool]:
    """The path a frame is known by, and whether it is library (installed or stdlib) code.

    Installed packages are named from the package down (``jax/_src/pjit.py``); application files
    from the last directory named in ``roots`` (``canary/workload/model.py``), else by their
    directory and name (``moe/probe.py``): either survives checkouts in different places."""
    f = file.replace("\\", "/")
    for marker in ("/site-packages/", "/dist-packages/"):
        if marker in f:
            return f.rsplit(marker, 1)[1], True
    m = re.search(r"/lib/python3\.\d+/(.*)$", f)
    if m or f.startswith("<") or not f.endswith(".py"):  # stdlib, <frozen ...>, Cython (.pyx)
        return (m.group(1) if m else f), True
    parts = [p for p in f.split("/") if p and p != "."]
    roots = set(roots)
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] in roots:
            return "/".join(parts[i:]), False
    return "/".join(parts[-2:]), False


def call_path(frames: Sequence[Frame], options: Options = Options()) -> list[str]:
    """``path:function`` of the frames that matter, outermost first: the application's own and
    those matching ``options.keep``; consecutive repeats (recursion) once."""
    out: list[str] = []
    roots = options.roots()
    for fr in frames:
        path, library = frame_path(fr.file, roots)
        if library and not any(fnmatchcase(path, g) for g in options.keep):
            continue
        key = f"{path}:{fr.func}"
        if out and out[-1] == key:
            continue
        out.append(key)
    return out[-options.max_frames:] if options.max_frames else out


# ----------------------------------------------------------------------------- kinds

_COMPILE_TEXT = re.compile(
    r"lowering|Mosaic|pallas_call|while compiling|compilation|compile permanent error|"
    r"Ran out of memory in memory space|MLIR|stablehlo|mhlo|Triton.*(?:compil|lower)|TPU lowering",
    re.I,
)
_COMPILE_FRAME = re.compile(
    r"(?:^|[./_])(?:lower|lowering|compile|compiler|backend_compile\w*|_cached_lowering\w*|"
    r"jaxpr_subcomp|lower_jaxpr\w*|mosaic|pallas_call_lowering\w*)(?:$|[.(_])",
    re.I,
)
_NAN_TEXT = re.compile(r"invalid value \((?:nan|inf)\)|\bnan\b.*\b(?:loss|encountered|detected)\b|"
                       r"\b(?:loss|gradient|grad_norm)\b.*\b(?:nan|non-finite|not finite)\b", re.I)
_TIMEOUT_TEXT = re.compile(r"DEADLINE_EXCEEDED|timed out|time(?:d)?out|exceeded the maximum execution time|"
                           r"Barrier (?:timed out|failed)", re.I)
# Infrastructure failures are named by what happened, not by which host it happened to.
_INFRA: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"preempt", re.I), "preempted"),
    (re.compile(r"no worker (?:ever )?start|never started|stockout|insufficient capacity|no more capacity|"
                r"ZONE_RESOURCE_POOL_EXHAUSTED|not enough resources? (?:available|to schedule)", re.I),
     "no capacity: the job never started"),
    (re.compile(r"NodeDiedError|node (?:\S+ )?(?:has )?died|The node running this job|"
                r"lost (?:contact|connection) (?:to|with) (?:the )?(?:worker|node|host)|worker (?:was )?lost", re.I),
     "lost: the node running the job died"),
    (re.compile(r"ActorDiedError|RaySystemError|GCS (?:server )?(?:is )?unavailable", re.I),
     "lost: the cluster scheduler failed"),
]
_INFRA_TEXT = re.compile("|".join(f"(?:{rx.pattern})" for rx, _ in _INFRA), re.I)


def infrastructure_reason(text: str) -> str | None:
    for rx, reason in _INFRA:
        if rx.search(text):
            return reason
    return None


def _kind_of(block: ExceptionBlock, chain: list[ExceptionBlock]) -> str:
    text = " ".join(f"{b.exc_type}: {b.message}" for b in chain)
    if _INFRA_TEXT.search(text):
        return "infrastructure"
    if block.exc_type.endswith("FloatingPointError") or _NAN_TEXT.search(block.message):
        return "nan"
    if _COMPILE_TEXT.search(text):
        return "compile_error"
    frames = [fr for b in chain for fr in b.frames]
    if any(_COMPILE_FRAME.search(fr.func) or _COMPILE_FRAME.search(fr.file.rsplit("/", 1)[-1])
           or re.search(r"\.lower\(|\.compile\(\)", fr.code) for fr in frames):
        return "compile_error"
    if _TIMEOUT_TEXT.search(text) or block.exc_type.endswith("TimeoutError"):
        return "timeout"
    return "runtime_crash"


# ----------------------------------------------------------------------------- signatures


def fingerprint(kind: str, exception: str | None, message: str, frames: Sequence[str]) -> str:
    h = hashlib.sha256("\n".join([kind, exception or "", message, *frames]).encode())
    return h.hexdigest()[:FINGERPRINT_LEN]


def make(kind: str, exception: str | None, message: str, frames: Sequence[str] = (), excerpt: str = "") -> Signature:
    """A signature from its parts; ``message`` is normalized here."""
    if kind not in KINDS:
        raise ValueError(f"unknown signature kind {kind!r}; known: {', '.join(KINDS)}")
    message = normalize(message)
    frames = list(frames)
    return Signature(fingerprint(kind, exception, message, frames), kind, exception, message, frames, excerpt)


def _short_type(exc_type: str) -> str:
    """``jaxlib.xla_extension.XlaRuntimeError`` and ``jax.errors.JaxRuntimeError`` name one thing
    across releases: keep the class name."""
    return exc_type.rsplit(".", 1)[-1]


def _is_jax_wrapper(b: ExceptionBlock) -> bool:
    return _short_type(b.exc_type) in _JAX_WRAPPERS or _short_type(b.exc_type) == _JAX_SOURCE_TRACE


def _from_chain(chain: list[ExceptionBlock], options: Options) -> Signature:
    real = [b for b in chain if not _is_jax_wrapper(b)] or chain
    root = real[0]
    # Wrappers that only re-raise (Ray's RayTaskError, a trainer's "training failed", JAX's
    # unfiltered trace) come later in the chain, linked as causes; the first exception names the
    # bug. The call path runs from the outermost wrapper's frames down to the root's innermost
    # ones; an exception raised while handling another (a failed cleanup) is not on that path.
    start = chain.index(root)
    frames: list[Frame] = list(chain[start].frames)
    for b in chain[start + 1:]:
        if b.link != "cause":
            break
        frames = [*b.frames, *frames]
    for b in chain[:start]:
        if _short_type(b.exc_type) == _JAX_SOURCE_TRACE:
            frames += b.frames
    path = call_path(frames, options)
    kind = _kind_of(root, real)
    excerpt = "\n".join(line for b in chain for line in b.lines)[-6000:]
    return make(kind, _short_type(root.exc_type), root.message, path, excerpt)


_FATAL = re.compile(r"^Fatal Python error: (?P<what>.+)$")
_ABSL_SIGNAL = re.compile(r"^\*\*\* (?P<sig>SIG[A-Z]+) received")
_CHECK_FAILED = re.compile(r"^F\d{4} .*?\] (?P<msg>Check failed: .*)$|^(?P<msg2>Check failed: .*)$")
_SHELL_SIGNAL = re.compile(
    r"(?:^|\s)(?P<name>Killed|Segmentation fault|Aborted|Bus error|Terminated)(?: \(core dumped\))?\s*(?:python\S*.*)?$"
)
_SIGNAL_WORDS = {"Killed": "SIGKILL", "Segmentation fault": "SIGSEGV", "Aborted": "SIGABRT",
                 "Bus error": "SIGBUS", "Terminated": "SIGTERM"}
_SIGNAL_TEXT = re.compile(r"(?:killed|terminated) by signal (?P<sig>SIG[A-Z]+|\d+)", re.I)
_EXIT_CODE = re.compile(r"exit(?:ed with)? (?:code|status) (?P<rc>\d+)", re.I)
_FH_HEADER = re.compile(r"^(?:Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):$")
_FH_TIMEOUT = re.compile(r"^Timeout \(\d+:\d{2}:\d{2}(?:\.\d+)?\)!$")
_LOSS_NAN = re.compile(r"\b(?:train/)?loss\b[\s:=]+(?:nan|-?inf)\b", re.I)


def _signal_name(value: str | int) -> str:
    if isinstance(value, str) and value.startswith("SIG"):
        return value
    try:
        return signal_mod.Signals(abs(int(value))).name
    except (ValueError, TypeError):
        return f"signal {value}"


def _faulthandler_frames(lines: list[str], start: int) -> list[Frame]:
    """The first thread in a faulthandler dump at/after ``start`` (most recent call first)."""
    for i in range(start, len(lines)):
        if _FH_HEADER.match(lines[i].strip()):
            frames = []
            for line in lines[i + 1:]:
                m = _FH_FRAME.match(line)
                if not m:
                    break
                frames.append(Frame(m.group("file"), m.group("func").strip(), int(m.group("line"))))
            return list(reversed(frames))
    return []


def _faulthandler_timeout(lines: list[str], options: Options) -> Signature | None:
    """A ``faulthandler.dump_traceback_later`` dump ("Timeout (0:30:00)!"): named by where it hung."""
    for i in range(len(lines) - 1, -1, -1):
        if _FH_TIMEOUT.match(lines[i].strip()):
            frames = call_path(_faulthandler_frames(lines, i), options)
            return make("timeout", None, "hung: " + (frames[-1] if frames else "no frames"), frames,
                        "\n".join(lines[i:i + 30]))
    return None


def _last_output(lines: list[str], n: int = 1) -> list[str]:
    return [line for line in lines if line.strip()][-n:]


def _numbers_masked(line: str) -> str:
    return re.sub(r"(?<![\w<])[-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?", "<n>", normalize(line))


def _crash_without_traceback(lines: list[str], options: Options) -> tuple[int, Signature] | None:
    """Signals, fatal errors, failed CHECKs: crashes that print no Python traceback; the last
    one in the log, with the index of its line."""
    for i in range(len(lines) - 1, -1, -1):
        s = lines[i].strip()
        m = _FATAL.match(s)
        if m:
            what = m.group("what")
            sig = {"Segmentation fault": "SIGSEGV", "Aborted": "SIGABRT", "Bus error": "SIGBUS",
                   "Floating point exception": "SIGFPE", "Illegal instruction": "SIGILL"}.get(what)
            frames = call_path(_faulthandler_frames(lines, i), options)
            return i, make("runtime_crash", sig or "FatalError", f"Fatal Python error: {what}", frames,
                           "\n".join(lines[i:i + 30]))
        m = _CHECK_FAILED.match(s)
        if m:
            return i, make("runtime_crash", "CheckFailed", m.group("msg") or m.group("msg2"), [],
                           "\n".join(lines[max(0, i - 3):i + 10]))
        m = _ABSL_SIGNAL.match(s)
        if m:
            sig = m.group("sig")
            return i, make("runtime_crash", sig, f"process received {sig}", [], "\n".join(lines[i:i + 20]))
    return None


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
    options: Options = Options(),
) -> Signature | None:
    """The signature of the failure ``log_text`` shows, or ``None`` when it shows none and the
    launcher reported none (``outcome`` ``succeeded`` or unknown).

    ``outcome``/``exit_code``/``signal``/``detail`` are what the launcher saw (``timeout``,
    ``never_started``, ``lost``, ...); they decide when the log alone cannot."""
    lines = clean_lines(log_text)
    tail = "\n".join(_last_output(lines, 40))

    if outcome in ("never_started", "lost", "stopped"):
        what = {"never_started": "the job never started", "lost": "the job was lost",
                "stopped": "the job was stopped"}[outcome]
        return make("infrastructure", None, what + (f": {detail}" if detail else ""), [], tail[-2000:])
    chains = parse_chains(lines)
    if outcome != "succeeded":
        reason = infrastructure_reason(tail)
        if reason and not chains:
            return make("infrastructure", None, reason, [], tail[-2000:])

    hang = _faulthandler_timeout(lines, options)
    if outcome == "timeout":
        # A hang: where it hung is the identity. A faulthandler dump says it best; otherwise the
        # last thing it printed, with step numbers and losses masked.
        if hang:
            return hang
        last = _last_output([ln for ln in lines if not _FH_HEADER.match(ln.strip())], 1)
        return make("timeout", None, "hung after: " + (_numbers_masked(last[0]) if last else "no output"), [],
                    tail[-2000:])
    # The last failure in the log names it: an exception logged and survived earlier does not
    # explain a later fatal signal, and a process the launcher saw killed did not die of one.
    crash = _crash_without_traceback(lines, options)
    killed = bool(signal) or (exit_code is not None and exit_code < 0)
    if chains and not killed and (crash is None or crash[0] < chains[-1][-1].end):
        return _from_chain(chains[-1], options)
    if crash:
        return crash[1]
    if outcome is None or outcome == "failed":
        if hang:  # a watchdog dumped the stacks and ended the process
            return hang
        if _TIMEOUT_TEXT.search(tail):
            line = next(ln for ln in reversed(_last_output(lines, 40)) if _TIMEOUT_TEXT.search(ln))
            return make("timeout", None, _numbers_masked(line), [], tail[-2000:])
        sig = _signal_name(signal) if signal else (
            _signal_name(-exit_code) if exit_code is not None and exit_code < 0 else _signal_from_text(lines))
        if sig:
            return make("runtime_crash", sig, f"process killed by {sig}", [], tail[-2000:])
        nan_line = next((ln for ln in reversed(lines) if _LOSS_NAN.search(ln)), None)
        if nan_line is not None:
            return make("nan", None, "loss became non-finite", [], tail[-2000:])
    if outcome == "failed":
        last = _last_output(lines, 1)
        status = f"exit status {exit_code}" if exit_code is not None else (detail or "failed")
        return make("runtime_crash", None, f"{status}: " + (_numbers_masked(last[0]) if last else "no output"), [],
                    tail[-2000:])
    return None


def gate_signature(gates: Sequence[dict[str, Any]], excerpt: str = "") -> Signature | None:
    """The signature of a run that completed but failed its gates: ``nan`` when the loss went
    non-finite, else ``gate_regression`` naming the failed gates (not their values, which vary)."""
    failed = [g for g in gates if g.get("status") == "FAIL"]
    if not failed:
        return None
    detail = excerpt or "\n".join(f"{g['name']}: {g.get('value')} (threshold {g.get('threshold')}) {g.get('detail', '')}".rstrip()
                                  for g in failed)
    if any(g["name"] == "finite_loss" or _is_nonfinite(g.get("value")) for g in failed):
        return make("nan", None, "loss became non-finite", [], detail)
    names = sorted(g["name"] for g in failed)
    return make("gate_regression", None, "failed gates: " + ", ".join(names), [], detail)


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
    options: Options = Options(),
) -> Signature | None:
    """The signature of one attempt: from its log when it did not run to the end, from its gates
    when it did and they failed, ``None`` when it passed."""
    if outcome != "succeeded":
        return extract(log_text, outcome=outcome, exit_code=exit_code, signal=signal, detail=detail, options=options)
    return gate_signature(gates)
