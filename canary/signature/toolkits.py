"""The rewordings of what the tools around a training run name of it: the error torch.compile's backend raised inside
torch's own class, dynamo's recompile limit and unsupported calls by release, Hypothesis' checks by the run's times and
counts, pydantic's validation by the config's keys, and the data set and tokenizer libraries by the run's data set, URLs
and advice. Pure. Each is stated once, with the reason it is safe, in :data:`canary.signature.folds.RULES`.
"""

from __future__ import annotations

import re

from canary.signature import kinds
from canary.signature.masks import canonical_class
from canary.signature.rewordings import Parts

# torch.compile raises what its backend raised inside a class of its own: "BackendCompilerFailed: backend='inductor'
# raised:" above "FileNotFoundError: ...", PyTorch 2.0's "debug_wrapper raised OSError: ...", since 2.6 "InductorError:
# PermissionError: ...", a lowering's "LoweringException: ImportError: ..."; the error inside, by its own class, is the
# failure
# (dynamo's own error around what it met compiling, "InternalTorchDynamoError: RuntimeError: Compiler: cl is not
# found.", and inductor's classes named for what is missing, "InvalidCxxCompiler: No working C++ compiler found")
_COMPILE_WRAPPERS = ("BackendCompilerFailed", "InductorError", "LoweringException", "InternalTorchDynamoError")
_COMPILE_RAISED = re.compile(
    r"^(?:(?:backend='[\w.]{1,60}'|[\w.]{1,60}) raised:? )?"
    r"(?P<cls>[A-Z]\w{0,60}(?:Error|Exception)|InvalidCxxCompiler|TritonMissing): (?P<msg>.{1,2000}?)(?<!\.)\.?\"?$"
)


# (dynamo's own error around what it met is dynamo's failure, unwrapped only where what it met is the machine's: a
# compiler or Triton it did not find)
_MISSING_TOOL = re.compile(r"Compiler: \w{1,20} is not found|No working C\+\+ compiler found|Failed to find C compiler")


# (dynamo's advice after what it raised, on the message's line where a post runs them on: "  Set TORCHDYNAMO_VERBOSE=1
# for the internal stack trace (please do this especially if you're reporting a bug to PyTorch). ...")
_DYNAMO_ADVICE = re.compile(r"\s{1,8}Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace\b.*$")


def compile_wrapper(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "TORCHDYNAMO_VERBOSE" in message:
        message = _DYNAMO_ADVICE.sub("", message)
    if exc == "InternalTorchDynamoError" and not _MISSING_TOOL.search(message):
        return exc, message, frames
    inner = _COMPILE_RAISED.match(message) if exc in _COMPILE_WRAPPERS else None
    if inner is None:
        # (a wrapper whose message is the inner error's words without its class: "InductorError: 'KernelMetadata'
        # object has no attribute 'cluster_dims'")
        words = kinds.words_class(message) if exc in _COMPILE_WRAPPERS else None
        return (words or exc), message, frames
    return canonical_class(inner["cls"], inner["msg"]), inner["msg"], frames


# dynamo's words for a graph it will not compile or compile again, by release: the recompile limit it hit with a whole
# graph required (torch 2.5's "cache_size_limit reached with one_graph=True", 2.6's "recompile_limit reached with
# one_graph=True", 2.7's "... with fullgraph=True"), its advice after; since 2.7 an unsupported call's headline, then
# "Explanation:" naming the function (a path of the run's), "Hint:"s and a developer's context
_RECOMPILE = re.compile(r"^(?:cache_size|recompile)_limit reached with (?:one_graph|fullgraph)=True\b.*$")
_EXPLAINED = re.compile(
    r"^(?P<head>.{1,300}?) Explanation: (?P<why>.{0,2000}?)(?= Hint: | Developer debug context: |$)"
)
_SKIPPED = re.compile(r"the function `(?P<fn>[\w.<>]{1,200})`")


# inductor without a working Triton, by release: "Cannot find a working triton installation. More information ...",
# later "... installation. Either the package is not installed or it is too old. More information ..."
_NO_TRITON = re.compile(r"^(Cannot find a working triton installation)\..*$")


def dynamo(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("Failed to find C compiler."):  # (Triton's advice after it, by release)
        return exc, "Failed to find C compiler", frames
    if message.startswith("Cannot find a working triton"):
        return exc, _NO_TRITON.sub(r"\1", message), frames
    if exc == "FailOnRecompileLimitHit" and _RECOMPILE.match(message):
        return exc, "recompile_limit reached with fullgraph=True", frames
    explained = _EXPLAINED.match(message) if exc == "Unsupported" else None
    if explained:
        fn = _SKIPPED.search(explained["why"])
        return exc, explained["head"] + (f" ({fn['fn']})" if fn else ""), frames
    return exc, message, frames


# apex's amp.initialize refusing a model not on the GPU names the parameter or buffer it met first ("Found param
# block_one.conv.0.weight with type torch.FloatTensor, expected torch.cuda.FloatTensor."), later with advice ("When
# using amp.initialize, you need to provide a model with parameters located on a CUDA device ..."): the model's name
# for it is the program's; a parameter or a buffer, and the types, are the failure
_AMP_FOUND = re.compile(r"^Found (param|buffer) \S{1,300} with type (\S{1,60}?), expected (\S{1,60}?)(?:\.(?: .*)?)?$")


def apex_amp(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _AMP_FOUND.match(message) if message.startswith("Found ") else None
    return exc, f"Found {m[1]} <name> with type {m[2]}, expected {m[3]}" if m else message, frames


# Hypothesis names a deadline its test missed by the times ("Test took 748.20ms, which exceeds the deadline of
# 500.00ms"; schemathesis' "API response time is too slow! It took ..."), and a failed health check by its head and the
# run's counts ("Data generation is extremely slow: Only produced 7 valid examples in 1.07 seconds (0 invalid ones ...")
_DEADLINE = re.compile(r"^.{0,100}?\btook \S{1,40}, which exceeds the deadline of \S{1,40}?\.?$")
_HEALTH_HEAD = re.compile(r"^([^:.]{1,200})[:.] .*$")
# (Hypothesis 6's check of a function-scoped fixture under @given names the test and the fixture: "tests/x.py::test_y
# uses the 'tmp_path' fixture, which is reset between function calls but not between test cases generated by
# `@given(...)`"; or the check's later words: "'tests/x.py::test_y' uses a function-scoped fixture 'tmp_path'")
_FIXTURE = "fixture, which is reset between function calls but not between test cases"
_FIXTURE_WORDS = "a test uses a function-scoped fixture, reset between calls but not between @given's test cases"


def hypothesis(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc == "DeadlineExceeded" and _DEADLINE.match(message):
        return exc, "took longer than its deadline", frames
    if exc == "FailedHealthCheck" and (_FIXTURE in message or "uses a function-scoped fixture" in message):
        return exc, _FIXTURE_WORDS, frames  # (which test and which fixture are the suite's)
    if exc == "FailedHealthCheck":
        return exc, _HEALTH_HEAD.sub(r"\1", message), frames
    if exc == "Flaky" and message.startswith("Unreliable test timings!"):
        return exc, "Unreliable test timings", frames
    return exc, message, frames


# pydantic's ValidationError counts the errors, then names each field, its error and the input ("5 validation errors
# for DeepSpeedBF16Config loss_scale Extra inputs are not permitted [type=extra_forbidden, input_value=0, ...]", v1's
# "... extra fields not permitted (type=value_error.extra)"): how many, which keys and their values are the config's;
# the model that refused them and the first error's type are the failure
_VALIDATION = re.compile(
    r"^\d{1,4} validation errors? for (?P<model>[\w.]{1,200})\b.{0,2000}?[\[(]type=(?P<type>[\w.]{1,100})[,)\]]"
)


def pydantic_validation(exc: str | None, message: str, frames: list[str]) -> Parts:
    v = _VALIDATION.match(message) if exc == "ValidationError" else None
    return (exc, f"validation error for {v['model']}: {v['type']}", frames) if v else (exc, message, frames)


# Hugging Face datasets and TensorFlow Datasets name the run's data set and where its files came from: "Dataset scripts
# are no longer supported, but found logiqa.py", "The repository for nguha/legalbench contains custom code ...", a
# checksum that failed for "['https://github.com/x/y/archive/master.zip']" or for "Artifact https://drive.google.com/uc?
# ..., downloaded to ~/tensorflow_datasets/downloads/..., has wrong checksum: * Expected: UrlInfo(...)": which data set,
# the URL's path and where it was saved are the run's; the host it came from (Drive's page for a file, an archive that
# changed) is kept
_SCRIPT_FOUND = re.compile(r"^(Dataset scripts are no longer supported, but found) \S{1,300}\.py\b.*$")
_CUSTOM_CODE = re.compile(
    r"^The repository for \S{1,300} (contains custom code which must be executed to correctly load the dataset)\b.*$"
)
_HOSTS = re.compile(r"https?://([\w.-]{1,200})[^\s'\],]*")
_SOURCE_FILES = re.compile(r"^(Checksums didn't match for dataset source files): \[(.{1,5000}?)\]?$")
_ARTIFACT = re.compile(r"^Artifact (https?://\S{1,2000}?),? downloaded to .{1,2000}?, has wrong checksum\b.*$")


# datasets' loading script it could not fetch from GitHub by release and name ("Couldn't reach https://raw.githubuser
# content.com/huggingface/datasets/1.0.2/datasets/xsum/xsum.py"); a Hub file a stream lost ("zstd://a.jsonl::hf://data
# sets/org/name@rev/a.jsonl.zst"); MosaicML streaming's local directory taken and its shared memory's numbered names
# ("'/000006_locals'"); ArrayRecord's and riegeli's file not opened ("open() failed: ...; opening gs://..."): the run's
_SCRIPT_URL = re.compile(
    r"^(Couldn't reach) https?://(raw\.githubusercontent\.com)/huggingface/datasets/\S{1,500}\.py\b.*$"
)
_HUB_FILE = re.compile(r"^(?:\w{1,20}://\S{1,500}?::)?hf://datasets/\S{1,1000}$")
_REUSED = re.compile(r"^(Reused local directory): .{1,2000}?(\. Provide a different one)\b.*$")
_SHM_NAME = re.compile(r"'/\d{1,12}_(\w{1,40})'")
_OPENING = re.compile(r"^(open\(\) failed: [^;]{1,200}); opening \S{1,2000}$")
# TensorFlow Datasets' builder without the config the program asked for ("Failed to construct dataset lm1b:
# BuilderConfig subwords32k not found. Available: []"): that none is there is the failure, which was asked the program's
_BUILDER_CONFIG = re.compile(r"\bBuilderConfig \S{1,200} not found\. Available: \[\]")


def data_sets(exc: str | None, message: str, frames: list[str]) -> Parts:
    message = _SCRIPT_FOUND.sub(r"\1 <script>", message)
    if message.startswith("Couldn't reach http"):
        message = _SCRIPT_URL.sub(r"\1 a datasets loading script on \2", message)
    elif _HUB_FILE.match(message):
        message = "hf://datasets/<file>"
    elif message.startswith("Reused local directory"):
        message = _REUSED.sub(r"\1: <dir>\2", message)
    elif message.startswith("open() failed: "):
        message = _OPENING.sub(r"\1; opening <file>", message)
    if "_locals'" in message or "_filelock'" in message:
        message = _SHM_NAME.sub(r"'/<n>_\1'", message)
    message = _CUSTOM_CODE.sub(r"The repository for <dataset> \1", message)
    if "BuilderConfig " in message:
        message = _BUILDER_CONFIG.sub("BuilderConfig <config> not found. Available: []", message)
    if exc == "NonMatchingChecksumError":
        files = _SOURCE_FILES.match(message)
        if files:
            message = f"{files[1]}: " + ", ".join(sorted(set(_HOSTS.findall(files[2]))))
        artifact = _ARTIFACT.match(message)
        if artifact:
            message = "Artifact from " + ", ".join(_HOSTS.findall(artifact[1])) + " has wrong checksum"
    return exc, message, frames


# transformers after a conversion to a fast tokenizer that failed lists the converters its release has ("Currently
# available slow->fast convertors: [...]", "converters" later); after a backend it needs and has not, the installation
# advice; after a fast tokenizer it could not build, the three ways it tried, which every release lists (whether it
# says sentencepiece is missing is kept)
_CONVERTERS = re.compile(r"\.?\s?Currently available slow->fast conver[a-z]{2,4}: \[.*$")
_BACKEND = re.compile(r"^(.{1,300}? requires the [\w.-]{1,60} library but it was not found in your environment)\b.*$")
_BACKEND_TOKENIZER = "Couldn't instantiate the backend tokenizer"


def transformers_lists(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "slow->fast conver" in message:
        message = _CONVERTERS.sub(".", message)
    if "library but it was not found" in message:
        message = _BACKEND.sub(r"\1", message)
    if message.startswith(_BACKEND_TOKENIZER):
        missing = "sentencepiece installed" in message
        message = _BACKEND_TOKENIZER + (": sentencepiece is not installed" if missing else "")
    return exc, message, frames
