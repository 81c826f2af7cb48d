"""The rewordings of frameworks' and services' own words, by release: PyTorch's and TensorFlow's out of memory,
PyTorch's determinism check, NCCL's shared memory segment, Ray's dead actor, full object store and memory monitor,
Triton's ptxas, a storage service's HTTP response, the model hub's path check, GitHub Actions' time limit,
TensorFlow's generated API modules and its scatter_nd check.
Pure. Each is stated once, with the reason it is safe, in :data:`canary.signature.folds.RULES`.
"""

from __future__ import annotations

import re

from canary.signature.rewordings import Parts

# PyTorch's words for running out of GPU memory (and of the host's), by release: 'CUDA out of memory. Tried to
# allocate X (GPU 0; ... cached)' (1.x), '... reserved in total by PyTorch)' and advice (1.5-1.13),
# torch.cuda.OutOfMemoryError's 'GPU 0 has a total capacity of X of which Y is free. ...' (2.x)
_HOST_OOM = "DefaultCPUAllocator: not enough memory: you tried to allocate <bytes>"


def torch_oom(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("CUDA out of memory") and exc in (None, "RuntimeError", "OutOfMemoryError"):
        return "OutOfMemoryError", "CUDA out of memory", frames
    if message.startswith(_HOST_OOM):  # (its sentence ends at the bytes: what a post glues after it is not it)
        return exc, _HOST_OOM, frames
    return exc, message, frames


# PyTorch's shared-memory file for a tensor a DataLoader worker sends ("unable to write to file
# </torch_15769_1517813162>"), named by the process and a random number, by release with where (0.4's " at
# /pytorch/aten/src/TH/THAllocator.c:383") or why (2.x's ": No space left on device (28)"): that /dev/shm could not take
# it is the failure; the receiver's "unable to open shared memory object </torch_...> in read-write mode" likewise
_TORCH_SHM = re.compile(
    r"^(unable to (?:write to file|mmap \S{1,30} from file|open shared memory object) </torch_)[\d_]{1,60}>(.*)$"
)


def torch_shm(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _TORCH_SHM.match(message) if message.startswith("unable to ") else None
    if m is None:
        return exc, message, frames
    # (mapping it back, "unable to mmap <bytes> from file </torch_...>: Cannot allocate memory (12)", says why in every
    # release, and opening it how: those are kept)
    why = m[2] if "write" not in m[1] else ""
    return exc, f"{m[1]}<id>>{why}", frames


# torch's extension builder, whose loader goes on after the build it reported failed ("Error building extension
# 'fused_adam'" then "Loading extension module fused_adam...", on the next line or, in a post that runs its lines
# together, on the same one): the loader's words are not the build's
_EXTENSION_BUILD = re.compile(r"^(Error building extension '[\w.-]{1,100}') Loading extension module\b.*$")


def extension_build(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _EXTENSION_BUILD.match(message) if message.startswith("Error building extension") else None
    return exc, m[1] if m else message, frames


# PyTorch's determinism check refusing an op, by release: "<op> does not have a deterministic implementation, but you
# set 'torch.set_deterministic(True)'" (1.7), "... 'torch.use_deterministic_algorithms(True)'" after, and under
# warn_only=True the same words as a UserWarning; the kernel is named with or without '_out' (upsample_bilinear2d_
# backward_out_cuda); cuBLAS's own: "Deterministic behavior was enabled with either ... but this operation is not
# deterministic because it uses CuBLAS and you have CUDA >= 10.2. ... CUBLAS_WORKSPACE_CONFIG=:4096:8 ..."
_NOT_DETERMINISTIC = re.compile(r"^(\w{1,150}) does not have a deterministic implementation, but you set\b")
_CUBLAS_DETERMINISTIC = re.compile(
    r"^Deterministic behavior was enabled with either .{0,200}?but this operation is not deterministic because it uses "
    r"CuBLAS"
)


_CUBLAS_ENV = "CUBLAS_WORKSPACE_CONFIG"


def torch_deterministic(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc not in (None, "RuntimeError", "UserWarning"):
        return exc, message, frames
    m = _NOT_DETERMINISTIC.match(message) if "deterministic implementation" in message else None
    if m:
        op = re.sub(r"_out(?=_cuda$|_cpu$|$)", "", m[1])
        return "RuntimeError", f"{op} does not have a deterministic implementation (torch's determinism check)", frames
    if message.startswith("Deterministic behavior was enabled") and _CUBLAS_DETERMINISTIC.match(message):
        return "RuntimeError", f"this operation is not deterministic because it uses CuBLAS ({_CUBLAS_ENV})", frames
    return exc, message, frames


# NCCL's shared memory segment: its name is random ('nccl-shm-recv-<hex>-1-2-3', '/dev/shm/nccl-NzwJ7O'), its
# size the job's; a release pads a colon (' : ')
_SHM = re.compile(r"(shared memory segment) \S{1,300} \(size \d{1,15}\)")


def nccl_shm(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "NCCL WARN" in message:
        message = _SHM.sub(r"\1 <segment> (size <n>)", message).replace(" : ", ": ")
    return exc, message, frames


# TensorFlow's OOM names the tensor that tipped it by shape ('OOM when allocating tensor with shape[100,4096,32]'):
# which allocation ran out is the batch's, as the bytes of jax's are
_TF_OOM = re.compile(r"(OOM when allocating tensor with shape)\s?\[[\d,\s]{0,200}\]")


def tf_oom(exc: str | None, message: str, frames: list[str]) -> Parts:
    return exc, _TF_OOM.sub(r"\1 <shape>", message) if "OOM when" in message else message, frames


# TensorFlow's check of scatter_nd's updates, 1.x's words ("indices.shape[:IXDIM] + params_shape[IXDIM:], got
# updates.shape [1,2,4], ...") and 2.x's ("indices.shape[:batch_dim] + buffer_shape[num_index_dims:], got
# updates.shape: [1,1,1,16], ..."): the check is the failure, the shapes the program's
_SCATTER_ND = re.compile(
    r"(Must have updates\.shape = indices\.shape\[:)(?:IXDIM|batch_dim)\]\s{0,8}\+\s{0,8}(?:params|buffer)_shape"
    r"\[(?:IXDIM|num_index_dims):\], got\b.*$"
)


def tf_scatter(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "Must have updates.shape" in message:
        message = _SCATTER_ND.sub(r"\1batch_dim] + buffer_shape[num_index_dims:]", message)
    return exc, message, frames


# Ray's words for an actor that died, by release: RayActorError, ActorDiedError since 2.x; "The actor died unexpectedly
# before finishing this task." then the actor's class, ids, pid, name and node (the run's), then why ("The actor is
# dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: <what>. <advice>")
_ACTOR_WHY = re.compile(
    r"The actor is dead because ([^.]{1,200})\.(?:.{0,600}?Worker exit detail: (.{1,300}?)(?:\.(?: |$)|$))?"
)
_RAY_MEMORY = "Task was killed due to the node running low on memory"
# the object store refusing an object: "Failed to put object <id> in object store because it is full. Object size is
# <bytes>. ..." (raised as ObjectStoreFullError, or logged by the plasma store's client); a post may cut it after the id
_STORE_FULL = re.compile(r"^(Failed to put object)(?: (?!in )\S{1,100})?(?: (in object store because it is full))?")


_RAY_NOT_STARTED = "System error: Ray has not been started yet"
_RAY_MISMATCH = "Version mismatch: The cluster"


def ray(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc in ("ActorDiedError", "RayActorError") and message.startswith("The actor ") and ": " not in message[:16]:
        why = _ACTOR_WHY.search(message)
        if why is None:
            return "ActorDiedError", "The actor died unexpectedly before finishing this task", frames
        return "ActorDiedError", f"The actor died: {why[1]}" + (f": {why[2]}" if why[2] else ""), frames
    if message.startswith(_RAY_MEMORY):  # (the node's figures, the task's ids, and how to look, are the run's)
        return exc, _RAY_MEMORY, frames
    full = _STORE_FULL.match(message) if exc == "ObjectStoreFullError" else None
    if full:  # (which object, its size and the store's, and the advice, are the run's)
        return exc, full[1] + (" in object store because it is full" if full[2] else ""), frames
    if message.startswith(_RAY_NOT_STARTED):  # (without the advice a title may drop)
        return exc, _RAY_NOT_STARTED, frames
    if message.startswith(_RAY_MISMATCH):  # (which Ray and Python, and the node, are the cluster's and the job's)
        return exc, f"{_RAY_MISMATCH} and this process were started with other Ray or Python versions", frames
    return exc, message, frames


# Triton's ptxas failing: "Internal Triton PTX codegen error: <ptxas's stderr>" (RuntimeError, Triton 2.x), since 3.x
# PTXASError's "PTXAS error: Internal Triton PTX codegen error `ptxas` stderr: ..."; ptxas's info lines before its
# fatal one, and the register count it tried, are the kernel's
_PTXAS_FATAL = re.compile(r"ptxas fatal\s{0,4}: (.{1,300}?)(?=\.? ptxas |\.?$)")
# (a fatal "Ptx assembly aborted due to errors" is named by ptxas's first error before it: which feature, which target)
_PTXAS_ERROR = re.compile(r"ptxas \S{1,300}, line (?:\d{1,7}|<n>); error\s{0,4}: (.{1,300}?)(?=\s?ptxas |$)")


def triton_ptxas(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "Internal Triton PTX codegen error" not in message:
        return exc, message, frames
    fatal = _PTXAS_FATAL.search(message)
    what = re.sub(r"register count of '\d{1,5}'", "register count of '<n>'", fatal[1]) if fatal else ""
    error = _PTXAS_ERROR.search(message) if what.startswith("Ptx assembly aborted") else None
    what = f"{what}: {error[1]}" if error else what
    return "PTXASError", "Internal Triton PTX codegen error" + (f": ptxas fatal: {what}" if what else ""), frames


# torch.compile's check of a GPU for Triton names the GPU ("Found NVIDIA GeForce GTX 1080 Ti which is too old to be
# supported by the triton GPU compiler, which is used as the backend.") and since 2.1 the capabilities ("Triton only
# supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 6.1"): which GPU is the machine's
_TRITON_TOO_OLD = re.compile(r"^Found .{1,200}? (which is too old to be supported by the triton GPU compiler)\b.*$")


# Triton's cache writes an entry through a temporary file ('<cache>/<hash>/fused_moe_kernel.cubin.tmp.pid_72_945989',
# '..._sgmv_expand_kernel.json.tmp.pid_450752_<uuid>'); another process that lists or reads it as it is renamed away
# meets FileNotFoundError. A rename's own (' -> <dest>') is another failure, and keeps its words; so does a Windows
# path (a drive, backslashes): under Inductor's cache there the name passes Windows' 260 characters, and Windows
# refuses to open it, which no other process caused (a post's normalised path no longer shows its length).
# (a later Triton's is a directory, '<hash>\\tmp.pid_<pid>_<uuid>\\__grp__<kernel>.json', which a post may cut)
_TRITON_TMP = re.compile(
    r"'([^']{0,400}?[/\\](?:[^/\\']{1,200}\.)?tmp\.pid_(?:\d{1,10}|<n>)_[\w<>-]{1,60}(?:[/\\]{1,2}[^/\\']{0,200})?)"
    r"(?:'(?! -> )|$)"
)


def _tmp_name(m: re.Match) -> str:
    windows = "\\" in m[1]
    return "'<triton cache>/<file>.tmp.pid_<pid>_<id>'" + (" (a Windows path)" if windows else "")


def triton_cache_tmp(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc == "FileNotFoundError" and "tmp.pid_" in message:
        message = _TRITON_TMP.sub(_tmp_name, message)
    return exc, message, frames


# The loader's words for an object it could not load, by step ("<path>.so: cannot read file data: Stale file handle",
# "...: cannot stat shared object: Stale file handle"): on a cache on NFS the handle went stale under it
_STALE = re.compile(r"^'?[^']{1,400}?: cannot [\w ]{1,40}: Stale file handle'?$")


def stale_handle(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc == "ImportError" and message.endswith(("Stale file handle", "Stale file handle'")) and _STALE.match(message):
        return exc, "<shared object>: Stale file handle", frames
    return exc, message, frames


# The BFC allocator (TensorFlow's, then XLA's) warning it will retry an allocation, by release: "Allocator (GPU_0_bfc)
# ran out of memory trying to allocate <bytes>. The caller indicates that this is not a failure, but may mean ..."
# (2018), "... <bytes> with freed_by_count=0. ..." (2020), "..., but this may mean ..." (XLA's copy); a post may cut
# it after "with freed_", which only this warning has. Its fatal line ("(rounded to <bytes>)requested by op ...") is
# not it.
_BFC_RETRY = re.compile(
    r"^(Allocator \(\w{1,100}\) ran out of memory trying to allocate <bytes>)(?: with freed_[\w=]{0,30})?"
)


def bfc_retry(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _BFC_RETRY.match(message) if exc == "OutOfMemory" and "rounded to" not in message else None
    if m and (m.end() == len(message) or message[m.end() :].startswith(". The caller indicates")):
        return exc, f"{m[1]}. The caller indicates that this is not a failure", frames
    return exc, message, frames


def triton_too_old(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _TRITON_TOO_OLD.match(message) if "too old to be supported by the triton" in message else None
    return exc, f"Found a GPU {m[1]}" if m else message, frames


# TensorFlow's GCS file system (and tensorstore's) puts the storage service's response after its status: JSON or XML
# by release, with the account, bucket and object (the run's); the HTTP code and the permission it names are it
_HTTP_BODY = re.compile(r"^(\w{1,40}: Error executing an HTTP request: HTTP response code \d{3}) with body .*$")
_PERMISSION = re.compile(r"\bstorage\.\w{1,40}\.\w{1,40}\b")


def http_body(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _HTTP_BODY.match(message) if "with body" in message else None
    if m is None:
        return exc, message, frames
    permission = _PERMISSION.search(message, m.end(1))
    return exc, m[1] + (f" ({permission[0]})" if permission else ""), frames


# transformers' hub check names the model a program asked for ("it looks like bert-base-uncased is not the path to a
# directory containing a file named config.json"): which model is the program's, that the hub was unreachable is it
_HUB_MODEL = re.compile(r"(it looks like )\S{1,200}( is not the path to a directory)")


def hub_model(exc: str | None, message: str, frames: list[str]) -> Parts:
    return exc, _HUB_MODEL.sub(r"\1<model>\2", message) if "it looks like " in message else message, frames


# GitHub Actions' time limit: "The job running on runner <name> has exceeded the maximum execution time of 360 minutes."
# (later "The job has exceeded the maximum execution time of 6h0m0s"); the runner and the limit are the workflow's; a
# job that waited a day for a runner ("... while awaiting a runner for 24h0m0s") never ran, which is another failure
_JOB_LIMIT = re.compile(
    r"^.{0,300}?The job (?:running on runner .{1,200}? )?has exceeded the maximum execution time\b(?P<wait> while "
    r"awaiting a runner)?.*$"
)


def job_limit(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "maximum execution time" in message:
        message = _JOB_LIMIT.sub(r"The job has exceeded the maximum execution time\g<wait>", message)
    return exc, message, frames


# TensorFlow's public modules live in the generated package of its major version: tensorflow._api.v1.io.gfile in
# 1.x, tensorflow._api.v2.io.gfile in 2.x are tensorflow.io.gfile
_TF_API = re.compile(r"\btensorflow\._api\.v\d{1,2}\.")


def tf_api(exc: str | None, message: str, frames: list[str]) -> Parts:
    return exc, _TF_API.sub("tensorflow.", message), frames


# PyTorch's factorizations, by release: 1.x's "cholesky_cuda: U(1,1) is zero, singular U." and "inverse_cuda: ..." as
# RuntimeError (the same words for two checks: the function tells them apart), "svd_cpu: The algorithm failed to
# converge ..."; since 1.13 "linalg.cholesky: The factorization could not be completed because the input is not
# positive-definite (the leading minor of order 3 is not positive-definite).", "linalg.inv: The diagonal element 1 is
# zero, ... singular.", "linalg.svd: ... (error code: 319)." as LinAlgError, a RuntimeError: which factorization failed
# and why are the failure, which element, order or code the data's
_OLD_FACTOR = re.compile(r"^(cholesky|inverse|svd)_(?:cpu|cuda)(?:_helper)?: (?:For batch \d{1,9}: )?(.{1,400})$")
_FACTOR_WORDS = {
    "cholesky": "linalg.cholesky: the input is not positive-definite",
    "inv": "linalg.inv: the input matrix is singular",
    "svd": "linalg.svd: the algorithm failed to converge",
}
_NEW_FACTOR = re.compile(r"^linalg\.(cholesky|inv|svd)(?:_ex)?: .{1,600}$")


def torch_linalg(exc: str | None, message: str, frames: list[str]) -> Parts:
    old = _OLD_FACTOR.match(message) if exc == "RuntimeError" else None
    if old and ("singular U" in old[2] or "failed to converge" in old[2]):
        return "LinAlgError", _FACTOR_WORDS[{"inverse": "inv"}.get(old[1], old[1])], frames
    new = _NEW_FACTOR.match(message) if message.startswith("linalg.") else None
    if new and ("positive-definite" in message or "singular" in message or "failed to converge" in message):
        return exc, _FACTOR_WORDS[new[1]], frames
    return exc, message, frames


# torchvision and torchaudio check the CUDA their build and PyTorch's were made with, in their words ("Detected that
# PyTorch and torchvision were compiled with different CUDA versions. PyTorch has CUDA Version=11.7 and torchvision has
# CUDA Version=11.8. Please reinstall ...", torchaudio's "... PyTorch has CUDA version 11.6 whereas TorchAudio has CUDA
# version 11.7. ...", later "... different CUDA major versions"): which library's build differs is the failure, the
# versions the machine's; and PyTorch 2.2 raises an operator a library did not register as ValueError ("Could not
# find the operator torchvision::nms. Please make sure you have already registered the operator ..."), earlier as
# RuntimeError ("operator torchvision::nms does not exist"): which operator is the failure
_CUDA_BUILDS = re.compile(
    r"^(Detected that PyTorch and \w{1,20} were compiled with different CUDA) (?:major )?versions\b.*$"
)
_NO_OPERATOR = re.compile(
    r"^Could not find the operator ([\w.:]{1,200})\. Please make sure you have already registered\b"
)


def torch_companions(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("Detected that PyTorch and "):
        message = _CUDA_BUILDS.sub(r"\1 versions", message)
    elif exc == "ValueError" and (m := _NO_OPERATOR.match(message)):
        return "RuntimeError", f"operator {m[1]} does not exist", frames
    return exc, message, frames
