"""Toolchain and environment mismatches printed as a log line or a warning, not raised: their
recognisers (:data:`ENVIRONMENT_ERRORS`, tried before every other bare error), and jax's fallback to
the CPU. Pure. Their wording across releases is folded by :mod:`canary.signature.environment`.
"""

from __future__ import annotations

import re

from canary.signature.builds import BUILD_CHECKS
from canary.signature.containers import CONTAINER_CHECKS
from canary.signature.installs import INSTALL_CHECKS
from canary.signature.masks import STATUS_CODES
from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment
from canary.signature.runners import RUNNER_CHECKS
from canary.signature.toolchain_checks import TOOLCHAIN_CHECKS
from canary.signature.xla_alarms import XLA_NOTES

_CODES = "|".join(STATUS_CODES)
_CAPABILITY = re.compile(r"\bwhich is of cuda capability (\d{1,2}\.\d)")
_MINIMUM = re.compile(r"\bThe minimum cuda capability (?:that we support|supported by this library) is (\d{1,2}\.\d)")


def _capabilities(lines: list[str], i: int, message: str) -> str:
    """PyTorch's old-GPU warning with the GPU's capability (on its line or the one above) and the build's minimum
    (on its line or the two below), where the log shows them."""
    found = next((m[1] for ln in lines[max(0, i - 1) : i + 1] if (m := _CAPABILITY.search(ln))), None)
    least = next((m[1] for ln in lines[i : i + 3] if (m := _MINIMUM.search(ln))), None)
    # (as CUDA names architectures, "sm_21": a capability is which GPU, not a version to mask)
    arch = [
        f"the GPU is sm_{found.replace('.', '')}" if found else "",
        f"the build needs sm_{least.replace('.', '')} or newer" if least else "",
    ]
    said = ", ".join(w for w in arch if w)
    return f"{message} ({said})" if said else message


# Environment mismatches printed, not raised; a line that starts with a Python class is the
# python-exception recogniser's. Their wording across releases is folded by signature.folds.
ENVIRONMENT_ERRORS: list[BareError] = [
    _environment(
        "cudnn-version",
        ("CuDNN library:", "Found cu", "Found CUDA version"),
        r"(?P<msg>Loaded runtime CuDNN library: \S{1,40}(?: \(compatibility version \S{1,20}\))? but source was "
        r"compiled with:? [\d.]{0,20}\d|Found (?:cu[A-Za-z]{2,10}|CUDA) version \d{1,8}, but JAX was built against "
        r"version \d{1,8}, which is newer)",
    ),
    # "CUDA backend failed to initialize: <why>" (a warning: jax goes on with the CPU)
    _environment(
        "backend",
        ("backend failed to initialize: ",),
        r"^(?![A-Za-z_][\w.]{0,200}(?:Error|Exception): )(?:.{0,120}?\s)?"
        r"(?P<msg>\w{1,20} backend failed to initialize: .{1,1000})$",
        context=6,
    ),
    # "Unable to initialize backend 'cuda': <why>" as a line of its own: jax raising it for a backend it was
    # asked for (a backend jax only tried logs it as an INFO record, with the logger's prefix before it, and
    # goes on); a status after it is XLA's and read as one
    _environment(
        "backend-raised",
        ("Unable to initialize backend '",),
        r"^(?P<msg>Unable to initialize backend '\w{1,40}': (?!(?:" + _CODES + r"): ).{1,1000})$",
        at_info=False,
    ),
    # (an XLA status when the line gives its code: "INVALID_ARGUMENT: Unexpected PJRT_Client_Create_Args size")
    _environment(
        "pjrt-struct",
        ("PJRT_",),
        r"(?P<status>(?:" + _CODES + r"): )?(?P<msg>Unexpected PJRT_\w{1,80} size: expected \d{1,6}, got \d{1,6}\."
        r".{0,300}?)\.?$",
        lambda m: "XlaRuntimeError" if m["status"] else "RuntimeError",
    ),
    _environment(
        "tpu-in-use",
        ("libtpu.so already in use",),
        r"(?P<msg>libtpu\.so already in used? by another process.{0,400})$",
        "XlaRuntimeError",
    ),
    # jax on the CPU for want of a backend; its reason quoted alone ("CUDA-enabled jaxlib is not installed") too
    _environment(
        "fallback",
        ("alling back to CPU", "alling back to cpu", "-enabled jaxlib is not installed"),
        r"(?P<msg>(?i:No GPU/TPU found, falling back to CPU|An? [\w ]{1,40} may be present on this machine, but "
        r".{1,200}?Falling back to cpu)|\b\w{2,10}-enabled jaxlib is not installed)",
        weak=True,
    ),
    _environment(
        "ptxas-cc",
        ("ptxas does not support CC", "Used ptxas at "),
        # (XLA logs "Used ptxas at <path>" only as the second line of this warning: a post cut before the
        # first still shows it)
        r"(?P<msg>Falling back to the CUDA driver for PTX compilation; ptxas does not support CC [\d.]{1,10}|"
        r"^Used ptxas at \S{1,300}$)",
    ),
    _environment(
        "ptxas-old",
        ("You are using ptxas",),
        r"(?P<msg>You are using ptxas [\d.]{1,20}, which is older than [\d.]{1,10})",
        weak=True,
    ),
    # ptxas older than XLA needs, or not there: XLA's compile that follows fails (an abort, mostly)
    _environment(
        "ptxas-required",
        ("requires ptxas",),
        r"(?P<msg>You are using ptxas [\w.]{1,20}, but \w{1,20} requires ptxas [\w.]{1,20}\w)",
    ),
    _environment(
        "ptxas-missing",
        ("ptxas version string", "invoke ptxas", "suitable version of ptxas", "launch ptxas"),
        r"(?P<msg>Couldn't get ptxas version string|Couldn't invoke ptxas|Couldn't find a suitable version of "
        r"ptxas|Failed to launch ptxas)",
    ),
    # the compiler's version in parentheses or not; a paste wrapped at a fixed width may cut off the driver's
    _environment(
        "driver-ptxas",
        ("older than the ptxas", "older than the PTX compiler"),
        r"(?P<msg>(?:The NVIDIA driver's CUDA version is [\d.]{1,20} )?which is older than the (?:ptxas CUDA|PTX "
        r"compiler) version (?:\([\d.]{1,20}\)|[\d.]{0,20}\d))",
        weak=True,
    ),
    # cuInit failing, in XLA's words or the CUDA plugin's (folded by signature.environment): jax goes on
    # without the GPU (a warning); the words "INTERNAL: CUDA error: " between are not a status
    _environment(
        "cuinit",
        ("cuInit",),
        r"(?P<msg>(?:failed call to cuInit|operation cuInit\(\d{1,3}\) failed):\s{1,4}"
        r"(?:INTERNAL: CUDA error: Failed call to cuInit: )?"
        r"(?P<code>CUDA_ERROR_[A-Z_]{2,60}|UNKNOWN ERROR \(\d{1,5}\)))",
        weak=True,
    ),
    _environment(
        "ptx-target",
        ("does not support target",),
        r"(?P<msg>PTX version [\d.]{1,10} does not support target '\w{1,20}')",
    ),
    # jax's check of its jaxlib anywhere in a line: after the raise statement a paste joined to it, under a
    # class retyped by hand ("Runtime error:  jaxlib version is 0.1.69 but this version of jax requires 0.3.14.")
    _environment(
        "jaxlib-older",
        ("but this version of jax requires",),
        r"(?P<msg>jaxlib (?:is version|version is) [\w.+]{1,40},? but this version of jax requires (?:version )?"
        r"(?:>= )?[\w.+]{0,40}\w)",
    ),
    # jax's cloud TPU set-up failing before a backend exists, warned with the exception's repr
    # ('cloud_tpu_init failed: AttributeError("module \'libtpu\' has no attribute \'get_library_path\'")'):
    # the exception is the failure (a libtpu that does not match its jax); a post may cut the repr short
    _environment(
        "cloud-tpu-init",
        ("cloud_tpu_init failed: ",),
        r"cloud_tpu_init failed: (?P<cls>[A-Za-z_]\w{0,60}(?:Error|Exception))\((?P<q>[\"'])"
        r"(?P<msg>(?:(?!(?P=q)\)).){1,500})",
        lambda m: m["cls"],
        weak=True,
    ),
    # a libtpu older than the TensorFlow or jaxlib that loads it lacks a symbol, and the process aborts on
    # it ("F ...tpu_library_init_fns.inc:34] TpuEmbeddingEngineState_Create not available in this library.")
    _environment(
        "tpu-symbol",
        (" not available in this library",),
        r"\b(?P<symbol>[A-Z]\w{2,100})`? not available in this library\.",  # (a post's backticks round the symbol)
        "SIGABRT",
        message=lambda m: f"{m['symbol']} not available in this library.",
    ),
    # the TPU's device file refused to the process (a container without it, another user's): libtpu's "Couldn't open
    # device: /dev/accel0 (Operation not permitted)", the line the environment rule folds its other wordings to
    _environment(
        "tpu-device",
        ("Couldn't open device: /dev/accel",),
        r"(?P<msg>Couldn't open device: /dev/accel\d{1,3} \(Operation not permitted\))",
        "XlaRuntimeError",
    ),
    # the driver older than the toolkit whose code XLA links ("cuLinkAddData fails. This is usually caused by
    # stale driver version."); XLA then raises that the CUDA linking API did not work
    _environment(
        "stale-driver",
        ("stale driver",),
        r"(?P<msg>cuLinkAddData fails\. This is usually caused by stale driver version)",
        "XlaRuntimeError",
    ),
    # jax asked for a platform the machine has none of ("Unknown backend: 'gpu' requested, but no platforms
    # that are instances of gpu are present. Platforms present are: cpu"), printed without its class
    _environment(
        "unknown-backend",
        ("Unknown backend",),
        r"^(?P<msg>Unknown backend:? '?\w{1,20}'? requested, but no platforms that are instances of .{1,400})$",
    ),
    # jax's check of a PJRT plugin against its jaxlib, a warning ("RuntimeWarning: JAX plugin jax_cuda12_plugin
    # version 0.9.2 is installed, but it is not compatible with the installed jaxlib version 0.9.0.1"): jax goes
    # on without the plugin's backend; a paste may break the line after "is installed, "
    _environment(
        "plugin-jaxlib",
        ("JAX plugin ",),
        r"(?P<msg>JAX plugin \w{1,60} version [\w.+]{1,40} is installed,(?: but it is not compatible with the "
        r"installed jaxlib version [\w.+]{0,40}\w)?)",
        "RuntimeWarning",
        context=1,
    ),
    # jax-metal built for a newer macOS than the machine's: its MLIR names the MPS dialect the OS cannot read
    # ('loc("-":0:0): error: current mps dialect version is 1.0.0, can't parse version 1.1.0'), then aborts
    _environment(
        "mps-dialect",
        ("mps dialect version",),
        r"(?P<msg>current mps dialect version is [\d.]{1,20}, can't parse version [\d.]{1,20}\d)",
    ),
    # PyTorch's CUDA initialisation failing (a warning, "UserWarning: CUDA initialization: <why>", as "Unexpected
    # error from cudaGetDeviceCount(). Did you run some cuda functions before ...? Error 804: forward compatibility
    # was attempted on non supported HW", then the program on the CPU, or the same words raised as a RuntimeError):
    # CUDA's error code is which failure (802 the fabric manager, 804 forward compatibility, 805 the MPS daemon)
    _environment(
        "torch-cuda-init",
        ("cudaGetDeviceCount", "CUDA initialization: "),
        r"^(?![\"'`]?[A-Za-z_][\w.]{0,200}(?:Error|Exception): ).{0,400}?"
        r"(?:CUDA initialization: )?(?P<msg>Unexpected error from cudaGetDeviceCount\(\)\..{0,600}|"
        r"(?<=CUDA initialization: )\S.{0,600})$",
        weak=True,
    ),
    # TensorFlow without the GPU libraries it was built against ("Cannot dlopen some GPU libraries. Please make
    # sure the missing libraries mentioned above are installed properly ...", then "Skipping registering GPU
    # devices..."): it goes on with the CPU, jax's fallback in TensorFlow's words
    _environment(
        "tf-skip-gpu",
        ("Cannot dlopen some GPU libraries", "Skipping registering GPU devices"),
        r"(?P<msg>Cannot dlopen some GPU libraries|Skipping registering GPU devices)",
        weak=True,
    ),
    # (TensorFlow 2.13's stub for a machine without the driver, "I .../cudart_stub.cc:28] Could not find cuda drivers
    # on your machine, GPU will not be used.", and TF-TRT's "TF-TRT Warning: Could not find TensorRT": it goes on)
    _environment(
        "tf-no-driver",
        ("Could not find cuda drivers on your machine",),
        r"(?P<msg>Could not find cuda drivers on your machine, GPU will not be used)",
        weak=True,
    ),
    _environment(
        "tf-trt", ("Could not find TensorRT",), r"(?P<msg>TF-TRT Warning: Could not find TensorRT)", weak=True
    ),
    # libtpu's tries to read the TPU VM's metadata, answered with an HTTP error, logged at INFO ("Failed to fetch URL
    # on try 6 out of 6: Failed to fetch URL (http status: 404) No error"): what libtpu tried before it gave up
    _environment(
        "tpu-metadata",
        ("Failed to fetch URL on try",),
        r"(?P<msg>Failed to fetch URL on try \d{1,3} out of \d{1,3}: Failed to fetch URL \(http status: \d{3}\))",
        weak=True,
        at_info=True,
    ),
    # jax's warning that the TPU backend has not started after a minute ("TPU backend initialization is taking
    # more than 60.0 seconds. Did you run your code on all TPU hosts?"): a host of the slice not running the
    # program, or libtpu waiting on the metadata server; a crash that follows is its own failure
    _environment(
        "tpu-init-slow",
        ("TPU backend initialization is taking",),
        r"(?P<msg>TPU backend initialization is taking more than [\d.]{1,10} seconds)",
        "UserWarning",
        weak=True,
    ),
    # the container runtime without the GPU the job asks for: Docker with no NVIDIA runtime ('could not select
    # device driver "" with capabilities: [[gpu]]'), the NVIDIA container hook's driver older than the image's CUDA
    # ("requirement error: unsatisfied condition: cuda>=12.8, please update your driver ..."): the tool's, no class
    _environment(
        "container-gpu",
        ("could not select device driver", "unsatisfied condition: cuda"),
        r"(?P<msg>could not select device driver \S{0,40} with capabilities: \[(?:\[gpu\])?\]|"
        r"unsatisfied condition: cuda\s?>=\s?[\d.]{1,10}\d)",
        None,
    ),
    # the NVIDIA driver as nvidia-smi finds it: one release's kernel module under another's user-space library after
    # an upgrade without a reboot ("Failed to initialize NVML: Driver/library version mismatch"), a container that lost
    # its devices ("... Unknown Error"), no driver loaded ("NVIDIA-SMI has failed because it couldn't communicate with
    # the NVIDIA driver. ..."), no GPU to drive ("No devices were found", alone or quoted): the tool's, no class
    _environment(
        "nvml",
        ("Failed to initialize NVML", "NVIDIA-SMI has failed", "No devices were found"),
        r"(?P<msg>Failed to initialize NVML: (?:Driver/library version mismatch|Unknown Error|[A-Z][\w /-]{2,60}\w)|"
        r"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver|"
        r"(?:^|(?<=[\"'`\u201c]))No devices were found\b)",
        None,
    ),
    # pip installing the stack: no wheel of a pinned jaxlib or libtpu for this machine ("No matching distribution
    # found for jaxlib==0.4.25+cuda12.cudnn89", "Could not find a version that satisfies the requirement ...",
    # "jaxlib-0.1.55-cp38-none-manylinux2010_x86_64.whl is not a supported wheel on this platform.") or a wheel
    # whose metadata names another version ("Requested libtpu-nightly==0.1.dev20240729 from https://... has
    # inconsistent version: expected ..."): the installer's, no class
    _environment(
        "pip",
        (
            "atching distribution found for ",
            "Could not find a version that satisfies",
            "is not a supported wheel",
            "has inconsistent version",
        ),
        # (a requirement ends where a post's quote or pip's marker ("; extra == ...") does)
        r"(?P<msg>No [Mm]atching distribution found for [^\s\"'`;]{1,200}|Could not find a version that satisfies the "
        r"requirement [^\s\"'`;]{1,200}|[\w.+-]{1,200}\.whl is not a supported wheel on this platform|"
        r"Requested [\w.-]{1,100}==\S{1,100} from \S{1,500} has inconsistent version)",
        None,
    ),
    # a flag the library does not know: absl's ("ERROR: Unknown command line flag 'xla_latency_hiding_scheduler_rerun'",
    # torch_xla setting a flag its libtpu is too old for) and XLA's ("Unknown flags in XLA_FLAGS: --xla_tpu_...", or a
    # flag typed with an en dash, which no XLA parses)
    # (and a flag a newer release retired: "ERROR: Accessing retired flag 'jax_enable_async_collective_offload'")
    _environment(
        "unknown-flag",
        ("Unknown command line flag", "Unknown flags in XLA_FLAGS", "Accessing retired flag"),
        # (not absl's Python refusing a program's own flags before main, "FATAL Flags parsing error: ...": words.py)
        r"(?<!FATAL Flags parsing error: )"
        r"(?P<msg>Unknown command line flag '[\w.-]{1,200}'|Unknown flags in XLA_FLAGS: -{0,2}[\w.\u2013-]{1,200}|"
        r"Accessing retired flag '[\w.-]{1,200}')",
        None,
    ),
    # Cloud TPU's tools refusing the TensorFlow version or image a TPU is created with: the API's field check
    # ('googleapi: Error 400: Cloud TPU received an invalid argument. The field "TensorflowVersion" cannot be "2.4".'),
    # ctpu's ('"2.1" TensorFlow version not available; to see available versions, execute ctpu tf-versions', "could
    # not create GCE Instance without a base image"): which check; the version asked is the job's
    _environment(
        "tpu-version",
        ("TensorflowVersion", "TensorFlow version not available", "without a base image"),
        r"(?P<field>The field \"TensorflowVersion\" cannot be)|(?P<ctpu>TensorFlow version not available)|"
        r"(?P<image>could not create GCE Instance without a base image)",
        None,
        message=lambda m: (
            "Cloud TPU: the TensorflowVersion field cannot be the version asked"
            if m["field"]
            else "ctpu: TensorFlow version not available"
            if m["ctpu"]
            else "ctpu: could not create GCE Instance without a base image"
        ),
    ),
    # XLA refusing a custom call registered with an API version it dropped ("Custom call API version
    # `API_VERSION_STATUS_RETURNING` is not supported by XLA:CPU. Prefer https://docs.jax.dev/en/latest/ffi.html. ...
    # Custom call target: mpi_allreduce"): a library built for an older XLA; which version, which backend
    _environment(
        "custom-call-api",
        ("Custom call API version",),
        r"(?P<msg>Custom call API version `?\w{1,60}`? is not supported by [\w:]{1,20})",
        None,
        message=lambda m: m["msg"].replace("`", ""),
    ),
    # PyTorch's check of the GPU against the architectures its build holds ("NVIDIA GeForce RTX 5090 with CUDA
    # capability sm_120 is not compatible with the current PyTorch installation.", a warning: kernels then fail
    # with "no kernel image"); the GPU's name is the machine's, its capability the failure
    _environment(
        "torch-capability",
        ("is not compatible with the current PyTorch",),
        r"(?P<msg>CUDA capability sm_\d{1,4} is not compatible with the current PyTorch installation)",
        "UserWarning",
        weak=True,
    ),
    # PyTorch's check of a GPU older than its build supports ("Found GPU0 GeForce 820M which is of cuda capability
    # 2.1. PyTorch no longer supports this GPU because it is too old.", later with "The minimum cuda capability that
    # we support is 3.5.", then "... supported by this library is 3.7."): the "no kernel image" after it is its doing;
    # the GPU's capability and the release's minimum tell one GPU too old from another
    _environment(
        "torch-old-gpu",
        ("no longer supports this GPU",),
        r"(?P<msg>PyTorch no longer supports this GPU because it is too old)",
        "UserWarning",
        below=_capabilities,
    ),
    # a profiler without the CUPTI it traces with: PyTorch's warning that it falls back ("UserWarning: CUPTI tracing is
    # not available, falling back to legacy CUDA profiling"), and a PJRT plugin without the layouts extension its
    # client asks for (jax-metal: "PJRT_Layouts_Extension is not found when PjRtCApiBuffer::layout is called")
    _environment(
        "cupti-fallback",
        ("CUPTI tracing is not available",),
        r"(?P<msg>CUPTI tracing is not available, falling back to legacy CUDA profiling)",
        "UserWarning",
        weak=True,
    ),
    _environment(
        "pjrt-extension",
        ("_Extension is not found",),
        r"(?P<msg>PJRT_\w{1,60}_Extension is not found)\b",
        None,
        weak=True,
    ),
    _environment(
        "jaxlib-newer",
        ("is newer than and incompatible",),
        r"^(?P<msg>jaxlib version \S{1,40} is newer than and incompatible with jax version [\w.+]{0,40}\w)",
    ),
    *BUILD_CHECKS,
    *CONTAINER_CHECKS,
    *INSTALL_CHECKS,
    *TOOLCHAIN_CHECKS,
    *RUNNER_CHECKS,
    *XLA_NOTES,
]


_FALLBACK = next(b for b in ENVIRONMENT_ERRORS if b.name == "env-fallback").pattern


def cpu_fallback(text: str) -> str | None:
    """jax's warning that it fell back to the CPU, as the log printed it, or None (one substring
    scan of the whole log when it has none)."""
    if "alling back to" not in text and "ALLING BACK TO" not in text:
        return None
    m = _FALLBACK.search(text)
    return m.group("msg") if m else None
