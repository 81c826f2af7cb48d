"""The rules that fold one failure's drift across releases into one identity. Pure.

A signature's parts are first taken as they always were (:mod:`~canary.signature.masks`,
:mod:`~canary.signature.tracebacks`); the rules here then fold what a JAX, jaxlib, XLA or NCCL
release, a wrapper or a cut excerpt changes about the same failure. Every rule reads only those
parts (class, normalised message, call path), so a signature recorded before a rule existed can
be folded again from its record (:func:`canary.signature.identity.current`) and land on the same
identity as a new one; the fingerprint it had before is kept beside it (``legacy``). Each rule is
stated once, in :data:`RULES`, with the reason it is safe; what most of them do is in
:mod:`~canary.signature.rewordings` (of statuses and messages) and :mod:`~canary.signature.environment`
(of toolchain checks).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from canary.signature import environment, jax_words, kinds, libraries, pythons, rewordings, tracebacks

Parts = tuple[str | None, str, list[str]]  # exception class, normalised message, call path


@dataclass(frozen=True)
class Rule:
    name: str
    reason: str
    apply: Callable[[str | None, str, list[str]], Parts]


# compile_error, runtime_crash and timeout of one exception: which one depends on whether the excerpt shows
# the compile frames, or on a release's words ("heartbeat timeout" for "stopped sending heartbeats")
ERROR_KINDS = ("compile_error", "runtime_crash", "timeout", "environment")


def kind_key(kind: str, exception: str | None) -> str:
    """The kind as the fingerprint knows it (see the ``kind`` rule)."""
    return "error" if exception and kind in ERROR_KINDS else kind


RULES: tuple[Rule, ...] = (
    Rule(
        "framing",
        "pytest's 'E   ' lines, IPython's 'Cell In[n]' and '---->' frames, markdown quotes and fences, an exception "
        "group's borders are how a reporter or runner framed the log, taken off each line (signature.lines) first",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "wrappers",
        "jax prints the exception it raises inside a wrapper of its traceback (FilteredStackTrace in 0.2, "
        "UnfilteredStackTrace and SimplifiedTraceback later); the wrapped class and message are the failure, "
        "read so (signature.tracebacks) before the parts exist",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "generic-head",
        "jax's concretization error up to 0.4.1x opens with a sentence all of them share and says where "
        "it arose in the next paragraph ('The error arose in jax.numpy.reshape.'); that line is read into "
        "the message (tracebacks.detail_after), or two programs' bugs would be one",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "environment",
        "one toolchain check (a CUDA library older than the build, TPU in use, ptxas or a platform missing, a driver "
        "too old, CUDA init failing, a fallback to CPU, a TPU backend slow or unreachable) is a log line in one "
        "release, a warning or exception in another; where a file was looked, or a cut, is not it",
        environment.fold,
    ),
    Rule(
        "status-class",
        "JAX re-raises one XLA status error as XlaRuntimeError, JaxRuntimeError, ValueError or "
        "RuntimeError by release and caller, TensorFlow as the class named after its code "
        "(ResourceExhaustedError); the status-coded message is the failure",
        rewordings.status_class,
    ),
    Rule(
        "source-location",
        "some builds prepend where the status was made (XLA's 'nccl_utils.cc:<line>: ', c10's '[enforce fail at "
        "<file>:<line>] data. ', vLLM's 'Error in model execution (input dumped to <file>): '), TensorFlow's its task, "
        "XLA:TPU 'Compilation failure: ', XLA:GPU 'CustomCall failed: '; the words after are it",
        rewordings.source_location,
    ),
    Rule(
        "failed-check",
        "torch_xla raises its runtime's failed CHECK as a RuntimeError whose message is the check ('<file>.cc:<line> : "
        "Check failed: ...'), the runtime logs it bare (and aborts); the check is the failure, as CheckFailed",
        rewordings.failed_check,
    ),
    Rule(
        "coordination",
        "JAX's coordination service rewords its barrier, RegisterTask and heartbeat timeouts "
        "between releases (Barrier_id/Id, counters, the gRPC text); the barrier or step that timed out is kept",
        rewordings.coordination,
    ),
    Rule(
        "backend",
        "jax raises a backend's failed initialisation as 'Unable to initialize backend ...: <status>' (earlier "
        "'Backend 'x' failed to initialize: ', 'Requested backend x, but it failed to initialize: ') and logs the "
        "bare status otherwise; the status (or the wrapped error, in Python's words) is the failure",
        rewordings.backend,
    ),
    Rule(
        "nccl-status",
        "XLA's 'NCCL operation ... failed' is an INTERNAL status, printed bare by one log and as "
        "'INTERNAL: ...' by another; the call's argument expressions are XLA's source, which releases rewrite",
        kinds.nccl_status,
    ),
    Rule(
        "cuda-runtime",
        "XLA since 2025 says 'CUDA Runtime error: [0] ' before a failed CUDA call and its error code before its "
        "words; PyTorch 1.x 'cuda runtime error (35) : <words> at <file>:<line>', later 'CUDA error: <words>'; "
        "jaxlib's 'cudaGetLastError()' is 'gpuGetLastError()' later: the words are the failure",
        rewordings.cuda_runtime,
    ),
    Rule(
        "nccl-result",
        "NCCL words one result as 'NCCL Error 1: unhandled cuda error' in older releases and "
        "'ncclUnhandledCudaError: Call to CUDA function failed.' in later ones; PyTorch's 'NCCL error in: "
        "<its source>, <result>, NCCL version <v>' names the result among where it was seen and which NCCL",
        kinds.nccl_result,
    ),
    Rule(
        "advice",
        "advice a release adds (NCCL_DEBUG, 'Look at the errors above', JAX_PLATFORMS, uninstalling a plugin, "
        "filing a bug, protobuf's _pb2.py, PyTorch's asynchronous CUDA errors), and an NCCL last warning that repeats "
        "the error, say nothing of the failure",
        rewordings.advice,
    ),
    Rule(
        "jaxlib-version",
        "jax says its jaxlib is too old with a ValueError up to 0.3 and a RuntimeError since "
        "(adding '>='), a person retyping it as 'jaxlib version is'; the versions named are the environment's, "
        "which way they mismatch is the failure",
        environment.jaxlib,
    ),
    Rule(
        "import-wrapper",
        "a lazy module (transformers', diffusers', EasyDeL's) raises the import error it caught as a RuntimeError "
        "'Failed to import X because of the following error ...: <it>'; that error, by Python's words, is the failure",
        kinds.import_wrapper,
    ),
    Rule(
        "mosaic-layout",
        "Mosaic rewords by release: a layout check 'does not match MLIR layout: expected A, got B', later 'XLA "
        "layout (A) does not match Mosaic layout (B)'; 2023's 'Failed to compile a Mosaic module: ... op X' is "
        "'Mosaic failed to compile TPU kernel: X', later with ' in this target' or its pass first",
        kinds.mosaic_wording,
    ),
    Rule("device", "which chip of a slice ran out of HBM differs from run to run", rewordings.device),
    Rule(
        "torch-oom",
        "PyTorch words running out of GPU memory by release ('... cached)' in 1.x, '... reserved in total by PyTorch' "
        "with advice later, torch.cuda.OutOfMemoryError's 'GPU 0 has a total capacity of ...' in 2.x); the figures "
        "are the run's: that it ran out is the failure",
        rewordings.torch_oom,
    ),
    Rule(
        "tf-oom",
        "TensorFlow's OOM names the tensor that tipped it by shape, which the batch decides, as jax's names its bytes",
        rewordings.tf_oom,
    ),
    Rule(
        "ray",
        "Ray raised a dead actor as RayActorError, since 2.x ActorDiedError, and names the actor's class, ids, pid and "
        "node before why it died; its memory monitor's kill is followed by the node's figures: why is the failure",
        rewordings.ray,
    ),
    Rule(
        "triton-ptxas",
        "Triton raises ptxas's failure as a RuntimeError with ptxas's stderr (2.x), as PTXASError with a longer head "
        "(3.x); ptxas's info lines before its fatal one, and the register count tried, are the kernel's",
        rewordings.triton_ptxas,
    ),
    Rule(
        "http-body",
        "TensorFlow's GCS file system puts the storage service's response body after the HTTP code, as JSON or XML by "
        "release, with the run's account and object; the code and the permission it names are the failure",
        rewordings.http_body,
    ),
    Rule(
        "hub-model",
        "transformers' check that the hub could not be reached names the model the program asked for, the program's",
        rewordings.hub_model,
    ),
    Rule(
        "job-limit",
        "GitHub Actions names the runner a job hit its time limit on and the limit (360 minutes, later 6h0m0s): the "
        "workflow's, not the failure",
        rewordings.job_limit,
    ),
    Rule(
        "nccl-shm",
        "NCCL names a shared memory segment it could not create by a random name and the job's size, and pads a "
        "colon in some releases; the segment, and why it failed, are the failure",
        rewordings.nccl_shm,
    ),
    Rule(
        "tf-api",
        "TensorFlow names a public module by the generated package of its major version (tensorflow._api.v1.io.gfile, "
        "tensorflow._api.v2.io.gfile); the module a program asked for is tensorflow.io.gfile in both",
        rewordings.tf_api,
    ),
    Rule(
        "tensorstore",
        "tensorstore names the checkpoint file it could not read, write or lock (the run's path), orbax wraps zarr in "
        "a 'cast' driver by release, the status carries its C++ sources and spec, gin its configurable: the rest is it",
        libraries.tensorstore,
    ),
    Rule(
        "undefined-symbol",
        "the loader names an extension it refused by where it is installed and the tag of the Python it was built for "
        "(.cpython-311-x86_64-linux-gnu.so); the extension's name and the symbol it lacks are the failure",
        libraries.undefined_symbol,
    ),
    Rule(
        "jit-devices",
        "jax's check that a jitted call's inputs share devices names the program's arguments, functions, shapes and "
        "device ids ('pjitted' in older releases): two platforms, or one platform's devices disagreeing, is it",
        jax_words.jit_devices,
    ),
    Rule(
        "nccl-ib",
        "NCCL's InfiniBand transport names a work completion's error with the peer, opcode and vendor's code ('Got "
        "completion from peer ... with status=12 opcode=...'; 'with error 4' earlier): the status is the failure",
        libraries.nccl_ib,
    ),
    Rule(
        "jaxlib-module",
        "jaxlib's extension module is jaxlib.xla_extension until 0.5 and jaxlib._jax since; a message that prints a "
        "class of it ('mutable default <class 'jaxlib._jax.ArrayImpl'>') names one class",
        libraries.jaxlib_module,
    ),
    Rule(
        "replication-rule",
        "shard_map without a replication rule for a primitive says which and advises check_rep=False (a post may "
        "drop the advice or its backticks): the primitive is the failure",
        jax_words.replication_rule,
    ),
    Rule(
        "too-few-devices",
        "jax words a computation needing more devices than the process has by generation ('requires 2 replicas', "
        "'requires 8 logical devices ... (num_replicas=8, ...)'): how many are the program's and the machine's",
        jax_words.too_few_devices,
    ),
    Rule(
        "hub",
        "transformers names the model it could not find by the program's name for it, and requests a rate limit by "
        "the URL it was fetching: that the name is no model, that the Hub refused for load, are the failure",
        libraries.hub,
    ),
    Rule(
        "given-path",
        "a check quotes the path it was given after what it wanted ('... should be absolute. Got weights/x'), a post "
        "may cut it after 'Got': the path is the program's, the check the failure",
        libraries.given_path,
    ),
    Rule(
        "indexing-checks",
        "jax rewords its checks of a traced boolean mask (IndexError, later NonConcreteBooleanIndexError with the "
        "mask's shape), in-place assignment and pmap's rank-0 argument by release: which check is the failure",
        jax_words.indexing_checks,
    ),
    Rule(
        "did-you-mean",
        "Python since 3.10 follows an AttributeError, a NameError or an ImportError with its guess ('Did you mean: "
        "'tree_util'?'); the same failure under an older Python has none, and a title goes on after the attribute's "
        "quote in the reporter's words",
        pythons.did_you_mean,
    ),
    Rule(
        "numpy-removed",
        "NumPy 2 names a name it removed and the release ('`np.float_` was removed in the NumPy 2.0 release. Use "
        "`np.float64` instead.'); backticks a post drops and the advice are not the failure",
        libraries.numpy_removed,
    ),
    Rule(
        "jax-removed",
        "jax names a name it removed and the release ('X was removed in JAX v0.4.36. Use Y instead.'), since 0.5 with "
        "the release that deprecated it first; what to use is advice a title drops: the name and release are it",
        jax_words.jax_removed,
    ),
    Rule(
        "equinox",
        "equinox raised eqx.error_if's failures as EqxRuntimeError until 0.11, EquinoxRuntimeError since (a private "
        "_EquinoxRuntimeError in some releases): one class",
        libraries.equinox,
    ),
    Rule(
        "triton-resources",
        "Triton's OutOfResources says how much shared memory (or registers) its kernel's configuration asked and "
        "the GPU has ('Required: 98304, Hardware limit: 49152'), and advises: which resource is the failure",
        libraries.triton_resources,
    ),
    Rule(
        "escaped-quotes",
        "a repr, a JSON string or a post escapes a message's quotes (\\' for '); the words are the same",
        pythons.escaped_quotes,
    ),
    Rule(
        "exception-args",
        "an exception raised with several arguments prints them as a tuple, ('invalid_grant: Bad Request', {...}): "
        "the first is its message, the rest what it carried (a response, as a dict or as its JSON text)",
        libraries.exception_args,
    ),
    Rule(
        "while-reverse",
        "jax 0.2 says reverse-mode differentiation 'does not work for lax.while_loop or lax.fori_loop. Try using "
        "lax.scan instead', later releases '... with dynamic start/stop values' and other advice: one loop's rule",
        jax_words.while_reverse,
    ),
    Rule(
        "paddle-status",
        "PaddlePaddle raises a CUDA library's status as ExternalError (2.x: 'OSError: (External) ...') with its "
        "kernel's source, worded three ways by release, or logs it as a hint line; the status and the kernel are it",
        libraries.paddle_status,
    ),
    Rule(
        "tf-node",
        "TensorFlow names the graph node a status came from in each generation's words ('[[Node: X = Op[...](in)]]', "
        "'[[{{node X}} = ...]]', '[[node X (defined at f.py:40) ]]'), with its copy to a GPU after: the node is it",
        libraries.tf_node,
    ),
    Rule(
        "vmap-sizes",
        "jax words vmap's axes of inconsistent sizes by generation (2019's TypeError 'got inconsistent map dimension "
        "sizes: {10, 2}', then each argument's shape and axis, then 'most axes had size'): which sizes, not whose",
        jax_words.vmap_sizes,
    ),
    Rule(
        "broadcast-shapes",
        "jax up to 0.3.16 printed shapes that do not broadcast rank-promoted ('((2, 4), (1, 2))'), later as given "
        "('shapes=[(2, 4), (2,)]'); leading 1s do not change how a shape broadcasts",
        jax_words.broadcast_shapes,
    ),
    Rule(
        "tracer-bool",
        "jax up to 0.4.13 raised a tracer used as a Python bool as ConcretizationTypeError ('... The problem "
        "arose with the `bool` function'), since as TracerBoolConversionError ('Attempted boolean conversion of "
        "traced array with shape bool[]'); the tracer's repr is the trace's",
        jax_words.tracer_bool,
    ),
    Rule(
        "versions",
        "the versions an environment check names (X.Y.Z in XLA's lines, XXYY integers in jax's, PJRT's "
        "0.54) are the machine's; which check failed, and which way, is the failure",
        environment.versions,
    ),
    Rule(
        "elision",
        "a reporter who cuts a message ('[...]', '(...)', '<snip>') keeps its head; what is left after the "
        "cut is a fragment, so the message ends where the cut begins",
        rewordings.elision,
    ),
    Rule(
        "detail",
        "what XLA appends after naming a failure (task lists, gRPC payloads, OOM debugging, advice) "
        "is cut anywhere by excerpts; the head before it, and the service call a gRPC error names, identify it",
        rewordings.detail,
    ),
    Rule(
        "kind",
        "an exception is a compile_error when its excerpt shows the compile frames, a runtime_crash when "
        "cut above them, a timeout when a release words it so, environment when it names a mismatched "
        "toolchain; one kind in the fingerprint (the signature says which)",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "check-class",
        "one toolchain check is raised by whichever layer ran it (the CUDA plugin's RuntimeError, the backend's "
        "XlaRuntimeError, an older release's AssertionError), from whatever program; the check is the failure: its "
        "fingerprint has no class and no call path",
        lambda exc, message, frames: (exc, message, frames),
    ),
    Rule(
        "import-location",
        "where Python found the module a name could not be imported from ('(/usr/lib/python3/dist-packages/jax/"
        "config.py)', '(unknown location)') is the machine's, and a post may cut it anywhere; the name is the failure",
        pythons.import_location,
    ),
    Rule(
        "full-stop",
        "a message ends its last sentence with a full stop in one release and not in another, a post doubles or drops "
        "it, or a cut falls just after it; how it ends says nothing of the failure",
        rewordings.full_stop,
    ),
    Rule(
        "frames",
        "a call path names files relative to their package root with '..' resolved (and, in the "
        "fingerprint, by file name outside a package), so a checkout's location does not matter",
        tracebacks.resolved_frames,
    ),
)


def fold(exception: str | None, message: str, frames: Sequence[str]) -> Parts:
    """The parts of a signature with every rule applied (idempotent)."""
    parts: Parts = (exception, message, list(frames))
    for rule in RULES:
        parts = rule.apply(*parts)
    return parts
