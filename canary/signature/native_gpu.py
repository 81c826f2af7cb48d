"""GPU runtimes below the Python frameworks, printing what failed without a Python class: taichi's choice of the CPU
when CUDA would not load, cudarc's driver library not found, llama.cpp's ggml finding no GPU, XLA's ptxas failing or
not found, and Apple's MPSGraph asserting on what jax-metal gave it. Pure. They take their place in
:data:`canary.signature.bare.BARE_ERRORS`.

taichi warns that it fell back to the CPU ("[W ...] [misc.py:adaptive_arch_select@758] Arch=[<Arch.cuda: 3>] is not
supported, falling back to CPU", the enum's number and the line by release) and goes on: on a lane with a GPU the run
then trains on the wrong device. cudarc (Rust) panics when it cannot load the driver library, in 0.11's words
("Unable to
find cuda lib under the names [...]") and 0.12's ("Unable to dynamically load the \"cuda\" shared library - searched for
library names: [...]"). MPSGraph asserts, and the process aborts, naming the parameter's index and both element types
("failed assertion `Incompatible element type for parameter at index 0, mlir module expected element type f64 but
received f32'"): the check is the failure, which parameter and which types the program's. MIOpen's on-disk
databases fail in boost::filesystem's words with the file's path ("boost::filesystem::permissions: No such file or
directory: \"~/.config/miopen//gfx906_60.HIP.2_11_0.ufdb.txt\""): the call and why are the failure, the path the
machine's. nccl-tests checks each CUDA call and prints CUDA's words without a class ("Cuda failure common.cu:891
'CUDA driver version is insufficient for CUDA runtime version'", 2021's "Test CUDA failure common.cu:1045 '...'"): the
words are the failure, the line of its source the build's. NCCL's own check of a CUDA call ("NCCL WARN Cuda failure
'invalid device ordinal'") is quoted in titles without its prefix: NCCL's warning all the same.
"""

from __future__ import annotations

import re

from canary.signature.kinds import line_kind
from canary.signature.recogniser import BareError, environment_check, match_below
from canary.signature.rewordings import rewrite

_BOOST_PATH = re.compile(r"^(boost::filesystem::\w{1,60}: [^:\"]{1,200}): \"[^\"]{0,1000}\"(?:, \"[^\"]{0,1000}\")?$")


# the ``native-gpu`` rule: boost::filesystem's error without the path it names
native_words = rewrite("boost::filesystem::", _BOOST_PATH, r"\1")


# a C++ library's check of a HIP or CUDA call says where below it (rocALUTION: "HIP error: invalid device function"
# above "File: .../src/base/hip/hip_vector.cpp; line: 845"), which PyTorch's error with the same words never does
_SOURCE = re.compile(r"^\s*File: \S{0,300}?([\w.-]{1,100}); line: \d{1,6}\s*$")


def source_below(lines: list[str], i: int, said: str) -> str:
    """A CUDA or HIP error's message with the source file a library's check names on the line below it."""
    m = match_below(_SOURCE, lines, i + 1, i + 2)
    return f"{said} (in {m[1]})" if m else said


NATIVE_GPU_ERRORS: list[BareError] = [
    environment_check(
        "taichi-fallback",
        ("falling back to CPU",),
        r"Arch=\[<Arch\.(?P<arch>\w{1,20}): \d{1,3}>\] is not supported, falling back to CPU",
        None,
        message=lambda m: f"taichi: Arch.{m['arch']} is not supported, falling back to CPU",
        weak=True,
    ),
    environment_check(
        "cudarc-driver",
        ("Unable to find cuda lib under the names", 'Unable to dynamically load the "cuda" shared library'),
        r'Unable to (?:find cuda lib under the names|dynamically load the "cuda" shared library)',
        None,
        message=lambda m: "cudarc: unable to load the cuda driver library",
    ),
    BareError(
        "nccl-tests-cuda",
        ("Cuda failure ", "CUDA failure "),
        re.compile(
            r"(?:^|(?<=[\s`]))(?:Test )?(?:Cuda|CUDA) failure [\w./-]{1,100}\.cu:\d{1,6} '(?P<words>[^']{1,200})'"
        ),
        None,
        line_kind,
        message=lambda m: f"nccl-tests: CUDA failure: {m['words']}",
    ),
    # NCCL's own check of a CUDA call ("NCCL WARN Cuda failure 'invalid device ordinal'") quoted without NCCL's prefix,
    # in a title or a sentence: NCCL's words, named as NCCL's warning line names them
    BareError(
        "nccl-cuda-failure",
        ("Cuda failure '",),
        re.compile(r"^(?P<msg>Cuda failure '[^']{1,200}'.{0,300}?)\.?$"),
        "NCCLError",
        line_kind,
        message=lambda m: f"NCCL WARN {m['msg']}",
    ),
    # llama.cpp's ggml finding no GPU its build was made for ("ggml_cuda_init: failed to initialize ROCm: no
    # ROCm-capable device is detected", CUDA's builds in CUDA's words): which runtime and why
    environment_check(
        "ggml-cuda-init",
        ("ggml_cuda_init: failed to initialize ",),
        r"ggml_cuda_init: failed to initialize (?P<rt>\w{2,10}): (?P<why>[^\"`]{1,200}?)\.?(?:[\"`]|$)",
        None,
        message=lambda m: f"ggml_cuda_init: failed to initialize {m['rt']}: {m['why'].rstrip()}",
    ),
    # XLA's GPU compiler aborting when ptxas fails ("F .../nvptx_compiler.cc:479] ptxas returned an error during
    # compilation of ptx to sass: 'Internal: ptxas exited with non-zero error code ...'"), and warning that it finds no
    # ptxas where it looks ("Can't find ptxas binary in ${CUDA_DIR}/bin."): the CUDA toolkit beside jaxlib
    BareError(
        "xla-ptxas-error",
        ("ptxas returned an error during compilation of ptx to sass",),
        re.compile(
            r"(?P<msg>ptxas returned an error during compilation of ptx to sass)"
            r"(?:: '(?:INTERNAL|Internal): (?P<why>ptxas exited with non-zero error code \d{1,6}))?"
        ),
        "SIGABRT",
        # (how ptxas exited: 32512 is a shell's 127, no ptxas to run; a check of its release above explains the rest)
        message=lambda m: m["msg"] + (f": {m['why']}" if m["why"] else ""),
    ),
    environment_check(
        "xla-ptxas-not-found",
        ("Can't find ptxas binary",),
        r"Can't find ptxas binary in \S{1,300}",
        None,
        message=lambda m: "XLA: can't find the ptxas binary",
    ),
    # (XLA's warning that CUDA's libdevice is not where it looked, "Can't find libdevice directory ${CUDA_DIR}/nvvm/
    # libdevice. This may result in compilation or runtime failures ...", 2020 to 2024's sources alike)
    environment_check(
        "xla-libdevice-not-found",
        ("Can't find libdevice directory",),
        r"Can't find libdevice directory \S{0,300}nvvm/libdevice\b",
        None,
        message=lambda m: "XLA: can't find the libdevice directory",
    ),
    BareError(
        "mpsgraph-assertion",
        ("failed assertion `",),
        re.compile(
            r"(?P<src>MPSGraph\w{0,40})\.mm:\d{1,6}: failed assertion `(?P<check>[^`,']{1,200}?)(?: at index \d|,|'|$)"
        ),
        "SIGABRT",
        message=lambda m: f"{m['src']}: failed assertion `{m['check']}'",
    ),
]
