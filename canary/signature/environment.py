"""The wordings of one toolchain or environment check across releases, as one. Pure.

The rules ``environment``, ``jaxlib-version`` and ``versions`` of :data:`canary.signature.folds.RULES`
(where their reasons are stated) are these functions; the checks themselves are recognised by
:data:`canary.signature.mismatches.ENVIRONMENT_TEXT` and, printed rather than raised, by
:data:`canary.signature.checks.ENVIRONMENT_ERRORS`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from canary.signature import kinds, mismatches
from canary.signature.installs import library_home
from canary.signature.native_folds import LIBRARY_LOAD, library_load

Parts = tuple[str | None, str, list[str]]  # exception class, normalised message, call path

# One check of the toolchain or environment, in the words of each release, as one wording. Each entry: the wordings,
# and the one they take.
_TPU_IN_USE = (
    "ABORTED: The TPU is already in use by process with pid <n>. Not attempting to load libtpu.so in this process"
)
ENVIRONMENT: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    # cuDNN (or CUDA) older than the one jaxlib was built against: XLA's log line ("Loaded runtime CuDNN
    # library: 8.5.0 but source was compiled with: 8.6.0", and 2019's "7201 (compatibility version 7200)")
    # and jax's warning since 0.4.1x ("Found cuDNN version 8600, but JAX was built against version 8906",
    # of every CUDA library it checks: cuSOLVER, cuSPARSE, cuFFT, ...); XLA's line also says so of a cuDNN
    # newer than the build ("7201 ... compiled with 7004"): which way the versions differ is the failure
    (
        re.compile(
            r"^Loaded runtime CuDNN library: (\S{1,40}?)(?: \(compatibility version \S{1,20}\))? but source was "
            r"compiled with:? ([\d.]{0,20}\d)\b.*$"
        ),
        lambda m: f"cuDNN {m[1]} is {direction(m[1], m[2])} than the cuDNN {m[2]} jaxlib was built against",
    ),
    (
        re.compile(
            r"^Found (cu[A-Za-z]{2,10}|CUDA) version (\d{1,8}), but JAX was built against version (\d{1,8}), "
            r"which is newer\b.*$"
        ),
        r"\1 \2 is older than the \1 \3 jaxlib was built against",
    ),
    # a CUDA library older than jax needs, in 0.4.26's words ("Outdated cuSPARSE installation found." and the
    # versions under it): installed below the build is what 0.4.25 called "Found cuSPARSE version N, but JAX
    # was built against version M, which is newer"; installed at or above the build (below a minimum the
    # build itself set) is a build inconsistent with itself, and keeps its words
    (
        re.compile(
            r"^(Unable to use CUDA because of the following issues with CUDA components: Outdated (\w{1,20}) "
            r"installation found\.)(?: Version JAX was built against: (\d{1,8}) Minimum supported: \d{1,8} "
            r"Installed version: (\d{1,8}))?.*$"
        ),
        lambda m: (
            f"{m[2]} {m[4]} is older than the {m[2]} {m[3]} jaxlib was built against"
            if m[3] and _version(m[4]) < _version(m[3])
            else m[1]
        ),
    ),
    # a CUDA library jax cannot load: jaxlib's versions_helpers fails to ask it its version ("operation
    # cusparseGetProperty(MAJOR_VERSION, &major) failed: The cuSPARSE library was not found", "cufftGetVersion
    # (&version) failed: cuFFT internal error") and jax raises "Unable to load cuSPARSE. Is it installed?"
    # from it; a post cut inside the chain shows only the first, the whole chain ends on the second
    (
        re.compile(
            r"^(?:\S{0,300}versions_helpers\.cc:\S{1,10}: )?operation (cu[a-z]{2,10}?|cudnn)"
            r"Get(?:Version|Property)\(.*$"
        ),
        lambda m: f"Unable to load {_library(m[1])}. Is it installed?",
    ),
    # the TPU held by another process: libtpu's own line (2022; "already in used" in 2021) and the status
    # jax raises or logs (later), whose pid and advice a quote may elide ("with pid ..")
    (
        re.compile(
            r"^(?:libtpu\.so already in used? by another process|"
            r"ABORTED: The TPU is already in use by process with pid)\b.*$"
        ),
        _TPU_IN_USE,
    ),
    # the same on TPUs whose chips are VFIO groups (v5p, v6e; 2025-2026): "TPU initialization failed: open(/dev/
    # vfio/1): Device or resource busy" (the status jax raises, UNKNOWN or FAILED_PRECONDITION by release) and
    # libtpu's "Failed to initialize TPU system with error: FAILED_PRECONDITION: open(/dev/vfio/0): ...": busy
    # is held, and which chip of the host is incidental
    (
        re.compile(
            r"^(?:[A-Z_]{3,30}: )?(?:TPU initialization failed: )?"
            r"open\(/dev/vfio/\d{1,4}\): Device or resource busy\b.*$"
        ),
        _TPU_IN_USE,
    ),
    # the loader finding an installed library older than the one a build links, raised by Python's import or not
    # (checks.py's library-symbol), and a library cuDNN loads at run time missing (library-load)
    (
        re.compile(r"^.{0,300}?symbol \w{1,200} version (lib[\w+-]{1,60}\.so[\d.]{0,12}) not defined in file \1\b.*$"),
        r"a symbol version \1 the build links is not defined in the installed \1",
    ),
    (LIBRARY_LOAD, lambda m: library_load(m[1], m[2], m[3])),
    # XRT cannot open the TPU device (torch_xla 1.9-1.12, 2021-2022; another process or user holds it):
    # grpc_server_lib's "Invalid fd: -1; Couldn't open device: /dev/accel0 (Operation not permitted); ..."
    # and the CHECK of its server's status "(PERMISSION_DENIED: open(/dev/accel0): Operation not permitted ...)"
    (
        re.compile(r"^.{0,300}?/dev/accel\d{1,3}\)?:? \(?Operation not permitted\b.*$"),
        "Couldn't open the TPU device /dev/accel<n>: Operation not permitted",
    ),
    # ptxas too old for the GPU: the compiler's warning (which compute capability; "Used ptxas at <path>", its second
    # line, alone where a post is cut before the first) and the status XLA logs after it ("ptxas <its path> too old")
    (
        re.compile(
            r"^(?:UNIMPLEMENTED: ptxas \S{0,300} ?too old\. Falling back to the driver to compile|"
            r"Falling back to the CUDA driver for PTX compilation; ptxas does not support CC [\d.]{1,10}|"
            r"Used ptxas at \S{1,300})\.?$"
        ),
        "UNIMPLEMENTED: ptxas too old for this GPU: the driver compiles PTX",
    ),
    # ptxas older than XLA trusts: "You are using ptxas 9.0.176, which is older than 9.2.88. ptxas 9.x before
    # 9.2.88 is known to miscompile XLA code" (TensorFlow's XLA, 2019-2021) and "... which is older than 11.1"
    # (later): the version in use is the machine's, the minimum is the check's own and is kept (as "v9.2.88",
    # which the versions rule leaves: it masks the machine's versions)
    (
        re.compile(r"^You are using ptxas [\w.]{1,20}, which is older than (\d{1,3}(?:\.\d{1,4}){0,3})\b.*$"),
        r"You are using ptxas <version>, which is older than v\1",
    ),
    # ptxas older than XLA needs: "You are using ptxas 8.x, but TF requires ptxas 9.x" (2021; compiling fails)
    (
        re.compile(r"^You are using ptxas [\w.]{1,20}, but \w{1,20} requires ptxas [\w.]{1,20}\b.*$"),
        "ptxas <version> is older than the ptxas <version> XLA requires",
    ),
    # no ptxas at all: "Couldn't get ptxas version string: Internal: Couldn't invoke ptxas --version" and
    # "Failed to launch ptxas" (2021), "Couldn't find a suitable version of ptxas. The following locations
    # were considered: ..." (later)
    (
        re.compile(
            r"^(?:Couldn't get ptxas version string|Couldn't invoke ptxas|Couldn't find a suitable version of ptxas|"
            r"Failed to launch ptxas)\b.*$"
        ),
        "ptxas not found",
    ),
    # ptxas not found where TensorFlow's XLA looked ("Not found: ./bin/ptxas not found"): where is the machine's
    (re.compile(r"(?:\S{0,300}/)?\bptxas not found\b"), "ptxas not found"),
    # CUDA's libdevice not found: where XLA looked ("./libdevice.10.bc", a wheel's nvvm/libdevice/) is the
    # machine's layout; the file it needs is the failure
    (
        re.compile(r"\blibdevice not found at \S{0,300}?([\w.-]{0,40}libdevice[\w.-]{0,40}\.bc)\b.*$"),
        r"libdevice not found: \1",
    ),
    # the driver older than the PTX compiler: "ptxas CUDA version" (jaxlib 0.4.2x), "PTX compiler version" (later),
    # its version in parentheses or not (2025: "PTX compiler version 12.5.82."); a paste wrapped at a fixed
    # width may leave only the check's words ("0 which is older than the ptxas CUDA version (11.6.124)")
    (
        re.compile(
            r"^(?:The NVIDIA driver's CUDA version is [\d.]{1,20} )?which is older than the (?:ptxas CUDA|PTX "
            r"compiler) version (?:\([\d.]{1,20}\)|[\d.]{0,20}\d)\.?$"
        ),
        "The NVIDIA driver's CUDA version is <version> which is older than the PTX compiler version (<version>)",
    ),
    (re.compile(r"\b(?:ptxas CUDA|PTX compiler) version\b"), "PTX compiler version"),
    # cuInit failing: XLA's log line ("failed call to cuInit: CUDA_ERROR_SYSTEM_NOT_READY: system not yet
    # initialized", since 2024 with "INTERNAL: CUDA error: Failed call to cuInit: " between) and the CUDA
    # plugin's check ("<its source>: operation cuInit(0) failed: CUDA_ERROR_NO_DEVICE"); CUDA's error code is
    # which failure (no device, the system not ready, an unknown error), the words after it only spell it;
    # TensorFlow names a code it has no name for by its number ("UNKNOWN ERROR (303)"), 2015's two spaces
    (
        re.compile(
            r"^(?:\S{0,300}\.cc:\S{1,10}: )?(?:failed call to cuInit|operation cuInit\(\d{1,3}\) failed):\s{1,4}"
            r"(?:INTERNAL: CUDA error: Failed call to cuInit: )?"
            r"(?:(CUDA_ERROR_[A-Z_]{2,60})|UNKNOWN ERROR \((\d{1,5})\))(?:\b.*)?$"
        ),
        lambda m: f"cuInit failed: {m[1] or f'CUDA error {m[2]}'}",
    ),
    # a system library older than a binary was linked against ("/lib64/libm.so.6: version `GLIBC_2.23' not found
    # (required by <site-packages>/jaxlib/xla_extension.so)", libstdc++'s GLIBCXX_3.4.26 and CXXABI_1.3.8): where it
    # is, and which file needs it, are the machine's; the library, the version and whose copy it is (the system's,
    # an environment's own: conda's), which another fix mends, are the failure
    (
        re.compile(
            r"^(?:(\S{0,300})/)?(lib[\w.+-]{1,60}\.so[\d.]{0,12}): version "
            r"[`']((?:GLIBC(?:XX)?|CXXABI)_[\d.]{1,12})' not found\b.*$"
        ),
        lambda m: f"{m[2]}{library_home(m[1])}: version `{m[3]}' not found",
    ),
    # jax's setup refusing its Python ("ERROR: JAX requires Python 3.9 or newer, found (3, 8)"): which is the machine's
    (re.compile(r"^(?:ERROR: )?(JAX requires Python [\d.]{1,10}\d or newer)\b.*$"), r"\1"),
    # a GPU older than a dtype needs (vLLM's "Bfloat16 is only supported on GPUs with compute capability of at least
    # 8.0. Your Tesla T4 GPU has compute capability 7.5."): which GPU, and its capability, are the machine's
    (re.compile(r"^(Bfloat16 is only supported on GPUs with compute capability of at least [\d.]{1,6}\d)\b.*$"), r"\1"),
    # a library that is not installed: where it was looked for is the machine's ("Failed to open <a site-packages
    # path>/libtpu/libtpu.so: <again>: cannot open shared object file"); which library is the failure
    (
        re.compile(
            r"\bFailed to open (?:\S{0,300}/)?(lib[\w.+-]{1,100}\.so[\d.]{0,20}): (?:\S{0,300}/)?\1: (?=cannot open)"
        ),
        r"Failed to open \1: ",
    ),
    # ptxas older than the PTX it is given ("ptxas exited with non-zero error code 65280, output: ptxas /tmp/x,
    # line 5; fatal : Unsupported .version 8.4; current version is '8.3'", then its abort): which versions is
    # the machine's, and a post may be cut anywhere after the check's words
    (
        re.compile(
            r"\bptxas exited with non-zero error code \d{1,6}, output: ptxas \S{1,300}, line \S{1,10}; "
            r"fatal\s{0,4}: Unsupported \.version [\d.]{1,10}; current version is.*$"
        ),
        "ptxas is older than the PTX it is given (Unsupported .version <version>)",
    ),
    # nvlink older than what it links: "nvlink fatal : Input file '<tmp>.cubin' newer than toolkit (118 vs 117)",
    # the cubin's and nvlink's CUDA versions being the machine's
    (re.compile(r"\bnewer than toolkit \(\d{2,4} vs \d{2,4}\)"), "newer than toolkit (<version> vs <version>)"),
    # a platform asked for that the machine has none of: jaxlib's "Unknown backend gpu" (2020, its backends
    # by name) and jax's "Unknown backend: 'gpu' requested, but no platforms that are instances of gpu are
    # present. Platforms present are: cpu" (later): which platform was asked for is the failure, which are
    # there (cpu, interpreter) the machine's
    (
        re.compile(
            r"^Unknown backend:? '?(\w{1,20})'?(?: requested, but no platforms that are instances of \w{1,20} are "
            r"present\b.*)?$"
        ),
        r"Unknown backend '\1': no platform of it is present",
    ),
    # no accelerator backend, so the CPU: "No GPU/TPU found" (jax <= 0.4.1x) and "An NVIDIA GPU may be
    # present on this machine, but a CUDA-enabled jaxlib is not installed" (later), whose reason quoted
    # alone ("CUDA-enabled jaxlib is not installed") is the same warning
    # PyTorch's CUDA initialisation: CUDA's error code and its words, the advice before them dropped (a post
    # cut before the code keeps only that it failed)
    (
        re.compile(r"^Unexpected error from cudaGetDeviceCount\(\)\.(?P<rest>.*)$"),
        lambda m: (
            "cudaGetDeviceCount() failed" + (f": Error {c[1]}: {c[2]}" if (c := _CUDA_CODE.search(m["rest"])) else "")
        ),
    ),
    # PyTorch's check of the driver ("The NVIDIA driver on your system is too old (found version 11040). Please
    # update your GPU driver by downloading ... from the URL: http://...", raised, warned, or asserted by 2019's)
    (
        re.compile(r"^The NVIDIA driver on your system is too old \(found version [\w.]{1,20}\)\.?.*$"),
        "The NVIDIA driver on your system is too old (found version <version>)",
    ),
    # a Pallas kernel serialized by a jax newer than the libtpu that reads it ("Failed to deserialize the Mosaic
    # module: INTERNAL: Unsupported version: expected <= 7 but got 8"; a post may show the head alone)
    (
        re.compile(
            r"^(?:[A-Z_]{3,30}: )?Failed to deserialize the Mosaic module\b(?::.{0,100}?(Unsupported version))?.*$"
        ),
        lambda m: "Failed to deserialize the Mosaic module" + (f": {m[1]}" if m[1] else ""),
    ),
    # libtpu asking the TPU VM's metadata server for its configuration, answered with an HTTP error (the machine
    # is not a TPU VM, or its metadata lacks the TPU's), logged at INFO on each of its tries
    (
        re.compile(
            r"^Failed to fetch URL on try \d{1,3} out of \d{1,3}: Failed to fetch URL \(http status: (\d{3})\).*$"
        ),
        r"libtpu could not fetch the TPU VM's metadata (http status: \1)",
    ),
    # a wheel pip cannot install here: the package and the platform's family (macOS's on Linux is not manylinux's on
    # too old a glibc), not its version or its other tags (which Python, which glibc or macOS)
    (
        re.compile(
            r"^([A-Za-z][\w.]{0,100}?)-\d[\w.+!]{0,60}-[\w.+-]{0,200}?(?:-(manylinux|macosx|win|linux)[\w.]{0,60})?"
            r"\.whl is not a supported wheel on this platform\b.*$"
        ),
        lambda m: f"{m[1]} wheel is not a supported wheel on this platform" + (f" ({m[2]})" if m[2] else ""),
    ),
    (
        re.compile(r"^unsatisfied condition: cuda\s?>=\s?[\d.]{1,10}\d\b.*$"),
        "unsatisfied condition: cuda>=<version> (the driver is older than the image's CUDA)",
    ),
    # TensorFlow's two lines of one fallback to the CPU, either alone
    (
        re.compile(r"^(?:Cannot dlopen some GPU libraries|Skipping registering GPU devices)\b.*$"),
        "Cannot dlopen some GPU libraries: skipping registering GPU devices",
    ),
    (
        re.compile(r"^TPU backend initialization is taking more than [\d.]{1,10} seconds\b.*$"),
        "TPU backend initialization is taking more than <n> seconds",
    ),
    # jax's tpu_driver that cannot reach its TPU host: the status and that it failed (gRPC's detail after it
    # differs by release, and the address is the host's)
    (
        re.compile(r"^((?:[A-Z_]{3,30}: )?)Failed to connect to remote server at address: grpc://\S{1,300}.*$"),
        r"\1Failed to connect to remote server at address: grpc://<address>",
    ),
    (
        re.compile(
            r"^(?i:No GPU/TPU found, falling back to CPU|An? [\w ]{1,40} may be present on this machine, but "
            r".{1,200}?Falling back to cpu|\w{2,10}-enabled jaxlib is not installed)\.?$"
        ),
        "no GPU or TPU backend: falling back to CPU",
    ),
    # pip's two lines of one requirement no wheel meets (a post may keep either); a pin by "===" is one by "=="
    (re.compile(r"^Could not find a version that satisfies the requirement "), "No matching distribution found for "),
    (re.compile(r"^(No matching distribution found for [\w.-]{1,100})===(?=\S)"), r"\1=="),
]


# jax's names of the CUDA libraries it checks, by the prefix of their functions
_CUDA_CODE = re.compile(r"\bError (\d{1,4}): (.{1,300}?)(?: \(Triggered internally at .*)?[.\"'`]{0,3}$")

_LIBRARIES = {"cufft": "cuFFT", "cusolver": "cuSOLVER", "cusparse": "cuSPARSE", "cublas": "cuBLAS", "cudnn": "cuDNN"}


def _library(prefix: str) -> str:
    return _LIBRARIES.get(prefix, prefix[:2] + prefix[2:].upper())


def _version(text: str) -> tuple[int, ...]:
    """``8.6.0`` as (8, 6, 0); cuDNN's integers as the same: ``7201`` (major * 1000 + minor * 100 + patch
    before cuDNN 9) as (7, 2, 1), ``90100`` (major * 10000 + ..., since 9) as (9, 1, 0)."""
    if "." in text:
        return tuple(int(p) for p in text.split(".") if p.isdigit())
    n = int(text) if text.isdigit() else 0
    return (n // 10000, n // 100 % 100, n % 100) if n >= 10000 else (n // 1000, n // 100 % 10, n % 100)


def direction(runtime: str, built: str) -> str:
    return "newer" if _version(runtime) > _version(built) else "older"


# How jax prefixes a backend that failed to initialise: "Unable to initialize backend 'cuda': " (raised),
# "Backend 'cuda' failed to initialize: " (raised, later) and "CUDA backend failed to initialize: " (warned)
_BACKEND_HEAD = re.compile(
    r"^(?:Unable to initialize backend '\w{1,40}'|Backend '\w{1,40}' failed to initialize|"
    r"Requested backend \w{1,40}, but it failed to initialize|"
    r"\w{1,20} backend failed to initialize): "
)


# The fixed heads of checks whose words a post may cut mid-word ("ABORTED: The TPU is alr"): a message that
# is the start of one, past its first 20 characters, is that check (an excerpt's end is not a new failure)
_HEADS = (
    "ABORTED: The TPU is already in use by process with pid",
    "libtpu.so already in use by another process",
    "Couldn't find a suitable version of ptxas",
    "No GPU/TPU found, falling back to CPU",
)


def _whole(message: str) -> str:
    if len(message) < 20:
        return message
    return next((head for head in _HEADS if len(message) < len(head) and head.startswith(message)), message)


# the checks of tools that are not jax (an installer, a container runtime, a flag parser): a check only printed gets
# the class jax raises checks with, but these are no Python exception
_TOOLS = re.compile(
    r"^(?:could not select device driver|unsatisfied condition: cuda|No matching distribution found for "
    r"|Could not find a version that satisfies|\S{1,100}(?:\.whl| wheel) is not a supported wheel|MISCONF "
    r"|Requested \S{1,100} from \S{1,500} has inconsistent version|Unknown command line flag|Unknown flags in XLA_FLAGS"
    r"|(?:error: )?load library failed: |Unsupported gpu architecture|Failed to initialize NVML: |NVIDIA-SMI has failed"
    r"|This container was built for NVIDIA|Accessing retired flag|Custom call API version|conda: |Could not solve for"
    r"|Cloud TPU: |ctpu: |xFormers can't|uv: |pip: |deviceQuery: |Kubernetes: |nccl-tests: |bitsandbytes: |h5py: "
    r"|unable to lock file: |error: [\w-]{1,40}$|ERROR: (?:Could not build wheels|Command errored out)"
    r"|error: lib[\w.+-]{1,100}\.so[\d.]{0,12}: cannot open|Error: pg_config |ERROR: A GDAL API version)"
)


def fold(exc: str | None, message: str, frames: list[str]) -> Parts:
    message = _whole(message)
    if not mismatches.ENVIRONMENT_TEXT.search(message):
        return exc, message, frames
    inner = _BACKEND_HEAD.sub("", message)
    # (the backend's error, in Python's words, is of its own class: jax wraps it in a RuntimeError)
    wrapped = (
        kinds.words_class(inner) if inner != message and exc in ("RuntimeError", "EnvironmentMismatch", None) else None
    )
    message = inner
    for rx, repl in ENVIRONMENT:
        message = rx.sub(repl, message)
    if exc is None and _TOOLS.match(message):
        return None, message, frames  # a tool's failure (pip, Docker, the container hook, absl's flags): no class
    return wrapped or ("RuntimeError" if exc in ("EnvironmentMismatch", None) else exc), message, frames


# "8.6.0", "12.3.107", "0.54" and XXYY integers ("8600", "12010"): the versions an environment check names
_VERSION = re.compile(r"(?<![\w.<])(?:\d{1,3}(?:\.\d{1,4}){1,3}|\d{4,6})(?![\w.]\d|>)")


def versions(exc: str | None, message: str, frames: list[str]) -> Parts:
    if mismatches.ENVIRONMENT_TEXT.search(message):
        message = _VERSION.sub("<version>", message)  # (its last full stop is the full-stop rule's)
        # (a four-part version, jaxlib's 0.9.0.1 post-release, was masked as an address)
        message = message.replace("version <ip>", "version <version>")
    return exc, message, frames


# jax's check of the jaxlib it finds: ValueError up to jax 0.3, RuntimeError since, ">= " since 0.3; the
# versions are the environment's, the direction of the mismatch is the failure (a post may cut it after "jax")
_JAXLIB_OLD = re.compile(
    r"^jaxlib (?:is version|version is) [\w.+]{1,40},? but this version of jax(?: requires (?:version )?(?:>= )?"
    r"[\w.+]{1,40}| r[a-z]{0,7})?$"  # (or cut after its words: which version it requires is the machine's)
)
_JAXLIB_NEW = re.compile(r"^jaxlib version [\w.+]{1,40} is newer than and incompatible with jax version [\w.+]{1,40}\b")


def jaxlib(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc in ("ValueError", "RuntimeError") and message.startswith("jaxlib "):
        text = message.rstrip(".")
        if _JAXLIB_OLD.match(text):
            return "RuntimeError", "jaxlib is older than this version of jax requires", frames
        if _JAXLIB_NEW.match(text):
            return "RuntimeError", "jaxlib is newer than and incompatible with this version of jax", frames
    return exc, message, frames
