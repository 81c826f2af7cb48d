"""Toolchain and settings checks printed, not raised by a framework: the driver refusing PTX from a newer toolkit, NVRTC
not knowing the GPU's architecture, PyTorch's extension builder finding another
CUDA than PyTorch's, PyTorch's allocator refusing an option, a flag's value the flag parser of TensorFlow or XLA could
not read, TensorFlow's notice that XLA:CPU is off for want of its flag, and ROCm's rocBLAS and libdrm without
what the GPU needs. Pure. They take their place in
:data:`canary.signature.checks.ENVIRONMENT_ERRORS`; a check a program printed has no class, but for PyTorch's, which
it raises as ``RuntimeError``.
"""

from __future__ import annotations

import re

from canary.signature.ci_tools import CI_TOOL_CHECKS
from canary.signature.cmake import CMAKE_CHECKS
from canary.signature.companion_words import COMPANION_CHECKS
from canary.signature.extension_loads import EXTENSION_LOADS
from canary.signature.host_checks import HOST_CHECKS
from canary.signature.mlir import MLIR_CHECKS
from canary.signature.native_checks import NATIVE_CHECKS
from canary.signature.pyproject import PYPROJECT_CHECKS
from canary.signature.python_envs import PYTHON_ENV_CHECKS
from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment
from canary.signature.runners import NO_C_COMPILER
from canary.signature.thread_limits import THREAD_LIMIT_CHECKS

TOOLCHAIN_CHECKS: list[BareError] = [
    # CUDA's tools older than what they are given, in their own lines: nvlink ("nvlink fatal   : Input file
    # '/usr/local/cuda/lib64/libcudadevrt.a:cuda_device_runtime.o' newer than toolkit (129 vs 120)") and ptxas on a
    # PTX file ("ptxas /tmp/x.ptx, line 5; fatal   : Unsupported .version 8.6; current version is '8.4'"), as XLA's
    # wrapper of ptxas is read (not the driver's own JIT, "ptxas application ptx input, ..."): which tool is too old
    _environment(
        "nvlink-newer-input",
        ("newer than toolkit",),
        # (a terminal may wrap the line before the quoted file)
        r"^_?(?:nvlink fatal\s{0,4}: Input file )?'[^']{1,500}' newer than toolkit \(\d{2,4} vs \d{2,4}\)",
        None,
        message=lambda m: "nvlink fatal: an input file is newer than the toolkit",
    ),
    _environment(
        "ptxas-old",
        ("Unsupported .version",),
        r"^ptxas (?!application )\S{1,300}, line \d{1,6}; fatal\s{0,4}: Unsupported \.version [\d.]{1,10}; current "
        r"version",
        None,
        message=lambda m: "ptxas is older than the PTX it is given (Unsupported .version <version>)",
    ),
    *CMAKE_CHECKS,
    *MLIR_CHECKS,
    *COMPANION_CHECKS,
    *CI_TOOL_CHECKS,
    *THREAD_LIMIT_CHECKS,
    *PYPROJECT_CHECKS,
    # PyTorch's extension builder unable to read the compiler's version ("UserWarning: Error checking compiler version
    # for cl: 'utf-8' codec can't decode byte 0x8e in position 0: invalid start byte"): a compiler printing in a
    # Windows' language that is not UTF-8; which compiler and codec, not which byte, the program goes on
    _environment(
        "compiler-version",
        ("Error checking compiler version for",),
        r"Error checking compiler version for (?P<cc>[\w.+-]{1,60}): (?P<why>'[\w-]{1,20}' codec can't decode)?",
        "UserWarning",
        message=lambda m: f"Error checking compiler version for {m['cc']}: {m['why'] or 'unreadable'} its output",
        weak=True,
    ),
    # PyTorch's extension builder on the compiler and CUDA it finds: a compiler other than the one PyTorch was built
    # with ("Your compiler (c++) is not compatible with the compiler Pytorch was built with for this platform, which is
    # g++ on linux. ...", in a box of '!' that wraps it or not), one older than its ABI ("Your compiler (g++ 4.8.5) may
    # be ABI-incompatible with PyTorch!"), a CUDA it knows no g++ bounds for ("There are no g++ version bounds defined
    # for CUDA version 11.8"): which check, not which compiler or release (warnings the build goes on after; its "No
    # CUDA runtime is found" is not read, a build's own error after it in pip's output names the failure)
    BareError(
        "extension-compiler",
        ("is not compatible with the compiler Pytorch", "may be ABI-incompatible with PyTorch"),
        re.compile(
            r"Your compiler \([^)]{1,100}\) (?:(?P<other>is not compatible with the compiler Pytorch)|"
            r"may be ABI-incompatible with PyTorch)"
        ),
        "UserWarning",
        message=lambda m: (
            "Your compiler is not compatible with the compiler Pytorch was built with for this platform"
            if m["other"]
            else "Your compiler may be ABI-incompatible with PyTorch"
        ),
        weak=True,
    ),
    _environment(
        "extension-cuda",
        ("version bounds defined for CUDA version",),
        r"There are no \S{1,200} version bounds defined for CUDA",
        None,
        message=lambda m: "There are no g++ version bounds defined for the CUDA version",
        weak=True,
    ),
    # setuptools-scm's refusal written without its class ("setuptools-scm was unable to detect version for ..."): its
    # LookupError (installs.scm_path keeps the tree's path out)
    BareError(
        "scm-version",
        ("setuptools-scm was unable to detect version",),
        re.compile(r"^(?P<msg>setuptools-scm was unable to detect version for \S.{0,500})$"),
        "LookupError",
    ),
    # torch_xla without its runtime's configuration ("RuntimeError: .../computation_client.cc:280: Missing XLA
    # Configuration", a post's lower-case "Missing XLA configuration"): PyTorch's RuntimeError
    BareError(
        "xla-configuration",
        ("Missing XLA", "missing XLA"),
        re.compile(r"(?:^|(?<=[\s:`]))[Mm]issing XLA [Cc]onfiguration\b"),
        "RuntimeError",
        message=lambda m: "Missing XLA configuration",
    ),
    # FlashAttention 2 on a GPU older than Ampere, its check quoted in a sentence or set in bold without its class
    _environment(
        "flash-attn-gpu",
        ("FlashAttention only supports Ampere",),
        r"(?P<msg>FlashAttention only supports Ampere GPUs or newer)",
    ),
    # CUDA error 222 (cudaErrorUnsupportedPtxVersion), as each program's own check prints it ("CUDA error 222 at
    # <file>:<line>: ...", "Cuda failure: 222 ...", "Error in load module (<file>): ..."): a driver older than the
    # toolkit that wrote the PTX
    _environment(
        "ptx-toolchain",
        ("unsupported toolchain",),
        r"^(?!.{0,400}(?:INTERNAL: |CustomCall failed))(?:.{0,400}?)(?P<msg>the provided PTX was compiled with an "
        r"unsupported toolchain)",
        None,
    ),
    # NVRTC (a JIT in a program or an extension) asked for an architecture it does not know: a toolkit older than the
    # GPU
    _environment(
        "nvrtc-arch",
        ("--gpu-architecture",),
        r"(?P<msg>nvrtc: error: invalid value for --gpu-architecture \(-arch\))",
        None,
    ),
    # torch.utils.cpp_extension's check of the CUDA it found against PyTorch's, printed wrapped and without its class
    # ("The detected CUDA version (12.1) mismatches the version that was used to compile" / "PyTorch (11.8). ...")
    _environment(
        "torch-cuda-build",
        ("The detected CUDA version",),
        r"(?P<msg>The detected CUDA version \(\S{1,20}\) mismatches the version that was used to compile"
        r"(?:\s{1,40}PyTorch \(\S{1,20}\))?)",
        context=1,
    ),
    # TensorFlow's and XLA's flag parser: "Couldn't interpret value <value> for flag <flag>." (the value the run set)
    _environment(
        "flag-value",
        ("Couldn't interpret value",),
        r"Couldn't interpret value .{0,2000}? for flag (?P<flag>\w{1,100})",
        None,
        message=lambda m: f"Couldn't interpret the value of flag {m['flag']}",
    ),
    # PyTorch's caching allocator refusing an option of PYTORCH_CUDA_ALLOC_CONF this release does not know
    _environment(
        "alloc-conf",
        ("Unrecognized CachingAllocator option",),
        r"(?P<msg>Unrecognized CachingAllocator option: \w{1,80})",
    ),
    # TensorFlow's one-time notice that it will not JIT for the CPU for want of TF_XLA_FLAGS' flag: a run that asked
    # for XLA:CPU goes on without it (a warning: it names the failure only when nothing else does)
    _environment(
        "xla-cpu-off",
        ("Not using XLA:CPU",),
        r"(?P<msg>Not using XLA:CPU for cluster because envvar TF_XLA_FLAGS=--tf_xla_cpu_global_jit was not set)",
        None,
        weak=True,
    ),
    # XLA's CUDA plugins registered twice in one process (TensorFlow 2.14 on, its copy of XLA and another: "Unable to
    # register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
    # cuFFT's and cuBLAS' after it, later "computation placer already registered"): two builds linked together, which
    # a run often survives, so only when nothing else names the failure; which plugin's line a copy ends on is not it
    _environment(
        "factory-twice",
        ("when one has already been registered",),
        r"Unable to register \w{1,20} factory: Attempting to register factory for plugin \w{1,20} when one has "
        r"already been registered",
        None,
        message=lambda m: "Unable to register a CUDA plugin's factory: one has already been registered",
        weak=True,
    ),
    _environment(
        "placer-twice",
        ("computation placer already registered",),
        r"(?P<msg>computation placer already registered)",
        None,
        weak=True,
    ),
    # the CUDA runtime failing before XLA creates cuDNN's handle ("There was an error before creating cudnn handle
    # (500): cudaErrorSymbolNotFound : named symbol not found", 2023's "(302): cudaGetErrorName symbol not found."):
    # a runtime without a symbol the cuDNN or the plugin was built against; which error is kept. XLA goes on to fail
    # creating the handle, which names the failure where it is printed
    _environment(
        "cudnn-handle-runtime",
        ("error before creating cudnn handle",),
        r"There was an error before creating cudnn handle(?: \(\d{1,4}\))?: (?P<err>cudaError\w{1,60}|\w{1,60} symbol "
        r"not found)",
        "CUDAError",
        message=lambda m: f"There was an error before creating cudnn handle: {m['err']}",
        weak=True,
    ),
    # ROCm's rocBLAS without kernels for the GPU ("rocBLAS error: Cannot read <dir>/TensileLibrary.dat: No such file or
    # directory for GPU arch : gfx1036", "... Could not load <dir>/TensileLibrary_lazy_gfx1103.dat" then "Could not
    # initialize Tensile library"), or without a GPU ("Could not initialize Tensile host: No devices found", relayed by
    # a server as "error:Could not ..."): which check, and which architecture, are the failure; where ROCm is installed
    # is the machine's
    _environment(
        "rocblas-tensile",
        ("Tensile",),
        r"(?:rocBLAS error: ?|error:)(?:Cannot read .{0,500}?TensileLibrary\.dat: No such file or directory for "
        r"GPU arch : (?P<arch>\w{1,20})|(?P<host>Could not initialize Tensile host: No devices found)|"
        r"(?P<lib>Could not initialize Tensile library))",
        None,
        message=lambda m: (
            "rocBLAS error: "
            + (f"Cannot read TensileLibrary.dat for GPU arch {m['arch']}" if m["arch"] else m["host"] or m["lib"])
        ),
    ),
    # torch_xla's profiler naming ops it has no XLA lowering for, which run on the CPU ("pt-xla-profiler: Op(s) not
    # lowered: aten::multinomial,  Please open a GitHub issue ..."): a warning the run goes on after, slower; which op
    _environment(
        "xla-not-lowered",
        ("Op(s) not lowered: ",),
        r"Op\(s\) not lowered: (?P<ops>aten::[\w.]{1,100}(?:, ?aten::[\w.]{1,100}){0,20})",
        None,
        message=lambda m: f"torch_xla: op(s) not lowered to XLA: {m['ops']}",
        weak=True,
    ),
    # torch_xla choosing its runtime for a job that set none (2.0: "XRT configuration not detected. Defaulting to
    # preview PJRT runtime.", 2.1 and later: "PJRT is now the default runtime."), and its world-size API deprecated for
    # 2.7 ("torch_xla.core.xla_model.xrt_world_size() will be removed in release 2.7."): warnings the run goes on after
    _environment(
        "xla-runtime-default",
        ("XRT configuration not detected", "PJRT is now the default runtime", "will be removed in release "),
        r"(?P<xrt>XRT configuration not detected)|(?P<pjrt>PJRT is now the default runtime)|"
        r"torch_xla\.core\.xla_model\.(?P<api>\w{1,40})\(\) will be removed in release",
        None,
        message=lambda m: (
            "torch_xla: XRT configuration not detected, defaulting to PJRT"
            if m["xrt"]
            else "torch_xla: PJRT is now the default runtime"
            if m["pjrt"]
            else f"torch_xla: xla_model.{m['api']}() is deprecated"
        ),
        weak=True,
    ),
    # libdrm without AMD's table of GPU names, in a ROCm wheel run outside a ROCm install ("/opt/amdgpu/share/libdrm/
    # amdgpu.ids: No such file or directory"): printed, and the run goes on
    _environment(
        "amdgpu-ids",
        ("amdgpu.ids: No such file",),
        r"amdgpu\.ids: No such file or directory",
        None,
        message=lambda m: "libdrm: amdgpu.ids: No such file or directory",
        weak=True,
    ),
    # polars' check of the CPU's features before it loads a wheel built for more ("RuntimeWarning: Missing required CPU
    # features." then "The following required CPU features were not detected:" and, on the line below, "avx2, fma,
    # bmi1, ..."), after which the import dies of SIGILL: a wheel built for another x86-64 level than the CPU's; the
    # lowest level missing is the failure (the features a release lists are its own)
    _environment(
        "cpu-features",
        ("required CPU features were not detected",),
        r"The following required CPU features were not detected:",
        "RuntimeWarning",
        message=lambda m: "Missing required CPU features",
        below=lambda lines, i, said: f"{said}: {_x86_level(lines[i + 1 : i + 3])}",
    ),
    # a C compiler without the host's headers a compile on the fly needs (inductor's C++ backend, Triton's launcher):
    # clang without OpenMP on macOS ("fatal error: 'omp.h' file not found"), TinyCC's include path without Python's
    # ("error: include file 'Python.h' not found", then 'pyconfig.h'): the machine's toolchain; which header is the
    # failure, in no compiler's words (a package's build missing one is runners' c-header)
    _environment(
        "host-headers",
        ("file not found", "include file '"),
        r"(?:fatal error: |error: include file )'(?P<h>omp\.h|Python\.h|pyconfig\.h)'(?: file)? not found",
        None,
        message=lambda m: f"a compile on the fly: '{m['h']}' file not found",
    ),
    # a package built from source on a machine without the compiler it calls ("unable to execute 'x86_64-linux-gnu-gcc':
    # No such file or directory"; runners' spawn-missing reads setuptools' later words), Windows' "error: Microsoft
    # Visual C++ 14.0 is required" (later "or greater"), or given a file it does not have ("gcc: error: x/_mask.c: No
    # such file or directory", in the system's language too): which compiler or file is the failure, not pip's status
    _environment(
        "build-compiler",
        ("unable to execute '", "Microsoft Visual C++ 14.0", "error: "),
        r"unable to execute '(?P<cc>[\w.+-]{1,60})' ?: No such file or directory|"
        r"(?P<msvc>Microsoft Visual C\+\+ 14\.0) (?:or greater )?is required|"
        # (a log's fan-out prefix, "gcc-7: ", is taken off as a host's: the file is a source or a setting)
        r"^(?:(?:[\w.+-]{1,40}-)?g(?:cc|\+\+)(?:-\d{1,2})?: )?(?:error|错误)[:：] ?"
        r"(?P<file>[\w./+-]{1,300}\.(?:c|cc|cpp|cu|h)|[A-Z]{2,10}=[\w.+-]{1,60})[:：] ?"
        r"(?:No such file or directory|没有那个文件或目录)",
        None,
        message=lambda m: (
            NO_C_COMPILER
            if m["cc"]
            else "Microsoft Visual C++ 14.0 or greater is required"
            if m["msvc"]
            else f"gcc: error: {m['file'].rsplit('/', 1)[-1]}: No such file or directory"
        ),
    ),
    # OpenBLAS built with pthreads called inside an OpenMP loop ("OpenBLAS Warning : Detect OpenMP Loop and this
    # application may hang. Please rebuild the library with USE_OPENMP=1 option."): a warning the run may hang after
    _environment(
        "openblas-openmp-loop",
        ("Detect OpenMP Loop",),
        r"(?P<msg>OpenBLAS Warning : Detect OpenMP Loop and this application may hang)",
        None,
        weak=True,
    ),
    # OpenBLAS out of the memory regions its threads take ("BLAS : Program is Terminated. Because you tried to allocate
    # too many memory regions.", later "OpenBLAS : Program is Terminated. ..."), then the segmentation fault it ends
    # in: more threads than the build's NUM_THREADS, the environment's; the fault is named by its cause
    _environment(
        "openblas-memory-regions",
        ("too many memory regions",),
        r"(?:Open)?BLAS : Program is Terminated\. Because you tried to allocate too many memory regions",
        "SIGSEGV",
        message=lambda m: "OpenBLAS: Program is Terminated. Because you tried to allocate too many memory regions",
    ),
    # XLA on ROCm without ROCm's device library or linker where it looks ("bitcode module not found at ./opencl.bc",
    # 2023's "bitcode module is required by this HLO module but was not found at ./opencl.bc", "unable to find ld.lld in
    # PATH"): ROCM_PATH unset or a partial install; which tool is the failure
    _environment(
        "rocm-device-libs",
        ("opencl.bc", "unable to find ld.lld"),
        r"bitcode module (?:is required by this HLO module but was )?not found at \S{0,300}opencl\.bc|"
        r"(?P<lld>unable to find ld\.lld in PATH)",
        None,
        message=lambda m: (
            "XLA: " + ("unable to find ld.lld in PATH" if m["lld"] else "bitcode module not found: opencl.bc")
        ),
    ),
    # PyTorch built without a device's backend asked for it (" PyTorch is not linked with support for xpu devices",
    # a post's leading space kept): raised as RuntimeError
    _environment(
        "torch-not-linked",
        ("is not linked with support for",),
        r"(?P<msg>PyTorch is not linked with support for \w{1,20} devices)",
    ),
    # Ray Tune's warning that a function trainable takes no checkpoint argument ("Function checkpointing is disabled.
    # This may result in unexpected behavior ...", by release from function_runner.py or function_trainable.py)
    _environment(
        "tune-function-checkpointing",
        ("Function checkpointing is disabled",),
        r"(?P<msg>Function checkpointing is disabled)",
        None,
        weak=True,
    ),
    # libprotobuf's check of the runtime against what a C++ program was built with, fatal ("[libprotobuf FATAL
    # google/protobuf/stubs/common.cc:61] This program requires version 3.5.0 of the Protocol Buffer runtime library,
    # but the installed version is 2.6.1.", "This program was compiled against version 2.6.1 of the Protocol Buffer
    # runtime library, which is not compatible with the installed version (3.3.0)."), then std::terminate's what():
    # which way the runtime differs is the failure, the versions the machine's
    _environment(
        "libprotobuf-version",
        ("of the Protocol Buffer runtime",),
        r"This program (?P<how>requires version|was compiled against version) [\d.]{1,20} of the Protocol Buffer "
        r"runtime",
        None,
        message=lambda m: (
            "This program requires a newer Protocol Buffer runtime library than the one installed"
            if m["how"].startswith("requires")
            else "This program was compiled against a Protocol Buffer runtime library the installed one is not "
            "compatible with"
        ),
    ),
    # PyTorch's attention kernels missing from the build or the GPU, written without their class: c10's log line of
    # a build without flash attention ("[W914 ...sdp_utils.cpp:555] Warning: 1Torch was not compiled with flash
    # attention. (function operator ())", Python's UserWarning elsewhere; weak, it falls back), xformers' and torch's
    # memory-efficient kernel with none for the GPU ("cutlassF: no kernel found to launch!", a RuntimeError)
    _environment(
        "torch-flash-attention",
        ("was not compiled with flash attention",),
        r"(?P<msg>1?Torch was not compiled with flash attention)",
        "UserWarning",
        weak=True,
    ),
    BareError(
        "cutlass-no-kernel",
        ("no kernel found to launch",),
        re.compile(r"(?:^|(?<=\s))(?P<msg>cutlassF: no kernel found to launch)!?"),
        "RuntimeError",
    ),
    *HOST_CHECKS,
    *PYTHON_ENV_CHECKS,
    *NATIVE_CHECKS,
    *EXTENSION_LOADS,
]
# x86-64's levels by the features each adds, as the System V ABI names them
_LEVELS = (
    ("SSSE3 and SSE4 (x86-64-v2)", ("ssse3", "sse4.1", "sse4.2", "popcnt", "cmpxchg16b")),
    ("AVX2, FMA and BMI (x86-64-v3)", ("avx", "avx2", "fma", "bmi1", "bmi2", "lzcnt", "movbe", "f16c")),
    ("AVX-512 (x86-64-v4)", ("avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl")),
)


def _x86_level(below: list[str]) -> str:
    """The lowest x86-64 level whose features the lines under polars' check name as missing."""
    named = {w.strip(" ,`") for line in below for w in line.split(",")}
    return next((level for level, features in _LEVELS if named & set(features)), "unnamed")
