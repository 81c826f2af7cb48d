"""Model servers loading a model (NVIDIA Triton Inference Server, TorchServe, TensorFlow Serving). Pure.

Triton logs why a model did not load with the model's name and version ("failed to load 'sts' version 1: Invalid
argument: unexpected inference output 'model_output', allowed outputs are: logits"), names a backend library it could
not find in each release's words ("unable to find backend library for backend 'onnxruntime'", 2023's "unable to find
'libtriton_onnxruntime.so' for model 'x', searched: ..."), names a model directory whose config it could not open or
read, and then an ensemble that depends on the model, which says nothing more unless it carries the model's error.
TorchServe answers a request for a model it has not registered with a JSON body of its class; TensorFlow Serving
polls a base path without versions, or that is not there, in each release's words. The model, its directory, its
outputs and the paths are the deployment's: which refusal is the failure.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check

_TRITON = (
    r"(?P<output>unexpected inference output)|unable to find (?:backend library for backend '(?P<backend>[^']{1,100})'"
    r"|'libtriton_(?P<lib>\w{1,60})\.so' for model)|(?P<open>failed to open text file for read \S{0,500}config\.pbtxt: "
    r"No such file or directory)|(?P<proto>failed to read text proto from \S{0,500}config\.pbtxt)"
)


def _triton(m: re.Match[str]) -> str:
    if m["output"]:
        return "Triton: failed to load a model: unexpected inference output"
    if m["backend"] or m["lib"]:
        return f"Triton: unable to find the backend library for backend '{m['backend'] or m['lib']}'"
    if m["open"]:
        return "Triton: failed to open the model's config.pbtxt: No such file or directory"
    return "Triton: failed to read the model's config.pbtxt"


MODEL_SERVER_ERRORS: list[BareError] = [
    environment_check(
        "triton-load",
        ("unexpected inference output", "unable to find ", "config.pbtxt"),
        _TRITON,
        None,
        message=_triton,
    ),
    # (the ensemble's line after the model's failure, which says why only when it carries it)
    environment_check(
        "triton-ensemble",
        ("which has no loaded version",),
        r"ensemble '[^']{1,200}' depends on '[^']{1,200}' which has no loaded version",
        None,
        message=lambda m: "Triton: an ensemble depends on a model with no loaded version",
        weak=True,
    ),
    BareError(
        "torchserve-not-found",
        ('"type": "ModelNotFoundException"', '"message": "Model not found: '),
        re.compile(r'^"(?:type": "ModelNotFoundException"|message": "Model not found: [^"]{1,200}")'),
        "ModelNotFoundException",
        message=lambda m: "Model not found",
    ),
    environment_check(
        "tf-serving-path",
        ("No versions of servable ", "access error: Could not find base path", " with error NOT_FOUND: "),
        r"(?P<none>No versions of servable \S{1,200} found under base path)|"
        r"file-?system access error: Could not find base path|for servable \S{1,200} with error NOT_FOUND: ",
        None,
        message=lambda m: (
            "TensorFlow Serving: "
            + ("no versions of the servable found under its base path" if m["none"] else "could not find the base path")
        ),
    ),
]
