"""The folding rules (canary/signature/folds.py): one failure's drift across releases, wrappers,
source locations, cut excerpts and checkouts gives one fingerprint; a signature an earlier canary
recorded is folded again to the same identity."""

from pathlib import Path

import pytest

from canary.record import Signature
from canary.signature import RULES, current, extract, fingerprint, frame_key, make
from canary.signature.folds import fold

LOGS = Path(__file__).parent / "logs"
REAL = LOGS / "real"

BUFFER = (
    "RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 4.39G. That was not possible. "
    "There are 2.30G free.; (0x0x0_HBM0)"
)


def test_every_rule_is_stated_once_with_a_one_line_reason():
    names = [r.name for r in RULES]
    assert len(names) == len(set(names)) >= 8
    for r in RULES:
        assert r.reason and "\n" not in r.reason and len(r.reason) < 300, r.name


@pytest.mark.parametrize(
    "cls",
    [
        "jaxlib.xla_extension.XlaRuntimeError",
        "jaxlib._jax.XlaRuntimeError",
        "jax.errors.JaxRuntimeError",
        "ValueError",
        "RuntimeError",
    ],
)
def test_one_status_error_under_any_class_is_one_identity(cls):
    assert extract(f"{cls}: {BUFFER}\n").fingerprint == extract(f"XlaRuntimeError: {BUFFER}\n").fingerprint
    # a ValueError that carries no status is a ValueError
    assert extract("ValueError: too many values\n").exception == "ValueError"


def test_source_locations_and_wrappers_fold_away_and_what_failed_stays():
    bare = "INTERNAL: NCCL operation ncclGetUniqueId(&id) failed: Unable to load NCCL library.\n"
    located = (
        "XlaRuntimeError: INTERNAL: Failed to execute XLA Runtime executable: run time error: custom call "
        "'xla.gpu.all_reduce' failed: external/xla/xla/service/gpu/nccl_utils.cc:133: NCCL operation "
        "ncclGetUniqueId(&id) failed: Unable to load NCCL library.\n"
    )
    printed_bare = "NCCL operation ncclGetUniqueId(&id) failed: Unable to load NCCL library.\n"
    fps = {extract(t).fingerprint for t in (bare, located, printed_bare)}
    assert len(fps) == 1
    other = bare.replace("ncclGetUniqueId(&id)", "ncclCommInitRank(&comm, nranks, id, rank)")
    assert extract(other).fingerprint not in fps


def test_the_coordination_service_in_the_words_of_each_release():
    old = (
        "jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: "
        "multihost_broadcast_sync0. Timed out task names:\n/job:jax_worker/replica:0/task:3\n"
    )
    new = (
        "jaxlib._jax.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Id: multihost_broadcast_sync::0. "
        "This usually happens because a task triggered the barrier too early or too slowly.\n"
    )
    assert extract(old).fingerprint == extract(new).fingerprint
    connect = new.replace("multihost_broadcast_sync::0", "PjRT_Client_Connect")
    assert extract(connect).fingerprint != extract(new).fingerprint  # another barrier
    beat_old = (
        "XlaRuntimeError: UNAVAILABLE: The following tasks are unhealthy (stopped sending heartbeats):\n"
        "/job:jax_worker/replica:0/task:1\n"
    )
    beat_new = (
        "XlaRuntimeError: UNAVAILABLE: Task /job:jax_worker/replica:0/task:1 heartbeat timeout. This "
        "indicates that the remote task has failed, got preempted, or crashed unexpectedly.\n"
    )
    assert extract(beat_old).fingerprint == extract(beat_new).fingerprint != extract(old).fingerprint
    register_old = (
        "XlaRuntimeError: DEADLINE_EXCEEDED: Deadline Exceeded\nAdditional GRPC error information from "
        "remote target unknown_target_for_coordination_leader while calling "
        "/tensorflow.CoordinationService/RegisterTask:\n"
    )
    register_new = (REAL / "gpu-recipes-2.log").read_text()
    assert extract(register_old).fingerprint == extract(register_new).fingerprint
    shutdown = register_old.replace("while calling /tensorflow.CoordinationService/RegisterTask:", ":")
    assert extract(shutdown).fingerprint != extract(register_old).fingerprint  # the call that failed is kept


def test_an_excerpt_cut_in_the_details_matches_its_whole_form():
    whole = (REAL / "levanter-432.log").read_text()
    in_tasks = whole[: whole.index("/job:jax_worker/replica:0/task:0") + len("/job:jax_wor")]
    before_tasks = whole[: whole.index("Timed out task names:")]
    assert extract(in_tasks).fingerprint == extract(before_tasks).fingerprint == extract(whole).fingerprint
    assert (
        extract("XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed\n").fingerprint
        == extract((REAL / "jax-16082.log").read_text()).fingerprint
    )


APP = """Traceback (most recent call last):
  File "{root}/ferries/examples/../../tests/trainers/levanter_standin.py", line 40, in <module>
    main()
  File "{root}/canary/workload/train.py", line 12, in main
    step()
  File "{root}/train.py", line 3, in step
    raise ValueError("loss exploded")
ValueError: loss exploded
"""


PACKAGE = """Traceback (most recent call last):
  File "{root}/canary/run/runner.py", line 40, in run
    main()
  File "{root}/canary/workload/../workload/train.py", line 12, in main
    raise ValueError("loss exploded")
ValueError: loss exploded
"""


def test_the_same_code_gives_the_same_frames_from_any_checkout_or_install():
    checkouts = ["/work/main", "/home/runner/work/acme-canary/acme-canary", "/Users/ada/src/acme/../acme"]
    sigs = [extract(APP.format(root=r)) for r in checkouts]
    assert len({s.fingerprint for s in sigs}) == 1, [s.frames for s in sigs]
    assert all(".." not in f for s in sigs for f in s.frames)
    assert "canary/workload/train.py:main" in sigs[0].frames
    installed = [extract(PACKAGE.format(root=r)) for r in [*checkouts, "/opt/venv/lib/python3.11/site-packages"]]
    assert len({s.fingerprint for s in installed}) == 1, [s.frames for s in installed]
    assert installed[-1].frames == ["canary/run/runner.py:run", "canary/workload/train.py:main"]
    assert frame_key("canary/ferries/examples/../../../tests/trainers/x.py:main") == "x.py:main"
    assert frame_key("work/levanter/src/levanter/trainer.py:step") == "levanter/trainer.py:step"


CORPUS = sorted([*REAL.glob("*.log"), *LOGS.glob("*.log")])


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_folding_is_idempotent_and_a_recorded_signature_folds_to_the_same_identity(path):
    sig = extract(path.read_text(encoding="utf-8"))
    if sig is None:
        return
    assert fold(sig.exception, sig.message, sig.frames) == (sig.exception, sig.message, sig.frames)
    assert current(sig) is sig  # made by today's rules: nothing to fold
    for old in sig.legacy:
        assert old != sig.fingerprint


def test_a_signature_recorded_by_the_previous_rules_is_folded_from_its_parts():
    # the parts as the previous rules left them, hashed as they hashed them
    parts = (
        "timeout",
        "XlaRuntimeError",
        "DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: PjRT_Client_Connect. "
        "Timed out task names: <tasks> Additional GRPC error information from remote target x while calling "
        "/tensorflow.CoordinationService/Barrier:",
        ["canary/workload/train.py:<module>", "canary/workload/train.py:main"],
    )
    old = Signature(fingerprint(*parts), *parts)
    new = current(old)
    today = extract((LOGS / "deadline-exceeded-init.log").read_text())
    assert new.fingerprint == today.fingerprint and old.fingerprint in new.legacy
    assert current(new) is new
    # what was not hashed from its parts (a fallback key, a hand-made one) is left alone
    odd = Signature("unsigned-0123456789ab", "runtime_crash", None, "x")
    assert current(odd) is odd


def test_a_gate_regression_is_told_apart_by_its_ferry():
    a = make("gate_regression", None, "failed gates: max_final_loss (ferry moe-canary)")
    b = make("gate_regression", None, "failed gates: max_final_loss (ferry other)")
    assert a.fingerprint != b.fingerprint
    old = make("gate_regression", None, "failed gates: max_final_loss")
    assert current(old, "moe-canary").fingerprint == a.fingerprint
    assert old.fingerprint in current(old, "moe-canary").legacy


def test_a_closing_full_stop_doubled_or_dropped_is_one_failure():
    # jax until 0.8.2 closed TracerBoolConversionError's sentence with two dots, after it with one
    two, one = (extract((REAL / f).read_text()) for f in ("diffrax-379.log", "amici-3113.log"))
    assert two.message == one.message == "Attempted boolean conversion of traced array with shape bool[]"
    assert two.fingerprint == one.fingerprint
    said = extract("ValueError: Please provide a TPU Name to connect to.\n")
    assert said.fingerprint == extract("ValueError: Please provide a TPU Name to connect to\n").fingerprint
    assert said.message == "Please provide a TPU Name to connect to"
    # only the end: a stop inside the message is its words
    assert extract("ValueError: a. b\n").fingerprint != extract("ValueError: a b\n").fingerprint


def _raised_in(program: str, line: str) -> str:
    return f'Traceback (most recent call last):\n  File "/home/u/{program}.py", line 3, in <module>\n    f()\n{line}\n'


def test_a_message_that_names_its_failure_has_no_call_path_in_its_fingerprint():
    # a library's failure met from two programs, and posted without its traceback, is one failure (program-frames)
    named = "ValueError: Only interpret mode is supported on CPU backend"
    one, two, bare = extract(_raised_in("train", named)), extract(_raised_in("serve", named)), extract(named)
    assert one.frames == ["u/train.py:<module>"] and two.frames == ["u/serve.py:<module>"]
    assert one.fingerprint == two.fingerprint == bare.fingerprint
    short = "jinja2.exceptions.TemplateError: Conversation roles must alternate user/assistant"
    assert extract(_raised_in("train", short)).fingerprint == extract(short).fingerprint
    # a name a module the message names lacks is the release installed, whichever program read it
    for removed in (
        "AttributeError: module 'jax' has no attribute 'tree_multimap'",
        "ImportError: cannot import name 'AdamW' from 'transformers'",
    ):
        assert extract(_raised_in("train", removed)).fingerprint == extract(_raised_in("serve", removed)).fingerprint
        assert extract(_raised_in("train", removed)).fingerprint == extract(removed).fingerprint
    # a terse message, a name an object lacks, a module not found, memory run out, and the interpreter's words for a
    # program's own mistake keep their call path
    for line in (
        "ValueError: bad block shape",
        "AttributeError: 'NoneType' object has no attribute 'shape'",
        "ModuleNotFoundError: No module named 'flash_attn_2_cuda'",
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 1024 bytes.",
        "TypeError: unsupported operand type(s) for +: 'int' and 'NoneType' in the step function here",
        "IndexError: list index out of range while reading the batch of the second data set",
    ):
        assert extract(_raised_in("train", line)).fingerprint != extract(_raised_in("serve", line)).fingerprint, line
