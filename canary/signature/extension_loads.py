"""What attention and quantization extensions print when they load on a machine or against a torch they were not built
for, without a class or before one: Windows' and macOS's loaders refusing bitsandbytes' library, bitsandbytes 0.37's
setup tripping on a Windows path, xFormers without its C++ extensions, flash-attn outside the window xFormers accepts,
transformers' FlashAttention2 without flash-attn and its TF32 check of the GPU, safetensors' refusals, and cffi's of a
symbol a library lacks or of a library, after a program's words. Pure. They take their place in
:data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, match_below
from canary.signature.recogniser import environment_check as _environment

_WRAPPER = re.compile(r"^\s{0,8}\w[\w *]{0,40}? (?P<fn>\w{1,100})\([^)]{0,300}\) at L")


def _wrapper_below(lines: list[str], i: int, said: str) -> str:
    """PointNet++'s kernel report by the wrapper its next line names ("void furthest_point_sampling_kernel_wrapper(int,
    ...) at L:231 in ...")."""
    m = match_below(_WRAPPER, lines, i + 1, i + 2)
    return f"{m['fn']}: {said}" if m else said


EXTENSION_LOADS: list[BareError] = [
    # Windows' loader refusing a library by its path ("Could not find module 'C:\...\libbitsandbytes_cuda116.dll' (or
    # one of its dependencies). Try using the full path with constructor syntax.", a FileNotFoundError from ctypes):
    # which library, not where it was installed; on its own line (CuPy's RuntimeError relays it, an extension's .pyd
    # is its own library's failure), weak
    _environment(
        "dll-not-found",
        ("(or one of its dependencies)",),
        r"^(?:FileNotFoundError: )?Could not find module '(?:[^']{0,500}[\\/])?(?P<lib>[^'\\/]{1,200}\.dll)' "
        r"\(or one of its dependencies\)",
        "FileNotFoundError",
        message=lambda m: f"Could not find module '{m['lib']}' (or one of its dependencies)",
        weak=True,
    ),
    # macOS's loader refusing a file it tried ("dlopen(/x/libbitsandbytes_cpu.so, 0x0006): tried: '/x/...so' (not a
    # mach-o file), ..."), an OSError from ctypes, on its own line (cffi's and others' words around it are read as
    # theirs): which library and why, not its path; weak, as above
    _environment(
        "dlopen-tried",
        ("dlopen(",),
        r"^dlopen\((?:\S{0,500}/)?(?P<lib>[^/,()]{1,200}), 0x[0-9a-f]{1,8}\): tried: '[^']{1,1000}' "
        r"\((?P<why>[^)]{1,100})\)",
        "OSError",
        message=lambda m: f"dlopen({m['lib']}): {m['why']}",
        weak=True,
    ),
    # bitsandbytes 0.37's setup on Windows printing the TypeError it met ("argument of type 'WindowsPath' is not
    # iterable") between its CUDA SETUP lines
    BareError(
        "bnb-windows-path",
        ("argument of type 'WindowsPath' is not iterable",),
        re.compile(r"^(?P<msg>argument of type 'WindowsPath' is not iterable)$"),
        "TypeError",
        "environment",
    ),
    # xFormers loaded without its compiled extensions ("WARNING[XFORMERS]: Need to compile C++ extensions to use all
    # xFormers features."): it goes on without them, so weak
    _environment(
        "xformers-uncompiled",
        ("Need to compile C++ extensions to use all xFormers features",),
        r"Need to compile C\+\+ extensions to use all xFormers features",
        None,
        message=lambda m: "xFormers: Need to compile C++ extensions to use all xFormers features",
        weak=True,
    ),
    # xFormers refusing the flash-attn installed, by the window it accepts ("ImportError: Requires Flash-Attention
    # version >=2.7.1,<=2.7.4 but got 2.8.0.post2.", after ComfyUI's "Cannot import <node> module for custom nodes: ")
    # and transformers' FlashAttention2 without flash-attn ("FlashAttention2 has been toggled on, but it cannot be used
    # due to the following error: the package flash_attn seems to be not installed."), posted without their class
    _environment(
        "flash-attn-window",
        ("Requires Flash-Attention version", "FlashAttention2 has been toggled on, but it cannot be used"),
        r"(?P<msg>Requires Flash-Attention version \S{1,60} but got [\w.+]{1,40}?|FlashAttention2 has been toggled on, "
        r"but it cannot be used due to the following error: the package flash_attn seems to be not installed)\.?"
        r"(?:\s|$)",
        "ImportError",
    ),
    # a jaxlib plugin or extension without the handlers the jaxlib calls ("No FFI handler registered for
    # cusolver_potrf_ffi"), and inductor's Triton launcher not finding the attributes of another Triton release
    # ("Triton CompiledKernel object does not has any of the attributes: ('cluster_dims', 'clusterDims')", its
    # get_first_attr's AssertionError): which handler, which attributes
    _environment(
        "ffi-handler",
        ("No FFI handler registered for ",),
        r"(?:^|(?<=[`\"']))(?P<msg>No FFI handler registered for \w{1,100})",
        weak=True,  # (alone or quoted: XLA's status around it, where a log has one, names it)
    ),
    _environment(
        "triton-kernel-attributes",
        ("object does not has any of the attributes",),
        r"(?P<msg>CompiledKernel object does not has any of the attributes: \([^)]{1,200}\))",
        "AssertionError",
    ),
    # transformers' check of the GPU for a precision asked ("ValueError: --tf32 requires Ampere or a newer GPU arch,
    # cuda>=11 and torch>=1.7", posted as its raise line or a title): the GPU's generation, not the program's
    _environment(
        "tf32-gpu",
        ("--tf32 requires Ampere",),
        r"(?P<msg>--tf32 requires Ampere or a newer GPU arch, cuda>=11 and torch>=1\.7)",
        "ValueError",
    ),
    # safetensors' refusals posted without their class: a header it cannot parse ("invalid JSON in header: EOF while
    # parsing a value at line 1 column 0"), tensors it will not save ("Some tensors share memory, ...", "You are trying
    # to save a non contiguous tensor: `...`", after a program's "ERROR is ")
    BareError(
        "safetensors-words",
        ("invalid JSON in header", "Some tensors share memory", "save a non contiguous tensor"),
        re.compile(
            r"(?P<msg>(?P<header>invalid JSON in header)(?::.{0,300})?|Some tensors share memory, this will lead to "
            r"duplicate memory on disk\b.{0,2000}?|You are trying to save a non contiguous tensor: `[^`]{1,300}`"
            r".{0,300}?)[\"'`]?$"
        ),
        lambda m: "SafetensorError" if m["header"] else "RuntimeError" if m["msg"].startswith("Some") else "ValueError",
        message=lambda m: "Error while deserializing header: invalid JSON in header" if m["header"] else m["msg"],
    ),
    # a compiled op's own report that the GPU has no kernel built for it ("error in modulated_deformable_im2col_cuda: no
    # kernel image is available for execution on the device", PointNet++'s "CUDA kernel failed : no kernel image ..."
    # above the kernel wrapper's line): which op, where the report names it; the extension's build is the machine's
    _environment(
        "op-no-kernel-image",
        ("no kernel image is available for execution on the device",),
        r"(?:^|(?<=[\s\"'`]))(?:error in (?P<op>\w{1,100}): |CUDA kernel failed : )no kernel image is available for "
        r"execution on the device",
        None,
        message=lambda m: (
            f"{m['op'] or 'CUDA kernel failed'}: no kernel image is available for execution on the device"
        ),
        below=_wrapper_below,
    ),
    # vLLM's KV cache too small for the model's length ("The model's max seq len (4096) is larger than the maximum
    # number of tokens that can be stored in KV cache (1792). Try increasing ...", posted without its ValueError), as
    # vllm's fold names it raised
    BareError(
        "vllm-kv-cache",
        ("is larger than the maximum number of tokens that can be stored in KV cache",),
        re.compile(
            r"(?P<msg>The model's max seq len \(\d{1,9}\) is larger than the maximum number of tokens that can be "
            r"stored in KV cache \(\d{1,9}\))"
        ),
        "ValueError",
    ),
    # cffi's refusal of a function a shared library lacks, an AttributeError posted without its class ("function/symbol
    # 'pango_context_set_round_glyph_positions' not found in library 'libpango-1.0.so.0'"): a library older than its
    # binding (the ``undefined-symbol`` rule names the library by its name)
    _environment(
        "cffi-symbol",
        ("' not found in library '",),
        r"^(?P<msg>function/symbol '\w{1,200}' not found in library '[^']{1,300}')",
        "AttributeError",
    ),
    # cffi's refusal to load a library after a program's own words for it, its OSError not printed ("WARNING:root:
    # libvips found, but failed to load: cannot load library 'C:\\...\\libvips-42.dll': error 0xc1"): which library,
    # and the loader's words (the ``platform-words`` rule)
    BareError(
        "cffi-load",
        (": cannot load library '",),
        re.compile(r": (?P<msg>cannot load library '[^']{1,500}': .{1,500})$"),
        "OSError",
        weak=True,
    ),
]
