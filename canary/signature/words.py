"""A failure's own words posted without its class: Python's (an import that failed, an attribute a module lacks, a
call's unexpected keyword, multiprocessing's start before its bootstrapping), and those of the libraries a run sits
on (jax's traced bool, vmap's sizes and broadcasting, jit's devices, a pytree's node type, Pallas's lowering; PyTorch's
DataLoader worker and FP8 matmul, Triton's resources, Ray's actor, absl's unparsed flag, einops' check, torch.load's
weights_only refusal, Hypothesis' unreliable timings, pydantic 2's moved and removed names, transformers' missing
backends, a Rust library's panic, absl's flags parsing, Windows' failed DLL load, torch's load_state_dict refusing
weights), AWS Neuron's compiler and Habana's graph compiler failing. Pure. In :data:`canary.signature.bare.BARE_ERRORS`;
:func:`canary.signature.kinds.words_class` names the class each is raised with.
"""

from __future__ import annotations

import re

from canary.signature.kinds import line_kind, words_class
from canary.signature.libraries import EINOPS_WORDS, einops_check
from canary.signature.pythons import win_class
from canary.signature.recogniser import BareError

_BOOTSTRAP = (
    "An attempt has been made to start a new process before the current process has finished its bootstrapping phase"
)

WORDS: list[BareError] = [
    # an assert statement with its message quoted as the error, where nothing else names it ('assert cuda_home is not
    # None, "CUDA_HOME does not exist, unable to compile CUDA op(s)"'): the AssertionError it raises
    BareError(
        "assert-statement",
        ("assert ",),
        re.compile(r"^assert \S.{0,300}?, (?P<q>[\"'])(?P<msg>.{1,500}?)(?P=q)\.?$"),
        "AssertionError",
        weak=True,
    ),
    # transformers naming a backend it needs and has not ("T5Converter requires the protobuf library but it was not
    # found in your environment."), raised as ImportError, and a fast tokenizer it could not build ("Couldn't
    # instantiate the backend tokenizer from one of: ..."), raised as ValueError, posted without their class
    BareError(
        "transformers-backend",
        ("library but it was not found in your environment", "Couldn't instantiate the backend tokenizer"),
        re.compile(
            r"(?:^|: )(?P<msg>(?:The new behaviou?r of )?\S{1,200}(?: \(with `[^`]{1,100}`\))? requires the "
            r"[\w.-]{1,60} library but it was not found in your environment|Couldn't instantiate the backend tokenizer)"
        ),
        lambda m: "ValueError" if m["msg"].startswith("Couldn't") else "ImportError",
        context=4,
    ),
    # a Rust library's panic (tokenizers, safetensors) as Python meets it, PanicException: "thread '<unnamed>'
    # panicked at src/tokenizer/added_vocabulary.rs:428:22: AddedVocabulary bad split" (Rust since 1.73; before,
    # "panicked at '<what>', <where>"): where in the library's source is its build's, what is the failure
    BareError(
        "rust-panic",
        ("' panicked at ",),
        re.compile(
            r"thread '[^']{1,100}' panicked at (?:'(?P<old>[^']{1,500})', \S{1,500}|\S{1,500}?\.rs:\d{1,6}:\d{1,6}:? "
            r"(?P<new>.{1,500}?))(?: note: run with `RUST_BACKTRACE.*)?$"
        ),
        "PanicException",
        message=lambda m: m["old"] or m["new"],
    ),
    # torch's load_state_dict refusing weights that do not fit the model, its lines posted without the RuntimeError and
    # the "Error(s) in loading state_dict for <model>:" above them ("size mismatch for fc.weight: copying a param with
    # shape torch.Size([1000, 320]) from checkpoint, the shape in current model is torch.Size([6, 320]).", "Missing
    # key(s) in state_dict: ...", or a program's log line that quotes the error whole): the first line torch names
    BareError(
        "state-dict",
        ("loading state_dict for ", "from checkpoint, the shape in current model is", "key(s) in state_dict: "),
        re.compile(
            r"(?:^\s{0,8}|Error\(s\) in loading state_dict for [\w.]{1,200}: ?)"
            r"(?:(?:size mismatch for )?(?P<param>\S{1,300}): (?P<shapes>copying a param with shape .{1,200}? from "
            r"checkpoint, the shape in current model is .{1,200}?)|"
            r"(?P<keys>(?:Missing|Unexpected) key\(s\) in state_dict: .{1,300}?))\.{0,2}(?: Exiting.{0,20})?$"
        ),
        "RuntimeError",
        # (a paste of many mismatches loses their common "size mismatch for " as if it were each line's decoration)
        message=lambda m: m["keys"] or f"size mismatch for {m['param']}: {m['shapes']}",
        weak=True,  # (the RuntimeError above them, where the post has it, names the failure)
    ),
    # AWS Neuron's compiler failing under torch-neuronx's wrapper ("ERROR ||NEURON_CC_WRAPPER||: Failed compilation with
    # ['neuronx-cc', ...]: 2024-08-15T14:01:19Z [TEN404] (aten__add_add.31237) Internal tensorizer error: ... - Please
    # open a support ticket at https://github.com/aws-neuron/aws-neuron-sdk/issues/new."): the compiler's error code and
    # words; the op's name and number are the graph's
    BareError(
        "neuronx-cc",
        ("aws-neuron-sdk/issues",),
        re.compile(
            r"\[(?P<code>[A-Z]{2,5}\d{3})\] (?:\([^)]{0,200}\) )?(?P<msg>.{1,300}?) - Please open a support ticket at"
        ),
        None,
        "compile_error",
        message=lambda m: f"neuronx-cc [{m['code']}]: {m['msg']}",
    ),
    # Habana's bridge failing to compile a graph for Gaudi ("Graph compile failed. synStatus=synStatus 26 [Generic
    # failure]."), raised as RuntimeError, logged by its bridge ("[PT_BRIDGE][error] .../graph.cpp: 599Graph compile
    # failed. ...") or relayed at DEBUG by a server that caught it (an older release's "[Generice failure]" is folded
    # by synapse-typo)
    BareError(
        "synapse-graph",
        ("Graph compile failed. synStatus=",),
        re.compile(r"(?P<msg>Graph compile failed\. synStatus=synStatus \d{1,4} \[[\w ]{1,60}\])"),
        "RuntimeError",
    ),
    # absl's Python flags refusing the command line before main ("FATAL Flags parsing error: Unknown command line flag
    # 'run_relax'", "... flag --use_gpu_relax=None: Flag --use_gpu_relax must have a value other than None."): the
    # classes absl raises them with, an unknown flag or an illegal value
    BareError(
        "absl-flags",
        ("FATAL Flags parsing error: ",),
        re.compile(r"FATAL Flags parsing error: (?P<msg>.{1,500}?)(?:\. Did you mean: .{1,200})?\.?$"),
        lambda m: "UnrecognizedFlagError" if m["msg"].startswith("Unknown command line") else "IllegalFlagValueError",
    ),
    # Windows' loader refusing an extension module ("DLL load failed while importing flash_attn_2_cuda: The specified
    # module could not be found."), raised as ImportError, posted without its class
    BareError(
        "dll-load",
        ("DLL load failed while importing ",),
        re.compile(r"^(?P<msg>DLL load failed while importing [\w.]{1,200})"),
        "ImportError",
    ),
    # Windows refusing a DLL torch loads, its OSError's words posted without the class ("[WinError 1455] The paging
    # file is too small for this operation to complete. Error loading "...\\torch\\lib\\c10.dll" or one of its
    # dependencies."), or a file it names, on a line of its own or after an application's "Error: "
    BareError(
        "win-error-dll",
        ("[WinError ",),
        re.compile(
            r"(?:^|(?<=[\s`'\"]))(?P<msg>\[WinError \d{1,6}\] .{0,300}?Error loading \"[^\"]{1,300}\" or one of its "
            r"dependencies)|^(?:Error: )?(?P<file>\[WinError \d{1,6}\] [^']{1,300}?: '[^']{1,1000}'.{0,1000})$"
        ),
        lambda m: win_class(m["msg"] or m["file"]),
        message=lambda m: m["msg"] or m["file"],
    ),
    # pydantic 2 refusing a name version 1 had ("`pydantic:parse_raw_as` has been removed in V2.", "`BaseSettings` has
    # been moved to the `pydantic-settings` package."), posted without its class or after a runner's "Failed: "
    BareError(
        "pydantic-import",
        ("has been removed in V2", "has been moved to the `"),
        re.compile(
            r"(?:^|: )(?P<msg>`[\w.:]{1,200}` has been (?:removed in V2|moved to the `[\w.-]{1,100}` package))(?:\.|$)"
        ),
        "PydanticImportError",
    ),
    # a DataLoader worker's signal wrapped after its colon ("... is killed by signal: " above "Bus error. It is possible
    # that dataloader's workers are out of shared memory."): the line below names the signal
    BareError(
        "dataloader-signal-wrapped",
        ("is killed by signal:",),
        re.compile(r"(?:^|\bRuntimeError: )(?P<msg>DataLoader worker \(pid \d{1,9}\) is killed by signal:)$"),
        "RuntimeError",
        context=1,
    ),
    # Python's words for an import that failed or an attribute a module lacks, and jax's for a traced value used as a
    # bool, alone on a line (a post quoting the message without its class: "module 'flax' has no attribute 'optim'")
    BareError(
        "python-words",
        (
            "has no attribute ",
            "cannot import name ",
            "No module named ",
            "Attempted boolean conversion of traced",
            "Tracer can't be used with raw numpy",
            "conversion method __array__() was called on",
            "DataLoader worker (pid",
            "The actor ",
            "Received incompatible devices for ",
            "got inconsistent map dimension sizes",
            "got incompatible shapes for broadcasting",
            "got an unexpected keyword argument",
            "before flags were parsed",
            "An attempt has been made to start a new process",
            "torch._scaled_mm is only supported on",
            "Unimplemented primitive in Pallas",
            "Custom node type mismatch",
            "does not yet support checkPoolLiveAllocations",
            "Fetching value for",
            "does not support string indexing",
            "must be statically specified to use",
            "undefined symbol: ",
            "Undefined symbol: ",
            "Unable to load weights from pytorch checkpoint",
            "Error no file named ",
            "to have the same dtype",
            "was built using AVX instructions",
            "Primal inputs to reverse-mode differentiation",
            "Cannot find a working triton installation",
            "Non-hashable static arguments are not supported",
            "() missing ",
        ),
        re.compile(
            # (quoted in a sentence: "\"module 'jax.random' has no attribute 'KeyArray'\" occurs at the second block";
            # after a title's tag, "[jax2tf] call_module() got ...", its type and scope, "bug(pallas): Unimplemented";
            # a logger's words for it: "Unable to load profiler plugin. Import error: cannot import name ...", YOLOv5's
            # "TensorFlow.js: export failure ❌ 0.1s: ..."; a poster's "-> ", a sentence's colon or "error" before a
            # quote, bold, a dash, a Chinese record's words; a program's words for what it caught ("Error sending
            # transaction from 0x26...3B78: "), its retry's after; a server's JSON error body, '{"message":"...",...}')
            r"^(?:\[[\w./ -]{1,40}\] |[a-z]{1,12}\([\w./ -]{1,40}\): |(?P<json>\{\"(?:message|detail|error)\":(?=\"))|"
            r".{0,200}\b(?:Import error|import failed|export failure\W{1,4}[\d.]{1,10}s): |.{0,200}?-> |"
            r".{0,300}?(?::|\b[Ee]rror)\s(?=[\"`])|.{0,500}?\s(?=\*\*)|"
            r".{0,300}?\s(?=`[\w.]{1,200}\(\) missing )|.{0,300}?[\u4e00-\u9fff]:?\s?(?=module '|'\w{1,99}' object)|"
            r".{0,300}?\s(?=\"No module named ')|.{0,300}? - (?=No module named ')|"
            r"(?P<app>.{0,300}?\b(?:[Ee]rror|ERROR|[Ff]ailed|FAILED)\b[^:'\"]{0,200}: (?=module '|'\w{1,99}' object)))?"
            r"(?P<q>[\"`]|\*\*)?"
            r"(?P<msg>(?:(?:module '[\w.]{1,200}'|'[\w.]{1,200}' object) has no attribute '\w{1,200}'|"
            r"[\w.]{1,200}\(\) got an unexpected keyword argument '\w{1,100}'|"
            r"[\w.]{1,200}\(\) missing \d{1,3} required (?:positional|keyword-only) arguments?: '\w{1,100}'|"
            # (a title cut inside the path in brackets; a module in backticks: "No module named `triton.ops`")
            r"cannot import name '[\w.]{1,200}' from "
            r"'[\w.]{1,200}'(?: \(.{0,500}\)?)?|No module named (?P<mq>['`])[\w.]{1,200}(?P=mq)|"
            r"Attempted boolean conversion of traced array with shape \S{1,100}?|"
            r"Primal inputs to reverse-mode differentiation must be of float or complex type, got type \w{1,30}|"
            r"Cannot find a working triton installation\b.{0,1000}?|"
            # (jax's words for a tracer turned into a NumPy array, 2020's and later: "Tracer can't be used with raw
            # numpy functions. You might have", "The numpy.ndarray conversion method __array__() was called on ...")
            r"Tracer can't be used with raw numpy functions\b.{0,300}?|"
            r"The numpy\.ndarray conversion method __array__\(\) was called on (?:the JAX Tracer object|traced "
            r"array)\b.{0,500}?|"
            r"DataLoader worker \(pid \d{1,9}\) is killed by signal: .{1,400}?|"
            r"The actor (?:died unexpectedly before finishing this task|is dead because) .{1,1000}?|"
            r"Received incompatible devices for p?jitted computation\b.{0,2000}?|"
            r"got inconsistent map dimension sizes: .{1,500}?|"
            r"\w{1,60} got incompatible shapes for broadcasting: .{1,500}?|"
            r"Trying to access flag --\w{1,200} before flags were parsed|"
            r"An attempt has been made to start a new process before the(?: current process has finished its "
            r"bootstrapping phase)?|torch\._scaled_mm is only supported on [\w ,.>=+-]{1,200}?|"
            r"Unimplemented primitive in Pallas \w{1,10} lowering: \w{1,60}|"
            r"Custom node type mismatch[:;] expected type: <class '[\w.]{1,200}'>[,;] value: .{1,1000}?|"
            # (jit's refusal of a static argument it cannot hash, a title's first sentence of it)
            r"Non-hashable static arguments are not supported\b.{0,1000}?|"
            # (the loader's words in a title, without the extension it loaded: "importing failed due to undefined
            # symbol: _ZNK5torch8autograd4Node4nameEv")
            r"(?:importing failed due to )?[Uu]ndefined symbol: _Z\w{1,1000}|"
            r"cudaMallocAsync does not yet support checkPoolLiveAllocations\b.{0,300}?|"
            r"Fetching value for `?jax\.Array`? that spans non-addressable (?:\(non process local\) )?"
            r"devices\b.{0,500}?|"
            # (also quoted in a title: 0.4.21 release: "JAX does not support string indexing" error, but ...)
            r"JAX does not support string indexing\b.{0,300}?|"
            # (transformers' loader, its class lost in a trainer's report: "Training failed." and the message alone)
            r"Unable to load weights from pytorch checkpoint file for .{1,1000}?|"
            r"Error no file named .{1,300}? found in directory \S{1,500}?|"
            # (torch's matmul refusing operands of two dtypes, a reply's quote of it: "expected mat1 and mat2 to have
            # the same dtype, but got: float != c10::Half")
            r"expected mat1 and mat2 to have the same dtype, but got: .{1,100}?|"
            # (jaxlib's check of the CPU it was built for, a post's quote of it: "This version of jaxlib was built
            # using AVX instructions, which your CPU and/or operating system do not support. ...")
            r"This version of jaxlib was built using AVX instructions, which your CPU and/or operating system do not "
            r"support\b.{0,1000}?|"
            r"The size argument of jnp\.\w{1,40} must be statically specified to use jnp\.\w{1,40} within JAX "
            r"transformations\b.{0,300}?))"
            # (a Chinese sentence may go on after it: "...'float8_e4m3fn'的问题，有人知道解决方案吗？")
            r"(?(q)\.{0,2}(?P=q)(?:[.,;:!?]?\s.{0,500}|[.,;:!?]|(?(json),\"\w{1,40}\":.{1,300}))?|\.{0,2}(?:[\u4e00-\u9fff].{0,500}|(?(app)\s.{1,300}))?)$"
        ),
        lambda m: words_class(m["msg"]),
        line_kind,
        # (multiprocessing's sentence wraps after "before the" in its own message)
        message=lambda m: (
            _BOOTSTRAP
            if m["msg"].startswith(_BOOTSTRAP[:40])
            else m["msg"].replace("`", "'")
            if m["mq"] == "`"
            else m["msg"]
        ),
    ),
    # Triton's kernel needing more of a resource than the GPU has, after its class (triton.runtime.errors's,
    # triton.code_gen's) or in a sentence ("triton.runtime.errors.OutOfResources: out of resource: shared memory,
    # Required: 98304, Hardware limit: 49152. Reducing block sizes or `num_stages` may help."): which resource; how
    # much the kernel's configuration asked and the GPU has are the run's
    BareError(
        "triton-resources",
        ("out of resource: ",),
        re.compile(r"(?:^|\bOutOfResources: )out of resource: (?P<msg>[a-z][a-z ]{1,40}?)(?=,? ?Required|\.?$)"),
        "OutOfResources",
        message=lambda m: f"out of resource: {m['msg']}",
    ),
    # PyTorch's failed internal assert (c10's TORCH_INTERNAL_ASSERT: 'NVML_SUCCESS == r INTERNAL ASSERT FAILED at
    # "../c10/cuda/CUDACachingAllocator.cpp":830, please report a bug to PyTorch.') and its check that a CUDA driver is
    # there ("Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver
    # from http://www.nvidia.com/Download/index.aspx"), posted without the RuntimeError they are raised as
    BareError(
        "torch-words",
        (" INTERNAL ASSERT FAILED at ", ' INTERNAL ASSERT FAILED"', "Found no NVIDIA driver on your system"),
        re.compile(
            r"(?:^|(?<=[\s\"'`*]))(?P<msg>\S.{0,500} INTERNAL ASSERT FAILED at \"[^\"]{1,300}\":\d{1,6}, please "
            r"report a bug to PyTorch|Found no NVIDIA driver on your system\. Please check that you have an NVIDIA GPU "
            r"and installed a driver from http://www\.nvidia\.com/Download/index\.aspx)|"
            r"^\"(?P<title>[^\"]{1,300} INTERNAL ASSERT FAILED)\"(?: |$)"  # (a title quoting the assert alone)
        ),
        "RuntimeError",
        message=lambda m: m["msg"] or m["title"],
    ),
    # einops' check posted without its class, alone or after the pattern on one line ("Error while processing
    # rearrange-reduction pattern ... Shape mismatch, can't divide axis of length 135 in chunks of 2", in bold): the
    # check is the failure (folds: einops)
    BareError(
        "einops-words",
        ("can't divide axis", "Wrong shape: expected ", "Shape mismatch, ", "dimensions, got "),
        EINOPS_WORDS,
        "EinopsError",
        message=einops_check,
    ),
    # PyTorch 2.6's torch.load with weights_only refusing a checkpoint names why on a line of its own ("WeightsUnpickler
    # error: Unsupported operand 118", "... Unsupported global: GLOBAL getattr was not an allowed global by default.
    # Please use ..."), below the UnpicklingError's head every refusal shares, or posted without it: why is the failure,
    # the advice after it not
    BareError(
        "torch-weights-only",
        ("WeightsUnpickler error: ",),
        re.compile(r"WeightsUnpickler error: (?P<msg>.{1,1000}?)(?:\. Please use .*)?$"),
        "UnpicklingError",
        message=lambda m: f"Weights only load failed: {m['msg']}",
    ),
    # Keras 3's refusals posted without their ValueError, in a title or behind transformers' lazy import ("Failed to
    # import transformers.models.gpt2.modeling_tf_gpt2 because of the following error (look up to see its traceback):
    # Your currently installed version of Keras is Keras 3, but this is not yet supported in Transformers. ...", a
    # title GitHub cut inside it; "A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. ...")
    BareError(
        "keras3-words",
        ("version of Keras is Keras 3", "A KerasTensor is symbolic"),
        re.compile(
            r"(?P<msg>Your currently installed version of Keras is Keras 3, but this is not yet supp[\w ]{0,60}?"
            r"(?=\.|$)|"
            r"A KerasTensor is symbolic: .{1,500}?(?=\.?$))"
        ),
        "ValueError",
    ),
    # torch.save's zip writer failing a record, in a title without its RuntimeError ("[BUG] PytorchStreamWriter failed
    # writing file data/3: file write failed")
    BareError(
        "torch-stream-writer",
        ("PytorchStreamWriter failed writing file",),
        re.compile(r"(?P<msg>PytorchStreamWriter failed writing file \S{1,300}: file write failed)"),
        "RuntimeError",
    ),
    # OpenSSL's refusal quoted alone from the tail of requests' wrapper ("SSLError(SSLError(1, '[SSL:
    # UNSAFE_LEGACY_RENEGOTIATION_DISABLED] unsafe legacy renegotiation disabled (_ssl.c:997)')))"): its reason
    BareError(
        "ssl-reason",
        ("SSLError(",),
        re.compile(r"SSLError\((?:SSLError\()?\d{1,3}, '(?P<msg>\[SSL: \w{1,80}\] [^'(]{1,200}?) \(_ssl\.c:\d{1,6}\)'"),
        "SSLError",
        "infrastructure",
    ),
    # pickle refusing what it cannot name, posted without its class ("Can't pickle local object
    # 'data_provider.<locals>.<lambda>'", an AttributeError; "Can't pickle <function main_worker at 0x7f...>: attribute
    # lookup main_worker on __main__ failed", a PicklingError): the object, not where it was in memory
    BareError(
        "pickle-words",
        ("Can't pickle ",),
        re.compile(
            r"(?:^|(?<=[\s\"'`]))(?P<msg>Can't pickle (?:(?P<local>local object '[^']{1,200}')|<function [\w.]{1,200} "
            r"at 0x[0-9a-f]{4,16}>: attribute lookup [\w.]{1,200} on [\w.]{1,200} failed))"
        ),
        lambda m: "AttributeError" if m["local"] else "PicklingError",
    ),
    # orbax's and tensorstore's checks posted without their ValueError, in a title or alone ("Checkpoint path should be
    # absolute", "jax.Array must be fully replicated to be saved in aggregate file", tensorstore's spec 'Error parsing
    # object member "base": ... Array has length 0 but should have length 1'); tokenizers' reading of a tokenizer.json
    # newer than it ("data did not match any variant of untagged enum ModelWrapper at line 1251019 column 3")
    BareError(
        "checkpoint-words",
        (
            "Checkpoint path should be absolute",
            "must be fully replicated to be saved",
            "Error parsing object member ",
            "did not match any variant of untagged enum",
        ),
        re.compile(
            # (tensorstore's only alone on its line: inside a status or an error's message it is theirs)
            r"(?:^|(?<=[\s\"'`])(?!Error parsing))(?P<msg>Checkpoint path should be absolute|jax\.Array must be fully "
            r"replicated to be "
            r"saved in aggregate file|Error parsing object member \"\w{1,100}\": .{1,500}?|(?P<enum>data did not match "
            r"any variant of untagged enum \w{1,100} at line \d{1,12} column \d{1,6}))(?=\.?$|\. |\s\[source|`$)"
        ),
        lambda m: "Exception" if m["enum"] else "ValueError",
        weak=True,  # (a raised error's message wrapped onto its own line is that error's, and goes on it)
        continues=True,
    ),
    # peft refusing to merge adapters into a quantized model, posted without its ValueError ("Cannot merge LORA layers
    # when the model is gptq quantized", run into a sentence): how the model was quantized is which refusal
    BareError(
        "peft-merge",
        ("Cannot merge LORA layers when the model is ",),
        re.compile(
            r"(?P<msg>Cannot merge LORA layers when the model is (?:gptq quantized|loaded in \d{1,2}-bit mode))"
        ),
        "ValueError",
    ),
    # flax's errors end on a link to their entry in its docs, which names the class ("... for parameter "d_0" in
    # "/model/Dense_0". (https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors.
    # ScopeParamShapeError)"): posted without the class, or with one that does not end in Error
    # ("ScopeCollectionNotFound: Tried to access ..."), the link's class is the one raised
    BareError(
        "flax-error-link",
        ("flax.errors.html#flax.errors.",),
        re.compile(
            r"^(?:(?:flax\.errors\.)?[A-Z]\w{1,80}: )?(?P<msg>.{1,1000}?)\.? \(https?://flax\.readthedocs\.io/\S{1,200}?"
            r"flax\.errors\.html#flax\.errors\.(?P<cls>[A-Z]\w{1,80})\)"
        ),
        lambda m: m["cls"],
    ),
]
