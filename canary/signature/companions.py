"""Libraries a job loads beside its framework (Numba, CuPy, MPI, OpenCV, TensorFlow Lite,
tf.data) refusing what
they meet. Pure.

Numba's import checks the NumPy it finds against the range its release supports ("Numba needs NumPy 1.22 or less",
later "... 2.1 or less. Got NumPy 2.2."): which way is the failure, the numbers are the two releases'. CuPy names the
library it could not load with the CUDA major its wheel was built for ("CuPy failed to load libnvrtc.so.12: OSError:
libnvrtc.so.12: cannot open shared object file ..."), which moves with the wheel; it warns when several of its
wheels are installed together. MPI's init prints its error stack without a class ("Fatal error in PMPI_Init_thread:
Other MPI error, error stack:", then one line per function with the source line, "MPIDI_OFI_mpi_init_hook(1473):"):
the function that failed and what it says are the failure, the error class's words change with the release.
OpenCV
names its release and source file before its check ("OpenCV(4.6.0) /io/opencv/modules/imgproc/src/color.cpp:182:
error: (-215:Assertion failed) !_src.empty() in function 'cvtColor'"): the check and the function are the failure.
Keras and tf.data warn of input that ran out or a cache not read through, and go on. TensorFlow Lite's converter
refuses an op it cannot convert, read by the op without a class. ONNX's converters and runtimes are onnx_runtime.py's.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment

_NUMBA = re.compile(r"^(Numba needs NumPy) \d{1,3}(?:\.\d{1,4}){0,2} or (less|greater)\b.{0,200}$")
_OPENCV = re.compile(
    r"^OpenCV\([\w.-]{1,30}\) \S{1,300}?:(?:\d{1,6}|<line>): error: (\(-?\d{1,4}:[^)]{1,100}\) .{1,500})$"
)
_CV_FUNCTION = re.compile(r" in function '(?:cv::)?(\w{1,100})'$")
# tfds' manual download directory that is not there, by release ("... does not exist." and "... does not exist or is
# empty. Create it and download/extract dataset artifacts in there using instructions:"): which directory is the run's
_MANUAL_DIR = re.compile(r"^(Manual directory) \S{1,500} (does not exist)\b.{0,1000}$")
# (Windows names the DLL by its CUDA major and minor, "nvrtc64_120_0.dll", and words the loader's refusal its own way)
_CUPY_LOAD = re.compile(
    r"^CuPy failed to load (?:lib)?(\w{1,60}?)(?:\.so(?:\.\d{1,6}){0,3}|64_\d{1,4}(?:_\d{1,3})?\.dll)(?:: .{0,1000})?$"
)
# numba's driver that failed to start, by release: "Error at driver init: \n[100] Call to cuInit results in
# CUDA_ERROR_NO_DEVICE:" (the code before, on a line of its own), later "... CUDA_ERROR_NO_DEVICE (100)"
_CUINIT = re.compile(
    r"^(Error at driver init:) (?:\[[^\]]{1,12}\] )?(Call to cuInit results in \w{1,60})(?: \(.{1,12}\))?:?$"
)


# faiss raises its C++ check through SWIG with the function and source that made it ("Error in void
# faiss::gpu::allocMemorySpaceV(...) at gpu/utils/MemorySpace.cpp:26: Error: 'err == cudaSuccess' failed: failed to
# cudaMalloc 1610612736 bytes (error 2 out of memory)"), and rewords its allocator's failure by release ("...
# StandardGpuResources: alloc fail type TemporaryMemoryBuffer dev 0 space Device stream 0x... size ... bytes (cudaMalloc
# error out of memory [2])"); scikit-learn's pickle of another release warned as UserWarning, since 1.3 as
# InconsistentVersionWarning, with both releases
_FAISS = re.compile(r"^Error in .{1,500}? at \S{1,300}?:(?:\d{1,6}|<line>): (Error: '.{1,200}?' failed: .{1,500})$")
_FAISS_OOM = re.compile(r"\bcudaMalloc\b.{0,200}\bout of memory\b")
# pandas with no Parquet engine it can use lists what importing each said, by release ("Unable to find a usable engine;
# tried using: 'pyarrow', 'fastparquet'. A suitable version of pyarrow or fastparquet is required ... - Missing optional
# dependency 'pyarrow'. ..."): none installed, or a pyarrow older than it requires ("Pandas requires version '10.0.1' or
# newer of 'pyarrow' (version '8.0.0' currently installed)"), by no version
_PARQUET = re.compile(r"^(Unable to find a usable engine; tried using: 'pyarrow', 'fastparquet')(?P<why>.*)$")
_PARQUET_OLD = re.compile(r"requires version '[^']{1,20}' or newer of 'pyarrow'")
_OLD_PYARROW = ": pyarrow is older than pandas requires"
_UNPICKLE = re.compile(r"^Trying to unpickle estimator \w{1,100} from version \S{1,30} when using version \S{1,30}\b")


def _old_pyarrow(lines: list[str], i: int) -> int | None:
    """The line of pandas' list below its Parquet error that says the pyarrow installed is too old, if one does."""
    return next((k for k in range(i + 1, min(i + 6, len(lines))) if _PARQUET_OLD.search(lines[k])), None)


def library_checks(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    """The ``companion-checks`` rule: faiss's check without the function and source that made it, its GPU allocator
    out of memory in one wording; scikit-learn's pickle of another release by no release and no estimator (which the
    job pickled), under its own class; pandas' Parquet engines by whether none or an old pyarrow is installed."""
    if message.startswith("Unable to find a usable engine") and (m := _PARQUET.match(message)):
        old = _PARQUET_OLD.search(m["why"]) or m["why"].startswith(_OLD_PYARROW)
        message = m[1] + (_OLD_PYARROW if old else "")
    elif message.startswith("Error in ") and (m := _FAISS.match(message)):
        message = "faiss: " + ("failed to cudaMalloc: out of memory" if _FAISS_OOM.search(m[1]) else m[1])
    elif message.startswith("Trying to unpickle estimator") and _UNPICKLE.match(message):
        return "InconsistentVersionWarning", "Trying to unpickle estimator <estimator> from another version", frames
    return exc, message, frames


# (OpenCV built without a GUI backend, the headless wheel: "The function is not implemented. Rebuild the library with
# Windows, GTK+ 2.x or Cocoa support. ... in function 'cvShowImage'", 3.4's "Carbon" and no quotes): which function
_NO_GUI = re.compile(r"in function '?(\w{1,100})'?")


def library_bounds(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    """The ``companion-libraries`` rule: Numba's NumPy bound by which way, its driver's failure by no code, CuPy's
    library by its name on any platform, pyarrow's
    columns of unequal length by the column's name, OpenCV's check without its release and source, tfds' manual
    directory without its path."""
    if message.startswith("Numba needs NumPy"):
        message = _NUMBA.sub(r"\1 <version> or \2", message)
    elif message.startswith("CuPy failed to load "):
        message = _CUPY_LOAD.sub(r"CuPy failed to load lib\1.so", message)
    elif message.startswith("Error at driver init:"):
        message = _CUINIT.sub(r"\1 \2", message)
    elif "The function is not implemented. Rebuild the library with" in message and (m := _NO_GUI.search(message)):
        message = f"OpenCV: the function is not implemented without a GUI backend: {m[1]}"
    elif message.startswith("OpenCV("):
        message = _OPENCV.sub(r"OpenCV: error: \1", message)
        message = _CV_FUNCTION.sub(r" in function '\1'", message)  # (4.x names it in its namespace by release)
    elif message.startswith("Manual directory "):
        message = _MANUAL_DIR.sub(r"\1 <dir> \2", message)
    return exc, message, frames


# MPI's stack lines: "MPIDI_OFI_mpi_init_hook(1473):", "MPID_nem_tcp_init(379).......: gethostbyname failed, host (errno
# 1)"; the innermost (the last printed) says where init failed, a resolver's failure is the machine's network
_MPI_STACK = re.compile(r"^(?P<fn>MPI[A-Za-z]?_\w{1,80})\(\d{1,6}\)\.{0,80}:\s?(?P<detail>.{0,300}?)\s*$")
_HOST = re.compile(r"(gethostbyname failed), \S{1,200}")


def _mpi_message(m: re.Match[str]) -> str:
    detail = _HOST.sub(r"\1", m["detail"])
    return f"MPI init failed in {m['fn']}" + (f": {detail}" if detail else "")


def _flex_op(m: re.Match[str]) -> str:
    op = m["op"] or f"tf.{m['custom']}"
    return f"'{op}' op is neither a custom op nor a flex op"


COMPANION_ERRORS: list[BareError] = [
    # TensorFlow Lite's converter refusing an op it has no kernel for, raised as ConverterError after MLIR's
    # diagnostics: "'tf.Mod' op is neither a custom op nor a flex op" (2022), "Custom ops: Mod" below "Some ops in the
    # model are custom ops" (2.15): which op is the failure, where the program wrote it not
    BareError(
        "tflite-flex-op",
        ("is neither a custom op nor a flex op", "Custom ops: "),
        re.compile(
            r"'(?P<op>tf\.\w{1,100})' op is neither a custom op nor a flex op|^Custom ops: (?P<custom>\w{1,100})$"
        ),
        "ConverterError",
        "compile_error",
        message=_flex_op,
    ),
    # quantization kernels' checks written without their class: optimum's of the auto-gptq installed ("Found an
    # incompatible version of auto-gptq. Found version 0.4.2+cu121, but only version above 0.4.99 are supported", in
    # Markdown italics), raised as ImportError; vLLM's of the GPU for a method ("The quantization method awq is not
    # supported for the current GPU. Minimum capability: 75. Current capability: 70."), raised as ValueError: the
    # minimum and the method are the failure, which version or GPU the machine's
    BareError(
        "auto-gptq-version",
        ("incompatible version of auto-gptq",),
        re.compile(
            r"(?P<msg>Found an incompatible version of auto-gptq)\. Found version \S{1,40}, but only versions? "
            r"above (?P<least>[\w.{}]{1,40}) are supported"
        ),
        "ImportError",
        "environment",
        message=lambda m: f"Found an incompatible version of auto-gptq: only versions above {m['least']} are supported",
    ),
    BareError(
        "quantization-capability",
        ("is not supported for the current GPU",),
        re.compile(
            r"(?P<msg>The quantization method \w{1,40} is not supported for the current GPU\. Minimum "
            r"capability: \d{2,3})\. Current capability: \d{2,3}"
        ),
        "ValueError",
        "environment",
    ),
    # TensorBoard's notices, and torch's and protobuf's checks of it written without their class: TensorFlow not
    # installed beside it ("TensorFlow installation not found - running with reduced feature set."), no event files
    # where it looked ("No dashboards are active for the current data set."), both weak; torch's minimum
    # ("TensorBoard logging requires TensorBoard version 1.15 or above"), an ImportError; protobuf's generated code
    # too old ("Descriptors cannot not be created directly.", a later release's "cannot be"), a TypeError
    _environment(
        "tensorboard-notices",
        ("TensorFlow installation not found", "No dashboards are active"),
        r"(?P<msg>TensorFlow installation not found - running with reduced feature set|No dashboards are active for "
        r"the current data set)",
        None,
        weak=True,
    ),
    BareError(
        "torch-tensorboard-version",
        ("TensorBoard logging requires TensorBoard version",),
        re.compile(r"(?P<msg>TensorBoard logging requires TensorBoard version [\d.]{1,10} or above)"),
        "ImportError",
    ),
    BareError(
        "protobuf-descriptors",
        ("be created directly",),
        re.compile(r"(?:^|(?<=\s))Descriptors cannot (?:not )?be created directly\b"),
        "TypeError",
        message=lambda m: "Descriptors cannot be created directly",
        weak=True,
    ),
    # faiss's check posted without the RuntimeError SWIG raises it as
    BareError(
        "faiss",
        ("Error in ",),
        re.compile(
            r"(?:^|(?<=[\s`'\"]))(?P<msg>Error in .{1,500}? at \S{1,300}:\d{1,6}: Error: '.{1,200}?' failed: "
            r".{1,500}?)`?$"
        ),
        "RuntimeError",
    ),
    # OpenCV's error posted without a traceback ("cv2.error: OpenCV(4.5.4-dev) ...", or its words alone)
    BareError(
        "opencv",
        ("OpenCV(",),
        re.compile(
            r"(?:^|(?<=[\s`'\"]))(?:cv2\.)?(?:error: )?"
            r"(?P<msg>OpenCV\([\w.-]{1,30}\) \S{1,300}?:\d{1,6}: error: \(.{1,500}?)[`'\"]?$"
        ),
        "error",
    ),
    # (OpenCV 2's own line, "OpenCV Error: Unspecified error (could not find encoder for the specified extension) in
    # imencode, file .../loadsave.cpp, line 545": its words, without the source)
    BareError(
        "opencv-2",
        ("OpenCV Error: ",),
        re.compile(r"^OpenCV Error: (?P<msg>[\w ]{1,60} \(.{1,300}?\) in \w{1,100}), file \S{1,300}, line"),
        "error",
    ),
    # Keras stopping an epoch whose input ran out ("Your input ran out of data; interrupting training. Make sure that
    # your dataset or generator can generate at least `steps_per_epoch * epochs` batches"), tf.data's cache not read
    # through (2.x's "The calling iterator did not fully read the dataset being cached.", 1.x's "... the dataset we
    # were attempting to cache"): warnings of a pipeline the program goes on with
    _environment(
        "keras-input-ran-out",
        ("Your input ran out of data",),
        r"Your input ran out of data; interrupting training",
        None,
        message=lambda m: "Keras: your input ran out of data; interrupting training",
        weak=True,
    ),
    _environment(
        "tfdata-cache",
        ("did not fully read the dataset",),
        r"The calling iterator did not fully read the dataset (?:being cached|we were attempting to cache)",
        None,
        message=lambda m: "tf.data: the calling iterator did not fully read the dataset being cached",
        weak=True,
    ),
    # pandas without a Parquet engine it can use, posted without the ImportError it raises (its list below it)
    BareError(
        "pandas-parquet-engine",
        ("Unable to find a usable engine",),
        re.compile(r"^(?P<msg>Unable to find a usable engine; tried using: 'pyarrow', 'fastparquet'\.?)$"),
        "ImportError",
        below=lambda lines, i, said: said + (" " + lines[k] if (k := _old_pyarrow(lines, i)) else ""),
    ),
    # CuPy's library it could not load, posted without the RuntimeError it raises (ComfyUI's report, a code span)
    _environment(
        "cupy-load",
        ("CuPy failed to load ",),
        r"(?:^|(?<=[\s`'\"]))(?:RuntimeError: )?(?P<msg>CuPy failed to load \S{1,200}?: .{1,500}?)[`'\"]?$",
    ),
    # numba -s's report of a driver that did not start ("Error: CUDA device intialisation problem. Message:Error at
    # driver init:", the code and cuInit's error on the next line), raised as CudaSupportError elsewhere
    BareError(
        "numba-report",
        ("CUDA device intialisation problem", "CUDA device initialisation problem"),
        re.compile(r"^Error: CUDA device ini?tialisation problem\. Message: ?(?P<msg>.{1,300})$"),
        "CudaSupportError",
        context=1,
    ),
    _environment(
        "cupy-packages",
        ("multiple CuPy packages are installed",),
        r"(?P<msg>CuPy may not function correctly because multiple CuPy packages are installed)",
        "UserWarning",
        weak=True,
    ),
    BareError(
        "mpi-init",
        ("MPI",),
        _MPI_STACK,
        None,
        lambda text: "infrastructure" if "gethostbyname failed" in text else "environment",
        message=_mpi_message,
    ),
]
