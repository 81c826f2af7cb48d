"""What native extensions and their builds print against the Python, NumPy or CUDA they meet, without a class or
before one: Cython's compiler refusing a ``.pyx`` file, a C compiler on a structure member a Python release removed,
numba's check of the NumPy it runs with, CuPy looking for CUDA. Pure. They take their place in
:data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import ENOENT_WORDS, BareError, match_below
from canary.signature.recogniser import environment_check as _environment

# (Cython's types hold no period; a message's first sentence is its check, later ones its advice)
_CYTHON = re.compile(
    r"(?:^|(?<=\s))(?<!warning: )(?:\S{0,300}[/\\])?(?P<file>[\w.-]{1,100}\.(?:pyx|pxd|pxi)):\d{1,6}:\d{1,4}: "
    r"(?P<msg>[A-Z][^.]{1,400})|(?P<assign>Cannot assign type '[^']{1,300}' to '[^']{1,300}')"
)


def _cython(m: re.Match[str]) -> str:
    # (a refused assignment names both types, which is where it is; any other check is told by its file)
    if m["assign"] or m["msg"].startswith("Cannot assign type '"):
        return f"Cython: {m['assign'] or m['msg']}"
    return f"Cython: {m['file']}: {m['msg']}"


# (clang's "no member named 'ob_digit' in 'struct _longobject'", gcc's "'PyLongObject' {aka 'struct _longobject'} has
# no member named 'ob_digit'" or "'struct AVStream' has no member named 'codec'", in its German catalogue's words too
# ("Fehler: »struct AVFrame« hat kein Element namens »channels«"), with typographic quotes or, retyped, none)
_Q = "['\u2018\u2019\u00ab\u00bb]?"
# (and gcc's "too few arguments to function '_PyLong_AsByteArray'", a call a Python release changed; clang's "too few
# arguments to function call, expected 6, have 5" names no function)
_MEMBER = re.compile(
    rf"(?:(?P<file>[\w.-]{{1,100}}\.(?:c|cc|cpp|cxx)):\d{{1,7}}:\d{{1,5}}: )?(?:error|Fehler): "
    rf"(?:no member named {_Q}(?P<m1>\w{{1,100}}){_Q} in {_Q}(?P<s1>struct \w{{1,100}}){_Q}|"
    rf"(?:{_Q}\w{{1,100}}{_Q} \{{aka )?{_Q}(?P<s2>struct \w{{1,100}}){_Q}\}}? (?:has no member named|hat kein Element "
    rf"namens) {_Q}(?P<m2>\w{{1,100}})|"
    rf"(?P<few>too few arguments to function (?:{_Q}\w{{1,100}}{_Q}|call, expected \d{{1,3}}, have \d{{1,3}})))"
)


def _member(m: re.Match[str]) -> str:
    said = (
        f"error: {m['few']}".replace("\u2018", "'").replace("\u2019", "'")
        if m["few"]
        else (f"error: {m['s1'] or m['s2']} has no member named {m['m1'] or m['m2']}")
    )
    return f"{m['file']}: {said}" if m["file"] else said


_MODULE_BELOW = re.compile(r"^\s{0,8}'(?P<mod>[\w.]{1,200})'")


def _module_below(lines: list[str], i: int, said: str) -> str:
    """The module a wrapped warning names on the line below, where its own line did not."""
    if "'" in said:
        return said
    m = match_below(_MODULE_BELOW, lines, i + 1, i + 2)
    return f"{said} '{m['mod']}'" if m else said


# a compiler's error in a header it was given: nvcc's front end ("/usr/include/bits/mathcalls.h(79): error: exception
# specification is incompatible with that of previous function "cospi" (declared at line 2601 of /usr/local/cuda/
# include/crt/math_functions.h)"), gcc's ("bits/mathcalls.h:143:8: error:" with "'_Float32' does not name a type" on
# the next line); nvcc's own guard of the host compiler ("#error -- unsupported clang version!") and a header not there
# ("fatal error: cuda_runtime.h: No such file or directory", in the machine's language) are checks of the machine
_HEADER = re.compile(
    r"(?:^|(?<=[\s/`\"']))(?P<header>[\w+-]{1,100}\.(?:h|hpp|hxx|cuh|inl))(?:\(\d{1,7}\)|:\d{1,7}(?::\d{1,5})?): "
    r"(?:fatal )?error:(?! ?#error| ?--|.{0,400}(?:No such file|file not found|" + ENOENT_WORDS + r"))"
    r"(?P<msg>.{0,2000})$"
)
_PATH = re.compile(r"(?:[A-Za-z]:)?[\\/]?(?:[\w.+-]{1,200}[\\/]){1,40}(?=[\w+-]{1,200}\.\w{1,4}\b)")
_WRAPPED = 55  # a line CMake or a terminal wrapped is at least this long
# (a wrapped line goes on in words, a quote or a path; make's, ninja's and CMake's own lines do not)
_GOES_ON = re.compile(r"^[a-z('\"\u2018/]")
_NOT_ON = re.compile(
    r"\*\*\*|^\w{1,20}\[\d{1,3}\]: |errors? detected|^\S{1,400}(?:\(\d{1,7}\)|:\d{1,7}(?::\d{1,5})?): "
)
_FIRST_WITHIN = 400  # lines above the last header error within which the first of the run is looked for


def _header(m: re.Match[str]) -> str:
    return f"{m['header']}: error: {_PATH.sub('', m['msg'].strip())}".rstrip()


def _header_below(lines: list[str], i: int, said: str) -> str:
    """The first of a run of header errors (the compiler's first names the failure; the rest follow from it), with
    the lines a terminal or CMake wrapped it into (the lines under a long one, or one that stops at "error:", that go
    on in words, up to a blank line, a source line or the next error); the paths in it by their file."""
    first, m = next(
        ((k, m) for k in range(max(0, i - _FIRST_WITHIN), i) if (m := _HEADER.search(lines[k].strip()))), (i, None)
    )
    said = _header(m) if m is not None else said
    if len(lines[first].rstrip()) < _WRAPPED and not said.endswith("error:"):
        return said
    words = [said]
    for line in lines[first + 1 : first + 6]:
        s = line.strip()
        if len(line) - len(line.lstrip()) > 2 or not _GOES_ON.match(s) or _NOT_ON.search(s) or _HEADER.search(s):
            break
        words.append(_PATH.sub("", s))
    return " ".join(words)


_LIB_RELEASE = re.compile(
    r"^[a-z]{1,40}-[\d.]{1,20}-(?:<uuid>|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})-|(?<=^libpython)\d\.\d{1,2}"
    r"(?=m?\.so)|(?<=\.so)(?:\.\d{1,4}){1,3}$"
)


_CAUSED_BY = re.compile(r"^\s{0,8}(?:\|\s{1,8})?Caused by: (?P<cause>\S.{0,300}?)\.?$")


def _maturin_cause(lines: list[str], i: int, said: str) -> str:
    """maturin's failure by the causes it lists below it (anyhow's chain, outermost first, in a poetry box or not)."""
    causes = [m["cause"] for line in lines[i + 1 : i + 8] if (m := _CAUSED_BY.match(line))]
    return f"maturin: {': '.join(causes)}" if causes else said


_MAXIMUM_BELOW = re.compile(r"^\s{0,12}(\(\d\.\d{1,2}\))$")


def _pyo3_maximum(lines: list[str], i: int, said: str) -> str:
    """PyO3's maximum on the next line, where cargo's output wrapped it."""
    m = match_below(_MAXIMUM_BELOW, lines, i + 1, i + 2) if said.endswith("supported version") else None
    return f"{said} {m[1]}" if m else said


_REFERENCED = re.compile(r"^\s{0,8}Referenced from: '?(?:\S{0,500}/)?(?P<prog>[^/\s']{1,200})'?")


def _referenced_from(lines: list[str], i: int, said: str) -> str:
    """The program macOS's loader was starting, named on the line below its error."""
    m = match_below(_REFERENCED, lines, i + 1, i + 3)
    return f"{said} (referenced from {m['prog']})" if m else said


NATIVE_CHECKS: list[BareError] = [
    # macOS's loader starting a program whose library a package manager upgraded away ("dyld: Library not loaded:
    # /usr/local/opt/icu4c/lib/libicui18n.58.dylib", "Referenced from: /usr/local/bin/node", "Reason: image not
    # found", then the signal it stopped with; a crash report's "Dyld Error Message:"): the library by its name without
    # its release, and the program
    _environment(
        "dyld-not-loaded",
        ("Library not loaded: ",),
        r"^(?:dyld(?:\[\d{1,10}\])?: )?Library not loaded: '?(?:\S{0,500}/)?(?P<lib>[\w+-]{1,200}?)(?:\.\d{1,4})*"
        r"\.dylib'?$",
        None,
        message=lambda m: f"dyld: Library not loaded: {m['lib']}",
        below=_referenced_from,
    ),
    # the loader's refusal of an extension built for another architecture, where a post's copy starts after the
    # extension's path ("_psutil_osx.cpython-39-darwin.so, 0x0002): tried: '...' (mach-o file, but is an incompatible
    # architecture (have 'x86_64', need 'arm64e'))"): as the whole ImportError reads
    _environment(
        "dyld-architecture-cut",
        ("incompatible architecture (have ",),
        r"^(?P<name>[\w-]{1,200}?)(?:\.cpython-\w{1,20}-[\w-]{1,60}|\.abi3)?\.so, 0x[0-9a-f]{4}\): tried: .{0,2000}?"
        r"incompatible architecture \(have '(?P<have>\w{1,20})', need '(?P<need>\w{1,20}?)e?'\)",
        "ImportError",
        message=lambda m: f"dlopen({m['name']}.so): incompatible architecture (have {m['have']}, need {m['need']})",
    ),
    # maturin's build refusing what it was given or found ("💥 maturin failed", then "Caused by: Couldn't find any
    # python interpreters. Please specify at least one with -i"): its causes, outermost first, whichever wrapper ran it
    _environment(
        "maturin-failed",
        ("maturin failed",),
        r"(?:^|\s)maturin failed$",
        None,
        message=lambda m: "maturin failed",
        below=_maturin_cause,
        weak=True,  # (what cargo's build printed above it names it: PyO3's check of the interpreter)
    ),
    # nvcc's guard of the host compiler it is given, in host_config.h ("#error -- unsupported clang version! clang
    # version must be less than 10 ...", "unsupported Microsoft Visual Studio version! Only the versions between 2017
    # and 2022 (inclusive) are supported!", CUDA 9's "Only the versions 2012, 2013, 2015 and 2017 ...") or in nvcc
    # itself ("nvcc fatal   : The version ('90000') of the host compiler ('Apple clang') is not supported", "GNU C/C++
    # compiler is no longer supported as a host compiler on Mac OS X"), and MSVC's library refusing the compiler
    # ("STL1001: Unexpected compiler version, expected MSVC 19.26 or newer."): which compiler, not which versions
    _environment(
        "host-compiler",
        (
            "unsupported clang version!",
            "unsupported Microsoft Visual Studio version!",
            "of the host compiler (",
            "as a host compiler on",
            "STL1001: ",
        ),
        r"(?P<guard>unsupported (?:clang|Microsoft Visual Studio) version)!|"
        r"(?:nvcc fatal\s{0,4}: )?The version \('[\w.]{1,20}'\) of the host compiler \('(?P<cc>[^']{1,40})'\) is not "
        r"supported|(?P<mac>GNU C/C\+\+ compiler is no longer supported as a host compiler on Mac OS X)|"
        r"(?P<stl>STL1001: Unexpected compiler version), expected (?P<msvc>\w{1,10}) [\d.]{1,20} or newer",
        None,
        message=lambda m: (
            f"nvcc: {m['guard'] or m['mac']}"
            if m["guard"] or m["mac"]
            else (
                f"{m['stl']}, expected {m['msvc']} <version> or newer"
                if m["stl"]
                else f"nvcc fatal: the version of the host compiler ('{m['cc']}') is not supported"
            )
        ),
    ),
    # a header the compiler could not read (a newer glibc's mathcalls.h under an older CUDA: "identifier "_Float32" is
    # undefined", "exception specification is incompatible with that of previous function "cospi""; boost's
    # "__float128"): which header and what the compiler says of it, not its line or the machine's paths
    BareError(
        "header-error",
        (".h(", ".h:", ".hpp", ".hxx", ".cuh", ".inl"),
        _HEADER,
        None,
        "compile_error",
        message=_header,
        below=_header_below,
    ),
    # Cython's compiler refusing a file ("x/cymj.pyx:127:21: Cannot assign type 'void (const char *) except * nogil' to
    # 'void (*)(const char *) noexcept nogil'. Exception values are incompatible. Suggest adding 'noexcept' ...", 3.0's
    # first words without the advice, quoted alone; "cymj.pyx:65:55: Syntax error in C variable declaration"): which
    # check and where; the line, the column and the advice are each release's (a "warning: " line goes on)
    BareError(
        "cython-compile",
        (".pyx:", ".pxd:", ".pxi:", "Cannot assign type '"),
        _CYTHON,
        None,
        "compile_error",
        message=_cython,
    ),
    # a C compiler meeting a structure's member a Python release removed (3.12's PyLongObject without ob_digit), in
    # clang's and gcc's words, or a function whose arguments it changed (3.13's _PyLong_AsByteArray): which member of
    # which structure or which call, in which file where the line names one
    BareError(
        "c-missing-member",
        ("no member named", "too few arguments to function", "hat kein Element namens"),
        _MEMBER,
        None,
        "compile_error",
        message=_member,
    ),
    # numba's import-time check of NumPy posted without its ImportError ("Numba needs NumPy 2.1 or less. Got NumPy
    # 2.2.", alone or as a title): the check, in the words its class carries (the installed release is the run's)
    _environment(
        "numba-numpy",
        ("Numba needs NumPy ",),
        r"(?:^|(?<=[\s\"'`(]))(?:ImportError: )?(?P<msg>Numba needs NumPy \d{1,2}\.\d{1,3} or less)\b",
        "ImportError",
        message=lambda m: m["msg"],
    ),
    # CuPy not finding CUDA: its warning at import ("UserWarning: CUDA path could not be detected. Set CUDA_PATH
    # environment variable if CuPy fails to load.", a console may wrap it after "could") and its RuntimeError when it
    # needs the toolkit ("Failed to auto-detect CUDA root directory. Please specify `CUDA_PATH` ...", posted alone)
    _environment(
        "cupy-cuda-path",
        ("CUDA path could",),
        r"(?:^|(?<=[\s\"'`]))(?:UserWarning: )?CUDA path could(?: not be detected\b|\s?$)",
        "UserWarning",
        message=lambda m: "CUDA path could not be detected. Set CUDA_PATH environment variable if CuPy fails to load.",
        weak=True,
    ),
    _environment(
        "cupy-cuda-root",
        ("Failed to auto-detect CUDA root directory",),
        r"(?:^|(?<=[\s\"'`]))(?:RuntimeError: )?(?P<msg>Failed to auto-detect CUDA root directory)\b",
    ),
    # OpenMP's runtime telling of a call or variable a release deprecated ("OMP: Info #276: omp_set_nested routine
    # deprecated, please use omp_set_max_active_levels instead.", #270 in another release): which, not its number;
    # threadpoolctl's warning of Intel's and LLVM's runtimes loaded together; both go on, so weak
    _environment(
        "omp-deprecated",
        # (a log of only such lines may have "OMP: Info #N: " taken off as their tag)
        ("routine deprecated, please use", "variable deprecated, please use"),
        r"(?:^|OMP: Info #\d{1,4}: )(?P<what>\w{1,60} (?:routine|variable)) deprecated, please use",
        None,
        message=lambda m: f"OMP: {m['what']} deprecated",
        weak=True,
    ),
    _environment(
        "threadpoolctl-openmp",
        ("Found Intel OpenMP ('libiomp') and LLVM OpenMP ('libomp') loaded at",),
        r"Found Intel OpenMP \('libiomp'\) and LLVM OpenMP \('libomp'\) loaded at",
        "RuntimeWarning",
        message=lambda m: "Found Intel OpenMP ('libiomp') and LLVM OpenMP ('libomp') loaded at the same time",
        weak=True,
    ),
    # DeepSpeed's report of an op the machine cannot build (ds_report's " [WARNING]  sparse_attn requires a torch
    # version >= 1.5 but detected 2.0", "... requires CUDA version 10.1+, does not currently support >=11", "async_io
    # requires the dev libaio .so object and headers"): which op and what it requires; the versions are the machine's
    _environment(
        "deepspeed-op-requires",
        (" requires ",),
        r"^\s{0,2}\[WARNING\]\s{1,4}(?P<op>\w{1,40}) requires (?P<what>(?:a )?\w{1,20} version|the dev \w{1,20})\b",
        None,
        message=lambda m: f"DeepSpeed: {m['op']} requires {m['what']} the machine does not have",
        weak=True,
    ),
    # a free-threaded Python (3.13t) turning the GIL back on for an extension that has not declared it can run without
    # it ("<frozen importlib._bootstrap>:488: RuntimeWarning: The global interpreter lock (GIL) has been enabled to load
    # module 'onnxruntime.capi.onnxruntime_pybind11_state', which has not declared ...", a post may wrap it before the
    # module): which module; it goes on, so weak
    _environment(
        "gil-reenabled",
        ("The global interpreter lock (GIL) has been enabled to load",),
        r"The global interpreter lock \(GIL\) has been enabled to load(?: module '?(?P<mod>[\w.]{1,200}))?",
        "RuntimeWarning",
        message=lambda m: (
            "The global interpreter lock (GIL) has been enabled to load module" + (f" '{m['mod']}'" if m["mod"] else "")
        ),
        weak=True,
        below=_module_below,
    ),
    # PyO3's build script refusing the interpreter ("error: the configured Python interpreter version (3.13) is newer
    # than PyO3's maximum supported version (3.12)", "error: the Python interpreter was built with the GIL disabled,
    # which is not yet supported by PyO3"): which check, and which Pythons (3.13 is not 3.14)
    _environment(
        "pyo3-interpreter",
        ("is newer than PyO3's maximum supported version", "which is not yet supported by PyO3"),
        r"(?P<msg>the configured Python interpreter version \(\d\.\d{1,2}\) is newer than PyO3's maximum supported "
        r"version(?: \(\d\.\d{1,2}\)|$)|the Python interpreter was built with the GIL disabled, which is not yet "
        r"supported by PyO3)",
        None,
        message=lambda m: f"PyO3: {m['msg']}",
        below=_pyo3_maximum,
    ),
    # a build script calling a tool the machine does not have ("./build_bundled.sh: line 21: cmake: command not found",
    # sentencepiece's build without cmake): which tool (a shell's "command not found" of anything else stays the run's)
    _environment(
        "build-tool-missing",
        (": command not found",),
        r"^\S{1,200}: line \d{1,6}: (?P<tool>cmake|ninja|nvcc|gcc|g\+\+|cc|c\+\+|make|cargo|rustc|swig|bazel|protoc"
        r"|pkg-config): command not found",
        None,
        message=lambda m: f"{m['tool']}: command not found",
    ),
    # the loader refusing to map a library a build or a cache put where the machine does not let it execute (a noexec
    # /tmp: "cuda_utils.so: failed to map segment from shared object", Triton's cached launcher; cryptography's
    # "_rust.abi3.so: ..."), posted without its ImportError: which library, not its release or the unpacked copy's id
    # ("libpython3.8.so.1.0", snappy-java's "snappy-1.1.4-<uuid>-libsnappyjava.so")
    _environment(
        "map-segment",
        ("failed to map segment from shared object",),
        r"(?:^|(?<=[\s/`\"']))(?P<lib>[\w.+-]{1,200}\.so(?:\.\d{1,4}){0,3}): failed to map segment from shared object",
        "ImportError",
        message=lambda m: f"{_LIB_RELEASE.sub('', m['lib'])}: failed to map segment from shared object",
    ),
    # NumPy's advice when its C extensions fail to import (its ImportError's message, from "IMPORTANT: PLEASE READ THIS
    # FOR ADVICE ON HOW TO SOLVE THIS ISSUE!" on the line after the class), whose last line is the loader's words
    # ("Original error was: libf77blas.so.3: cannot open shared object file: No such file or directory"), also quoted
    # alone: what failed to load, as the loader says it
    _environment(
        "numpy-original-error",
        ("Original error was: ",),
        r"(?:^|(?<=[\s`'\"]))Original error was: (?P<msg>\S.{0,500}?)[`'\"]?\s*$",
        "ImportError",
    ),
]
