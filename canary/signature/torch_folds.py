"""The folding rules of PyTorch's and its compiler's own words, reworded across releases: a tensor's shared-memory file,
the extension loader after a failed build, the determinism check refusing an op, Triton's cache's temporary files and
the stale NFS handle its cached objects meet, CUDA graph capture's refusals, the old launcher's deprecation, the fused
optimizers' devices, torch.hub's branch check, c10's own location, apex's CUDA check, ATen's kernel wrappers,
Dynamo's untraced builtins. Pure.
They take their place in :data:`canary.signature.word_folds.WORD_RULES`, in this order.
"""

from __future__ import annotations

import re

from canary.signature import framework_words
from canary.signature.apex import APEX_CUDA
from canary.signature.rewordings import Rule, rewrite

# CUDA graph capture's refusal of an unpinned copy, with advice after it in later releases, and its warning of a graph
# that captured nothing, whose second sentence one release misspelt ("This ususally means ...")
_CAPTURE = re.compile(
    r"^(Cannot copy between CPU and CUDA tensors during CUDA graph capture unless the CPU tensor is pinned"
    r"|The CUDA Graph is empty)\b.+$"
)
cuda_graph_words = rewrite("CUDA", _CAPTURE, r"\1")
# torch.distributed.launch's deprecation, its advice on lines of its own in 1.10 to 1.13 and run onto its first line in
# 2.0 ("The module torch.distributed.launch is deprecated and will be removed in future. Use torchrun.")
_LAUNCH = re.compile(r"^(The module torch\.distributed\.launch is deprecated)\b.+$")
launch_deprecated = rewrite("torch.distributed.launch", _LAUNCH, r"\1")
# the fused optimizers' check of their parameters, naming the devices its release supports and, later, what it got
# ("`fused=True` requires all the params to be floating point Tensors of supported devices: ['cuda', 'xpu', ...]")
_FUSED = re.compile(
    r"^`?(fused=True)`? (requires all the params to be floating point Tensors of supported devices)\b.*$"
)
fused_devices = rewrite("fused=True", _FUSED, r"\1 \2")

# torch.hub's check that a branch is the repository's own ("Cannot find master in https://github.com/x/y. If it's a
# commit from a forked repo, please call hub.load() with forked repo directly."), a post's word run onto its full stop
_HUB_BRANCH = re.compile(
    r"^(Cannot find \S{1,100} in) https?://\S{1,300}?\.? "
    r"(If it's a commit from a forked repo, please call hub\.load\(\) with forked repo directly)\b.*$"
)
hub_branch = rewrite("If it's a commit from a forked repo", _HUB_BRANCH, r"\1 <repository>. \2")

# c10's error on Windows until 1.5 names where it was raised after its message ("... may be too old. (init at
# ..\\caffe2\\serialize\\inline_container.cc:132)"), as later releases do on a line of their own
_INIT_AT = re.compile(r"^(.{8,2000}?)\.?\s\(init at \S{1,300}:<line>\)$")
c10_init_at = rewrite("(init at ", _INIT_AT, r"\1")
apex_cuda = rewrite("Cuda extensions are being compiled", APEX_CUDA, r"\1")
# ATen's check of its operands' devices names the kernel's wrapper, with the dispatch key in its name since 1.13
# ("wrapper_CUDA__index_select" for "wrapper__index_select")
_WRAPPER = re.compile(r"\bwrapper_[A-Za-z]{1,40}__(?=\w)")
wrapper_key = rewrite("wrapper_", _WRAPPER, "wrapper__")
# Dynamo's graph break on a builtin it cannot trace, by release: "Graph break due to unsupported builtin
# None.pybind11_object.__new__. This function is either a Python builtin ...", 2.7's "Dynamo does not know how to trace
# the builtin `None.pybind11_object.__new__.`"
_BUILTIN = re.compile(
    r"^(?:Graph break due to unsupported builtin |Dynamo does not know how to trace the builtin `?)([\w.]{1,200}?)\.?`?"
    r"(?:\s.*)?$"
)
untraced_builtin = rewrite("builtin", _BUILTIN, r"Dynamo does not know how to trace the builtin \1")

TORCH_RULES: tuple[Rule, ...] = (
    Rule(
        "torch-shm",
        "PyTorch names a tensor's shared-memory file by the process and a random number, by release with where or "
        "why it failed: that /dev/shm could not take it is the failure",
        framework_words.torch_shm,
    ),
    Rule(
        "extension-loader",
        "torch's extension loader goes on after a build it reported failed ('Loading extension module fused_adam...'): "
        "its words, run onto the build's, are not the failure",
        framework_words.extension_build,
    ),
    Rule(
        "torch-deterministic",
        "PyTorch's determinism check names the op it refuses and how determinism was asked for by release (1.7's "
        "set_deterministic, use_deterministic_algorithms after, a warning under warn_only), a kernel with or without "
        "'_out': the op refused, or cuBLAS's workspace, is the failure",
        framework_words.torch_deterministic,
    ),
    Rule(
        "triton-cache-tmp",
        "Triton writes a cache entry through a temporary file named by the kernel, the process and a random id (an "
        "integer in 2.3.0, a uuid after): that a temporary file of its cache vanished is the failure, whose is not",
        framework_words.triton_cache_tmp,
    ),
    Rule(
        "stale-handle",
        "the loader meets NFS' stale handle on a cached shared object at one step or another ('cannot read file data', "
        "'cannot stat shared object'), on an object named by the cache's hash: the stale handle is the failure",
        framework_words.stale_handle,
    ),
    Rule(
        "torch-linalg",
        "PyTorch 1.x raised a failed factorization as RuntimeError in its kernel's words ('cholesky_cuda: U(1,1) is "
        "zero, singular U.'), later as LinAlgError in linalg's, naming an element, order or code: which factorization "
        "failed and why are the failure",
        framework_words.torch_linalg,
    ),
    Rule(
        "cuda-graph-words",
        "PyTorch's CUDA graph capture refuses an unpinned copy with advice after it in later releases, and warns of "
        "an empty graph with a second sentence one release misspelt: the refusal, and the empty graph, are the failure",
        cuda_graph_words,
    ),
    Rule(
        "launch-deprecated",
        "torch.distributed.launch's deprecation carries its advice on lines of their own up to 1.13 and on its first "
        "line from 2.0, which a post's copy keeps or drops: that the launcher is deprecated is the failure",
        launch_deprecated,
    ),
    Rule(
        "fused-devices",
        "PyTorch's fused optimizers refuse a parameter off the devices they support, naming those devices by release "
        "and, later, the dtype and device they got: that a parameter is not on a supported device is the failure",
        fused_devices,
    ),
    Rule(
        "torch-companions",
        "torchvision and torchaudio name the CUDA versions they and PyTorch were built with, and advise; PyTorch 2.2 "
        "raises an operator a library did not register as ValueError, earlier as RuntimeError: that the builds differ, "
        "and which operator is missing, are the failure",
        framework_words.torch_companions,
    ),
    Rule(
        "hub-branch",
        "torch.hub asks GitHub whether a branch (master, where the repository's is main) is the repository's own and "
        "names the repository's URL, which a post's word may follow: the branch it could not find is the failure",
        hub_branch,
    ),
    Rule(
        "c10-init-at",
        "c10's error names the file and line it was raised at after its message on Windows until 1.5, and on a line "
        "of its own after: where in PyTorch's source is the release's, what it says is the failure",
        c10_init_at,
    ),
    Rule(
        "apex-cuda",
        "apex's setup refuses a CUDA other than PyTorch's and names the one PyTorch was built with, the machine's: "
        "that the two differ is the failure",
        apex_cuda,
    ),
    Rule(
        "wrapper-key",
        "ATen's device check names the kernel's wrapper, with the dispatch key in its name since 1.13 "
        "('wrapper_CUDA__index_select', before 'wrapper__index_select'): which kernel is the failure",
        wrapper_key,
    ),
    Rule(
        "untraced-builtin",
        "Dynamo's graph break on a builtin it cannot trace is worded 'Graph break due to unsupported builtin X.' with "
        "advice until 2.6 and 'Dynamo does not know how to trace the builtin `X.`' after: which builtin is the failure",
        untraced_builtin,
    ),
)
