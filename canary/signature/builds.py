"""Checks that a build fits the machine's libraries, printed (or raised) rather than a failure of the program: the
dynamic loader's (a library missing, older than a binary links, without a symbol), NumPy's ABI, Paddle's and
TensorFlow's own checks of their CUDA and the CPU, nvcc's and rocBLAS's architectures, XLA:CPU's ahead-of-time
results. Pure. They take their place in :data:`canary.signature.checks.ENVIRONMENT_ERRORS`; their wording across
releases is folded by :mod:`canary.signature.environment`.
"""

from __future__ import annotations

import re

from canary.signature.native_folds import library_load
from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment
from canary.signature.scientific_builds import SCIENTIFIC_BUILDS
from canary.signature.source_builds import SOURCE_BUILD, version_tuple

# the class a check's words follow on their line ("ValueError: numpy.dtype size changed", "RuntimeWarning: ...")
_RAISED_AS = re.compile(r"\b([A-Z]\w{0,60}(?:Error|Warning)): $")

# the words each alternative of the "blas-runtime" and "source-build" checks is named by (versions and thread counts
# masked: they are the machine's), by the group that matched
_BLAS_WORDS = {
    "omp": "OMP: {omp}",
    "openblas": "OpenBLAS blas_thread_init: pthread_create failed{why}",
    "gomp": "{gomp}",
    "mkl": "Intel MKL FATAL ERROR: {mkl}",
}


def _blas_words(m: re.Match[str]) -> str:
    """The "blas-runtime" check's words: OpenBLAS's errno kept, MKL's library without its ABI's number (2024's
    ``mkl_intel_thread.2.dll``)."""
    words = _BLAS_WORDS[m.lastgroup].format(**m.groupdict(), why=f": {m['errno']}" if m["errno"] else "")
    return words.replace(f"{m['abi']}.dll", ".dll") if m["abi"] else words


BUILD_CHECKS: list[BareError] = [
    # OpenCV's DNN module asked for CUDA by a build without it ("[ WARN:0@72.901] global .../dnn/src/net_impl.cpp (179)
    # setUpNet DNN module was not built with CUDA backend; switching to CPU", dnn.cpp's before 4.6): the model runs on
    # the CPU instead, as a lane whose accelerator became the CPU does
    _environment(
        "opencv-dnn-cuda",
        ("DNN module was not built with CUDA backend",),
        r"(?P<msg>DNN module was not built with CUDA backend; switching to CPU)",
        None,
        message=lambda m: f"OpenCV: {m['msg']}",
    ),
    # torch warning that its NumPy bridge could not start ("UserWarning: Failed to initialize NumPy: _ARRAY_API not
    # found (Triggered internally at ...tensor_numpy.cpp:84.)", or a C API version mismatch), behind an app's "Error: ",
    # in a title or without its class: the NumPy torch was built against is not the one installed; tensors still work
    BareError(
        "torch-numpy-init",
        ("Failed to initialize NumPy: ",),
        re.compile(
            r"Failed to initialize NumPy: (?P<msg>_ARRAY_API not found|module compiled against API version 0x\w{1,8} "
            r"but this version of numpy is 0x\w{1,8})"
        ),
        "UserWarning",
        message=lambda m: f"Failed to initialize NumPy: {m['msg']}",
        weak=True,
    ),
    # two OpenMP runtimes in one process ("OMP: Error #15: Initializing libiomp5md.dll, but found libiomp5md.dll already
    # initialized.", on macOS "Initializing libiomp5.dylib, but found libomp.dylib already initialized."), a BLAS or
    # OpenMP runtime that cannot start its threads ("OpenBLAS blas_thread_init: pthread_create failed for thread 57 of
    # 64: Resource temporarily unavailable", older "pthread_create: Resource ...", "libgomp: Thread creation failed:
    # ..."), MKL without its kernels for the CPU ("Intel MKL FATAL ERROR: Cannot load libmkl_avx2.so or ..."):
    # the libraries the environment installed against each other and the machine; which runtimes, not how many threads
    # (OpenBLAS's errno is which: a sandbox refusing the call, not a limit on threads)
    _environment(
        "blas-runtime",
        ("Error #15: Initializing", "pthread_create", "Thread creation failed", "Cannot load libmkl", "load mkl_"),
        r"(?:OMP: )?(?P<omp>Error #15: Initializing [\w.]{1,60}, but found [\w.]{1,60} already initialized)|"
        # (a log of many such lines may have "OpenBLAS " taken off as their tag)
        r"(?P<openblas>(?:(?:OpenBLAS )?blas_thread_init: |^)pthread_create(?: failed for thread \d|:)"
        r"(?:(?:[\d of]{0,20}:)? ?(?P<errno>Operation not permitted|Resource temporarily unavailable))?)|"
        r"(?P<gomp>libgomp: Thread creation failed)|"
        r"(?P<mkl>Cannot load (?:libmkl_\w{1,20}\.so or libmkl_def\.so|mkl_\w{1,40}?(?P<abi>\.\d{1,3})?\.dll))",
        None,
        message=_blas_words,
    ),
    # cuDNN 9 loading its sublibraries ("Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, ...}",
    # then "Invalid handle. Cannot load symbol cudnnCreate"): which library; the sonames it tried are the release's
    _environment(
        "cudnn-sublibrary",
        ("Unable to load any of {",),
        r"Unable to load any of \{(?P<lib>lib\w{1,60}?)\.so",
        message=lambda m: f"Unable to load {m['lib']}",
    ),
    # PyTorch's allocator settings an upgrade renamed or the platform does not take ("Warning:
    # PYTORCH_CUDA_ALLOC_CONF is deprecated, use PYTORCH_ALLOC_CONF instead", "expandable_segments not supported on
    # this platform"): warnings, the failure only when nothing else is
    _environment(
        "torch-alloc-conf",
        ("PYTORCH_CUDA_ALLOC_CONF is deprecated", "expandable_segments not supported"),
        r"(?P<msg>PYTORCH_CUDA_ALLOC_CONF is deprecated, use PYTORCH_ALLOC_CONF instead|"
        r"(?P<platform>expandable_segments not supported on this platform))",
        lambda m: "UserWarning" if m["platform"] else None,  # (raised through Python's warnings, the other C++'s)
        weak=True,
    ),
    # tf.data's auto-sharding falling back from files to data ("AUTO sharding policy will apply DATA sharding policy as
    # it failed to apply FILE sharding policy ...", TensorFlow 2.4's "In AUTO-mode, and switching to DATA-based
    # sharding, instead of FILE-based sharding as we cannot find appropriate reader dataset op(s) to shard"): each host
    # reads all the data, a warning
    _environment(
        "tf-autoshard",
        ("AUTO sharding policy will apply DATA shar", "In AUTO-mode, and switching to DATA-based sharding"),
        r"(?P<new>AUTO sharding policy will apply DATA shar)|"
        r"In AUTO-mode, and switching to DATA-based sharding, instead of FILE-based sharding",
        None,
        # (a post cut inside the line is the line: its words are the release's)
        message=lambda m: (
            "AUTO sharding policy will apply DATA sharding policy as it failed to apply FILE sharding policy"
            if m["new"]
            else "In AUTO-mode, and switching to DATA-based sharding, instead of FILE-based sharding"
        ),
        weak=True,
    ),
    # pip's resolver installing over what a runtime preinstalled ("ERROR: pip's dependency resolver does not currently
    # take into account ...", then each conflict: "tensorflow 2.8.0 requires numpy>=1.20, but you have numpy 1.19.5
    # which is incompatible.", a marker after the pin or not, "... requires jedi>=0.10, which is not installed."; pip 10
    # to 20.2 "ERROR: torchvision 0.4.2 has requirement torch==1.3.1, but you'll have torch 1.4.0 which is ..."): it
    # installs anyway, so a warning; which package needs which is the check, versions the machine's
    _environment(
        "pip-conflict",
        (" requires ", " has requirement "),
        r"(?:^|(?<=[\"`*])|(?<=: ))(?:ERROR: )?(?P<pkg>[\w.-]{1,100}) [\w.+!-]{1,40} (?:requires|has requirement) "
        r"(?P<req>[\w.\[\]-]{1,100})(?:[^ ]{0,80}|[^ ]{0,80}; [^,]{1,200}), "
        r"(?:but you(?: have|'ll have) [\w.-]{1,100} [\w.+!-]{1,40} "
        r"(?P<have>which is incompatible)|which is not installed)\.(?:[\"`*]|$)",
        None,
        message=lambda m: (
            f"pip: {m['pkg']} requires {m['req']}, "
            + ("but another version is installed" if m["have"] else "which is not installed")
        ),
        weak=True,
    ),
    # pip asked for an extra the release it picked lacks ("WARNING: jax 0.3.4 does not provide the extra 'cuda111'",
    # "... jax-cuda12-plugin 0.5.3 does not provide the extra 'with_cuda'"): it installs without what the extra pulls
    # in; pkg_resources refusing the same at import ("UnknownExtra: jax 0.4.7 has no such extra feature 'cuda12'").
    # Which package lacks which extra is the check, the release the machine's
    _environment(
        "pip-extra",
        ("does not provide the extra", "has no such extra feature"),
        r"(?:(?:^WARNING: |(?<=[\"`]))(?P<pkg>[\w.-]{1,100}) [\w.+!-]{1,40} does not provide the extra "
        r"'(?P<extra>[\w.-]{1,60})'|"
        r"\bUnknownExtra: (?P<upkg>[\w.-]{1,100}) [\w.+!-]{1,40} has no such extra feature '(?P<uextra>[\w.-]{1,60})')",
        lambda m: "UnknownExtra" if m["upkg"] else None,
        message=lambda m: (
            f"{m['upkg']} has no such extra feature '{m['uextra']}'"
            if m["upkg"]
            else f"pip: {m['pkg']} does not provide the extra '{m['extra']}'"
        ),
        weak=True,
    ),
    # an extension that loaded without what it was built for, logged rather than raised (xformers' "WARNING[XFORMERS]:
    # xFormers can't load C++/CUDA extensions. xFormers was built for:", then the torch, CUDA and Python it was built
    # for; bitsandbytes' "[WARNING | bitsandbytes.cextension]: The installed version of bitsandbytes was compiled
    # without GPU support. ..."): the run goes on without its kernels, so a warning; the check is its first sentence
    _environment(
        "xformers-unloaded",
        ("xFormers can't load", "Please reinstall xformers"),
        # (or its advice alone, a post that begins below the warning's head)
        r"xFormers can't load C\+\+/CUDA extensions|^\s{0,8}Please reinstall xformers \(see ",
        None,
        message=lambda m: "xFormers can't load C++/CUDA extensions",
        weak=True,
    ),
    _environment(
        "bitsandbytes-cpu",
        ("compiled without GPU support",),
        r"(?P<msg>The installed version of bitsandbytes was compiled without GPU support)",
        "UserWarning",
        weak=True,
    ),
    # Intel's extension for PyTorch refusing the torch it was not built for ("ERROR! Intel® Extension for PyTorch* needs
    # to work with PyTorch 2.2.*, but PyTorch 2.1.0+cu121 is found. Please switch to the matching version and run
    # again."): the releases are the machine's
    _environment(
        "ipex-torch",
        ("Extension for PyTorch* needs to work with PyTorch",),
        r"Intel® Extension for PyTorch\* needs to work with PyTorch [\w.*]{1,20}, but PyTorch \S{1,40} is found",
        None,
        message=lambda m: "Intel Extension for PyTorch needs to work with another PyTorch than the one found",
    ),
    # torch-neuron refusing the torch it was not built for ("ImportError Invalid dependency version torch==2.0.1+cu117.
    # Expected torch==1.13.1"): the releases are the machine's
    _environment(
        "neuron-torch",
        ("Invalid dependency version torch==",),
        r"Invalid dependency version torch==\S{1,40}\. Expected torch==\S{1,40}",
        "ImportError",
        message=lambda m: "Invalid dependency version of torch for torch-neuron",
    ),
    # conda's solver without a virtual package the machine should provide ("nothing provides __cuda needed by
    # tensorflow-2.7.0-cuda102py310hcf4adbc_0", "... __glibc >=2.17 needed by ..."), and mamba's without any solution
    # ("Could not solve for environment specs", the conflicts below it): which virtual package, which package
    _environment(
        "conda-solve",
        ("nothing provides __",),
        r"nothing provides (?P<virtual>__\w{1,20})(?: \S{1,30})? needed by (?P<pkg>[\w.-]{1,100}?)-\d",
        None,
        message=lambda m: f"conda: nothing provides {m['virtual']} needed by {m['pkg']}",
    ),
    # (mamba's head alone says only that it found no solution: the failure when nothing more specific is read)
    _environment(
        "mamba-solve", ("Could not solve for",), r"^(?P<msg>Could not solve for environment specs)$", None, weak=True
    ),
    *SCIENTIFIC_BUILDS,
    SOURCE_BUILD,
    # XLA:CPU's LLVM not knowing the machine's CPU ("'apple-m1' is not a recognized processor for this target
    # (ignoring processor)", "'+neon' is not a recognized feature for this target"): a jaxlib built for another
    # architecture (x86 under Rosetta on an Apple chip, aarch64 under another), or an LLVM older than the CPU; it goes
    # on with a generic target, so a warning
    _environment(
        "llvm-target",
        ("is not a recognized processor for this target", "is not a recognized feature for this target"),
        r"'(?P<name>[\w.+-]{1,40})' is not a recognized (?:processor|feature) for this target",
        None,
        # (which processor and features are the machine's, and it lists many: that LLVM does not know it is the check;
        # a GPU's generation, Triton's LLVM older than an 'sm_120', is another machine's part and named)
        message=lambda m: (
            f"the GPU's {m['name']} is not a recognized processor for this target"
            if re.fullmatch(r"sm_\d{2,4}\w?|gfx\w{2,8}", m["name"])
            else "the machine's CPU is not a recognized processor for this target"
        ),
        weak=True,
    ),
    # a kernel for a GPU generation the machine's is not: Triton's FP8 types ("Conversion from/to f8e4m3nv is only
    # supported on compute capability >= 90", "fp8e4nv data type is not supported on CUDA arch < 89", later "type
    # fp8e4nv not supported in this architecture. The supported fp8 dtypes are (...)"), ptxas refusing
    # Hopper's instructions for another target ("ptxas error: Instruction 'wgmma.fence' not supported on .target
    # 'sm_120'"): which instruction or type, and which generation, is the failure
    _environment(
        "gpu-generation",
        (
            "only supported on compute capability",
            "data type is not supported on CUDA arch",
            "not supported on .target",
            "requires .target",
            "not supported in this architecture",
        ),
        # (a title may drop Triton's "Conversion from/to ": the type and the generation are the check; ptxas names a
        # feature too: "Feature '.block_scale' not supported on .target 'sm_120'", "Feature 'mma' requires .target
        # sm_70 or higher")
        r"(?:Conversion from/to )?(?P<msg>\w{1,20} is only supported on compute capability >= \d{2,3}|"
        r"\w{1,20} data type is not supported on CUDA arch < \d{2,3}|type \w{1,20} not supported in this architecture|"
        r"(?:Instruction|Feature) '[\w.:]{1,60}'(?: with [\w ]{1,40})? (?:not supported on \.target '\w{1,20}'|"
        r"requires \.target sm_\d{2,3} or higher))",
        None,
    ),
    # rocBLAS without kernels for the GPU it runs on ("rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/
    # TensileLibrary.dat: Illegal seek for GPU arch : gfx1103", older releases without the architecture), then an
    # abort: the build against the machine's architecture; where the library is installed is the machine's
    _environment(
        "rocblas-arch",
        ("TensileLibrary",),
        r"(?:rocBLAS error: )?Cannot read \S{0,300}TensileLibrary\.dat: Illegal seek"
        r"(?: for GPU arch ?: ?(?P<arch>gfx\w{1,10}))?",
        None,
        message=lambda m: (
            "rocBLAS error: Cannot read TensileLibrary.dat: Illegal seek"
            + (f" for GPU arch : {m['arch']}" if m["arch"] else "")
        ),
    ),
    # XLA built without compiler optimizations, told at its first slow compile ("Slow compile?  XLA was built without
    # compiler optimizations, which can be slow.  Try rebuilding with -c opt.")
    _environment(
        "xla-unoptimized",
        ("XLA was built without compiler optimizations",),
        r"(?P<msg>XLA was built without compiler optimizations)",
        None,
        weak=True,
    ),
    # a TensorFlow older than the jax that serialized a module for it (jax2tf's "XlaCallModule from your TensorFlow
    # installation supports up to serialization version 9 but the serialized module needs version 10", TensorFlow's
    # own "XlaCallModuleOp with version 10 is not supported by this build. Must be <= 9"): which check, and which way
    _environment(
        "xla-call-module",
        ("XlaCallModule from your TensorFlow installation", "is not supported by this build"),
        r"XlaCallModule from your TensorFlow installation supports up to serialization version (?P<have>\d{1,4}) but "
        r"the serialized module needs version (?P<needs>\d{1,4})|(?P<op>XlaCallModuleOp) with version (?P<v>\d{1,4}) "
        r"is not supported by this build\. Must be <= (?P<max>\d{1,4})",
        lambda m: "InvalidArgumentError" if m["op"] else "NotImplementedError",
        message=lambda m: (
            "XlaCallModuleOp with a newer version is not supported by this build"
            if m["op"]
            else "XlaCallModule from your TensorFlow installation supports up to an older serialization version than "
            "the serialized module needs"
        ),
    ),
    # a CUDA library that loads another at run time without finding it (cuDNN 8's "Could not load library
    # libcublasLt.so.12. Error: libcublasLt.so.12: cannot open shared object file", then the abort): which library,
    # and which it needs that is missing ("... Error: libnvrtc.so: ..."), not the CUDA major its file name carries
    _environment(
        "library-load",
        ("Could not load library ", "could not load library "),
        # (a title may stop at "Error" or type the name in lower case: the loader's case-sensitive name is the library)
        r"[Cc]ould not load library (?P<lib>lib[\w+-]{1,60})\.so(?:\.\d{1,4}){0,3}(?:\. Error(?:: |$)|$)"
        r"(?:(?:\S{0,300}/)?(?!(?P=lib)\b)(?P<dep>lib[\w+-]{1,60})\.so(?:\.\d{1,4}){0,3}: )?(?P<why>.{0,1000})",
        # (the library, the one it depends on, and how that failed: native_folds.library_load)
        message=lambda m: library_load(m["lib"], m["dep"], m["why"]),
    ),
    # the loader finding the installed library older than the one a build links ("jaxlib/xla_extension.so: symbol
    # cudnnSetCTCLossDescriptorEx version libcudnn.so.7 not defined in file libcudnn.so.7 with link time reference"):
    # which library; the symbol is whichever the build needed first
    _environment(
        "library-symbol",
        ("not defined in file ",),
        r"symbol \w{1,200} version (?P<lib>lib[\w+-]{1,60}\.so(?:\.\d{1,4}){0,3}) not defined in file "
        r"(?P=lib) with link time reference",
        "ImportError",
        message=lambda m: f"a symbol version {m['lib']} the build links is not defined in the installed {m['lib']}",
    ),
    # a system library older than a binary was linked against, quoted anywhere (a title: "TF Quit working with
    # /lib/libstdc++.so.6: version `CXXABI_1.3.8' not found, I then reinstalled"); folded by the environment rule
    _environment(
        "library-version",
        ("' not found",),
        r"(?P<msg>(?:\S{0,300}/)?lib[\w.+-]{1,60}\.so[\d.]{0,12}: version [`'](?:GLIBC(?:XX)?|CXXABI)_[\d.]{1,12}' "
        r"not found)",
        "ImportError",
    ),
    # PaddlePaddle's check of the CUDA and cuDNN it runs with against its build, a warning ("WARNING: device: 0. The
    # installed Paddle is compiled with CUDNN 7.6, but CUDNN version in your machine is 7.4, which may cause serious
    # incompatible bug."): which library, and which way
    _environment(
        "paddle-version",
        ("The installed Paddle is compiled with ",),
        r"The installed Paddle is compiled with (?P<lib>CUDNN|CUDA) (?P<built>[\d.]{1,12}\d), but (?:CUDNN|CUDA "
        r"runtime) version in your machine is (?P<have>[\d.]{1,12}\d)",
        message=lambda m: (
            f"The installed Paddle is compiled with {m['lib']}, but the {m['lib']} in the machine is "
            + ("older" if version_tuple(m["have"]) < version_tuple(m["built"]) else "newer")
        ),
        weak=True,
    ),
    # an extension compiled against another NumPy: NumPy 2's banner for one built with 1.x ("A module that was compiled
    # using NumPy 1.x cannot be run in NumPy 2.0.0 as it may crash.", before the import's error) and NumPy's check of
    # its types' sizes against the extension's C headers ("numpy.dtype size changed, may indicate binary
    # incompatibility. Expected 96 from C header, got 88 from PyObject", raised or warned; Cython's check of any
    # module's type: "pyarrow.lib.IpcWriteOptions size changed, ..."): which type, which way
    _environment(
        "numpy-abi",
        ("compiled using NumPy 1.x", "may indicate binary incompatibility"),
        r"(?P<banner>A module that was compiled using NumPy 1\.x cannot be run in)|"
        r"(?P<msg>(?:[a-z]\w{0,30}\.){0,3}\w{1,40} size changed, may indicate binary incompatibility\. Expected "
        r"\d{1,4} from C header, got \d{1,4} from PyObject)",
        lambda m: c[1] if (c := _RAISED_AS.search(m.string, 0, m.start())) else "ImportError",
        message=lambda m: (
            "A module that was compiled using NumPy 1.x cannot be run in NumPy 2" if m["banner"] else m["msg"]
        ),
    ),
    # XLA:CPU loading a program compiled ahead of time (a cache entry, an exported executable) on a CPU without a
    # feature it was compiled for ("Loading XLA:CPU AOT result. Target machine feature +prefer-no-gather is not
    # supported on the host machine. Machine type used for XLA:CPU compilation doesn't match ..."): which feature
    _environment(
        "xla-cpu-aot",
        ("XLA:CPU AOT result",),
        r"Loading XLA:CPU AOT result\. Target machine feature (?P<feature>\S{1,100}) is not\b",
        None,
        message=lambda m: (
            f"Loading XLA:CPU AOT result: target machine feature {m['feature']} is not supported on the host"
        ),
    ),
    # TensorFlow's check of the CPU it runs on ("F tensorflow/core/platform/cpu_feature_guard.cc:37] The TensorFlow
    # library was compiled to use AVX instructions, but these aren't available on your machine.", then the abort):
    # which instructions is the failure
    _environment(
        "tf-cpu-feature",
        ("aren't available on your machine",),
        r"(?P<msg>The TensorFlow library was compiled to use [\w.]{1,20} instructions, but these aren't available on "
        r"your machine)",
        "SIGABRT",
    ),
    # TensorFlow's loader without a CUDA library its build names ("W .../dso_loader.cc:60] Could not load dynamic
    # library 'libcudart.so.11.0'; dlerror: ..."): it goes on with the CPU; which library (which CUDA) is the failure,
    # and which library it needs is missing where that is another ("'libnvinfer.so.6'; dlerror: libcublas.so.10: ...")
    _environment(
        "tf-dso",
        ("Could not load dynamic library",),
        # (on Windows a DLL without "lib": 'cupti64_110.dll', 'cudart64_110.dll')
        r"(?P<msg>Could not load dynamic library '(?:\S{0,300}/)?(?P<lib>"
        r"(?:lib[\w.+-]{1,100}\.(?:so|dll|dylib)|[\w.+-]{1,100}\.dll)[\w.]{0,20})')"
        r"(?:; dlerror: (?P<dep>lib[\w.+-]{1,100}\.so[\w.]{0,20}): cannot open shared object file)?",
        message=lambda m: m["msg"] + (f" ({m['dep']} missing)" if m["dep"] and m["dep"] != m["lib"] else ""),
        weak=True,
    ),
    # nvcc without the architecture a build asks for ("nvcc fatal   : Unsupported gpu architecture 'compute_35'":
    # CUDA 12 dropped it, an older CUDA does not know compute_90 yet): the compiler's, no class
    _environment(
        "nvcc-arch",
        ("Unsupported gpu architecture",),
        r"(?P<msg>Unsupported gpu architecture '\w{1,20}')",
        None,
    ),
]
