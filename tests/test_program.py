"""The lowered program's fingerprint: what is stripped (pure), how runs compare with the last
pass's program (pure), and end to end: the same tree twice, a one-line model change, an
unrelated change, and a run that records what `canary lower` computes."""

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT
from notify_records import failing

from canary.history import programs as pg
from canary.history.windows import WindowCommit
from canary.notify.compose import new_issue
from canary.notify.model import Facts, LastPass
from canary.workload.program import program_fingerprint, strip_noise
from tests.perf_records import run

MODULE = """#loc = loc(unknown)
#loc1 = loc("params['embed']")
module @jit_step attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32> loc("params['embed']")) -> (tensor<8xf32> {jax.result_info = "[0]"}) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32> loc(#loc3)
    %1 = stablehlo.custom_call @tpu_custom_call(%0) {backend_config = "{\\22body\\22: \\22TUzvUgE=\\22}"} : (tensor<8xf32>) -> tensor<8xf32> loc(callsite("f(x)"("/work/a/model.py":12:4 to :9) at #loc1))
    return %1 : tensor<8xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc3 = loc("/work/a/canary/workload/model.py":125:8)
"""


def test_strip_noise_drops_every_location_and_keeps_the_program():
    text = strip_noise(MODULE)
    assert "loc" not in text and ".py" not in text and "#loc" not in text
    assert "stablehlo.add %arg0, %arg0 : tensor<8xf32>\n" in text
    assert '@tpu_custom_call(%0) {backend_config = "{\\22body\\22: \\22TUzvUgE=\\22}"}' in text  # the kernel stays
    assert "jax.result_info" in text and text.endswith("}\n")


def test_locations_alone_do_not_change_the_fingerprint_and_the_program_does():
    moved = MODULE.replace("/work/a/", "/home/runner/work/b/").replace(":125:8", ":131:8")
    assert program_fingerprint(moved) == program_fingerprint(MODULE)
    assert program_fingerprint(MODULE.replace("stablehlo.add", "stablehlo.multiply")) != program_fingerprint(MODULE)
    assert program_fingerprint(MODULE.replace("TUzvUgE=", "TUzvUgF=")) != program_fingerprint(MODULE)
    assert len(program_fingerprint(MODULE)) == 64


def _with_program(i, fp, platform="cpu", **kw):
    r = run(i, **kw)
    r.summary.update({pg.FINGERPRINT: fp, pg.PLATFORM: platform})
    return r


def test_program_note_against_the_last_pass_before_the_run():
    a, b = "a" * 64, "b" * 64
    records = [
        _with_program(0, a),
        _with_program(1, a),
        run(2),
        _with_program(3, b, verdict="fail"),
        _with_program(4, b),
    ]
    assert pg.program_note(records[0], records) is None  # nothing before it
    assert pg.program_note(records[1], records) == "same program as the last pass"
    assert pg.program_note(records[2], records) is None  # recorded none
    assert pg.program_note(records[3], records).startswith(f"new program since the last pass, {records[1].run_id}")
    assert pg.program_note(records[4], records).startswith("new program")  # the failure is no pass
    assert pg.last_pass_program(records, "cpu", "moe-canary", "cpu") is records[4]
    assert pg.last_pass_program(records, "cpu", "moe-canary", "tpu") is None
    assert pg.last_pass_program(records, "cpu", "grug-moe-canary") is None


def test_every_runs_note_in_one_pass_is_each_runs_own_note():
    import random
    from dataclasses import replace

    rng = random.Random(5)
    records = []
    for i in range(150):
        kw = dict(lane=rng.choice(["cpu", "tpu"]), ferry=rng.choice(["moe-canary", "grug-moe-canary"]))
        kw["verdict"] = rng.choice(["pass", "pass", "fail"])
        r = (
            run(i, **kw)
            if rng.random() < 0.2
            else _with_program(i, rng.choice("abc") * 64, rng.choice(["cpu", "tpu", None]), **kw)
        )
        if rng.random() < 0.1:
            r = replace(r, steps_requested=10, ferry_steps=200)  # short: never the last pass
        if rng.random() < 0.2:
            r = replace(r, started_at=records[-1].started_at if records else r.started_at)  # same start: by run id
        records.append(r)
    rng.shuffle(records)
    notes = pg.program_notes(records)
    assert notes == {r.run_id: pg.program_note(r, records) for r in records}
    assert {n.split(",")[0] for n in notes.values() if n} == {
        "same program as the last pass",
        "new program since the last pass",
    }


def test_compare_names_the_run_the_commit_and_the_likely_causes():
    a, b = "a" * 64, "b" * 64
    records = [_with_program(0, a, platform="tpu", lane="tpu")]
    same = pg.compare("tpu", "tpu", "moe-canary", a, records)
    assert same.changed is False and "is the one the last pass ran" in same.message
    window = [
        WindowCommit("1" * 40, "docs: typo", ["README.md"], False),
        WindowCommit("2" * 40, "model: gelu", ["canary/workload/model.py"], True, ["canary/workload/model.py"]),
    ]
    new = {**records[0].versions, "jax": "0.10.1"}
    c = pg.compare("tpu", "tpu", "moe-canary", b, records, new, window)
    assert c.changed and c.message == (
        f"the tpu program changed since {records[0].run_id}, {records[0].commit[:12]}; "
        "a shared compilation cache will miss, and this lane lowers cold"
    )
    assert c.causes == ["jax 0.10.0 -> 0.10.1", f"commit {'2' * 12} model: gelu (touches canary/workload/model.py)"]
    quiet = pg.compare("tpu", "tpu", "moe-canary", b, records, records[0].versions, window[:1])
    assert quiet.causes == ["no version change and no commit on a watched path; 1 other commit in the window"]
    assert pg.compare("tpu", "tpu", "moe-canary", b, [], None).changed is None


# ----------------------------------------------------------------------------- end to end


def _tree(dst):
    shutil.copytree(ROOT, dst, ignore=shutil.ignore_patterns(".venv*", ".git", "__pycache__", "runs", "tests", "bench"))
    return dst


def _lower(tree):
    """The cpu lane's program for cpu and the tpu lane's for tpu (megablox: Pallas kernels whose
    serialized bodies would carry their call path's locations)."""
    proc = subprocess.run(
        [sys.executable, "-m", "canary", "lower", "--platform", "cpu", "--platform", "tpu", "--json", "--no-history"],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return {p["platform"]: p["fingerprint"] for p in json.loads(proc.stdout)["platforms"]}


def _edit(path, old, new):
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


@pytest.mark.slow  # lowers the cpu and tpu lanes' train steps four times, each in a process of its own
def test_same_tree_same_hash_a_model_line_changes_it_an_unrelated_change_does_not(tmp_path):
    base = _tree(tmp_path / "base")
    first = _lower(base)
    assert _lower(base) == first

    unrelated = _tree(tmp_path / "unrelated")  # another checkout path, too
    _edit(unrelated / "canary" / "report" / "page.py", "def run_anchor(", "# anchors\n\n\ndef run_anchor(")
    _edit(
        unrelated / "canary" / "workload" / "model.py",
        "def rms_norm(",
        "# a comment shifts every line below\n\ndef rms_norm(",
    )
    _edit(unrelated / "canary" / "workload" / "optim.py", "def make_optimizer(", "# and here\n\n\ndef make_optimizer(")
    assert _lower(unrelated) == first

    changed = _tree(tmp_path / "changed")
    _edit(
        changed / "canary" / "workload" / "model.py",
        "jnp.mean(x32 * x32, axis=-1, keepdims=True) + eps",
        "jnp.mean(x32 * x32, axis=-1, keepdims=True) + 2 * eps",
    )
    again = _lower(changed)
    assert again["cpu"] != first["cpu"] and again["tpu"] != first["tpu"]


@pytest.mark.slow  # one full cpu run, two lowerings
def test_a_run_records_the_program_canary_lower_computes_and_both_say_so(tmp_path):
    # a checkout whose pinned gates only warn on speed: the program note needs each run to pass,
    # and this machine's load is not what is tested here
    tree = _tree(tmp_path / "tree")
    _edit(tree / "gates" / "moe-canary.toml", 'throughput = "FAIL"', 'throughput = "WARN"')
    history = str(tmp_path / "history.sqlite3")

    def cli(*args):
        env = {**os.environ, "PYTHONPATH": str(tree)}
        return subprocess.run(
            [sys.executable, "-m", "canary", *args], cwd=tree, env=env, capture_output=True, text=True, timeout=900
        )

    proc = cli("run", "cpu", "--out", str(tmp_path / "runs"), "--history", history, "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["experiment"] is None
    summary = json.loads(proc.stdout)["summary"]
    assert summary[pg.PLATFORM] == "cpu" and summary["program/fingerprint_seconds"] > 0
    lowered = cli("lower", "--lane", "cpu", "--platform", "cpu", "--history", history, "--json")
    assert lowered.returncode == 0, lowered.stderr
    p = json.loads(lowered.stdout)["platforms"][0]
    assert p["fingerprint"] == summary[pg.FINGERPRINT]
    assert p["program"]["changed"] is False and "is the one the last pass ran" in p["program"]["message"]

    again = cli("run", "cpu", "--out", str(tmp_path / "runs"), "--history", history, "--json")
    assert again.returncode == 0, again.stdout + again.stderr
    shown = json.loads(cli("history", "--history", history, "--json").stdout)
    # the training series' two runs (the lowering is recorded too, in a preflight series of its own)
    runs = [r["run_id"] for r in shown["records"] if r["series"] == "cpu/moe-canary"]
    assert [shown["programs"][r] for r in runs] == [None, "same program as the last pass"]


def test_the_notifier_says_whether_the_failing_run_lowered_the_last_pass_s_program():
    facts = Facts(
        last_pass=LastPass("20260826T060000Z-tpu-aa00", "2026-08-26", "c" * 40),
        versions=(),
        program="same program as the last pass",
    )
    assert "Lowered program: same program as the last pass." in new_issue(failing(), facts).body
    assert "Lowered program" not in new_issue(failing(), Facts(last_pass=facts.last_pass, versions=())).body


@pytest.mark.slow  # lowers the cpu lane's train step
def test_canary_lower_says_the_program_changed_since_the_last_pass_and_why(tmp_path, cli):
    from canary.history.sqlite import SqliteStore

    base = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD~3"], capture_output=True, text=True
    ).stdout.strip()
    last = _with_program(0, "0" * 64, commit=base, versions={"jax": "0.9.0", "python": "3.11.7"})
    SqliteStore(tmp_path / "h.sqlite3").append(last)
    proc = cli("lower", "--lane", "cpu", "--platform", "cpu", "--history", str(tmp_path / "h.sqlite3"), "--json")
    assert proc.returncode == 0, proc.stderr
    program = json.loads(proc.stdout)["platforms"][0]["program"]
    assert program["changed"] is True and program["last_pass"] == last.run_id
    assert program["message"] == (
        f"the cpu program changed since {last.run_id}, {base[:12]}; a shared compilation "
        "cache will miss, and this lane lowers cold"
    )
    assert program["causes"][0].startswith("jax 0.9.0 -> ")
    text = cli("lower", "--lane", "cpu", "--platform", "cpu", "--history", str(tmp_path / "h.sqlite3")).stdout
    assert "likely cause: jax 0.9.0 -> " in text


@pytest.mark.slow  # one compiled step and four lowerings of the cpu lane's model
def test_a_run_s_own_step_gives_the_fingerprint_canary_lower_builds(tmp_path):
    """A one-device cpu run fingerprints the step it runs rather than building it anew, on a thread
    while XLA compiles that step (as a run does): the same value as built anew, one after the
    other. Split over devices, its step is not reused."""
    import jax

    from canary.config import get_lane, load_ferry
    from canary.formats.spec import build_spec
    from canary.workload.program import fingerprint_meanwhile, run_fingerprint
    from canary.workload.train import make_corpus, make_train_step

    ferry, _ = load_ferry("moe-canary")
    spec = build_spec(ferry, get_lane("cpu"), run_id="fp", out_dir=tmp_path, steps=1)
    ts = make_train_step(spec)
    params, opt_state = ts.init(jax.random.PRNGKey(spec.ferry.trainer.seed))
    batch = make_corpus(spec).stream(1, spec.batch_size, spec.seq_len + 1).get(0)
    lowered = ts.step.lower(params, opt_state, ts.bias, batch)
    meanwhile = fingerprint_meanwhile(spec, make_train_step, ts)
    lowered.compile()(params, opt_state, ts.bias, batch)

    reused, built = meanwhile(), run_fingerprint(spec, make_train_step)
    assert "program/error" not in reused and "program/error" not in built
    assert reused["program/fingerprint"] == built["program/fingerprint"]

    four = spec.model_copy(update={"devices": 4})  # a forced-host 4-device lane: its per-device step
    unused = object()  # would fail to export, were it taken
    split = run_fingerprint(four, make_train_step, unused)
    assert split["program/fingerprint"] == run_fingerprint(four, make_train_step)["program/fingerprint"]
    assert split["program/fingerprint"] != built["program/fingerprint"]


@pytest.mark.slow  # one lowering of the cpu lane's model
def test_printed_without_locations_the_fingerprint_is_the_one_with_them_stripped(tmp_path):
    """The module's text is printed without source locations (cheaper); stripping them from the
    text printed with them gives the same program, so fingerprints stay what they were."""
    from canary.config import get_lane, load_ferry
    from canary.formats.spec import build_spec
    from canary.workload.program import export_train_step, exported_text, strip_noise
    from canary.workload.train import make_train_step

    ferry, _ = load_ferry("moe-canary")
    spec = build_spec(ferry, get_lane("cpu"), run_id="fp", out_dir=tmp_path, steps=1)
    exported = export_train_step(spec, make_train_step)
    with_locations, without = exported.mlir_module(), exported_text(exported)
    assert "loc(" in with_locations and "loc(" not in without
    assert strip_noise(without) == strip_noise(with_locations)
    assert program_fingerprint(without) == program_fingerprint(with_locations)
