"""Failure signatures from logs shaped like real ones (tests/logs/), and `canary signature`."""

import json
from pathlib import Path

import pytest

from canary import signature as sig
from canary.signature import Options, extract, gate_signature, normalize, strip_prefix

LOGS = Path(__file__).parent / "logs"

# The incident's error, verbatim as JAX prints it (field notes, section 1).
INCIDENT_ERROR = """\
ValueError: The Pallas TPU lowering currently requires that the last two
dimensions of your block shape are divisible by 8 and 128 respectively, or be
equal to the respective dimensions of the overall array. Block spec for outputs
in pallas_call kernel at .../pallas/ops/tpu/megablox/gmm.py:393 has block shape
(Blocked(block_size=512), Blocked(block_size=32)), array shape (524288, 128)"""

CACHE_WARNING = """\
UserWarning: Error reading persistent compilation cache entry for
'jit__create_lm_example': RuntimeError: Session is closed"""


def log(name: str) -> str:
    return (LOGS / name).read_text()


def sig_of(name: str, **kw):
    s = extract(log(name), **kw)
    assert s is not None, name
    return s


# ----------------------------------------------------------------------------- the incident


def test_incident_signature():
    s = sig_of("incident-2026-08-27.log")
    assert s.kind == "compile_error"
    assert s.exception == "ValueError"
    assert s.message.startswith("The Pallas TPU lowering currently requires that the last two dimensions")
    # what identifies the bug stays: the block shape, the array shape, the kernel
    assert "(Blocked(block_size=512), Blocked(block_size=32))" in s.message
    assert "array shape (524288, 128)" in s.message
    assert "megablox/gmm.py" in s.message
    # what drifts goes: the kernel's line number
    assert "393" not in s.message
    assert s.frames == [
        "canary/workload/train.py:<module>",
        "canary/workload/train.py:main",
        "canary/workload/train.py:train",
    ]
    assert len(s.fingerprint) == sig.FINGERPRINT_LEN
    assert "Pallas TPU lowering" in s.excerpt


def test_incident_recurrences_share_one_fingerprint():
    """Another day, host, pid, checkout path, jax patch release (line numbers moved), log
    prefixes of another scheduler, and JAX's unfiltered traceback mode: one bug, one fingerprint."""
    a = sig_of("incident-2026-08-27.log")
    b = sig_of("incident-2026-08-29.log")
    c = sig_of("incident-unfiltered.log")
    assert a.fingerprint == b.fingerprint == c.fingerprint
    assert a.message == b.message == c.message


def test_incident_text_from_the_field_notes_with_the_cache_warning():
    text = "\n".join(
        [
            "canary workload: ferry moe-canary v1, lane tpu",
            CACHE_WARNING,
            "Traceback (most recent call last):",
            '  File "/home/u/canary/canary/workload/train.py", line 144, in train',
            "    compiled = ts.step.lower(params, opt_state, ts.bias, batch).compile()",
            INCIDENT_ERROR,
        ]
    )
    s = extract(text)
    assert s.kind == "compile_error" and s.exception == "ValueError"
    assert "Session is closed" not in s.message  # the warning before the crash is not the failure
    assert s.message == sig_of("incident-2026-08-27.log").message


def test_incident_as_jax_0_10_prints_it_when_cross_lowering_for_tpu():
    """Real output: gmm's forward+backward with one static tile, lowered for TPU on a CPU machine.
    JAX names the model code that traced the kernel call; that is the inner call path."""
    s = sig_of("incident-jax-0.10-cross-lowering.log")
    assert (s.kind, s.exception) == ("compile_error", "ValueError")
    assert "has block shape (Blocked(block_size=512), Blocked(block_size=32)), array shape (524288, 128)" in s.message
    assert "docs.jax.dev" not in s.message  # a pointer to documentation is not the failure
    assert s.frames == [
        "moe/probe.py:<module>",
        "moe/probe.py:main",
        "moe/probe.py:loss",
        "moe/probe.py:expert_mlp",
        "moe/probe.py:ragged_dot",
    ]
    elsewhere = log("incident-jax-0.10-cross-lowering.log").replace("/tmp/xl/", "/home/ci/checkout/")
    assert extract(elsewhere).fingerprint == s.fingerprint


def test_ray_task_error_is_read_as_its_remote_cause():
    s = sig_of("ray-task-error.log")
    incident = sig_of("incident-2026-08-27.log")
    assert (s.kind, s.exception, s.message) == ("compile_error", "ValueError", incident.message)
    # the remote call path; neither the driver's frames nor Ray's Cython frames
    assert s.frames == ["canary/workload/train.py:train"]


def test_different_bugs_of_one_exception_class_differ():
    incident = sig_of("incident-2026-08-27.log")
    lut = sig_of("tiling-lut-missing.log")
    assert lut.exception == incident.exception == "ValueError"
    assert lut.fingerprint != incident.fingerprint
    assert lut.message == "No tuned tiling found for (m, k, n) = (524288, 32, 128)"


def test_call_path_keeps_app_and_named_library_frames():
    s = sig_of("tiling-lut-missing.log")
    assert s.frames == [
        "canary/workload/train.py:<module>",
        "canary/workload/train.py:main",
        "canary/workload/train.py:train",
        "canary/workload/model.py:expert_mlp",
        "canary/workload/ragged_dot/megablox.py:ragged_dot",
        "jax/experimental/pallas/ops/tpu/megablox/gmm.py:gmm",
    ]
    # jax internals and runpy never appear
    assert not any(f.startswith(("jax/_src", "<frozen")) for f in sig_of("incident-unfiltered.log").frames)


def test_call_path_is_configurable():
    text = log("incident-unfiltered.log")
    default = extract(text)
    wider = extract(text, options=Options().with_keep(["jax/_src/pallas/*"]))
    assert "jax/_src/pallas/mosaic/lowering.py:_check_block_mappings" in wider.frames
    assert "jax/_src/pallas/mosaic/lowering.py:_check_block_mappings" not in default.frames
    # the Pallas check names its failure by itself (program-frames): the call path kept does not change it
    assert wider.fingerprint == default.fingerprint
    # a terse message keeps its call path in the fingerprint, so what is kept does
    terse = text[: text.rindex("ValueError: The Pallas")] + "ValueError: unsupported block shape\n"
    assert extract(terse, options=Options().with_keep(["jax/_src/pallas/*"])).fingerprint != extract(terse).fingerprint
    assert extract(text, options=Options(max_frames=1)).frames == ["canary/workload/train.py:train"]


# ----------------------------------------------------------------------------- the zoo


def test_resource_exhausted_at_compile():
    s = sig_of("resource-exhausted-compile.log")
    assert s.kind == "compile_error"
    assert s.exception == "XlaRuntimeError"
    assert s.message == "RESOURCE_EXHAUSTED: Out of memory while trying to allocate <bytes>"
    other = extract(
        log("resource-exhausted-compile.log")
        .replace("58004733952", "57982058496")
        .replace("pid=30112", "pid=998")
        .replace("10.128.0.41", "10.128.0.7")
    )
    assert other.fingerprint == s.fingerprint


def test_resource_exhausted_while_running_is_a_runtime_crash():
    text = """Traceback (most recent call last):
  File "/home/u/canary/canary/workload/train.py", line 152, in train
    params, opt_state, metrics = compiled(params, opt_state, ts.bias, batch)
jaxlib._jax.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 1073741824 bytes.
"""
    s = extract(text)
    assert s.kind == "runtime_crash"
    assert s.fingerprint != sig_of("resource-exhausted-compile.log").fingerprint


def test_deadline_exceeded_at_distributed_init():
    s = sig_of("deadline-exceeded-init.log")
    assert (s.kind, s.exception) == ("timeout", "XlaRuntimeError")
    # the barrier names the failure; the tasks that timed out and the gRPC details are its circumstances
    assert s.message == "DEADLINE_EXCEEDED: Barrier timed out. Id: PjRT_Client_Connect"
    assert "/job:jax_worker/replica:0/task:1" in s.excerpt
    assert s.frames == ["canary/workload/train.py:<module>", "canary/workload/train.py:main"]
    moved = log("deadline-exceeded-init.log").replace("10.128.0.52:8476", "10.128.3.9:8476").replace("21877", "4410")
    assert extract(moved).fingerprint == s.fingerprint


def test_nan_loss_in_the_training_log():
    s = sig_of("nan-loss.log")
    assert s.kind == "nan"
    # a completed run whose gates caught the NaN gets the same fingerprint
    gates = [
        {"name": "min_steps", "value": 30, "threshold": 30, "status": "PASS"},
        {"name": "max_final_loss", "value": "nan", "threshold": 4.0, "status": "FAIL"},
        {"name": "finite_loss", "value": "nan at step 20", "threshold": "all finite", "status": "FAIL"},
    ]
    assert gate_signature(gates).fingerprint == s.fingerprint


def test_nan_caught_by_jax_debug_nans():
    s = sig_of("nan-debug-nans.log")
    assert s.kind == "nan"
    assert s.exception == "FloatingPointError"
    assert s.frames[-1] == "canary/workload/model.py:router"


def test_hang_with_a_faulthandler_dump():
    s = sig_of("hang-profiler.log", outcome="timeout")
    assert s.kind == "timeout"
    assert s.frames[-1] == "canary/workload/profile.py:stop"
    assert s.message == "hung: canary/workload/profile.py:stop"
    assert sig_of("hang-profiler.log").fingerprint == s.fingerprint  # the dump says so without the launcher


def test_silent_hang_is_named_by_its_last_output():
    s = sig_of("hang-silent.log", outcome="timeout")
    assert s.kind == "timeout"
    assert s.message == "hung after: step <n> loss <n> <n> tokens/s"
    later = log("hang-silent.log") + "step    30  loss 4.0112  41,002 tokens/s\n"
    assert extract(later, outcome="timeout").fingerprint == s.fingerprint
    assert extract(log("hang-silent.log")) is None  # without the launcher's word, nothing failed


def test_segfault():
    s = sig_of("segfault.log")
    assert (s.kind, s.exception) == ("runtime_crash", "SIGSEGV")
    assert s.frames[-1] == "canary/workload/train.py:train"


def test_killed_by_a_signal():
    s = sig_of("oom-killed.log")
    assert (s.kind, s.exception, s.message) == ("runtime_crash", "SIGKILL", "process killed by SIGKILL")
    # the launcher's exit status says the same when the log does not
    quiet = "step 0 loss 6.2\n"
    assert extract(quiet, outcome="failed", exit_code=-9).fingerprint == s.fingerprint
    assert extract(quiet, outcome="failed", signal=9).fingerprint == s.fingerprint
    assert extract("step 0 loss 6.2\nexit code 137\n").exception == "SIGKILL"


def test_the_last_failure_in_the_log_names_it():
    handled = log("chained-exception.log")  # a traceback logged earlier, then the process dies
    assert extract(handled + log("segfault.log")).exception == "SIGSEGV"
    assert extract(handled + "step 40 loss 3.1\n", outcome="failed", signal=9).exception == "SIGKILL"
    assert extract(log("segfault.log") + handled).exception == "IndexError"


def test_nccl_misconfiguration():
    s = sig_of("nccl-interface.log")
    assert (s.kind, s.exception) == ("runtime_crash", "XlaRuntimeError")
    assert "ncclCommInitRankConfig" in s.message and "no socket interface found" in s.message
    # where in XLA's C++ the status was made is not kept: builds print it or not
    assert s.message.startswith("INTERNAL: NCCL operation ncclCommInitRankConfig") and ".cc:" not in s.message
    recompiled = log("nccl-interface.log").replace("program_id=41", "program_id=57").replace("start.3", "start.12")
    assert extract(recompiled).fingerprint == s.fingerprint


def test_chained_exceptions_name_the_root_cause():
    s = sig_of("chained-exception.log")
    assert s.exception == "IndexError"
    assert s.message == "index 512 is out of bounds for axis 0 with size 512"
    # the wrapper's frames lead to the root's; the failed cleanup is not on the path
    assert s.frames == [
        "canary/workload/train.py:<module>",
        "canary/workload/train.py:main",
        "canary/workload/train.py:train",
        "canary/workload/data.py:batch",
    ]


def test_infrastructure_failures():
    s = sig_of("preempted.log")
    assert (s.kind, s.message) == ("infrastructure", "preempted")
    other_host = log("preempted.log").replace("tpu-v6e-4-canary-7f2c", "tpu-v6e-4-canary-91ab")
    assert extract(other_host).fingerprint == s.fingerprint
    never = extract("", outcome="never_started", detail="no worker started within 1800s")
    assert never.kind == "infrastructure"
    assert never.fingerprint == extract("", outcome="never_started", detail="no worker started within 900s").fingerprint
    assert extract("", outcome="lost").kind == "infrastructure"


def test_unknown_failure_still_gets_a_signature():
    s = extract("starting\nsomething odd happened at 0x7f3a2c5fe640\n", outcome="failed", exit_code=3)
    assert s.kind == "runtime_crash"
    assert s.message == "exit status 3: something odd happened at <hex>"


def test_a_line_that_says_error_in_words_no_rule_knows_names_the_failure():
    # a wording met for the first time: found, named by its words, the last such line of the output
    first = extract("loading\nLLVM ERROR: Cannot select: intrinsic %llvm.nvvm.frob\n")
    assert first is not None and first.message.startswith("Cannot select: intrinsic")
    lld = extract("building\nld.lld: error: unknown argument: --frob\ndone?\n")
    assert lld.message == "error: unknown argument: --frob" and lld.exception is None
    # (a compiler refusing an option is a toolchain check by now: the option, whichever build ran it)
    clang = extract("building\nclang: error: unsupported option '-fopenmp'\ndone?\n")
    assert clang.kind == "environment" and clang.message == "clang: error: unsupported option '-fopenmp'"
    wide = extract("ERROR\uff1asomething odd happened to device 3\n")
    assert wide.message.startswith("ERROR\uff1asomething odd happened")
    last = extract("error: the first thing\nstep 3\nFatal error: the second thing\n")
    assert last.message == "Fatal error: the second thing"
    failed = extract("starting\nerror: no such toolchain\n", outcome="failed", exit_code=3)
    assert failed.message == "error: no such toolchain"
    # the exception it names, after the word or inside a sentence
    title = extract("23 September error : AttributeError: 'Config' object has no attribute 'x'")
    assert (title.exception, title.message) == ("AttributeError", "'Config' object has no attribute 'x'")
    prose = extract("The resolver throws ValueError: Please provide a TPU Name to connect to. even with it set")
    assert (prose.exception, prose.message) == ("ValueError", "Please provide a TPU Name to connect to")
    # a function's name, a metric, a record logged at INFO, a line long before the end: not a failure said
    assert extract("dlerror: libcudart.so.11.0: cannot open shared object file") is None
    assert extract("step 10\nval error: 0.123\nerror:   3.2e-4\n") is None
    assert extract("I0808 20:59:00.964296 139857030612800 foo.py:328] error: it tried the tpu") is None
    assert (
        extract("\n".join(["error: long ago", *(f"loaded {chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(80))]))
        is None
    )


def test_no_failure():
    assert extract(log("hang-silent.log")) is None
    assert extract("") is None
    assert sig.for_attempt("all good", "succeeded", 0, gates=[{"name": "min_steps", "status": "PASS"}]) is None


def test_gate_regression_names_gates_not_values():
    a = gate_signature([{"name": "max_final_loss", "value": 6.46, "threshold": 4.0, "status": "FAIL"}])
    b = gate_signature([{"name": "max_final_loss", "value": 5.1, "threshold": 4.0, "status": "FAIL"}])
    assert a.kind == "gate_regression" and a.message == "failed gates: max_final_loss"
    assert a.fingerprint == b.fingerprint
    c = gate_signature([{"name": "min_steps", "value": 10, "threshold": 200, "status": "FAIL"}])
    assert c.fingerprint != a.fingerprint


# ----------------------------------------------------------------------------- normalizing


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("object at 0x7f3a2c5fe640", "object at <hex>"),
        ("run 3f2b8c1e-9a0d-4e7f-8b1c-5f1c2b8e9a0d", "run <uuid>"),
        ("at 2026-08-28T03:15:02.123Z and 2026-08-28 03:15:02,551", "at <time> and <time>"),
        ("cannot open /tmp/tmpq8x1/attempt-1/spec.json: no", "cannot open <tmp>: no"),
        ("cannot open /home/alice/data/x.bin", "cannot open ~/data/x.bin"),
        ("worker pid=4242 died", "worker pid=<n> died"),
        ("peer 10.128.0.52:8476 refused", "peer <ip> refused"),
        ("took 301.5 s (300s budget, 12ms jitter)", "took <duration> (<duration> budget, <duration> jitter)"),
        ("Used 54.52G of 31.25G hbm; 58004733952 bytes", "Used <bytes> of <bytes> hbm; <bytes>"),
        ("run 20260828T031500Z-tpu-ab12 of job raysubmit_Xq3LwT8b1mZ2", "run <run> of job <job>"),
        ("/usr/local/lib/python3.11/site-packages/jax/_src/pjit.py:457", "jax/_src/pjit.py:<line>"),
        ("digest 5f1c2b8e9a0d4e7f", "digest <hex>"),
        (
            "in %fusion.123 = f32[8] (program_id=41; current tracing scope: all-reduce-start.3)",
            "in %fusion.<n> = f32[8] (program_id=<n>; current tracing scope: all-reduce-start.<n>)",
        ),
    ],
)
def test_normalize_masks_what_varies(raw, expected):
    assert normalize(raw) == expected


def test_normalize_keeps_what_identifies():
    kept = (
        "dot_general requires contracting dimensions to have the same shape, got (128,) and (32,); "
        "f32[524288,128] bf16[32,128,32] block (512, 128, 32) in kernel gmm for metric train/loss "
        "on v6e-4, 8 and 128"
    )
    assert normalize(kept) == kept


@pytest.mark.parametrize(
    "line",
    [
        '(RayTrainWorker pid=18231, ip=10.164.0.23)   File "x.py", line 3, in f',
        '(pid=18231)   File "x.py", line 3, in f',
        '2026-08-29T03:16:40.002113Z   File "x.py", line 3, in f',
        '2026-08-29T03:16:40.002113Z [worker-2]   File "x.py", line 3, in f',
        '0:   File "x.py", line 3, in f',
        'task 3:   File "x.py", line 3, in f',
        'tpu-worker-1 |   File "x.py", line 3, in f',
        '\x1b[31m  File "x.py", line 3, in f\x1b[0m',
    ],
)
def test_scheduler_prefixes_are_stripped(line):
    assert strip_prefix(line) == '  File "x.py", line 3, in f'


def test_logging_prefix_and_ray_repeats():
    assert strip_prefix("2026-08-27 03:19:02,117\tERROR job_manager.py:1093 -- Job failed") == "Job failed"
    assert strip_prefix("E0828 03:15:02.123456  4242 pjit.py:123] Check failed: x") == "Check failed: x"
    assert strip_prefix("(raylet) Killed [repeated 3x across cluster]") == "Killed"
    assert strip_prefix("ValueError: bad") == "ValueError: bad"


# ----------------------------------------------------------------------------- the command


def test_signature_command_json(cli):
    r = cli("signature", str(LOGS / "incident-2026-08-27.log"), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert {"fingerprint", "kind", "exception", "message", "frames"} <= set(d)
    assert d["fingerprint"] == sig_of("incident-2026-08-29.log").fingerprint
    assert d["kind"] == "compile_error"


def test_signature_command_text_outcome_and_errors(cli, tmp_path):
    r = cli("signature", str(LOGS / "tiling-lut-missing.log"))
    assert r.returncode == 0
    assert "No tuned tiling found" in r.stdout and "megablox/gmm.py:gmm" in r.stdout
    r = cli("signature", str(LOGS / "hang-silent.log"))
    assert r.returncode == 1 and "no failure found" in r.stdout
    r = cli("signature", str(LOGS / "hang-silent.log"), "--outcome", "timeout", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["kind"] == "timeout"
    r = cli("signature", str(tmp_path / "missing.log"))
    assert r.returncode == 2 and "missing.log" in r.stderr


def test_signature_command_reads_a_run_directorys_log(cli, tmp_path):
    run = tmp_path / "20260829T060000Z-tpu-ab12"
    (run / "attempt-1").mkdir(parents=True)
    log = (LOGS / "incident-2026-08-27.log").read_text()
    (run / "train.log").write_text(log)
    (run / "attempt-1" / "train.log").write_text(log)
    want = sig_of("incident-2026-08-27.log").fingerprint
    for path in (run, run / "attempt-1"):
        r = cli("signature", str(path), "--json")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["fingerprint"] == want
    r = cli("signature", str(tmp_path))  # a directory without a log
    assert r.returncode == 2 and "train.log" in r.stderr


def test_an_exception_groups_borders_are_framing():
    # Python 3.11's exception groups (asyncio's TaskGroup, anyio, pytest 8), as printed and under pytest's E
    inner = [
        "Traceback (most recent call last):",
        '  File "/home/u/train.py", line 6, in step',
        '    raise ValueError("loss is nan at step 3")',
        "ValueError: loss is nan at step 3",
    ]
    printed = "\n".join(
        [
            "  + Exception Group Traceback (most recent call last):",
            '  |   File "/home/u/train.py", line 10, in <module>',
            "  |     asyncio.run(main())",
            "  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)",
            "  +-+---------------- 1 ----------------",
            *(f"    | {line}" for line in inner),
            "    +------------------------------------",
        ]
    )
    plain = extract("\n".join(inner))
    for text in (printed, "\n".join("E     " + line for line in printed.splitlines())):
        s = extract(text)
        assert (s.exception, s.message, s.fingerprint) == ("ValueError", "loss is nan at step 3", plain.fingerprint)


def test_a_traceback_cut_before_its_exception_is_named_by_where_it_was():
    head = [
        "Traceback (most recent call last):",
        '  File "/home/u/train.py", line 3, in <module>',
        "    x = jnp.arange(10)",
        '  File "/opt/py/site-packages/jax/_src/numpy/lax_numpy.py", line 2304, in arange',
        "    return lax.iota(dtype, start)",
        '  File "/opt/py/site-packages/jax/_src/lax/lax.py", line 1232, in broadcasted_iota',
    ]
    one = extract("\n".join([*head, "    return iota_p.bind(*dynamic_shape, dtype=dtype,"]))
    other = extract(
        "\n".join(
            [
                *head[:5],
                '  File "/Users/v/lib/python3.10/site-packages/jax/_src/lax/lax.py", line 1232, in broadcasted_iota',
            ]
        )
    )
    assert one is not None and one.exception is None and one.kind == "runtime_crash"
    assert one.frames[-1] == "jax/_src/lax/lax.py:broadcasted_iota" and one.fingerprint == other.fingerprint
    # Colab's fold of the frames between two it shows, and a last frame's path cut short, are inside it
    colab = [head[0], head[1], head[2], "", "7 frames", "", *head[3:], "/opt/py/site-packages/jax/_src/lax/lax."]
    assert extract("\n".join(colab)).fingerprint == one.fingerprint
    # a post copied from inside a traceback, without its header: three frames or more say so
    assert extract("\n".join(["step 3", *head[1:], "    return iota_p.bind("])).fingerprint == one.fingerprint
    assert extract("\n".join(["step 3", *head[3:], "    return iota_p.bind("])) is None
    # output after the frames, or a single frame, is not a traceback cut short
    assert extract("\n".join([*head, "step 10 loss 2.3"])) is None
    assert extract("\n".join(head[:2])) is None


def test_a_library_run_from_its_source_tree_is_the_librarys_code():
    from canary.signature.call_paths import frame_path

    # an editable checkout, a bazel runfiles tree: from the package down, and library code
    assert frame_path("/home/u/jax/jax/_src/scipy/linalg.py") == ("jax/_src/scipy/linalg.py", True)
    runfiles = "/b/execroot/org_tensorflow/bazel-out/bin/x.runfiles/org_tensorflow/tensorflow/python/__init__.py"
    assert frame_path(runfiles) == ("tensorflow/python/__init__.py", True)
    # a program in a directory named like one, or under a path that is no package's, is the program's
    assert frame_path("/home/u/jax/2.py") == ("jax/2.py", False)
    assert frame_path("/w/jax/releases/jax-release-0.4.26/grok-1/run.py")[1] is False
