"""Reading Python tracebacks out of log lines: exception chains (causes, contexts, Ray's remote errors, JAX's filtered
and unfiltered traces), their frames, and the call path that matters. Pure."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# Frames kept in the call path besides the application's own (globs over the normalized path,
# which for installed packages starts at the package: ``jax/experimental/pallas/ops/...``).
DEFAULT_KEEP: tuple[str, ...] = ("canary/*", "*ragged_dot*", "*/pallas/ops/*", "*megablox*", "levanter/*", "haliax/*")
DEFAULT_MAX_FRAMES = 12


@dataclass(frozen=True)
class Options:
    """How signatures are taken: which library frames count as the call path, and how many."""

    keep: tuple[str, ...] = DEFAULT_KEEP
    max_frames: int = DEFAULT_MAX_FRAMES

    def roots(self) -> set[str]:
        """Package directories named by the globs (``canary/*`` names ``canary``)."""
        return {g.split("/", 1)[0] for g in self.keep if re.fullmatch(r"[\w.-]+/.*", g)}

    def with_keep(self, extra: Iterable[str]) -> Options:
        return Options(tuple(dict.fromkeys((*self.keep, *extra))), self.max_frames)


DEFAULT_OPTIONS = Options()  # frozen: one shared default

_TB_START = "Traceback (most recent call last):"
_CAUSE = "The above exception was the direct cause of the following exception:"
_UNRAISABLE = "Exception ignored in: "  # (sys.unraisablehook's report, above the traceback it prints)
_CONTEXT = "During handling of the above exception, another exception occurred:"
# (a copy that joined each frame's line with its source keeps the source after two blanks: "in <module>    import x")
_FRAME = re.compile(r'^\s{2,}File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<func>\S.*?)(?: {2,}\S.*)?$')
# faulthandler's dumps: '  File "x.py", line 12 in f' (most recent call first)
_FH_FRAME = re.compile(r'^\s{2,}File "(?P<file>[^"]+)", line (?P<line>\d+) in (?P<func>\S.*)$')
# "ValueError: msg", "jaxlib._jax.XlaRuntimeError: ...", Ray's "ray.exceptions.RayTaskError(ValueError): ..."
# (the bracketed form only after a class's name: "app.run(main)" is a relayed traceback's source line)
# (a class defined in a function is named with "<locals>": "jaxlib.mlir._mlir_libs._site_initialize.<locals>.MLIRError")
_EXC_LINE = re.compile(
    r"^(?P<type>[A-Za-z_][\w.]*(?:\.<locals>\.[A-Za-z_]\w*)?|(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*\([\w.]+\))"
    r"(?::\s?(?P<msg>.*))?$"
)
# jax's wrappers of the exception it prints: FilteredStackTrace (jax 0.2), UnfilteredStackTrace and
# SimplifiedTraceback (later)
_JAX_WRAPPERS = {"FilteredStackTrace", "UnfilteredStackTrace", "SimplifiedTraceback"}
# JAX prints where a failing operation was traced (the model code that called it) as a cause of
# the lowering error: those frames are the inner part of the call path.
_JAX_SOURCE_TRACE = "JaxStackTraceBeforeTransformation"
RUNNER_END = r"(?:Error: |##\[error\])Process completed with exit code \d{1,3}\.?$"  # (a CI runner's end of a step)
_MESSAGE_END = re.compile(
    r"^(?:-{10,}|For simplicity, JAX has removed|The stack trace below excludes JAX-internal frames"
    r"|The preceding is the original exception|The preceding stack trace is the source of the JAX operation"
    r"|Set JAX_TRACEBACK_FILTERING|Traceback \(most recent call last\)"
    r"|The above exception was the direct cause|During handling of the above exception"
    r"|Fatal Python error:|\*\*\* SIG[A-Z]+ received|(?:Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\)"
    r"|Timeout \(\d+:\d\d:\d\d)|BufferAssignment OOM Debugging|\*\*\* (?:Begin stack trace|Check failure stack trace)"
    r"|Exception in device=\S{1,40}: "  # (torch_xla's report of the same failure in another device's process)
    r"|\[end of output\]$|note: This error originates from a subprocess|ERROR: (?:Failed to build|Failed building wheel"
    r" for|Could not build wheels for) |error: (?:metadata-generation-failed$|subprocess-exited-with-error$|command '"
    r"[^']{1,300}' failed with exit code)|.{0,300} \(pyproject\.toml\) did not run successfully\.$"  # (pip's, after)
    r"|[\w./\\-]{1,300}\.pyx?:\d{1,6}: [A-Z]\w{0,60}(?:Error|Exception)$"  # (pytest's place of the raise, after it)
    r"|Call stack:$|WARNING: The Python \w{1,20} extension"  # (logging's in a handler, python-build's check after)
    r"|\[ ?(?:WARN|ERROR|INFO):\d{1,3}(?:@[\d.]{1,20})?\] "  # (OpenCV's log line, "[ WARN:0] global ...", after it)
    r"|Exception ignored in: |Error in atexit\._run_exitfuncs|\[end of output\]\W{1,4}$"  # (finalizers'; pip's box)
    r"|(?:\[\d{1,10}\] )?Failed to execute script "  # (a PyInstaller bundle's words after its script's exception)
    r"|\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\]$"  # (Snakemake's next record)
    r"|={5,} .{1,300} ={5,}$"  # (pytest's next section or its summary: "=== 2 failed, 979 passed in 35.28s ===")
    # (Slurm's report of the tasks that exited after it, Tianhe's yhrun's too; docker-compose's of its build step)
    r"|(?:yh|s)run: error: |slurmstepd: error: |ERROR: Service '[\w.-]{1,100}' failed to build"
    r"|[\w.-]{1,100} exited with code \d{1,3}$|INFO: Elapsed time: "  # (docker compose's as a container ends; Bazel's)
    r"|'''$|\"(?:\"\")?$|at (?:[\w.-]{1,60}/)?(?:[\w`$]{1,100}\.){2,}[\w`<>$]{1,100} ?\("  # (quotes; JVM, .NET frames)
    r"|terminate called (?:after throwing an instance of|without an active exception)"
    r"|The command \".{1,500}\" exited with \d{1,3}\.|.{0,200}, retrying in [\d.]{1,8} s"  # (Travis CI's; a retry's)
    # (a progress bar the program drew after it, tqdm's "  0%|          | 0/6931 [00:01<?, ?it/s]", with its
    # description "Training steps:   0%|"; rich's box around its own copy of the traceback, "╭───── Traceback ...")
    r"|(?:[^|:]{1,100}:\s{1,4})?\d{1,3}%\||╭─{3,}"
    # (a post's markup after the block it pasted: a code fence, GitHub's folded <details> and its HTML)
    r"|`{3}[\w+-]{0,20}$|</?(?:details|summary|pre|code|br|p|hr)\b[^>]{0,100}>"
    r"|(?:\([\w.-]{1,40}\) )?(?:[\w.-]{1,64}@[\w.-]{1,64}:\S{0,300}|-?bash-[\d.]{1,8})[$#](?: |$)"  # (shell prompts)
    r"|\([\w.-]{1,40}\)(?: \([\w.-]{1,40}\)){0,3} (?:.{0,200}[$#>]$|~\S{0,300}[$#] )"  # (a conda env's: "(env) ~/x$")
    r"|Tr(?:a|ac|ace|aceb|aceba|acebac|aceback)?$"  # (the next traceback's first line, where a post was cut inside it)
    r"|(?:gyp|npm) ERR! |npm error "  # (node-gyp's and npm's report of the Python script they ran, after its error)
    "|" + RUNNER_END,  # (a runner's end after it)
)
_MAX_MESSAGE_LINES = 12
_LOOK_BACK = 200  # lines searched above a cut exception line for the whole one
# A first paragraph that every error of its class shares, and what the paragraph after it says that tells one from
# another: jax's concretization error up to 0.4.1x ("The error arose in jax.numpy.reshape."), pybind11's incompatible
# arguments, whose first paragraph lists what the function takes and whose "Invoked with: ..." says what it was given.
_GENERIC_HEADS = (
    (re.compile(r"Abstract tracer value encountered where concrete value is expected\.$"), None),
    (
        re.compile(r"incompatible function arguments\. The following argument types are supported:"),
        re.compile(r"Invoked with(?: types)?:"),
    ),
    # a gRPC status printed by absl with its code's text alone ("DEADLINE_EXCEEDED: Deadline Exceeded"), the call
    # after a blank line ("RPC: /tensorflow.CoordinationService/RegisterTask"): which call timed out is the failure
    (re.compile(r"^[A-Z_]{4,}: [A-Z][a-z]{1,20}(?: [A-Za-z]{1,20}){0,3}$"), re.compile(r"RPC: /")),
    # conda's packages no channel has, listed after a blank line: which package is the failure
    (re.compile(r"The following packages are not available from current channels:$"), re.compile(r"- \S")),
    # conda 4.7's solver conflict, the package it is over after a blank line ("Package cudatoolkit conflicts for:"), or
    # 4.8's CUDA driver section, glued to the empty section's format line ("... Available versionsThe following ...")
    (
        re.compile(r"The following specifications were found to be incompatible with each other:$"),
        re.compile(r"Package \S{1,100} conflicts for:|.{0,200}incompatible with your CUDA driver:"),
    ),
)


def detail_after(lines: Sequence[str], i: int, message: str) -> int | None:
    """The index of the line that tells apart errors whose first paragraph every one of their class
    shares, when ``message`` is that paragraph and ``lines[i]`` the blank line after it; else None."""
    head = next((detail for rx, detail in _GENERIC_HEADS if rx.search(message)), False)
    if head is False:
        return None
    j = i
    while j < min(len(lines), i + 3) and not lines[j].strip():
        j += 1
    if j == i or j >= len(lines) or _MESSAGE_END.match(lines[j].strip()) or _FRAME.match(lines[j]):
        return None
    return j if head is None or head.match(lines[j].strip()) else None


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
    if m.group("msg") is None and m.group("type").rsplit(".", 1)[-1][:1].islower():
        return None  # a module's path cut before its class ("torch.distr"), a code line ("creden"): no exception
    if m.group("msg") is None and (len(m.group("type")) < 3 or m.group("type") in ("Fil", "File", "ERRO", "WARN")):
        return None  # a frame's "File" or a logged level cut short, or a class cut at its first letters: no exception
    if len(m.group("type")) == 1 and (m.group("msg") or "").startswith("\\"):
        return None  # a Windows path ("c:\\users\\x\\lib\\site"), not an exception
    if m.group("type") == "Node" and (m.group("msg") or "").startswith("'"):
        return None  # TensorFlow's line naming the graph node above its error ("Node: 'gradients/AddN'"), no class
    return m.group("type"), (m.group("msg") or "").strip()


def _whole_line(lines: Sequence[str], start: int, i: int) -> str:
    """The exception line at ``lines[i]``; when the log ends on it (an excerpt cut mid-line) and an
    exception printed above, in one of jax's wrappers or bare, begins with it, that whole line."""
    cut = lines[i].strip()
    if any(line.strip() for line in lines[i + 1 :]):
        return lines[i]
    for line in reversed(lines[max(0, start - _LOOK_BACK) : start]):
        whole = line.strip().split(": ", 1)[1] if line.split(":", 1)[0] in _JAX_WRAPPERS else line.strip()
        if len(whole) > len(cut) and whole.startswith(cut) and _parse_exception_line(whole):
            return whole
    return _cut_class(lines, i + 1) or lines[i]


# pip's words after a build step it ran failed ("error: metadata-generation-failed", "ERROR: Failed building wheel
# for x", ...) below the output it boxed, and what closes that output (pip's note, uv's hint): the step's traceback is
# in the output, indented, and the error it raised names the failure
PIP_WORDS = re.compile(
    r"^(?:error: (?:metadata-generation-failed|subprocess-exited-with-error|legacy-install-failure)|ERROR: (?:Failed "
    r"building wheel for|Could not build wheels for|Failed to build) |(?P<after>hint: This (?:error )?(?:likely|"
    r"usually)\b|note: This error originates from a subprocess))"
)


def _read_frames(lines: list[str], i: int, indent: int) -> tuple[list[Frame], int, int | None]:
    """The frames of a traceback from ``lines[i]`` on, the index of the line after them, and the last exception line
    indented among the output after them (where pip's words follow, the exception is that one)."""
    frames: list[Frame] = []
    inner: int | None = None
    while i < len(lines):
        m = _FRAME.match(lines[i])
        if m:
            code = ""
            j = i + 1
            # the source line, and 3.11+'s caret markers under it
            while (
                j < len(lines)
                and lines[j].startswith("    ")
                and not _FRAME.match(lines[j])
                and (not indent or lines[j][: indent + 1].isspace())  # (an indented traceback's exception line)
            ):
                if not code and lines[j].strip() and set(lines[j].strip()) - set("^~ "):
                    code = lines[j].strip()
                j += 1
            frames.append(Frame(m.group("file"), m.group("func").strip(), int(m.group("line")), code))
            i = j
            continue
        if indent and frames and not lines[i][: indent + 1].isspace() and _parse_exception_line(lines[i][indent:]):
            break
        if lines[i].startswith("  ") or not lines[i].strip():
            if _parse_exception_line(lines[i].strip()) and not PIP_WORDS.match(lines[i].strip()):
                inner = i
            i += 1  # "[Previous line repeated N more times]", stray indented output
            continue
        break
    return frames, i, inner


def _read_block(lines: list[str], i: int) -> tuple[ExceptionBlock | None, int]:
    """Read the traceback starting at ``lines[i]`` (its header line); return it and the index after."""
    start = max(i, 0)
    # (a traceback a tool printed indented, pip's build output in its box: its exception's line is at its header's
    # indentation, not at the line's start)
    header = lines[start].lstrip(" ")
    indent = len(lines[start]) - len(header) if header.startswith("Traceback (most recent call last)") else 0
    frames, i, inner = _read_frames(lines, i + 1, indent)
    if i >= len(lines):
        return None, i
    if inner is not None and PIP_WORDS.match(lines[i].strip()):
        i = inner  # (pip's words after the output it boxed: the exception is the one indented in the box)
        indent = len(lines[i]) - len(lines[i].lstrip(" "))
    said = _whole_line(lines, start, i)
    parsed = _parse_exception_line(said[indent:] if indent and said[:indent].isspace() else said)
    if parsed is None:
        return None, i
    exc_type, first = parsed
    message_lines = [first] if first else []
    # a message goes on in the stream it started in: a logged line does not run on into bare output
    logged = i in (records := getattr(lines, "records", set()))
    head, i = lines[i].strip(), i + 1
    if not first and head.endswith(":") and i + 1 < len(lines) and not lines[i].strip() and lines[i + 1].strip():
        i += 1  # (a message that opens on a new line: Python prints the class and its colon alone above a blank)
    while i < len(lines) and len(message_lines) < _MAX_MESSAGE_LINES:
        line = lines[i]
        if line.strip() == head:  # the exception's line printed again (nbconvert's "ename: evalue" after it)
            i += 1
            break
        if (
            not line.strip()
            or _MESSAGE_END.match(line.strip())
            or _FRAME.match(line)
            or (records and (i in records) != logged)
        ):
            break
        message_lines.append(line.strip())
        i += 1
    detail = detail_after(lines, i, " ".join(message_lines))
    if detail is not None:
        message_lines.append(lines[detail].strip())
        i = detail + 1
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
        headless = stripped != _TB_START and stripped.startswith("File ") and not linked and _FRAME.match(lines[i])
        if stripped == _TB_START or headless:
            start = i
            # a traceback whose header line was cut off (an excerpt) starts at its first frame
            block, i = _read_block(lines, i - 1 if headless else i)
            if block is None:
                continue
            if start and lines[start - 1].startswith(_UNRAISABLE):
                # (Python's report of an error a finalizer could not raise, after the chain it tore down: the chain's)
                if current:
                    current[-1].end = i
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


def unfinished(lines: Sequence[str]) -> tuple[list[Frame], str | None, int]:
    """The frames of a traceback the log ends inside, outermost first (a post, or a log, cut before the
    exception's line), and the class IPython's header names (``AttributeError   Traceback (most recent
    call last)``) or None, and the index of its first line; no frames when it ends anywhere else, or
    shows fewer than two. A last line that is a frame's header cut short is the cut."""
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    raised = _cut_class(lines, end)
    if end and (raised or _CUT_HEADER.match(lines[end - 1])):
        end -= 1
        while end and not lines[end - 1].strip():
            end -= 1
    if not end or not lines[end - 1][:1].isspace():
        return [], None, end  # the last line is no frame, source or caret line
    start = end
    while start and (
        lines[start - 1][:1].isspace() or not lines[start - 1].strip() or _COLAB_FOLD.match(lines[start - 1])
    ):
        start -= 1
    header = _IPY_HEADER.match(lines[start - 1].strip()) if start else None
    frames = [
        Frame(m.group("file"), m.group("func").strip(), int(m.group("line")), "")
        for line in lines[start:end]
        if (m := _FRAME.match(line))
    ]
    # a line of output, not a traceback's header, above the frames: a post copied from inside a traceback
    # (a CI log's excerpt) when three frames or more say so, else frames printed by something else
    # (under IPython's header that names the class, the cell's frame alone will do)
    if len(frames) < (_HEADLESS_FRAMES if start and not header else 1 if header and header["cls"] else 2):
        return [], None, end
    # (jax's wrapper of the exception it prints names none; a cut after the raise statement names its class)
    named = header.group("cls") if header and header.group("cls") not in _JAX_WRAPPERS else None
    last = _RAISE.match(lines[end - 1]) if not (raised or named) else None
    return frames, raised or named or (last and last.group(1)), start


_RAISE = re.compile(r"^\s{4,}raise (?:[\w.]{1,200}\.)?([A-Z]\w{1,100})\(.{0,500}$")
# the exception's class cut inside its name ("InvalidRngErro") under the frame whose source raises it
_CUT_CLASS = re.compile(r"^[A-Z]\w{2,100}$")


def _cut_class(lines: Sequence[str], end: int) -> str | None:
    """The class the last frame's ``raise`` names, when the log's last line is that class cut inside its name."""
    last = lines[end - 1].strip() if end else ""
    if not _CUT_CLASS.match(last):
        return None
    for line in reversed(lines[max(0, end - 8) : end - 1]):
        m = re.search(r"\braise (?:[\w.]+\.)?(" + last + r"\w*)\(", line)
        if m:
            return m.group(1)
    return None


# Python's header of a traceback, and IPython's with the class before it (of any name: gym's "NamespaceNotFound")
_IPY_HEADER = re.compile(
    r"^(?:(?P<cls>[A-Za-z_][\w.]{0,200}(?:Error|Exception|Exit|Interrupt)|[A-Z][A-Za-z]{2,100})\s{2,})?"
    r"Traceback \(most recent call last\):?$"
)
# a frame's header cut short by the post: IPython's ("File ~/x.py:20,", "~/x.py in <mod", a path cut
# before its end, "/usr/lib/x/named_call.", Colab's link cut at its bracket, "[") or Python's ("  Fi"), or the
# exception's class cut at its first letters ("I")
_CUT_HEADER = re.compile(
    r'^(?:File [~/"<]|~/|/\S{1,300}\.py |/\S{1,300}$|\[/|\[$|[A-Za-z]:\\|\s{0,8}F(?:il?)?$|[A-Z][a-z]?$)'
)
_HEADLESS_FRAMES = 3
# Colab's fold of the library's frames between two it shows: "7 frames"
# Colab's fold of library frames ("11 frames"), a reporter's elision of frames ("... a bit more stack trace here ...")
_COLAB_FOLD = re.compile(r"^\d{1,4} frames$|^\s{0,8}\.{3} [\w ]{1,60} \.{3}$")


def naming_chain(chains: Sequence[list[ExceptionBlock]]) -> int:
    """The chain that names the failure: the last, or the parent's before it when the last is a spawned child's
    ``EOFError: Ran out of input`` reading the process object its parent failed to pickle (Windows and macOS print the
    child's traceback after the parent's ``TypeError: can't pickle ...``)."""
    last = chains[-1][-1]
    if len(chains) > 1 and last.exc_type.endswith("EOFError") and any(f.file.endswith("spawn.py") for f in last.frames):
        parent = chains[-2][-1]
        dumped = ("reduction.py", "popen_spawn_win32.py", "popen_spawn_posix.py")
        if any(f.file.endswith(dumped) for f in parent.frames):
            return -2
    return -1
