"""Hugging Face's libraries loading a model's files, config and code, in the words of several releases. Pure.

transformers refuses bf16 on a GPU without it with advice, and a repository's own code without
``trust_remote_code=True`` in three wordings ("Loading X requires you to execute the configuration file in that repo
on your local machine. ...", "Loading this model requires you to execute custom code contained in the model repository
...", since 4.36 "The repository for X contains custom code which must be executed to correctly load the model. ..."),
follows a model type it does not know, a tokenizer or config it cannot load and a file a repository lacks with advice,
and a post may quote any of them without the class. The refusal, the model type, what could not be loaded and the file
are the failure; which repository asked for code, and the advice, are not. Python's KeyError prints its key's repr
alone, so what follows it on the line is the post's.
"""

from __future__ import annotations

import re

from canary.signature.installs import missed_bound
from canary.signature.recogniser import BareError, environment_check

_REMOTE_CODE = re.compile(
    r"^(?:Loading (?:this model|\S{1,200}) requires you to execute (?:the configuration file in that repo|custom code "
    r"contained in the model repository) on your local machine\b|The repository for \S{1,200} contains custom code "
    r"which must be executed to correctly load the model\b).{0,1000}$"
)
REMOTE_CODE = "The repository for <model> contains custom code which must be executed to correctly load the model"
_MODEL_TYPE = (
    r"The checkpoint you are trying to load has model type `?[\w.-]{1,100}`? but Transformers does not recognize"
)
_MODEL_TYPE_ADVICE = re.compile(rf"^({_MODEL_TYPE} this architecture)\b.{{1,1000}}$")
_CANT_LOAD = (
    r"Can't load (?:tokenizer|config|the configuration|the model|feature extractor|image processor|processor) "
    r"for '[^']{1,300}'"
)
_CANT_LOAD_ADVICE = re.compile(rf"^({_CANT_LOAD})\.?\s.{{1,2000}}$")
_NO_FILE = r"[\w.-]{1,100}/[\w.-]{1,200} does not appear to have a file named [\w.-]{1,200}"
_NO_FILE_ADVICE = re.compile(rf"^({_NO_FILE})\. Checkout '[^']{{1,400}}' for available files\.?$")
# ... or a local folder by its path, Windows' or POSIX's (a post may break it or cut the advice): which file is missing
_LOCAL_NO_FILE = re.compile(
    r"^(?:[A-Za-z]:\\|[/~.]|<path>).{0,500}? does not appear to have a file named ([\w.-]{1,200}?)\.?(?: Checkout .*)?$"
)
# TrainingArguments' refusal of bf16 on a GPU without it, then what it needs ("Your setup doesn't support bf16/gpu. You
# need torch>=1.10, using Ampere GPU with cuda>=11.0"): the advice a post may leave out
_BF16_ADVICE = re.compile(r"^(Your setup doesn't support bf16/\(?gpu\)?)\.? You need\b.{0,300}$")
# huggingface_hub's errors print the status and the request's id on their first line ("401 Client Error. (Request ID:
# Root=1-...)"), the words below it: the class and the status are the failure, which request is the run's
_HUB_STATUS = re.compile(r"^(\d{3}) Client Error\.?(?: \(Request ID: [^)]{0,300}\)?)?$")
_REQUEST_ID = re.compile(r" \(Request ID: [^)]{0,300}\)$")
_GATED = {"401": "Cannot access gated repo: not authenticated", "403": "Cannot access gated repo: not on its list"}
_HUB_WORDS = {
    "GatedRepoError": "Cannot access gated repo",
    "RepositoryNotFoundError": "Repository Not Found",
    "RevisionNotFoundError": "Revision Not Found",
    "EntryNotFoundError": "Entry Not Found",
}
# offline mode, by release: a request it blocked ("Cannot reach https://huggingface.co/api/...: offline mode is
# enabled. To disable it, ..."), a snapshot it could not find cached, with each release's advice
_OFFLINE = re.compile(r"^Cannot reach \S{1,500}: offline mode is enabled\b.{0,500}$")
_NO_SNAPSHOT = re.compile(
    r"^(Cannot find an appropriate cached snapshot folder for the specified revision on the local disk and outgoing "
    r"traffic has been disabled)\b.{0,500}$"
)
# a file neither downloaded nor cached, in 2023's words and the later ones ("An error happened while trying to locate
# the file on the Hub and we cannot find the requested files in the local cache. Please check your connection ...")
_NO_CACHE = re.compile(
    r"^(?:Connection error, and we|An error happened while trying to locate the file on the Hub and we) cannot find "
    r"the requested files? in the (?:disk|local) cache\b.{0,500}$"
)
NO_CACHE = "Connection error, and we cannot find the requested files in the disk cache"
# the Hub refusing a token at whoami, 2021's raw status and its later words for it ("Invalid user token")
_WHOAMI = re.compile(r"^401 Client Error: Unauthorized for url: \S{0,100}/api/whoami-v2\S{0,100}$")
# transformers' check of the releases beside it at import ("tokenizers>=0.22.0,<=0.23.0 is required for a normal
# functioning of this module, but found tokenizers==0.21.4."): which package, and whether the one found is older or
# newer than the range, not the range of that transformers or the release found
_DEPENDENCY = re.compile(
    r"^(?P<pkg>[\w.-]{1,100}?)(?P<spec>[<>=!~]=?[\w.*]{1,30}(?:,[<>=!~]=?[\w.*]{1,30}){0,4}) is required for a normal "
    r"functioning of this module, but found (?P=pkg)==(?P<have>\d{1,4}(?:\.\d{1,6}){0,3})\b.*$"
)
# tokenizers reading a tokenizer.json a newer release wrote, by the type it could not read, not where in the file;
# the Inference API's wrapper before it ("Can't load tokenizer using from_pretrained, please update its
# configuration: data did not match any variant of untagged enum PyPreTokenizerTypeWrapper at line 1 column 13014")
_ENUM = re.compile(r"\b(data did not match any variant of untagged enum \w{1,100}) at line \S{1,14} column \S{1,8}$")
# KeyError: its key's repr, then what a post wrote after it on the line ("KeyError: 'qwen2' 。 是不是因为 ...")
_KEY_TAIL = re.compile(r"^('[^'\\]{1,300}')\s.{1,2000}$")


def hub_words(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    """The ``hub-loading`` rule: transformers' refusals and what it could not load, without the repository that asked
    and the advice; its check of a package beside it by which way it missed; tokenizers' unreadable type without
    where; a KeyError's key without a post's words after it."""
    if _REMOTE_CODE.match(message):
        return exc, REMOTE_CODE, frames
    if message.endswith(")") and " Client Error: " in message:
        message = _REQUEST_ID.sub("", message)  # (which request is the run's: "... for url: <url> (Request ID: x)")
    if "untagged enum" in message and (m := _ENUM.search(message)):
        message = m[1]
    elif "is required for a normal functioning" in message and (m := _DEPENDENCY.match(message)):
        way = "older" if missed_bound(m["have"], m["spec"]).startswith(">") else "newer"
        message = f"{m['pkg']} is required for a normal functioning of this module, but found a release {way} than it"
    elif "Transformers does not recognize" in message:
        message = _MODEL_TYPE_ADVICE.sub(r"\1", message)
    elif message.startswith("Can't load "):
        message = _CANT_LOAD_ADVICE.sub(r"\1", message)
    elif "does not appear to have a file named" in message:
        message = _LOCAL_NO_FILE.sub(r"a local folder does not appear to have a file named \1", message)
        message = _NO_FILE_ADVICE.sub(r"\1", message)
    elif exc in _HUB_WORDS and (m := _HUB_STATUS.match(message)):
        words = _GATED.get(m[1], _HUB_WORDS[exc]) if exc == "GatedRepoError" else _HUB_WORDS[exc]
        message = f"{m[1]} Client Error: {words}"
    elif message.startswith("Cannot reach ") and _OFFLINE.match(message):
        message = "Cannot reach <url>: offline mode is enabled"
    elif message.startswith("We couldn't connect to 'https://huggingface.co/'"):
        message = message.replace("'https://huggingface.co/'", "'https://huggingface.co'", 1)
    elif _NO_CACHE.match(message):
        message = NO_CACHE
    elif message.startswith("Cannot find an appropriate cached snapshot"):
        message = _NO_SNAPSHOT.sub(r"\1", message)
    elif message.startswith("401 Client Error") and _WHOAMI.match(message):
        message = "Invalid user token"
    elif message.startswith("Your setup doesn't support bf16"):
        message = _BF16_ADVICE.sub(r"\1", message)
    elif exc == "KeyError":
        message = _KEY_TAIL.sub(r"\1", message)
    return exc, message, frames


# the Hugging Face Hub as transformers and requests word it: "<name> is not a local folder and is not a valid model
# identifier listed on 'https://huggingface.co/models'" (which name is the program's), "429 Client Error: Too Many
# Requests for url: https://huggingface.co/..." (a rate limit, whichever file it was fetching); transformers' loaders
# name the directory or checkpoint file they looked in ("Error no file named pytorch_model.bin, ... found in directory
# /x/ckpt but there is a file for Flax weights. Use `from_flax=True` ...", "Unable to load weights from pytorch
# checkpoint file for '/x/pytorch_model.bin' at '/x/pytorch_model.bin'. If you tried to load ..."): the program's
_NOT_A_MODEL = re.compile(r"^\S{1,300} is not a local folder and is not a valid model identifier\b.*$")
_RATE_LIMIT = re.compile(r"\b429 Client Error: Too Many Requests for (?:url|URL): \S{1,1000}")
_NO_WEIGHTS = re.compile(
    r"^(Error no file named .{1,300}? found in directory)(?: \S{1,500})?( but there is a file for \w{1,20} weights)?.*$"
)
_FORMATS = "pytorch_model.bin, tf_model.h5"
_SAFETENSORS_TOO = "pytorch_model.bin, model.safetensors, tf_model.h5"
_CHECKPOINT = re.compile(r"^(Unable to load weights from pytorch checkpoint file) for .{1,1000}$")
# (a revision the Hub does not have: "v2.0.1 is not a valid git identifier (branch name, tag name or commit id) that
# exists for this model name. ...", "None is not ..."; which revision the program asked for, and the model's page, are
# the program's; and huggingface_hub 0.2x raises a token not found as LocalTokenNotFoundError, an OSError, as OSError
# before, with advice by release)
_REVISION = re.compile(r"^\S{1,200} (is not a valid git identifier) \(branch name, tag name or commit id\).*$")
_TOKEN_REQUIRED = "Token is required (`token=True`), but no token found"
# (a repository's modeling file importing packages the environment lacks: "... not found in your environment:
# flash_attn. Run `pip install flash_attn`", the command in backticks or quotes: which packages)
_REMOTE_IMPORTS = "This modeling file requires the following packages that were not found in your environment: "
_REMOTE_PACKAGES = re.compile(r"^(.{1,200}? in your environment: [\w., -]{1,300}?)\. Run .*$")


def hub_names(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    if "is not a valid model identifier" in message:
        message = _NOT_A_MODEL.sub("<model> is not a local folder and is not a valid model identifier", message)
    if "429 Client Error" in message:
        message = _RATE_LIMIT.sub("429 Client Error: Too Many Requests", message)
    if message.startswith("Error no file named "):
        # (4.30 added model.safetensors to the formats it names: one search of the folder)
        message = _NO_WEIGHTS.sub(r"\1 <directory>\2", message.replace(_SAFETENSORS_TOO, _FORMATS, 1))
    if message.startswith("Unable to load weights from pytorch checkpoint file"):
        message = _CHECKPOINT.sub(r"\1 for <file>", message)
    if "is not a valid git identifier" in message:
        message = _REVISION.sub(r"<revision> \1 (branch name, tag name or commit id)", message)
    if message.startswith(_REMOTE_IMPORTS):  # (without the pip command after it, quoted one way or another)
        message = _REMOTE_PACKAGES.sub(r"\1", message)
    if message.startswith(_TOKEN_REQUIRED):  # (and the advice after it, by release)
        exc, message = "OSError" if exc == "LocalTokenNotFoundError" else exc, _TOKEN_REQUIRED
    return exc, message, frames


# posted without the class they are raised as
def _refused_how(lines: list[str], i: int, message: str) -> str:
    """The Hub's "Repository Not Found" with the 401 its last line says it answered ("Invalid username or password."
    a few lines below), as huggingface_hub raises it."""
    # (and where huggingface_hub's own line above it says 401, as a traceback prints it before the Hub's words)
    near = lines[max(0, i - 3) : i + 5]
    refused = any("Invalid username or password" in ln or "401 Client Error" in ln for ln in near)
    return f"401 Client Error: {message}" if refused else message


HUB_ERRORS: list[BareError] = [
    # the Hub's words a post copies without huggingface_hub's class ("Repository Not Found for url: https://...",
    # "Please make sure you specified the correct `repo_id` ...", "Invalid username or password."), and transformers'
    # "We couldn't connect to 'https://huggingface.co' to load this file, ..." after a post's image: the class each
    # is raised with
    BareError(
        "hub-repo-not-found",
        ("Repository Not Found for url: ",),
        re.compile(r"^Repository Not Found for url: \S{1,500}$"),
        "RepositoryNotFoundError",
        message=lambda m: "Repository Not Found",
        below=_refused_how,
    ),
    BareError(
        "hub-cannot-connect",
        ("We couldn't connect to 'https://huggingface.co'",),
        # (transformers' later words for several files, "... to load the files, and couldn't find them in the cached
        # files", an issue's title)
        re.compile(
            r"(?:^|(?<=[\s)]))(?P<msg>We couldn't connect to 'https://huggingface\.co/?' to load (?:this file|the "
            r"files)\b.{0,600})$"
        ),
        "OSError",
    ),
    # the Hub refusing requests past its rate limit, as huggingface_hub warns before each retry ("HTTP Error 429 thrown
    # while requesting HEAD https://huggingface.co/gpt2/resolve/main/config.json") and as llama.cpp's downloader says
    # it ('error from HF API, response code: 429, data: {"error":"We had to rate limit your IP ..."}'): which client
    # and status; which file and which address are the run's
    BareError(
        "hub-http-retry",
        ("thrown while requesting ",),
        re.compile(
            r"\bHTTP Error (?P<code>\d{3}) thrown while requesting [A-Z]{3,7} https?://(?P<host>[\w.-]{1,200})/"
        ),
        None,
        "infrastructure",
        message=lambda m: f"huggingface_hub: HTTP Error {m['code']} thrown while requesting {m['host']}",
        weak=True,
    ),
    BareError(
        "hub-api-status",
        ("error from HF API, response code: ",),
        re.compile(r"error from HF API, response code: (?P<code>\d{3})\b"),
        None,
        "infrastructure",
        message=lambda m: f"llama.cpp: error from HF API, response code: {m['code']}",
    ),
    BareError(
        "hub-model-type",
        ("Transformers does not recognize",),
        re.compile(rf"(?P<msg>{_MODEL_TYPE} this architecture)"),
        "ValueError",
    ),
    # a gated repository's words posted without the class: unauthenticated (401) or not on its list (403)
    BareError(
        "hub-gated",
        ("is restricted", "is gated."),
        re.compile(
            r"(?:Access to model \S{1,200} is restricted(?P<list> and you are not in the authorized list)?|"
            r"Repo model \S{1,200} is gated\.)"
        ),
        "GatedRepoError",
        message=lambda m: "403 Client Error." if m["list"] else "401 Client Error.",
        weak=True,  # (below transformers' OSError, which names the failure, the words of its message)
    ),
    # a download waiting on another process's lock in the cache (a stale one: "Still waiting to acquire lock on
    # /x/.cache/huggingface/download/model.safetensors.lock (elapsed: 10.0 seconds)...", 2024's lower-case words), and
    # a file system without flock, which the cache falls back from (a warning): which file is the run's
    BareError(
        "hub-lock-wait",
        ("aiting to acquire lock on",),
        re.compile(r"\b[Ss]till waiting to acquire lock on \S{1,500}"),
        None,
        "timeout",
        message=lambda m: "huggingface_hub: still waiting to acquire a lock in the cache",
    ),
    BareError(
        "hub-soft-lock",
        ("does not appear to support flock",),
        re.compile(r"FileSystem does not appear to support flock\. Falling back to SoftFileLock"),
        None,
        "environment",
        message=lambda m: "filelock: the file system does not support flock; falling back to SoftFileLock",
        weak=True,
    ),
    BareError("hub-cant-load", ("Can't load ",), re.compile(rf"(?:^|(?<=[\s\"'`]))(?P<msg>{_CANT_LOAD})"), "OSError"),
    BareError(
        "hub-no-file",
        ("does not appear to have a file named",),
        re.compile(rf"(?:^|(?<=[\s\"'`]))(?P<msg>{_NO_FILE})"),
        "OSError",
    ),
    # the Hub's client telling of its download machinery: Xet storage without hf_xet installed ("Xet Storage is enabled
    # for this repo, but the 'hf_xet' package is not installed. Falling back to regular HTTP download."), the CLI
    # renamed ("Warning: 'huggingface-cli download' is deprecated. Use 'hf download' instead."), transformers 4.22
    # migrating its cache: all weak, the download goes on
    environment_check(
        "hub-download-notices",
        ("but the 'hf_xet' package is not installed", "is deprecated. Use 'hf ", "Migrating your old cache"),
        r"(?P<xet>Xet Storage is enabled for this repo, but the 'hf_xet' package is not installed)|"
        r"'huggingface-cli (?P<cmd>\w{1,20})' is deprecated\. Use 'hf|"
        r"(?P<cache>The cache for model files in Transformers v[\d.]{1,10} has been updated)",
        None,
        message=lambda m: m["xet"] or m["cache"] or f"'huggingface-cli {m['cmd']}' is deprecated",
        weak=True,
    ),
]
