"""One library's or Python's own words folded across releases or a post's framing (a dead Ray actor, Triton, an HTTP
body, a cloud API, the Hub, NCCL, TensorFlow, tensorstore, NumPy's and jax's removals, Python's quotes, a host callback,
torch.compile, XLA's RET_CHECK, MLIR, pydantic, gdb, glibc, the host's clock, native extensions), jax's
misuse of its transformations last (jax_folds). Pure. In this order in canary.signature.folds.RULES, all applied."""

from __future__ import annotations

from canary.signature import cloud_apis, configs, framework_words, jax_words, libraries, pythons, signals, toolkits
from canary.signature.ci_tools import CI_TOOL_RULES
from canary.signature.companion_words import COMPANION_RULES
from canary.signature.credentials import CREDENTIAL_RULES
from canary.signature.cuda_libraries import cusolver_status
from canary.signature.host_folds import HOST_RULES
from canary.signature.http_clients import HTTP_CLIENT_RULES
from canary.signature.jax_folds import JAX_MISUSE_RULES
from canary.signature.native_folds import NATIVE_RULES
from canary.signature.rewordings import Rule
from canary.signature.torch_folds import TORCH_RULES

WORD_RULES: tuple[Rule, ...] = (
    Rule(
        "callback-relay",
        "XLA relays an exception a host callback raised inside its status ('INTERNAL: CpuCallback error: "
        "EqxRuntimeError: ...'), where jax raises it by its own class elsewhere: that exception is the failure",
        jax_words.callback_relay,
    ),
    Rule(
        "ret-check",
        "XLA's RET_CHECK names the instruction or channel it failed on by the program's numbering (channel 11, "
        "constant_29831); the check's expression and words are the failure",
        jax_words.ret_check,
    ),
    Rule(
        "mlir-location",
        "an MLIR diagnostic names the op's name path and the program's file, line and column before what is wrong "
        "with the op: where in the program, not the failure",
        jax_words.mlir_location,
    ),
    Rule(
        "kernel-launch",
        "XLA:GPU names a kernel whose launch failed and its block and grid dimensions since 2022 (2021 did not): the "
        "fusion and its dimensions are the program's; the CUDA error's code is the failure, its words follow from it",
        jax_words.kernel_launch,
    ),
    Rule(
        "pydantic-validation",
        "pydantic's ValidationError counts the errors and names each field and its input (the config's); the model "
        "that refused them and the first error's type are the failure",
        toolkits.pydantic_validation,
    ),
    Rule(
        "data-sets",
        "Hugging Face's, TensorFlow's and MosaicML's data set libraries and ArrayRecord name the run's data set, "
        "script, URLs' paths, directories, files and shared memory; the host a file came from is kept",
        toolkits.data_sets,
    ),
    Rule(
        "transformers-lists",
        "transformers follows a failed tokenizer conversion with its release's converters, a missing backend with "
        "installation advice, an unbuildable fast tokenizer with the ways it tried: the release's words",
        toolkits.transformers_lists,
    ),
    Rule(
        "ray",
        "Ray raised a dead actor as RayActorError, since 2.x ActorDiedError, naming its class, ids, pid, node before "
        "why it died; its memory monitor's kill, full store by the figures, a call before init, a version mismatch",
        framework_words.ray,
    ),
    Rule(
        "compile-wrapper",
        "torch.compile raises its backend's error as BackendCompilerFailed ('backend='inductor' raised:', 2.0's "
        "'debug_wrapper raised'), 2.6 InductorError, a lowering LoweringException: the error inside is the failure",
        toolkits.compile_wrapper,
    ),
    Rule(
        "gdb-frame",
        "gdb names the frame a fault stopped in by its address and the library's path (libtorch.so became "
        "libtorch_cpu.so): the signal and the function are the failure",
        signals.gdb_frame,
    ),
    Rule(
        "glibc-check",
        "glibc names which of free()'s checks caught a double free ('(out)', '(!prev)'), as the heap's state decides; "
        "where its backtrace names the library that freed the pointer, that library is the failure",
        signals.glibc_check,
    ),
    Rule(
        "dynamo",
        "dynamo words its recompile limit with a whole graph by release (cache_size_limit, recompile_limit; "
        "one_graph, fullgraph), advice after; since 2.7 an unsupported call's hints follow what it names; inductor "
        "advises after finding no Triton: the limit, the call and its function are the failure",
        toolkits.dynamo,
    ),
    Rule(
        "apex-amp",
        "apex's amp.initialize names the first parameter or buffer it found off the GPU by the model's name for it, "
        "later with advice after: a parameter or a buffer, and its type against the one expected, are the failure",
        toolkits.apex_amp,
    ),
    Rule(
        "triton-too-old",
        "torch.compile's check that a GPU can run Triton names the GPU and, since 2.1, its capability against 7.0: "
        "which GPU is the machine's; that it is too old for Triton is the failure",
        framework_words.triton_too_old,
    ),
    Rule(
        "triton-ptxas",
        "Triton raises ptxas's failure as a RuntimeError with ptxas's stderr (2.x), as PTXASError with a longer head "
        "(3.x); ptxas's info lines before its fatal one, and the register count tried, are the kernel's",
        framework_words.triton_ptxas,
    ),
    Rule(
        "bfc-retry",
        "the BFC allocator's warning that it will retry an allocation gained 'with freed_by_count=0' (2020) and 'but "
        "this may mean' (XLA's copy): one warning; its fatal line, which names the op, is another",
        framework_words.bfc_retry,
    ),
    Rule(
        "http-body",
        "TensorFlow's GCS file system puts the storage service's response body after the HTTP code, as JSON or XML by "
        "release, with the run's account and object; the code and the permission it names are the failure",
        framework_words.http_body,
    ),
    Rule(
        "cloud-api",
        "Google Cloud's clients print one refusal of the service their own ways (Python's '400 GET <url>: <message>', "
        "Ruby's 'reason: message', Go's 'Error 400: message, reason', Java's body, node's object, the body alone): the "
        "service's message is the failure, the run's caller, object and URLs not",
        cloud_apis.cloud_api,
    ),
    Rule(
        "gcs-rate-limit",
        "Cloud Storage words its limit on one object's writes three ways by generation ('The total number of changes "
        "to the object ...' answered 410 in 2018, 'The rate of change requests to the object ...', 'The object ... "
        "exceeded the rate limit for object mutation operations'): one limit, a 429",
        cloud_apis.gcs_rate_limit,
    ),
    Rule(
        "hub-model",
        "transformers' check that the hub could not be reached names the model the program asked for, the program's",
        framework_words.hub_model,
    ),
    Rule(
        "job-limit",
        "GitHub Actions names the runner a job hit its time limit on and the limit (360 minutes, later 6h0m0s): the "
        "workflow's, not the failure",
        framework_words.job_limit,
    ),
    *TORCH_RULES,
    *COMPANION_RULES,
    *CI_TOOL_RULES,
    *CREDENTIAL_RULES,
    Rule(
        "nccl-shm",
        "NCCL names a shared memory segment it could not create by a random name and the job's size, and pads a "
        "colon in some releases; the segment, and why it failed, are the failure",
        framework_words.nccl_shm,
    ),
    Rule(
        "tf-api",
        "TensorFlow names a public module by the generated package of its major version (tensorflow._api.v1.io.gfile, "
        "tensorflow._api.v2.io.gfile); the module a program asked for is tensorflow.io.gfile in both",
        framework_words.tf_api,
    ),
    Rule(
        "tensorstore",
        "tensorstore names the checkpoint file it could not read, write or lock (the run's path), orbax wraps zarr in "
        "a 'cast' driver by release, the status carries its C++ sources and spec, gin its configurable: the rest is it",
        libraries.tensorstore,
    ),
    Rule(
        "undefined-symbol",
        "the loader names an extension it refused by where it is installed and the Python's tag (.cpython-311-x86_64-"
        "linux-gnu.so, .cpython-38-darwin.so), cffi a library by its path: its name and the symbol it lacks are it",
        libraries.undefined_symbol,
    ),
    Rule(
        "extension-builds",
        "an extension built for another CUDA or torch (bitsandbytes, xformers, torch's cpp_extension) names its check "
        "in its first sentence; what is unavailable, what to run, the versions it found and torch's build directory "
        "(py310_cu117) are its release's words and the machine's",
        libraries.extension_builds,
    ),
    Rule(
        "c10d-bind",
        "c10d's store server on a port another process holds is 'failed to bind to [::]:29500 (errno: 98 - Address "
        "already in use)' before PyTorch 2.2 and 'code: -98, name: EADDRINUSE' since; the port is the job's",
        libraries.c10d_bind,
    ),
    Rule(
        "c10-function",
        "c10's warnings end by naming where in C++ they warned ('(function operator())', '(Triggered internally at "
        "x.cpp:91.)'), which a release moves: the check is the words before it",
        libraries.c10_function,
    ),
    Rule(
        "title-nan",
        "a poster retyping a message spells NaN 'Nan'; Python's 'nan' and a library's 'NaN' are left as printed",
        libraries.title_nan,
    ),
    Rule(
        "synapse-typo",
        "one release of Habana's bridge spells its generic status 'Generice failure'; the status is the same",
        libraries.synapse_typo,
    ),
    Rule(
        "num-shards",
        "TPUEstimator names the TPU master it asked and the two counts of replicas that disagree, the job's; that they "
        "disagree is the failure",
        libraries.num_shards,
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
        "completion from peer ... with status=12 opcode=...'; 'with error 4' earlier); its OFI plugin says 'Could not' "
        "in 2019's words: the status and the words are the failure",
        libraries.nccl_ib,
    ),
    Rule(
        "c10d-store",
        "c10d's rank waiting in its store for rank 0's NCCL id names itself, the key and the store's keys (a "
        "barrier's, a broadcast's, a job's): which rank and key are the job's; the store's error is the failure",
        libraries.c10d_store,
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
        "loss-iteration",
        "a trainer's check names the iteration its loss went non-finite and the losses there ('Loss became infinite "
        "or NaN at iteration=1029! loss_dict = {...}'): that it did is the failure, when and by how much the run's",
        libraries.loss_iteration,
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
        "Python 3.10+ follows an AttributeError, a NameError or an ImportError with its guess ('Did you mean: "
        "'tree_util'?'), older ones none; a title or a module's advice (NumPy's expired aliases) goes on after the "
        "attribute's quote, a paste loses that quote; a class lacks it either way",
        pythons.did_you_mean,
    ),
    Rule(
        "call-qualname",
        "Python 3.10 names a call's function by qualified name ('Trainer.__init__() got ...'), Python 2 counts its "
        "arguments in its own words, Markdown takes a dunder's underscores as bold: function and argument are it",
        pythons.call_qualname,
    ),
    Rule(
        "numpy-removed",
        "NumPy 2 names a name it removed and the release ('`np.float_` was removed in the NumPy 2.0 release. Use "
        "`np.float64` instead.'), not advice (nor a C API mismatch's); 1.25 names two DTypes by class in a TypeError",
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
        "post-tail",
        "a post runs its own words on after the message in a script of full-width punctuation ('... dimension "
        "1]，qwen'); the bracket or quote it opened before the message and what follows are the post's, as is conda "
        "run's report that the program failed",
        pythons.post_tail,
    ),
    Rule(
        "escaped-quotes",
        "a repr, a JSON string or a post escapes a message's quotes (\\' for '), leaves a code span's closing "
        "backtick at its end or before its own words, or sets it in bold; the words are the same",
        pythons.escaped_quotes,
    ),
    Rule(
        "exception-args",
        "several arguments print as a tuple ('invalid_grant: Bad Request', {...}, or cut): the first is the message "
        "(pyodbc's second), the rest what it carried; strings a comma split are one; a class's name as words is none",
        pythons.exception_args,
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
        "stream-writer",
        "torch.save's zip writer names the record it failed to write ('data/176', 'data.pkl') after an enforce's "
        "stray full stop: which record is the run's; the writer's failure is the failure",
        libraries.stream_writer,
    ),
    Rule(
        "protobuf-versions",
        "protobuf's runtime names the .proto and both versions when it refuses generated code of another release: the "
        "check and the two majors are the failure, the file and the minor versions the run's; 4.21.0's typo ('cannot "
        "not') is 4.21.1's refusal",
        libraries.protobuf_versions,
    ),
    Rule(
        "omegaconf",
        "OmegaConf (2.1 on) prints where a refused key sits after its message, Hydra its advice after an override it "
        "refused and the directory it did not find, absl a twice-defined flag's modules: the key, flag and check are "
        "the failure",
        configs.omegaconf,
    ),
    Rule(
        "donated-twice",
        "XLA's refusal of one buffer donated twice to a call names the program's argument positions: the check is it",
        libraries.donated_twice,
    ),
    Rule(
        "donated-unusable",
        "jax's warning that donated buffers went unused lists them, in XLA's shape notation (2020) or as ShapedArrays: "
        "which arguments is the program's",
        libraries.donated_unusable,
    ),
    Rule(
        "einops",
        "einops names the pattern, the input's shape and the axes given, then the check that refused it, worded by "
        "release ('Wrong shape: expected 4 dims', earlier 'Expected 4 dimensions'): that check is the failure",
        libraries.einops,
    ),
    Rule(
        "cusolver-status",
        "PyTorch names a cuSOLVER status by name or number ('cusolver error: 7'), its call with or without comma and "
        "backticks, then advice; cuFFT's by check site; cuBLAS's and cuDNN's with a post's words after: status, call",
        cusolver_status,
    ),
    Rule(
        "triton-prefetch",
        "Pallas's GPU lowering refused a TPU kernel's scalar prefetch as 'Scalar prefetch not supported in Triton "
        "lowering.' (2024-05), later 'scalar prefetch not implemented in the Triton backend': one check",
        libraries.triton_prefetch,
    ),
    *HTTP_CLIENT_RULES,
    *HOST_RULES,
    *NATIVE_RULES,
    *JAX_MISUSE_RULES,
)
