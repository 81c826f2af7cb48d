"""Inference engines a model is built for or loaded into, refusing it: TensorRT's plans and builder, llama.cpp's model
files, and the quantized kernels transformers loads (AutoGPTQ, exllama). Pure.

TensorRT prints through its logger, in each release's frame ("[TensorRT] ERROR: INVALID_CONFIG: ...", later "[TRT] [E]
6: ..." or "[E] Error[10]: [optimizer.cpp::computeCosts::3728] Error Code 10: Internal Error (...)"): a plan serialized
by another release ("The engine plan file is not compatible with this version of TensorRT, expecting library version
8.0.0 got 8.0.1", 8.4's "Serialization assertion stdVersionRead == serializationVersion failed.Version tag does not
match"), built for another GPU ("... generated on an incompatible device, expecting compute 6.1 got compute 7.5"), a
file that is no plan ("Magic tag does not match"), a node no tactic implements; the versions, the node and the frame
are not the failure, the deserialization failure after them says nothing more. llama.cpp names a model file it cannot
read before it gives up ("error loading model: unknown model architecture: 'gemma3n'", "gguf_init_from_file: invalid
magic characters 'vers'", 2023's "invalid magic number 73726576", a pre-GGUF loader's "unknown (magic, version)
combination: 46554747, 00000002; is this really a GGML file?"): the magic is four bytes, printed as characters or as
their little-endian number.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check


def _magic(m: re.Match[str]) -> str:
    """The four bytes of a file's magic, from its characters or its little-endian number."""
    if m["chars"] is not None:
        return m["chars"]
    return bytes.fromhex(m["hex"])[::-1].decode("latin-1")


ENGINE_ERRORS: list[BareError] = [
    environment_check(
        "tensorrt-plan",
        ("The engine plan file is", "Version tag does not match", "Magic tag does not match"),
        # (a plan read back with no release in it, "... expecting library version 5.1.5 got 0.0.0", is no plan)
        r"(?P<release>The engine plan file is not compatible with this version of TensorRT|Version tag does not match)"
        r"(?P<none>, expecting library version [\d.]{1,20} got 0\.0\.0)?"
        r"|(?P<gpu>The engine plan file is generated on an incompatible device)|(?P<magic>Magic tag does not match)",
        None,
        message=lambda m: (
            "TensorRT: "
            + (
                "the engine plan was serialized by another TensorRT release"
                if m["release"] and not m["none"]
                else "the engine plan was built for another GPU's compute capability"
                if m["gpu"]
                else "the file is no serialized engine plan (it names no release)"
                if m["none"]
                else "the file is no serialized engine plan (its magic tag does not match)"
            )
        ),
    ),
    # TF-TRT's stub, which aborts the process when the TensorRT library it loads lacks its entry point (the library
    # missing, or a library it needs: the loader's warning before it names which)
    environment_check(
        "tftrt-stub",
        ("getInferLibVersion symbol not found",),
        r"getInferLibVersion symbol not found",
        None,
        message=lambda m: "TF-TRT: getInferLibVersion symbol not found (TensorRT's library did not load)",
    ),
    BareError(
        "tensorrt-builder",
        ("Could not find any implementation for node", "due to insufficient memory"),
        re.compile(
            r"(?P<msg>Could not find any implementation for node)|Skipping tactic \S{1,40} (?P<tactic>due to "
            r"insufficient memory)"
        ),
        None,
        "compile_error",
        message=lambda m: (
            "TensorRT: "
            + (
                "could not find any implementation for node"
                if m["msg"]
                else "skipping a tactic due to insufficient memory"
            )
        ),
    ),
    environment_check(
        "llama-cpp-model",
        ("unknown model architecture: ", "invalid magic ", "unknown (magic, version) combination"),
        r"unknown model architecture: '(?P<arch>[\w.-]{1,100})'|gguf_init_from_file: invalid magic (?:characters "
        r"'(?P<chars>.{1,4})'|number (?P<hex>[0-9a-f]{8}))|unknown \(magic, version\) combination: "
        r"(?P<old>[0-9a-f]{8}), [0-9a-f]{8}; is this really a GGML file",
        None,
        message=lambda m: (
            "llama.cpp: "
            + (
                f"unknown model architecture: '{m['arch']}'"
                if m["arch"]
                else f"unknown (magic, version) combination: '{bytes.fromhex(m['old'])[::-1].decode('latin-1')}'"
                if m["old"]
                else f"invalid magic '{_magic(m)}'"
            )
        ),
    ),
    # AutoGPTQ's kernels not built (a warning it goes on after, on the CPU's slow path)
    environment_check(
        "autogptq-extension",
        ("CUDA extension not installed",),
        r"(?:^|[\s`])CUDA extension not installed\.?`?$",
        None,
        message=lambda m: "AutoGPTQ: CUDA extension not installed",
        weak=True,
    ),
    # transformers' quantizer without a GPU, posted without its class or logged by a server that caught it
    BareError(
        "quantizer-no-gpu",
        ("A GPU is needed for quantization",),
        re.compile(r"(?P<msg>No GPU found\. A GPU is needed for quantization)"),
        "RuntimeError",
    ),
    # transformers' GPTQ loader refusing modules offloaded to the CPU or disk under exllama, posted without its class
    BareError(
        "exllama-offload",
        ("Found modules on cpu/disk",),
        re.compile(r"^(?P<msg>Found modules on cpu/disk)\. ?Using Exllama"),
        "ValueError",
    ),
]
