"""Failures a device, its runtime or the machine report on a line of their own, not as a traceback:
NCCL's, CUDA's and HIP's errors, LLVM's fatal error, the kernel's OOM killer, Slurm cancelling a job, jax
narrowing a 64-bit dtype, XLA's slow-operation alarms (:mod:`canary.signature.xla_alarms`).
Pure. They take their place in :data:`canary.signature.bare.BARE_ERRORS`, whose order decides which
recogniser has a line first.
"""

from __future__ import annotations

import re

from canary.signature import native_gpu
from canary.signature.mismatches import ENVIRONMENT_TEXT
from canary.signature.recogniser import BareError, environment_check
from canary.signature.xla_alarms import XLA_ALARMS
from canary.signature.xla_autotuning import XLA_AUTOTUNING

XDIST_CRASH = "pytest-xdist: worker crashed while running"
_TEST_ID = re.compile(r"^[\w./-]{1,300}\.py::[\w.:\[\]-]{1,300}$")  # (host_checks words its node-down report so too)

_ALLOC = re.compile(r"failed to alloc(?:ate)? [^:]{0,80}?\b(from device|on host): $")
_ALLOC_WHERE = {"from device": "device memory", "on host": "pinned host memory"}

_TORCH_CUDA = re.compile(
    r"^(?:\[[\w ./-]{1,40}\] )?(?:.{0,300}[\s`\"']RuntimeError: |RuntimeError: )?(?:CUDA|HIP) error: "
)

DEVICE_ERRORS: list[BareError] = [
    # Kaldi finding every GPU busy under an exclusive compute mode ("ERROR (nnet3-chain-train[5.4]:SelectGpuId():
    # cu-device.cc:160) Failed to create CUDA context, no more unused GPUs?"): another process holds them
    environment_check(
        "kaldi-no-unused-gpu",
        ("no more unused GPUs?",),
        r"(?P<msg>Failed to create CUDA context, no more unused GPUs\?)",
        None,
        message=lambda m: f"Kaldi: {m['msg']}",
    ),
    BareError(
        "nccl",
        ("NCCL", "nccl", "Duplicate GPU detected"),
        re.compile(
            r"(?P<msg>(?:NCCL WARN|NCCL error|Duplicate GPU detected ?: rank |NCCL Error|NCCL failure\b|"
            r"NCCL operation \w{1,60}\(.{0,200}?\) failed|"
            r"nccl[A-Z]\w{1,60} failed\b|"  # an NCCL call named alone ("ncclCommInitRank failed: ...")
            r"nccl\w{0,40}Error\b|"
            r"ncclInternalError|ncclUnhandledCudaError|ncclSystemError|ncclInvalidUsage|"
            r"ncclRemoteError).{0,1000})$"
        ),
        "NCCLError",
    ),
    BareError(
        "cuda",
        ("CUDA", "cuda", "CUDNN", "CUBLAS", "illegal memory access", "HIP error: "),
        re.compile(
            r"(?P<msg>(?:CUDA_ERROR_[A-Z_]{2,60}|CUDA error|[Cc]uda error|HIP error(?=: )|"
            r"CUDNN_STATUS_[A-Z_]{2,60}|CUBLAS_STATUS_[A-Z_]{2,60}|"
            r"an illegal memory access was encountered).{0,1000}?)[\"`]?$"
        ),
        # (a line that is only "CUDA error: ..." is PyTorch's RuntimeError printed without its class, also after a
        # title's tag, "[Bug] CUDA error: ...", or its class in prose: "an `RuntimeError: CUDA error: ...`")
        lambda m: "RuntimeError" if _TORCH_CUDA.match(m.string[: m.start() + 12]) else "CUDAError",
        # (TensorFlow's stream executor says which memory before it: "failed to allocate 2.12G (... bytes) from
        # device: CUDA_ERROR_OUT_OF_MEMORY" is the GPU's, "failed to alloc N bytes on host: ..." pinned host memory)
        message=lambda m: (
            (f"failed to allocate {_ALLOC_WHERE[w[1]]}: " if (w := _ALLOC.search(m.string, 0, m.start())) else "")
            + m["msg"]
        ),
        below=native_gpu.source_below,
    ),
    # rocminfo without the GPU the ROCm runtime should reach ("hsa api call failure at: .../rocminfo.cc:1148", then
    # "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources."): the
    # tool's check of the machine, no class; which status it returned is the failure
    environment_check(
        "rocminfo",
        ("hsa api call failure at",),
        r"hsa api call failure at: \S{0,300}rocminfo\.cc:\d{1,6}$",
        None,
        message=lambda m: "rocminfo's HSA call failed:",
        context=1,
    ),
    # ROCm's HIP runtime names its error by code, the words after it differ by release ("hipErrorNoBinaryForGpu:
    # Unable to find code object for all current devices!", "... Coudn't find binary for current devices!")
    BareError(
        "hip",
        ("hipError",),
        # (not PyTorch's advice after its own line of the error: "Search for `hipErrorInvalidDeviceFunction' in ...")
        re.compile(r"(?<!Search for `)\b(?P<msg>hipError[A-Z]\w{2,60})\b"),
        "HIPError",
        lambda text: "environment" if ENVIRONMENT_TEXT.search(text) else "runtime_crash",
    ),
    # an MLIR diagnostic ('loc("mps_add"(...)): error: input types ... are not broadcast compatible'), which the
    # compiler (Apple's MPSGraph, jax-metal) may abort on just after with LLVM's "Failed to infer result type(s)."
    BareError(
        "mlir",
        ("): error: ",),
        re.compile(r"(?<![A-Za-z_])loc\(.{1,600}?\): error: (?P<msg>.{1,1000})$"),
        None,
        "compile_error",
    ),
    # the dynamic loader refusing a compiled extension built against another library's ABI ("flash_attn_2_cuda.cpython-
    # 311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi"), raised by Python's import as ImportError
    BareError(
        "undefined-symbol",
        (": undefined symbol: ",),
        re.compile(r"(?P<msg>[^\s:`'\"(]{0,300}\.so(?:\.\d{1,4}){0,3}: undefined symbol: [^\s`'\")]{1,1000})"),
        "ImportError",
    ),
    # TensorFlow's cuDNN that could not start, in its words wherever they are quoted (a post's prose, "UnknownError (see
    # above for traceback): Failed to get convolution algorithm. This is probably because cuDNN failed to initialize,
    # so try looking to see if a warning log message was printed above.")
    BareError(
        "tf-conv-algorithm",
        ("Failed to get convolution algorithm",),
        re.compile(
            r"(?P<msg>Failed to get convolution algorithm\. This is probably because cuDNN failed to initialize)"
        ),
        "UnknownError",
    ),
    # XRT's TPU compile of a program with more parameters than the TPU takes ("Computation requires more parameters
    # (4748) than supported (limit 3304)."), and TensorFlow's TPU used before it was initialised, logged bare
    # (and libtpu without the slice's topology, "INTERNAL: Failed to get global TPU topology", which a title words
    # without its status: "Unable to train on TPU v4-8: Failed to get global TPU topology.")
    BareError(
        "tpu-program",
        ("Computation requires more parameters", "The TPU system has not been initialized", "global TPU topology"),
        re.compile(
            r"^(?P<msg>Computation requires more parameters \(\d{1,9}\) than supported \(limit \d{1,9}\)|"
            r"(?P<init>The TPU system has not been initialized))\.?$|(?P<topology>Failed to get global TPU topology)"
        ),
        "XlaRuntimeError",
        message=lambda m: (
            f"INTERNAL: {m['topology']}"
            if m["topology"]
            else ("FAILED_PRECONDITION: " if m["init"] else "INVALID_ARGUMENT: ") + m["msg"]
        ),
    ),
    *XLA_ALARMS,
    *XLA_AUTOTUNING,
    # libtpu halting the chips: 2023's "*** Halt is unexpected, all pending programs will fail. This is likely an XLA
    # compiler bug, ...", 2025's "*** A program or fatal error occurred, all pending programs will fail, and results may
    # be corrupted. ..."; TensorFlow 1.x's TPU "Core halted unexpectedly"
    BareError(
        "tpu-halt",
        ("all pending programs will fail", "Core halted unexpectedly"),
        re.compile(r"(?P<pending>all pending programs will fail)|(?P<core>Core halted unexpectedly)"),
        lambda m: "XlaRuntimeError" if m["core"] else None,
        message=lambda m: "TPU halted: all pending programs will fail" if m["pending"] else "Core halted unexpectedly",
    ),
    # the TPU driver's warning while a program runs on without end ("TPU Execute is taking a long time. This might be
    # due to a deadlock between multiple TPU cores or a very slow program."): a hang, the failure only alone
    BareError(
        "tpu-execute-long",
        ("TPU Execute is taking a long time",),
        re.compile(r"(?P<msg>TPU Execute is taking a long time)"),
        None,
        "timeout",
        weak=True,
    ),
    # CUPTI refusing a profiler (its privileges, a missing library, an error it carried from an earlier call): the
    # machine's, and the run goes on without the GPU's activities ("function cupti_interface_->Subscribe(...)failed
    # with error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", "CUPTI error: CUPTI_ERROR_INVALID_PARAMETER", TensorBoard's
    # "Failed to load libcupti (is it installed and accessible?)", "Insufficient privilege to run libcupti")
    BareError(
        "cupti",
        ("CUPTI_ERROR_", "libcupti (", "privilege to run libcupti", "CUPTI could not be loaded", ": error "),
        re.compile(
            r"(?:failed with error |CUPTI error: )(?P<code>CUPTI_ERROR_[A-Z_]{2,60})|"
            r"\bcupti\w{1,60}: (?P<number>error \d{1,4}):|"
            r"(?P<msg>Failed to load libcupti|Insufficient privilege to run libcupti|CUPTI could not be loaded)"
        ),
        None,
        "environment",
        message=lambda m: f"CUPTI: {m['code'] or m['number']}" if m["code"] or m["number"] else m["msg"],
        weak=True,
        at_info=False,  # ("If you see CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, refer to ..." is advice)
    ),
    # abseil's mutex reporting a lock it waits on for ever ("[mutex.cc : 452] RAW: Lock blocking 0x10351a128   @"), as
    # two copies of abseil in one process (a native module loaded after another's) leave it: the process hangs there
    BareError(
        "absl-lock-blocking",
        ("RAW: Lock blocking",),
        re.compile(r"(?P<msg>RAW: Lock blocking) (?:0x)?[0-9a-fA-F]{1,16}\b"),
        None,
        "timeout",
        message=lambda m: "hung: abseil's mutex blocked (RAW: Lock blocking)",
        weak=True,
    ),
    # TensorBoard's profile tab with nothing to show ("No profile data was found.", quoted in a sentence too) or a
    # capture that came back empty ("Failed to capture profile: empty trace result."): the profiler's setup; it goes on
    BareError(
        "profile-empty",
        ("No profile data was found", "Failed to capture profile: "),
        re.compile(r"(?P<msg>No profile data was found|Failed to capture profile: [\w ]{1,60}?)\.?(?:[\"'`]|$)"),
        None,
        "environment",
        weak=True,
    ),
    # (LLVM's backend aborting, "LLVM ERROR: Cannot select: ...", through clang "fatal error: error in backend")
    BareError(
        "llvm",
        ("LLVM ERROR: ", "error in backend: "),
        # (also glued to a test's name in a pytest line, "test_x_bfloat16 LLVM ERROR: Cannot select: ...", or in a span)
        re.compile(r"(?<![^\s`])(?:LLVM ERROR|(?:\S{0,300}: )?fatal error: error in backend): (?P<msg>.{1,1000}?)`?$"),
        "SIGABRT",
    ),
    BareError(
        "oom-killer",
        (
            "Out of memory: Kill",
            "oom-kill",
            "oom_kill",
            "OOMKilled",
            "low on memory",
            "cgroup out of memory",
            "Killed process",
        ),
        re.compile(
            # (Slurm: "Detected 1 oom-kill event(s) in step ...", later "Detected 1 oom_kill event in StepId=...", an
            # older kernel's syslog line, its prefix taken off, "Killed process 7748 (python) total-vm:...")
            r"(?P<msg>Out of memory: Kill|oom[-_]kill|OOMKilled|The node was low on memory|"
            r"Memory cgroup out of memory|^Killed process \d{1,10} \([^)]{1,60}\) total-vm:)"
        ),
        "SIGKILL",
        # (a container's or a Slurm step's memory cgroup past its limit is not the host out of memory: "Memory cgroup
        # out of memory: Killed process ...", Kubernetes' OOMKilled, Slurm's "Detected 1 oom-kill event(s) in StepId=")
        message=lambda m: (
            "killed by its memory cgroup's OOM killer"
            if m["msg"].startswith("Memory cgroup")
            or m["msg"] == "OOMKilled"
            or "slurmstepd" in m.string
            or "StepId=" in m.string
            else "killed by the kernel's OOM killer"
        ),
    ),
    # TensorFlow's CPU allocator warning of a large host allocation ("Allocation of 25690112 exceeds 10% of system
    # memory." in allocator.cc, later "... of free system memory." in tsl's cpu_allocator_impl.cc): the host's memory
    # running short, which a run may survive, so only where nothing else names the failure; the size is the job's
    BareError(
        "cpu-allocator-large",
        ("exceeds 10% of",),
        re.compile(r"\bAllocation of \d{1,20} exceeds 10% of (?:free )?system memory"),
        None,
        "infrastructure",
        message=lambda m: "Allocation exceeds 10% of system memory",
        weak=True,
    ),
    # Slurm ending a job or a step ("slurmstepd: error: *** JOB 494583 ON node023 CANCELLED AT 2024-04-20T09:09:37 DUE
    # TO TIME LIMIT ***", "*** STEP 494583.0 ON ...", an older order "*** JOB 830329 CANCELLED AT ... DUE TO TIME LIMIT
    # on n447 ***"): the job, node and time are the run's; why is the failure, a time limit a timeout, the rest the
    # cluster's (and srun's "Terminated" tasks after it are what it did)
    BareError(
        "slurm-cancelled",
        ("CANCELLED AT",),
        re.compile(
            r"\*\*\* (?P<what>JOB|STEP) [\d.]{1,30}(?: ON \S{1,200})? CANCELLED AT \S{1,40} DUE TO "
            r"(?P<why>TIME LIMIT|PREEMPTION|NODE FAILURE|JOB REQUEUE)\b"
        ),
        None,
        lambda text: "timeout" if text.endswith("TIME LIMIT") else "infrastructure",
        message=lambda m: f"Slurm cancelled the job DUE TO {m['why']}",
    ),
    # Lua Torch's cutorch raising CUDA's error through luajit ("luajit: .../trepl/init.lua:389: cuda runtime error
    # (35) : CUDA driver version is insufficient for CUDA runtime version at .../THCGeneral.c:70", a Lua stack traceback
    # below it), and CUDA's deviceQuery sample ("cudaGetDeviceCount returned 35", "-> <its words>", "Result = FAIL"):
    # CUDA's error, worded as PyTorch 1.x raised it from the same library, and the code deviceQuery got
    BareError(
        "lua-cuda",
        ("cuda runtime error (",),
        re.compile(r"luajit: \S{1,300}?\.lua:\d{1,6}: (?P<msg>cuda runtime error \(\d{1,4}\) : .{1,500})$"),
        None,
    ),
    environment_check(
        "device-query",
        ("cudaGetDeviceCount returned ",),
        r"^(?P<msg>cudaGetDeviceCount returned \d{1,4})$",
        None,
        context=1,
        message=lambda m: f"deviceQuery: {m['msg']}",
    ),
    # Keras' TerminateOnNaN stopping the run on a loss that is not finite ("Batch 5: Invalid loss, terminating
    # training", after the progress bar's "loss: nan" on the same line, or run onto its last figure): which trainer
    # stopped it, not the batch
    BareError(
        "keras-terminate-on-nan",
        ("Invalid loss, terminating training",),
        re.compile(r"(?:^|[\s`\d])Batch \d{1,9}: (?P<msg>Invalid loss, terminating training)"),
        None,
        "nan",
        message=lambda m: f"{m['msg']} (Keras TerminateOnNaN)",
    ),
    # tensorboardX refusing to log a scalar or histogram that is not finite ("NaN or Inf found in input tensor.", on a
    # line of its own, behind the root logger's "WARNING:root:", or run onto a progress bar): the logger that saw it
    BareError(
        "tensorboardx-nan",
        ("NaN or Inf found in input tensor",),
        re.compile(r"(?P<msg>NaN or Inf found in input tensor)"),
        None,
        "nan",
        message=lambda m: f"{m['msg']} (tensorboardX)",
    ),
    # jax_debug_nans of 2019-2020 finding a nan or an inf in a jitted function's output, before it re-runs the function
    # op by op to raise where ("Invalid value encountered in the output of a jit function. Calling the de-optimized
    # version."): the check's FloatingPointError, named so when the excerpt stops before it is raised
    BareError(
        "jax-debug-nans",
        ("Invalid value encountered in the output of a jit function",),
        re.compile(r"(?P<msg>Invalid value encountered in the output of a jit function)"),
        "FloatingPointError",
        "nan",
        weak=True,
    ),
    # numpy.testing's and torch.testing's report of arrays not close, posted without the AssertionError above it
    # ("Mismatched elements: 458 / 262144 (0.175%)", then the differences): how many, and by how much, are the run's
    BareError(
        "array-mismatch",
        ("Mismatched elements: ",),
        re.compile(r"^(?P<msg>Mismatched elements): \d{1,12} / \d{1,12}\b"),
        "AssertionError",
        weak=True,
    ),
    # pytest's header of a failed test's report ("______ LinearSolveTest.test_solve_sparse ______"): which test failed,
    # the failure only where the report is cut before its error
    BareError(
        "pytest-failure",
        ("___ ",),
        re.compile(r"^_{3,} (?P<test>[\w.:/\[\]-]{1,200}) _{3,}$"),
        None,
        message=lambda m: f"pytest: {m['test']} failed",
        weak=True,
    ),
    # TensorFlow's Coordinator reporting the error that stops a 1.x training loop, with its class ("Error reported to
    # Coordinator: <class 'tensorflow.python.framework.errors_impl.UnavailableError'>, OS Error"): that error; a log
    # service's replica name after it ("  worker-replica-2") is the job's
    BareError(
        "tf-coordinator",
        ("Error reported to Coordinator: <class '",),
        re.compile(
            r"Error reported to Coordinator: <class '(?:[\w.]{0,200}\.)?(?P<cls>\w{1,100})'>, "
            r"(?P<msg>.{1,1000}?)(?:\s{1,8}(?:worker|master|ps)-replica-\d{1,4})?\s*$"
        ),
        lambda m: m["cls"],
    ),
    # pytest.warns or pytest.raises without what it expected ("Failed: DID NOT WARN. No warnings of type (<class
    # 'Warning'>,) were emitted.", "Failed: DID NOT RAISE <class 'ValueError'>"): pytest's Failed, which names it
    BareError(
        "pytest-did-not",
        ("Failed: DID NOT ",),
        re.compile(r"^(?:E\s{1,20})?Failed: (?P<msg>DID NOT (?:WARN|RAISE)\b.{0,300}?)\.?$"),
        "Failed",
    ),
    # pytest-xdist's worker dying under a test ("worker 'gw2' crashed while running 'tests/x_test.py::T::test_y'"): the
    # process, not the test's assertion; which test, not which worker (a post's "gwX"; the test on the next line where
    # a terminal broke it there)
    BareError(
        "xdist-worker",
        ("crashed while running",),
        re.compile(
            r"\bworker '?gw(?:\d{1,4}|[NX])'? crashed while running(?: '?(?P<test>[\w.:/\[\]-]{1,300}?)'?(?:`.*)?)?$"
        ),
        None,
        message=lambda m: f"{XDIST_CRASH} {m['test']}" if m["test"] else XDIST_CRASH,
        below=lambda lines, i, said: (
            f"{said} {lines[i + 1].strip()}"
            if said == XDIST_CRASH and i + 1 < len(lines) and _TEST_ID.match(lines[i + 1].strip())
            else said
        ),
    ),
    # jax without jax_enable_x64 narrowing a 64-bit dtype a program asked for ("UserWarning: Explicitly requested dtype
    # float64 requested in zeros is not available, and will be truncated to dtype float32. To enable more dtypes,
    # ..."; jax 0.2 names the dtype by its class): the program goes on in 32 bits
    BareError(
        "jax-x64",
        ("Explicitly requested dtype",),
        re.compile(
            r"Explicitly requested dtype (?:<class '[\w.]{0,200}?\.)?(?P<dtype>\w{1,20})'?>? requested in "
            r"(?P<where>\w{1,60}) is not available"
        ),
        "UserWarning",
        message=lambda m: f"Explicitly requested dtype {m['dtype']} requested in {m['where']} is not available",
        weak=True,
    ),
    # torch_xla's multiprocessing finding fewer devices than it replicates over ("Cannot replicate if number of devices
    # (1) is different from 8": a TPU host or Colab runtime where one core is visible), quoted without its RuntimeError
    BareError(
        "xla-replicate",
        ("Cannot replicate if number of devices",),
        re.compile(r"(?P<msg>Cannot replicate if number of devices \(\d{1,4}\) is different from \d{1,4})"),
        "RuntimeError",
    ),
]
