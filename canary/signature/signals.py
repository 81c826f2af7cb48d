"""What a process that died of a signal says of it: the shell's words (in the system's language), the launcher's
"killed by signal", an exit status past 128, and the lines it prints as it dies (``PROCESS_DEATHS``, read among
:data:`canary.signature.bare.BARE_ERRORS`). Pure.
"""

from __future__ import annotations

import re
import signal as signal_mod

from canary.signature.lines import last_output
from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

# a shell's words for a signal in the system's language (glibc's strsignal: zh_CN, de_DE, ja_JP, ru_RU, es, fr)
_LOCALISED_SIGNALS = {
    "已杀死": "Killed",
    "段错误": "Segmentation fault",
    "已放弃": "Aborted",
    "总线错误": "Bus error",
    "非法指令": "Illegal instruction",
    "浮点数例外": "Floating point exception",
    "Getötet": "Killed",
    "Speicherzugriffsfehler": "Segmentation fault",
    "Abgebrochen": "Aborted",
    "セグメンテーション違反です": "Segmentation fault",
    "中止": "Aborted",
    "Ошибка сегментирования": "Segmentation fault",
    "Аварийный останов": "Aborted",
    "Violación de segmento": "Segmentation fault",
    "Erreur de segmentation": "Segmentation fault",
}
_SHELL_SIGNAL = re.compile(
    r"(?:^|(?<=[\s\]*`]))(?P<name>[Kk]illed|[Ss]egmentation fault|Aborted|Bus error|Terminated|Illegal instruction|"
    r"illegal hardware instruction|Abort trap|"
    r"Floating point exception|" + "|".join(_LOCALISED_SIGNALS) + r")"
    # ("(core dumped)" in the system's language: "(核心已转储)", "(Speicherabzug geschrieben)"; macOS's shell gives the
    # signal's number instead: "Segmentation fault: 11", "Abort trap: 6", "Bus error: 10")
    r"(?:\s{1,8}\(core dumped\)|\s{0,8}[(（][^()（）]{1,40}[)）]|: \d{1,2})?"
    r"\s{0,80}(?:python\S{0,200}.{0,300})?[`*]{0,3}$"
)
# bash's report of a job that died, in a script (a CI step's): "/x/_temp/step.sh: line 1:  1950 Killed      pytest", a
# terminal at 80 columns may break it inside "(core dumped)"
_BASH_JOB = re.compile(
    r": line \d{1,7}: {1,8}\d{1,9} (?P<name>Killed|Segmentation fault|Aborted|Bus error|Terminated|Illegal instruction|"
    r"Floating point exception)(?:(?: {1,8}\(core dumped\))? {1,80}\S| {1,8}\(core$)"
)
_SIGNAL_WORDS = {
    "Killed": "SIGKILL",
    "Segmentation fault": "SIGSEGV",
    "Aborted": "SIGABRT",
    "Bus error": "SIGBUS",
    "Terminated": "SIGTERM",
    "Illegal instruction": "SIGILL",  # a binary built for instructions the CPU lacks (jaxlib's AVX)
    "Illegal hardware instruction": "SIGILL",  # (zsh's words: an x86 build under Rosetta, a wheel's AVX)
    "Abort trap": "SIGABRT",  # (macOS's words)
    "Floating point exception": "SIGFPE",
}
# (and PyCharm's run window: "Process finished with exit code 137 (interrupted by signal 9: SIGKILL)")
_SIGNAL_TEXT = re.compile(r"(?:killed|terminated|interrupted) by signal (?:\d{1,2}: ?)?(?P<sig>SIG[A-Z]+|\d+)", re.I)
# a launcher's report of the child it started dying of a signal: mpirun's "mpirun noticed that process rank 0 with PID
# 21183 on node host01 exited on signal 9 (Killed).", DeepSpeed's "[...] exits with return code = -9", torch elastic's
# "failed (exitcode: -9) local_rank: 0 (pid: 1322) of binary: ..." (a negative exit code is the signal's number), and
# the table its ChildFailedError prints ("traceback : Signal 7 (SIGBUS) received by PID 467397")
LAUNCHER_SIGNAL = re.compile(
    r"\bexited on signal (?P<a>\d{1,2})\b|\bexits with return code = -(?P<b>\d{1,2})\b|"
    r"\bfailed \(exitcode: -(?P<c>\d{1,2})\) local_rank|"
    r"\btraceback\s{0,8}: Signal (?P<d>\d{1,2}) \(SIG[A-Z]{2,6}\) received|"
    # (a title's words for the exit code, in full-width brackets: "ChildFailedError（exitcode: -9）")
    r"\bChildFailedError ?[(\uff08]exitcode: -(?P<e>\d{1,2})[)\uff09]"
)


def _launched(m: re.Match[str]) -> str:
    """The signal a :data:`LAUNCHER_SIGNAL` match names, whichever launcher's words it matched."""
    return signal_name(m["a"] or m["b"] or m["c"] or m["d"] or m["e"])


_EXIT_CODE = re.compile(r"exit(?:ed with)? (?:code|status) (?P<rc>\d+)", re.I)


def signal_name(value: str | int) -> str:
    if isinstance(value, str) and value.startswith("SIG"):
        return value
    try:
        return signal_mod.Signals(abs(int(value))).name
    except (ValueError, TypeError):
        return f"signal {value}"


def signal_from_text(lines: list[str]) -> str | None:
    for line in reversed(last_output(lines, 5)):
        m = _SIGNAL_TEXT.search(line)
        if m:
            return signal_name(m.group("sig"))
        m = LAUNCHER_SIGNAL.search(line)
        if m:
            return _launched(m)
        m = _SHELL_SIGNAL.search(line.strip()) or _BASH_JOB.search(line)
        if m:
            name = _LOCALISED_SIGNALS.get(m.group("name"), m.group("name"))
            return _SIGNAL_WORDS[name.capitalize()]  # zsh's job report is in lower case
        m = _EXIT_CODE.search(line)
        if m and int(m.group("rc")) > 128:
            return signal_name(int(m.group("rc")) - 128)
    return None


# a process that died importing a module, the command just above the shell's word for its signal (">>> import numpy",
# 'python3 -c "import tensorflow as tf; ..."', "$ python -m polars"): a wheel built for instructions the CPU lacks
# dies in its import, and which module it was is the failure, as a traceback's frames would say
_IMPORTING = re.compile(
    r"^(?:>>> |\S{0,100}[$#] )?(?:python[\d.]{0,5} (?:-c [\"'](?:import|from) |-m )|(?:import|from) )(?P<mod>\w{1,60})"
)


def died_importing(lines: list[str]) -> str | None:
    """The module whose import the signal at the end of ``lines`` killed, by the command just above the shell's words
    for the signal; None when no import is there."""
    out = [line.strip().strip("`").strip() for line in last_output(lines, 8)]
    for i in range(len(out) - 1, 0, -1):
        if _SHELL_SIGNAL.search(out[i]) or _BASH_JOB.search(out[i]):
            m = _IMPORTING.match(out[i - 1])
            return m["mod"] if m else None
    return None


# The C allocator's own check, which aborts the process (SIGABRT) after one line: glibc before 2.26 says
# "*** Error in `python': free(): invalid pointer: 0x00007f... ***" and prints a backtrace, later releases the words
# alone ("free(): invalid pointer", "double free or corruption (!prev)"); macOS "python(73214,0x20e4) malloc: ***
# error for object 0x6000...: pointer being freed was not allocated". The words say which check failed.
_GLIBC_WORDS = (
    r"(?:free|malloc|realloc|calloc|munmap_chunk|malloc_consolidate|_int_free|_int_malloc|tcache_thread_shutdown)"
    r"\(\): [a-z][\w .()!-]{2,80}?|double free or corruption(?: \([!\w]{1,10}\))?|corrupted size vs\. prev_size"
    r"|corrupted double-linked list(?: \(not small\))?"
)
MALLOC_CHECK = re.compile(
    # (glibc opens the program's name with a backtick; a post that marks each line as code, with a quote)
    r"\*\*\* Error in [`'][^`']{1,300}': (?P<old>" + _GLIBC_WORDS + r"): 0x[0-9a-f]{1,16} \*\*\*"
    r"|(?:^|(?<=\s))(?P<new>" + _GLIBC_WORDS + r")$"
    r"|\bmalloc: \*\*\* error for object 0x[0-9a-f]{1,16}: (?P<mac>[a-z][\w ']{5,80}[a-z])$"
    # (tcmalloc's own check: "src/tcmalloc.cc:332] Attempt to free invalid pointer 0x7ffdb8479460")
    r"|\btcmalloc\.cc:\d{1,6}\] (?P<tc>Attempt to free invalid pointer) 0x[0-9a-f]{1,16}"
)


def malloc_words(m: re.Match[str]) -> str:
    return m.group("old") or m.group("new") or m.group("mac") or f"tcmalloc: {m['tc']}"


# a line of glibc's backtrace: "/usr/lib/python3/torch/lib/libshm.so(_ZNSt6locale5_Impl...+0x142)[0x7fc39a269802]"
_BACKTRACE_LINE = re.compile(r"^(?P<lib>[^\s()\[\]]{1,400})\((?P<sym>[\w.@]{0,300})(?:\+0x[0-9a-f]{1,16})?\)\[0x")
# the allocator's, the threads' and the interpreter's own entries say nothing of who freed the pointer
_NOT_THE_CALLER = re.compile(r"^(?:libc|libpthread|ld-linux[\w-]*|libpython[\d.]*m?|python[\d.]*m?)(?:\.so)?[\d.]*$")
_BACKTRACE_HEAD = "======= Backtrace: ========="


def malloc_caller(lines: list[str], index: int) -> list[str]:
    """The library that handed glibc the bad pointer (the first entry of the backtrace after ``index`` that is not
    the allocator or the interpreter) as ``library:symbol``, the library's version and ABI tags dropped; none when
    the check printed no backtrace."""
    if index + 1 >= len(lines) or lines[index + 1].strip().lstrip("> ") != _BACKTRACE_HEAD:
        return []
    for line in lines[index + 2 : index + 40]:
        m = _BACKTRACE_LINE.match(line.strip().lstrip("> "))
        if m is None:
            return []
        lib = re.sub(
            r"(?:\.cpython-[\w-]{1,60}|\.abi3)?\.so(?:\.[\d.]{1,20})?$", ".so", m.group("lib").rsplit("/", 1)[-1]
        )
        if not _NOT_THE_CALLER.match(lib.removesuffix(".so")):
            return [f"{lib}:{m.group('sym')}"]
    return []


def launcher_signal(lines: list[str]) -> str | None:
    """The signal a launcher reports its child died of, wherever it says so (torch elastic logs it before the
    traceback of its own ChildFailedError)."""
    for line in lines:
        m = LAUNCHER_SIGNAL.search(line) if ("exit" in line or "received" in line) else None
        if m:
            return _launched(m)
    return None


# C++'s runtime aborting on an exception nothing caught ("terminate called after throwing an instance of
# 'std::runtime_error'", then "  what():  <its message>"): an abort is named by the error that caused it, as the
# class pybind11 raises that C++ exception as in Python (torch_xla's "Missing XLA configuration" is a RuntimeError
# whether Python caught it or nothing did)
# (libc++'s words, macOS's, say both on one line: "libc++abi: terminating due to uncaught exception of type
# std::__1::system_error: mutex lock failed: Invalid argument", its inline namespace "__1" in the type; older releases
# "terminating with uncaught exception of type")
TERMINATE = re.compile(
    r"terminate called after throwing an instance of '(?P<type>[\w:<>, ]{1,200})'|"
    r"libc\+\+abi(?:\.dylib)?: terminating (?:due to|with) uncaught exception of type (?P<libcxx>[\w:<>, ]{1,200}?): "
    r"(?P<what>.{1,2000})$"
)
# (mpirun --tag-output tags the message again where it begins a write: "what():  [1,1]<stderr>:cuda runtime error")
_WHAT = re.compile(r"^\s{0,8}what\(\):\s{1,8}(?:\[\d{1,4},\d{1,4}\]<std(?:out|err)>:)?(?P<msg>\S.{0,2000})$")
_PYBIND_CLASSES = {
    "std::invalid_argument": "ValueError",
    "std::domain_error": "ValueError",
    "std::length_error": "ValueError",
    "std::out_of_range": "IndexError",
    "std::bad_alloc": "MemoryError",
    "std::overflow_error": "OverflowError",
    # (and c10's own, which torch's bindings raise as Python's: "c10::TypeError" as TypeError)
    "c10::TypeError": "TypeError",
    "c10::ValueError": "ValueError",
    "c10::IndexError": "IndexError",
    "c10::NotImplementedError": "NotImplementedError",
}


def terminate_error(lines: list[str], index: int, thrown: re.Match[str]) -> tuple[str, str] | None:
    """The class and message of the C++ exception whose uncaught throw line ``index`` reports (``thrown``): its
    ``what()`` on the next line or after its type, as pybind11 would raise it (``RuntimeError`` for
    std::runtime_error and the rest)."""
    if thrown["libcxx"]:
        if thrown["what"].startswith(("CHECK failed: ", "Check failed: ")):
            return "CheckFailed", thrown["what"]  # (as the what() line below glibc's words is read: a failed CHECK)
        return _PYBIND_CLASSES.get(thrown["libcxx"].replace("std::__1::", "std::"), "RuntimeError"), thrown["what"]
    m = _WHAT.match(lines[index + 1].strip("│ ")) if index + 1 < len(lines) else None
    return (_PYBIND_CLASSES.get(thrown["type"], "RuntimeError"), m["msg"].strip()) if m else None


# torch.distributed.elastic's error file, logged by its error handler as JSON ('"message": "RendezvousTimeoutError: "',
# its traceback escaped in "py_callstack"): the exception the agent died of, read before a cloud API's reading of a
# JSON message
ELASTIC_RECORDS: list[BareError] = [
    BareError(
        "elastic-error-record",
        ('"message": "',),
        re.compile(r'^"message": "(?P<cls>[A-Z]\w{1,100}(?:Error|Exception)): (?P<msg>(?:[^"\\]|\\.){0,2000})",?$'),
        lambda m: m["cls"],
    ),
]
UNTHROWN = "terminate called without an active exception"
# what a process printed as it died (bare lines, no traceback): a C++ exception nobody caught, the C allocator's
# check, CPython's fatal error, a glog CHECK or PJRT's abort on a plugin's error, a signal handler's report
# C's assert() failing before the abort it raises ("python: ../lib/Analysis/Allocation.cpp:43: std::pair<...>
# mlir::triton::getCvtOrder(mlir::Attribute, mlir::Attribute): Assertion `...' failed.", a post's copy cut inside the
# expression): the function and its source file are the failure; the line and the expression's words move by release
_C_ASSERT = re.compile(
    r"(?:^|(?<=[\s`]))\S{1,200}: (?:\S{0,300}/)?(?P<file>[\w.-]{1,100}):\d{1,6}: (?P<func>.{1,600}?): Assertion `"
)
_FUNCTION = re.compile(r"([\w~]{1,200})\s?\(")


def _c_assert(m: re.Match[str]) -> str:
    name = _FUNCTION.search(m["func"])
    return f"Assertion failed in {name[1] if name else m['func']} ({m['file']})"


# pyGLFW's warning of what its platform layer refused, before GLFW's assert on the window it could not make ("GLFWError:
# (65544) b'X11: The DISPLAY environment variable is missing'", "b'GLX: Failed to create context: BadValue ...'"):
# which layer failed first (no X display, or no GL context on one) tells two asserts apart
_GLFW_LAYER = re.compile(r"GLFWError: \(\d{1,6}\) b['\"](?P<layer>X11|GLX|EGL|Wayland|WGL|NSGL|Cocoa|OSMesa):")
_GLFW_BACK = 12


def _glfw_layer(lines: list[str], i: int, said: str) -> str:
    if not said.endswith(".c)") or "glfw" not in said:
        return said
    m = next((m for line in lines[max(0, i - _GLFW_BACK) : i] if (m := _GLFW_LAYER.search(line))), None)
    return f"{said} after GLFW's {m['layer']} error" if m else said


PROCESS_DEATHS: list[BareError] = [
    BareError("c-assert", ("Assertion `",), _C_ASSERT, None, message=_c_assert, below=_glfw_layer),
    # DeepSpeed's launcher reporting a rank that exited with an error code ("[...] exits with return code = 1"; a
    # negative one is the signal, read as such): weak, the rank's own error names it where the log has it
    BareError(
        "launcher-exit-code",
        ("exits with return code = ",),
        re.compile(r"\] exits with return code = (?P<code>\d{1,3})$"),
        None,
        message=lambda m: f"a launched rank exits with return code = {m['code']}",
        weak=True,
    ),
    BareError(
        "cpp-terminate",
        (
            "terminate called after throwing",
            "terminating due to uncaught exception",
            "terminating with uncaught exception",
        ),
        TERMINATE,
        "SIGABRT",
        message=lambda m: "",
    ),
    # std::terminate with nothing thrown (a std::thread destroyed while it still runs, a rethrow outside a handler):
    # what ends a process that an error before it explains better (bare_scan looks back for one), as it tears down
    # after that error
    BareError(
        "cpp-terminate-unthrown",
        ("terminate called without an active exception",),
        re.compile(f"(?P<msg>{UNTHROWN})"),
        "SIGABRT",
    ),
    BareError(
        "malloc-check",
        ("*** Error in", "(): ", "double free", "corrupted ", "malloc: ***", "Attempt to free invalid pointer"),
        MALLOC_CHECK,
        "SIGABRT",
        message=malloc_words,
    ),
    BareError(
        "fatal-python",
        ("Fatal Python error",),
        re.compile(r"Fatal Python error: (?P<what>.{1,300})$"),
        lambda m: _SIGNAL_WORDS.get(m.group("what").strip(), "FatalError"),
        message=lambda m: f"Fatal Python error: {m.group('what').strip()}",
    ),
    BareError(
        "check-failed",
        ("Check failed", "CHECK failed", "Check Failed"),
        # (an issue's title may capitalise it: "XLA Check Failed: options.is_autotuning_compilation")
        re.compile(r"(?P<msg>(?:Check|CHECK) [Ff]ailed: .{1,1000})$"),
        "CheckFailed",
        message=lambda m: m["msg"].replace("Check Failed", "Check failed", 1),
        context=3,
    ),
    # TensorFlow 1.x's allocator aborting the process ("F .../gpu_device.cc:103] EigenAllocator for GPU ran out of
    # memory when allocating 0. See error logs for more detailed info."), the abort's cause
    BareError(
        "eigen-allocator",
        ("EigenAllocator for",),
        re.compile(r"(?P<msg>EigenAllocator for \w{1,20} ran out of memory when allocating \d{1,20})"),
        "SIGABRT",
    ),
    # PJRT's C API client aborting on a plugin's error ("F... pjrt_c_api_helpers.cc:241] Unexpected error status ...")
    BareError(
        "pjrt-fatal",
        ("Unexpected error status",),
        re.compile(r"Unexpected error status (?P<msg>.{1,1000})$"),
        "CheckFailed",
    ),
    # gdb's stop on a fault ("Thread 1 "python" received signal SIGILL, Illegal instruction." or "Program received
    # signal SIGSEGV, Segmentation fault."), the frame it stopped in on the line below ("0x00007fff9eaea4d0 in
    # THFloatVector_normal_fill_AVX2 () from .../libtorch.so"): the signal, and the function (the ``gdb-frame`` rule);
    # not SIGABRT, which a process raises itself after saying why
    BareError(
        "gdb-signal",
        (" received signal SIG",),
        re.compile(
            r"^(?:Thread \d{1,6} \"[^\"]{0,100}\"|Program) received signal "
            r"(?P<sig>SIG(?:ILL|SEGV|BUS|FPE)), [\w ]{1,60}\.$"
        ),
        lambda m: m["sig"],
        message=lambda m: f"process received {m['sig']}:",
        context=2,
    ),
    BareError(
        "signal",
        ("*** SIG", "Caught signal "),
        # absl also names the faulting address and its help page: "*** SIGSEGV (@0x10), see go/... received"; UCX
        # (under NCCL, MPI) by number and words: "[host:1034 :0:1034] Caught signal 7 (Bus error: nonexistent ...)"
        re.compile(
            r"^\*\*\* (?P<sig>SIG[A-Z]{2,10})(?: \(@[\w()]{1,20}\)(?:, see \S{1,100})?)? received|"
            r"\bCaught signal \d{1,2} \((?P<words>" + "|".join(_SIGNAL_WORDS) + ")"
        ),
        lambda m: m.group("sig") or _SIGNAL_WORDS[m.group("words")],
        message=lambda m: f"process received {m.group('sig') or _SIGNAL_WORDS[m.group('words')]}",
    ),
]


# gdb's frame after the fault it stopped on ("process received SIGILL: 0x00007fff9eaea4d0 in
# THFloatVector_normal_fill_AVX2 () from /x/torch/lib/libtorch.so"): the function; its address and the library's
# path (and name: libtorch.so became libtorch_cpu.so) are the build's
_GDB_FRAME = re.compile(
    r"^(process received SIG[A-Z]{2,10}):(?: \S{1,30} in (?P<fn>.{1,300}?) \((?:[^()]|\([^()]{0,200}\)){0,300}\)"
    r"(?: (?:from|at) \S.{0,500})?$)?"
)


def gdb_frame(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _GDB_FRAME.match(message) if message.startswith("process received SIG") else None
    if m is None:
        return exc, message, frames
    return exc, m[1] + (f" in {m['fn']}" if m["fn"] else ""), frames


# glibc's double free names which of free()'s consistency checks caught it ("(out)", "(!prev)", "(fasttop)"), which
# the heap's state at that moment decides; where its backtrace names the library that freed the pointer, that library
# is the failure, and the message names it in the check's place (without a backtrace the check's name is all that
# tells two apart)
_WHICH_CHECK = re.compile(r"^(double free or corruption) \([!\w]{1,10}\)$")


def glibc_check(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _WHICH_CHECK.match(message) if exc == "SIGABRT" and frames else None
    return exc, f"{m[1]} (freed by {frames[-1]})" if m else message, frames
