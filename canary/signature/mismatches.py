"""The words of a toolchain or environment that does not match what the program was built for. Pure.

Such a failure is infrastructure, not a code regression, even when a release prints it as a warning and carries on
(on the CPU, or slower): :data:`ENVIRONMENT_TEXT` is what gives it the ``environment`` kind, whichever class raised
it, and what the ``environment`` and ``versions`` folds (:mod:`canary.signature.environment`) read. The table is by
what does not match; each entry is one alternative of the pattern, and only whether one is found matters.
"""

from __future__ import annotations

import re

# jax, jaxlib, PJRT and TensorFlow's XLA module: one part of the framework against another
_FRAMEWORK = (
    r"jaxlib is version .{1,40} requires version|jaxlib version is .{1,40} requires",
    r"jaxlib (?:is version|version is) [\w.+]{1,40},? but this version of jax\b",
    r"jaxlib version .{1,40} is newer than and incompatible",
    r"is not compatible with the installed jaxlib version|-enabled jaxlib is not installed",
    r"Mismatched PJRT plugin PJRT API version|PJRT_\w{1,60} size: expected",
    r"built with a later version than the framework",
    r"XlaCallModule from your TensorFlow installation supports|XlaCallModuleOp with a?\S{0,10} ?version",
    r"current mps dialect version is|(?i:Failed to deserialize the Mosaic module)|Unsupported Mosaic version: \d",
    r"Unknown command line flag '|Unknown flags in XLA_FLAGS",
)
# TPUs: a chip held by another process, absent, or not the kind this jax runs on
_TPU = (
    r"TPU is already in use by|libtpu\.so already in use",
    r"open\(/dev/vfio/\d{1,4}\): Device or resource busy|/dev/accel\d{1,3}\)?:? \(?Operation not permitted",
    r"Couldn't open the TPU device|TPU initialization failed: No \S{1,40} device found",
    r"module 'libtpu' has no attribute",
    r"TPU backend initialization is taking more than|Failed to connect to remote server at address: grpc://",
    r"JAX only supports TPU VMs, not the older Colab TPUs",
)
# a backend or device that is not there, so the program would fall back or stop
_BACKENDS = (
    r"(?i:falling back to CPU)|no supported devices found for platform|not supported by XLA service",
    r"\bUnknown backend:? '?\w{1,20}'?(?: requested, but no platforms|(?m:$))",
    r"Cannot dlopen some GPU libraries|Skipping registering GPU devices",
    r"was compiled without GPU support|PyTorch is not linked with support for \w{1,20} devices",
)
# CUDA's libraries against the build: cuDNN, cuBLAS and the rest older, newer, or not loaded
_CUDA_LIBRARIES = (
    r"Loaded runtime CuDNN library",
    r"Could not find '(?:cudart|cudnn|cublas|cufft|curand|cusolver|cusparse|nvcuda)\w{0,20}\.dll'",
    r"Could not load library lib\w|version lib[\w+-]{1,60}\.so(?:\.\d{1,4}){0,3} not defined in file lib",
    r"Found (?:cu[A-Za-z]{2,10}|CUDA) version \d{1,8}, but JAX was built against",
    r"cu[A-Za-z]{2,10} \S{1,20} is (?:older|newer) than the cu[A-Za-z]{2,10}",
    r"CUDA \S{1,20} is older than the CUDA|Outdated \w{1,20} installation found",
    r"Unable to load cu\w{2,10}\. Is it installed|operation cu\w{2,30}Get(?:Version|Property)\(",
    r"Could not load dynamic library '",
    r"The detected CUDA version \(\S{1,20}\) mismatches the version",
)
# the driver and the device: too old, not reachable, or a GPU the build has no kernels for
_DRIVER = (
    r"failed call to cuInit|operation cuInit\(\d{1,3}\) failed|cuInit failed: CUDA",
    r" not available in this library\.|caused by stale driver version",
    r"Unexpected error from cudaGetDeviceCount\(\)|cudaGetDeviceCount\(\) failed",
    r"CUDA driver version is insufficient for CUDA runtime version|The NVIDIA driver on your system is too old",
    r"Failed to initialize NVML: |NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver",
    r"forward compatibility was attempted on non supported HW",
    r"could not select device driver \S{0,40} with capabilities|unsatisfied condition: cuda",
    r"This container was built for NVIDIA Driver Release",
    r"hipErrorNoBinaryForGpu|no kernel image is available for execution|device kernel image is invalid",
    r"CUDA capability sm_\d{1,4} is not compatible with the current PyTorch",
    r"PyTorch no longer supports this GPU because it is too old",
    r"is only supported on GPUs with compute capability of at least|FlashAttention only supports Ampere GPUs or newer",
    r"data type is not supported on CUDA arch < \d|not supported in this architecture\. The supported",
)
# the GPU compilers: ptxas, nvlink, nvrtc and libdevice older than, or missing for, what XLA or a build emits
_GPU_COMPILERS = (
    r"You are using ptxas \S{1,20}, which is older|ptxas \S{0,300} ?too old",
    r"ptxas does not support CC|^Used ptxas at \S|older than the (?:ptxas CUDA|PTX compiler) version",
    r"PTX version \S{1,10} does not support target",
    r"Couldn't (?:get ptxas version string|invoke ptxas|find a suitable version of ptxas)|Failed to launch ptxas",
    r"Unsupported \.version \d{1,2}\.\d{1,2}; current version is|ptxas is older than the PTX it is given",
    r"nvlink fatal\s{1,8}: (?:Input file .{1,300} newer than toolkit|Value 'sm_\d{1,4}' is not defined)",
    r"ptxas not found|requires ptxas \S{1,20}|ptxas \S{1,20} is older than the ptxas|libdevice not found",
    r"Unsupported gpu architecture '|nvrtc: error: invalid value for --gpu-architecture",
    r"ptxas fatal\s{0,4}: Value 'sm_\w{1,10}' is not defined for option 'gpu-name'",
)
# a compiled library against what loads it: NumPy's ABI, a shared object, glibc, the CPU's instructions
_BINARIES = (
    r"compiled using NumPy 1\.x cannot be run in|size changed, may indicate binary incompatibility",
    r"Numba needs NumPy \d|does not match the version torch was compiled with",
    r"lib[\w.+-]{1,100}\.so(?:\.[\d.]{1,20})?: cannot open shared obj",
    r"\.so(?:\.\d{1,4}){0,3}: undefined symbol: |^(?:importing failed due to )?[Uu]ndefined symbol: ",
    r"version [`'](?:GLIBC(?:XX)?|CXXABI)_[\d.]{1,12}' not found|The installed Paddle is compiled with ",
    r"This version of jaxlib was built using AVX instructions|: incompatible architecture \(have \w{1,20}, need ",
    r"^cannot load library '[^']{1,200}': wrong architecture$",
    r"library was compiled to use \S{1,20} instructions, but these aren't available",
    r"Protobuf Gencode/Runtime (?:major )?versions",
)
# libraries that check their neighbours, or find their own parts missing
_LIBRARIES = (
    r"CUDA Setup failed despite GPU|binary not found at \S{0,300}libbitsandbytes_",
    r"Requires Flash-Attention version \S|xFormers can't load C\+\+/CUDA extensions",
    r"without a GUI backend: |with `PyTorch` requires `accelerate>=",
    r"CuPy failed to load |was not found\. Please see the NeMo README",
    r"Failed to fetch URL on try \d{1,3} out of \d{1,3}: Failed to fetch URL \(",
    # (h5py against another HDF5; an HDF5 file lock the file system or another process refused)
    r"h5py is running against HDF5 |^unable to lock file: |^SQLite <version> or later is required$",
    r"^MISCONF Redis is configured to save RDB snapshots, but it cannot persist them to disk$",  # (the server's disk)
    # (a browser or a program a library runs, not installed, as the helper-programs rule words it)
    r"^Playwright: Executable doesn't exist \(|make sure the Graphviz executables are on your systems' PATH$",
    r"^RequestTimeTooSkewed: the request time and the current time differ too much$",  # (the machine's clock)
    # (the audio libraries sounddevice and soundfile load by name, not installed: "PortAudio library not found")
    r"^(?:PortAudio|sndfile) library not found$",
    # (matplotlib's: Tcl's scripts, a font family, a TeX program; as the plotting rule words them)
    r"^Can't find a usable [\w.]{1,20}\.tcl in the following directories: <dirs>$|^findfont: Font family <family> "
    r"not found$|^Failed to process string with tex because \w{1,20} could not be found$",
    # (the host compiler above the CUDA found, as the host-compilers rule words PyTorch's check)
    r"^The current installed version of \S{1,40} is greater than the maximum required version by CUDA$",
    # (Oracle's client library, as the databases rule words it)
    r"^DPI-(?:1047|<version>): \d\d-bit Oracle Client library: ",
)
# the config tool a source build of a client library asks for (psycopg2's pg_config, mysqlclient's mysql_config,
# rasterio's and GDAL's gdal-config)
_CONFIG_TOOLS = (
    r"pg_config executable not found|\bmysql_config not found|A GDAL API version must be specified",
    # (tox 4's refusal of an environment's configuration: a pip option in its deps, a command not allowed)
    r"for tox env \S{1,100} within deps|use allowlist_externals to allow it",
    # (the Android Gradle plugin's check of the JDK running Gradle)
    r"Android Gradle plugin requires Java \d",
)
# installers: no release for this Python or platform, or no set of releases that agree
_INSTALLS = (
    r"No matching distribution found for |Could not find a version that satisfies the requirement",
    r"is not a supported wheel on this platform|has inconsistent version",
    r"\bJAX requires Python \d\.\d{1,2} or newer|Cannot install on (?:a )?Python\b",
    r"Python in worker has different version",  # (PySpark's workers against its driver)
    r"^Pandas requires version '\S{1,30}' or newer of '",  # (pandas' floor for an optional dependency it imports)
    r"^Java gateway process exited before sending its port number",  # (PySpark's JVM that did not start)
    r"conflicting dependencies \(ResolutionImpossible\)|uv: no solution found when resolving",
    # (pip's words after a package's build step failed: a compiler, a tool or a header the build needed)
    r"^error: (?:subprocess-exited-with-error|metadata-generation-failed|legacy-install-failure)$",
    r"Could not build wheels for \S|Command errored out with exit status \d{1,3}: \S{0,200}python\S{0,20} setup\.py",
)
# the host's compilers a build or a just-in-time compiler needs
_HOST_COMPILERS = (
    r"No working C\+\+ compiler found|Compiler: \w{1,20} is not found|Cannot find a working triton installation",
    r"Failed to find C compiler\. Please specify via CC",
)
# the code against a newer interpreter: a module Python removed (PEP 594 and 632), or a name it removed from a module
# it keeps (collections' ABCs in 3.10, asyncio.coroutine and inspect.getargspec in 3.11, configparser's
# SafeConfigParser in 3.12, time.clock in 3.8; distutils.version, which setuptools 60 no longer imports with distutils)
_PYTHON = (
    r"No module named '(?:distutils|imp|pipes|asynchat|asyncore|smtpd|cgi|cgitb|crypt|imghdr|mailcap|telnetlib|uu|"
    r"xdrlib|aifc|audioop|chunk|sndhdr|sunau|nntplib|lib2to3)'",
    r"module 'pkgutil' has no attribute 'ImpImporter'",
    # (an extension module of the interpreter's own that its build left out, for want of the library's headers)
    r"No module named '_(?:sqlite3|ssl|ctypes|lzma|bz2|tkinter|curses|dbm|gdbm|uuid|hashlib|decimal)'",
    r"(?:module '(?:collections|asyncio|inspect|configparser|time|distutils)' has no attribute |"
    r"cannot import name (?=.{0,40}from 'collections'))'(?:Mapping|MutableMapping|Iterable|Sequence|Callable|"
    r"MutableSequence|MutableSet|Set|Hashable|Iterator|Container|Sized|coroutine|getargspec|formatargspec|"
    r"SafeConfigParser|clock|version)'",
)

ENTRIES: tuple[str, ...] = (
    *_FRAMEWORK,
    *_TPU,
    *_BACKENDS,
    *_CUDA_LIBRARIES,
    *_DRIVER,
    *_GPU_COMPILERS,
    *_BINARIES,
    *_LIBRARIES,
    *_CONFIG_TOOLS,
    *_INSTALLS,
    *_HOST_COMPILERS,
    *_PYTHON,
)
ENVIRONMENT_TEXT = re.compile("|".join(ENTRIES))
