"""Near matches (#38): a failure whose fingerprint no open issue has, but whose signature is close
to one's, gets its own issue that says "looks like #N", and #N one comment; exact identity alone
decides recurrence. Through the real client against the local GitHub server."""

import dataclasses
from pathlib import Path

from github_server import REPO, client, github, spool_dir  # noqa: F401 (fixtures)
from notify_records import failing

from canary.notify import notify
from canary.notify.markers import identity_marker, issue_identity
from canary.notify.model import Facts
from canary.signature import extract
from canary.signature.similar import THRESHOLD, identity_text, similarity, text_similarity

REAL = Path(__file__).parent / "logs" / "real"
FACTS = Facts(lane_context="GCP, TPU v6e-4, europe-west4", platform="tpu")


def sig(name: str):
    return extract((REAL / name).read_text(encoding="utf-8"))


def _failing(run_id, name):
    s = sig(name)
    rec = failing(run_id)
    rec.signature = dataclasses.replace(s, excerpt=(REAL / name).read_text())
    for a in rec.attempts:
        a.signature = rec.signature
    return rec


def test_a_cut_excerpt_and_another_call_path_are_near_and_look_alikes_are_not():
    whole, cut = sig("ringattention-11.log"), sig("tpu-inference-508.log")  # VMEM, the second cut after 'vmem'
    assert whole.fingerprint != cut.fingerprint and similarity(whole, cut) >= THRESHOLD
    assert similarity(sig("easydel-78.log"), sig("lwm-60.log")) >= THRESHOLD  # one message, two programs
    assert similarity(sig("gcbfplus-1.log"), sig("kohya-colab-94.log")) < THRESHOLD  # cuDNN vs CUDA
    assert similarity(whole, sig("easydel-142.log")) < THRESHOLD  # VMEM vs HBM


def test_a_post_cut_short_is_near_its_whole():
    cut = REAL / "jax-22416.log"
    lines = cut.read_text(encoding="utf-8").rstrip("\n").splitlines()
    whole = sig("jax-22416.log")
    # an environment check cut inside its words (it is its own start), and jax's advice cut after it
    for n in (120, 140):
        part = extract("\n".join([*lines[:-1], lines[-1][:n]]))
        assert part.kind == "environment" and similarity(part, whole) >= THRESHOLD, n
    advice = "RuntimeError: Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices."
    cut_advice = extract(advice + " (you may need to uninstall the failin")
    assert cut_advice.fingerprint == extract(advice).fingerprint
    # jax's jaxlib check cut after its words; where Python found a module, cut or not
    older = "ValueError: jaxlib is version 0.1.23, but this version of jax requires version 0.1.38."
    assert extract("ValueError: jaxlib is version 0.1.23, but this version of jax requir").fingerprint == (
        extract(older).fingerprint
    )
    name = "ImportError: cannot import name 'config' from 'jax.config' "
    assert extract(name + "(/usr/lib/python3/dist-packages/jax/config.py)").fingerprint == (
        extract(name + "(/home/u/.local/lib/python3.10/site-").fingerprint
    )
    # a cut inside a figure the whole masks; a cut that drops a word that differs is not near
    oom = "RESOURCE_EXHAUSTED: Ran out of memory in memory space hbm. Used 31.25G of 15.48G hbm. Exceeded hbm cap"
    assert similarity(extract(oom[:66]), extract(oom)) >= THRESHOLD
    # a check's head alone is near its whole whichever class raised each (an identity marker's text may name either)
    head = "XlaRuntimeError: INTERNAL: Failed to deserialize the Mosaic module"
    whole = (
        "ValueError: Failed to deserialize the Mosaic module: INTERNAL: Unsupported version: expected <= 7 but got 8"
    )
    assert similarity(extract(head), extract(whole)) >= THRESHOLD
    assert (
        text_similarity(
            "RuntimeError: cuInit failed: CUDA_ERROR_NO_DEVICE", "environment: cuInit failed: CUDA_ERROR_NO_DEVICE"
        )
        == 1.0
    )
    one = extract("AttributeError: module 'jax.interpreters.xla' has no attribute 'DeviceArray'")
    other = extract("AttributeError: module 'jax.interpreters.xla' has no attribute 'pytype_aval_mappings'")
    assert similarity(one, other) < THRESHOLD


def test_a_warning_is_near_the_error_it_became_and_not_merged_with_it():
    warned, raised = sig("helm-2597.log"), sig("mteb-930.log")  # a FutureWarning, later a ValueError
    assert (warned.exception, raised.exception) == ("FutureWarning", "ValueError")
    assert warned.fingerprint != raised.fingerprint and similarity(warned, raised) >= THRESHOLD
    # two errors of another class, or two warnings, still compare their classes
    assert text_similarity("ValueError: repository lacks a file", "TypeError: repository lacks a file") < THRESHOLD
    assert text_similarity("UserWarning: the repository lacks a file", "FutureWarning: the repository lacks a file") < 1


def test_a_symbol_cut_short_is_near_its_whole_and_a_name_that_begins_another_is_not():
    cut, whole = sig("pytorch-xla-5608.log"), sig("pytorch-xla-4133.log")  # ...4nameB5cxx11E of ...4nameB5cxx11Ev
    assert cut.fingerprint != whole.fingerprint and similarity(cut, whole) >= THRESHOLD
    assert similarity(sig("jax-17691.log"), sig("jax-18851.log")) == 0.0  # no replication rule for erf, erf_inv
    one = "ImportError: /x/_C.so: undefined symbol: _ZN3c104cuda9SetDeviceEi"
    assert text_similarity(one, one.replace("SetDeviceEi", "SetDeviceEa")) == 0.0
    assert text_similarity(one, one.replace("undefined", "Undefined").replace("Ei", "Ea")) == 0.0


def test_one_signal_torch_elastic_got_is_not_another_however_alike_the_words():
    hup, term = "SignalException: Process <n> got signal: 1", "SignalException: Process <n> got signal: 15"
    assert text_similarity(hup, term) == 0.0  # (the one's words are how the other's begin)
    assert text_similarity(hup, hup) == 1.0


def test_the_identity_marker_reads_back():
    text = identity_text(sig("jax-22416.log"))
    assert issue_identity(identity_marker(text)) == text
    forged = identity_marker("x --> <!-- canary:fingerprint=f -->")
    assert forged.count("-->") == 1 and forged.endswith(" -->") and forged.count("<!--") == 1


def test_a_near_failure_is_linked_never_merged(github, client, spool_dir):
    notify(_failing("20260828T060000Z-tpu-ab12", "ringattention-11.log"), FACTS, repo=REPO, client=client)
    [first] = github.state.issues()
    assert issue_identity(first["body"]) == identity_text(sig("ringattention-11.log"))

    res = notify(_failing("20260829T060000Z-tpu-cd34", "tpu-inference-508.log"), FACTS, repo=REPO, client=client)
    assert [x.kind for x in res.deliveries[0].actions] == ["opened", "commented"]
    second = next(i for i in github.state.issues() if i["number"] != first["number"])
    assert f"It looks like #{first['number']} (similarity 1.00)" in second["body"]
    [note] = github.state.comments(first["number"])
    assert f"#{second['number']}" in note["body"] and "similarity 1.00" in note["body"]

    # the same cut failure again: a recurrence on its own issue only, no second note on the first
    res = notify(_failing("20260830T060000Z-tpu-ef56", "tpu-inference-508.log"), FACTS, repo=REPO, client=client)
    assert [(x.kind, x.issue) for x in res.deliveries[0].actions] == [("commented", second["number"])]
    assert len(github.state.comments(first["number"])) == 1

    # a look-alike (HBM, not VMEM) is neither merged nor linked
    notify(_failing("20260831T060000Z-tpu-0a0b", "easydel-142.log"), FACTS, repo=REPO, client=client)
    third = max(github.state.issues(), key=lambda i: i["number"])
    assert third["number"] not in (first["number"], second["number"]) and "looks like" not in third["body"]
