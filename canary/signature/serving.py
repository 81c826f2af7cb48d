"""LLM serving engines (vLLM, SGLang, Text Generation Inference) refusing to start. Pure.

vLLM checks that one sequence of the model's length fits the KV cache, in the old engine's words ("The model's max seq
len (4096) is larger than the maximum number of tokens that can be stored in KV cache (3664). Try increasing
`gpu_memory_utilization` ...") and the new engine's ("To serve at least one request with the models's max seq len
(131072), (16.0 GiB KV cache is needed, which is larger than the available KV cache memory (9.5 GiB) ..."): that the
cache cannot hold one sequence is the failure, the lengths and sizes are the model's and the GPU's. It checks the GPU's
free memory against the share asked for, by device; it lists every architecture it supports after one it refuses; its
engine core names the processes that failed, and a post runs the next line onto it. SGLang names the CUDA error its
graph capture met in whichever layer's words raised it (Triton's "Triton Error [CUDA]: ...", PyTorch's "RuntimeError:
CUDA error: ..."), then advises. Text Generation Inference's launcher prints its Python server's error inside Rust's
debug form ('Error: Warmup(Generation("Not enough memory to handle 4096 prefill tokens. ..."))').
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

_KV_CACHE = re.compile(
    r"^(?:The model's max seq len \(\d{1,9}\) is larger than the maximum number of tokens that can be stored in KV "
    r"cache|To serve at least one request with the models?'s max seq len \(\d{1,9}\), \(.{1,40}? KV cache is needed, "
    r"which is larger than the available KV cache memory)\b.*$"
)
_FREE_MEMORY = re.compile(
    r"^(Free memory on device)(?: \S{1,20})? \([^)]{1,60}\) (on startup is less than desired GPU memory utilization) "
    r"\([^)]{1,60}\).*$"
)
_ENGINE_CORE = re.compile(
    r"^(Engine core initialization failed\. See root cause above\.)(?: Failed core proc\(s\):.*)?$"
)
_ARCHITECTURES = re.compile(r"^(Model architectures \[[^\]]{1,300}\] are not supported for now)\. Supported .*$")
_GRAPH_CAPTURE = re.compile(
    r"^(Capture cuda graph failed: )(?:Triton Error \[CUDA\]: |RuntimeError: CUDA error: |CUDA error: )?"
    r"(.{1,300}?)(?: Possible solutions:.*)?$"
)


def serving_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``serving`` rule: vLLM's KV cache short of one sequence in either engine's words, its free memory by no
    device or figure, its refused architecture without the list it supports, its engine core without what follows;
    SGLang's graph capture by the CUDA error, whichever layer worded it."""
    if "KV cache" in message and _KV_CACHE.match(message):
        message = "vLLM: the model's max seq len is larger than the KV cache can store"
    elif message.startswith("Free memory on device"):
        message = _FREE_MEMORY.sub(r"\1 \2", message)
    elif message.startswith("Engine core initialization failed"):
        message = _ENGINE_CORE.sub(r"\1", message)
    elif message.startswith("Model architectures ["):
        message = _ARCHITECTURES.sub(r"\1", message)
    elif message.startswith("Capture cuda graph failed: "):
        message = _GRAPH_CAPTURE.sub(r"\1CUDA error: \2", message)
    return exc, message, frames


SERVING_ERRORS: list[BareError] = [
    # TGI's launcher relaying its server's warmup error in Rust's debug form
    BareError(
        "tgi-warmup",
        ("Warmup(",),
        re.compile(r"Error: Warmup\(\w{1,40}\(\"(?P<msg>[^\"]{1,500})\"\)\)"),
        "RuntimeError",
    ),
    # vLLM's platform detection, logged by a server that caught it (Xinference's "ERROR [address=..., pid=...]")
    BareError(
        "vllm-device",
        ("Failed to infer device type",),
        re.compile(r"(?:^|\] )(?P<msg>Failed to infer device type)\b"),
        "RuntimeError",
    ),
]
