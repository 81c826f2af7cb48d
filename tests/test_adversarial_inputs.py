"""Round 2 against what canary is handed (#27): names outside the safe set, hand-edited goldens,
gates and ferries, a machine that runs out of disk or memory, a harness killed while it writes
the history, read-only commands given files they must not touch, a symlink loop as --out, a log
of NULs. Each is tried through the real command line, in a subprocess, on real files."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest
from adversary import PY, canary_cli, cli_env, lanes_toml, wait_for
from conftest import ROOT
from test_adversarial import small_disk  # noqa: F401 (fixture)

GATES = ROOT / "gates"
FERRY = ROOT / "ferries" / "moe-canary.toml"


def _no_traceback(r) -> None:
    out = (r.stdout + r.stderr).decode(errors="replace")
    assert "Traceback" not in out, out


def _nothing_trained(runs: Path) -> None:
    assert not runs.exists() or not any(runs.iterdir()), list(runs.iterdir())


# ----------------------------------------------------------------------------- 5. names at config load


@pytest.mark.parametrize(
    "name", ["ci @everyone -->", "inj` @team `x", "../up", "a/b", "tpu\x1b]0;x\x07", ".hidden", ""]
)
def test_a_lane_name_outside_the_safe_set_is_bad_input_at_load(name, tmp_path):
    lanes = tmp_path / "lanes.toml"
    lanes.write_text(f'[lanes.{json.dumps(name)}]\naccelerator = "cpu"\nplatform = "cpu"\n')
    r = canary_cli("run", name or "x", "--out", str(tmp_path / "runs"), tmp_path=tmp_path, CANARY_LANES=str(lanes))
    assert r.returncode == 2, r.stderr
    _no_traceback(r)
    assert b"lanes" in r.stderr and b"\x1b" not in r.stderr and b"\x07" not in r.stderr
    _nothing_trained(tmp_path / "runs")


@pytest.mark.parametrize("name", ["inj` @team `x", "ci @everyone -->", "x/../../y"])
def test_a_ferry_name_outside_the_safe_set_is_bad_input_at_load(name, tmp_path):
    ferry = tmp_path / "f.toml"
    ferry.write_text(FERRY.read_text().replace('name = "moe-canary"', f"name = {json.dumps(name)}", 1))
    r = canary_cli(
        "run",
        "cpu",
        "--ferry",
        str(ferry),
        "--gates",
        str(GATES / "moe-canary.toml"),
        "--out",
        str(tmp_path / "runs"),
        tmp_path=tmp_path,
    )
    assert r.returncode == 2, r.stderr
    _no_traceback(r)
    assert b"name" in r.stderr
    _nothing_trained(tmp_path / "runs")


# ----------------------------------------------------------------------------- 8. goldens, gates, ferries


def _golden_copy(tmp_path: Path, edit) -> Path:
    """The cpu lane's gates and golden, copied, with the golden edited by ``edit(dict)``."""
    d = tmp_path / "gates"
    d.mkdir()
    gates = d / "moe-canary.toml"
    gates.write_text((GATES / "moe-canary.toml").read_text())
    golden = json.loads((GATES / "moe-canary.cpu.golden.json").read_text())
    text = edit(golden)
    (d / "moe-canary.cpu.golden.json").write_text(text if isinstance(text, str) else json.dumps(golden))
    return gates


def _set(path: str, value):
    def edit(g):
        *keys, last = path.split(".")
        at = g
        for k in keys:
            at = at[int(k)] if isinstance(at, list) else at[k]
        if isinstance(at, list):
            at[int(last)] = value
        else:
            at[last] = value

    return edit


HOSTILE_GOLDENS = {
    "window 0": (_set("window", 0), "window"),
    "no windows": (_set("loss_windows", []), "loss_windows"),
    "NaN final loss": (_set("final_loss", float("nan")), "final_loss"),
    "NaN window mean": (_set("loss_windows.3.mean", float("nan")), "loss_windows.3"),
    "negative rtol": (_set("tolerance.loss_curve.rtol", -0.1), "tolerance.loss_curve.rtol"),
    "negative window rtol": (_set("loss_windows.0.rtol", -1.0), "loss_windows.0.rtol"),
    "100,000 levels of nesting": (lambda g: "[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "a list, not an object": (lambda g: "[1, 2]", "not a golden"),
    "steps reversed": (_set("loss_windows.1.steps", [30, 20]), "loss_windows.1.steps"),
    # round 3 (#34): a tolerance that is a list, and a window past the golden's own steps (which
    # read as a gate regression, to be filed as an issue)
    "tolerance a list": (_set("tolerance", [1, 2]), "tolerance"),
    "a window past the golden's steps": (_set("loss_windows.9.steps", [180, 260]), "loss_windows.9.steps"),
    "steps 1e400": (_set("steps", float("inf")), "not a golden"),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_GOLDENS))
def test_a_hand_edited_golden_is_bad_input_before_any_attempt(kind, tmp_path):
    edit, key = HOSTILE_GOLDENS[kind]
    gates = _golden_copy(tmp_path, edit)
    r = canary_cli("run", "cpu", "--gates", str(gates), "--out", str(tmp_path / "runs"), tmp_path=tmp_path)
    assert r.returncode == 2, r.stderr
    _no_traceback(r)
    assert key.encode() in r.stderr, r.stderr
    _nothing_trained(tmp_path / "runs")
    # canary gate reads the same golden: the same answer
    r = canary_cli("gate", str(tmp_path), "--lane", "cpu", "--gates", str(gates), tmp_path=tmp_path)
    assert r.returncode == 2 and key.encode() in r.stderr, r.stderr


def test_a_gates_file_naming_another_ferry_is_bad_input(tmp_path):
    gates = tmp_path / "g.toml"
    import re

    text = (
        (GATES / "moe-canary.toml")
        .read_text()
        .replace("moe-canary.cpu.golden.json", str(GATES / "moe-canary.cpu.golden.json"))
    )
    gates.write_text(re.sub(r'(?m)^ferry = ".*"$', 'ferry = "another-ferry"', text))
    assert "another-ferry" in gates.read_text()
    r = canary_cli("run", "cpu", "--gates", str(gates), "--out", str(tmp_path / "runs"), tmp_path=tmp_path)
    assert r.returncode == 2, r.stderr
    _no_traceback(r)
    assert b"another-ferry" in r.stderr and b"ferry" in r.stderr
    _nothing_trained(tmp_path / "runs")


@pytest.mark.parametrize("value", ["true", '"200"', "200.0", "1e11"])
@pytest.mark.parametrize("key", ["steps", "batch_size"])
def test_a_ferry_number_that_is_not_an_integer_is_bad_input(key, value, tmp_path):
    text = FERRY.read_text()
    import re

    ferry = tmp_path / "moe-canary.toml"
    ferry.write_text(re.sub(rf"(?m)^{key} = \d+$", f"{key} = {value}", text, count=1))
    assert ferry.read_text() != text
    r = canary_cli(
        "run",
        "cpu",
        "--ferry",
        str(ferry),
        "--gates",
        str(GATES / "moe-canary.toml"),
        "--out",
        str(tmp_path / "runs"),
        tmp_path=tmp_path,
    )
    assert r.returncode == 2, r.stderr
    _no_traceback(r)
    assert key.encode() in r.stderr and b"integer" in r.stderr, r.stderr
    _nothing_trained(tmp_path / "runs")


# ----------------------------------------------------------------------------- 9. the machine, not the code

_DISK_FILLER = r"""
import json, shlex, sys
out = json.load(open(shlex.split(sys.argv[1])[-1]))["out_dir"]
with open(out + "/metrics.jsonl", "w") as f:
    f.write(json.dumps({"global_step": 0, "train/loss": 4.0}) + "\n")
with open(out + "/checkpoint.bin", "wb") as f:   # the workload's own write: no handler, its traceback
    while True:
        f.write(b"\0" * 4096)
        f.flush()
"""


@pytest.mark.slow
def test_a_disk_that_fills_under_the_workload_is_infrastructure_not_a_regression(tmp_path, small_disk):  # noqa: F811
    lanes = lanes_toml(tmp_path, [PY, "-c", _DISK_FILLER, "{entrypoint}"])
    r = canary_cli("run", "cpu", "--out", str(small_disk), "--json", tmp_path=tmp_path, CANARY_LANES=str(lanes))
    assert r.returncode == 1, r.stderr
    result = json.loads(r.stdout)
    assert result["signature"]["exception"] == "OSError", result["signature"]
    assert result["classification"] == "infrastructure"


_OUT_OF_MEMORY = {
    "numpy": "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 745. GiB for an array with shape "
    "(100000000000, 2) and data type int32",
    "MemoryError": "MemoryError",
    "c++": "RuntimeError: std::bad_alloc",
    "ENOSPC": "OSError: [Errno 28] No space left on device: '/ckpt/step-100'",
    "quota": "OSError: [Errno 122] Disk quota exceeded",
}


@pytest.mark.parametrize("kind", sorted(_OUT_OF_MEMORY))
def test_memory_or_disk_exhausted_in_the_workload_is_infrastructure(kind, tmp_path):
    crash = (
        "import sys\nprint('Traceback (most recent call last):')\nprint('  File \"/srv/train.py\", line 9, in "
        f"<module>')\nprint('    batch = corpus.batches()')\nprint({_OUT_OF_MEMORY[kind]!r})\nsys.exit(1)"
    )
    lanes = lanes_toml(tmp_path, [PY, "-c", crash, "{entrypoint}"], attempts=2)
    r = canary_cli("run", "cpu", "--out", str(tmp_path / "runs"), "--json", tmp_path=tmp_path, CANARY_LANES=str(lanes))
    assert r.returncode == 1, r.stderr
    result = json.loads(r.stdout)
    assert result["classification"] == "infrastructure", (result["classification"], result["signature"])
    assert len(result["attempts"]) == 2


def test_a_code_crash_is_still_a_regression(tmp_path):
    crash = "import sys\nprint('Traceback (most recent call last):')\nprint('ValueError: bad block shape')\nsys.exit(1)"
    lanes = lanes_toml(tmp_path, [PY, "-c", crash, "{entrypoint}"], attempts=2)
    r = canary_cli("run", "cpu", "--out", str(tmp_path / "runs"), "--json", tmp_path=tmp_path, CANARY_LANES=str(lanes))
    assert json.loads(r.stdout)["classification"] == "deterministic"


@pytest.mark.slow
def test_a_batch_too_big_for_the_host_is_infrastructure(tmp_path):
    """The real workload, its batch 10^11 rows: numpy cannot allocate it (no memory is touched)."""
    import re

    ferry = tmp_path / "moe-canary.toml"
    ferry.write_text(re.sub(r"(?m)^batch_size = \d+$", "batch_size = 100000000000", FERRY.read_text()))
    r = canary_cli(
        "run",
        "cpu",
        "--ferry",
        str(ferry),
        "--gates",
        str(GATES / "moe-canary.toml"),
        "--steps",
        "2",
        "--out",
        str(tmp_path / "runs"),
        "--json",
        tmp_path=tmp_path,
    )
    assert r.returncode == 1, r.stderr
    result = json.loads(r.stdout)
    assert result["classification"] == "infrastructure", result["signature"]


# ----------------------------------------------------------------------------- 10. killed while writing history


def test_a_harness_killed_during_the_history_write_leaves_a_record_history_import_takes(tmp_path):
    history = tmp_path / "history.sqlite3"
    holder = sqlite3.connect(history, isolation_level=None)
    holder.executescript(
        "CREATE TABLE IF NOT EXISTS runs (run_id TEXT PRIMARY KEY, lane TEXT NOT NULL, "
        "started_at TEXT NOT NULL, verdict TEXT NOT NULL, fingerprint TEXT, record TEXT NOT NULL);"
    )
    holder.execute("BEGIN EXCLUSIVE")  # the history's write waits on this lock: the harness is killed meanwhile
    lanes = lanes_toml(tmp_path, [PY, "-c", "import sys; print('RuntimeError: x'); sys.exit(1)", "{entrypoint}"])
    runs = tmp_path / "runs"
    proc = subprocess.Popen(
        [PY, "-m", "canary", "run", "cpu", "--out", str(runs)],
        cwd=ROOT,
        env=cli_env(tmp_path, CANARY_LANES=str(lanes)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: any(runs.glob("*/result.json")), timeout=120, what="result.json before the history write")
        assert proc.poll() is None, "the harness should still be waiting on the history's lock"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        holder.execute("ROLLBACK")
        holder.close()
    [result] = runs.glob("*/result.json")
    record = json.loads(result.read_text())  # whole, not torn
    r = canary_cli("history", "import", str(result.parent), tmp_path=tmp_path)
    assert r.returncode == 0, r.stderr
    h = json.loads(canary_cli("history", "--json", tmp_path=tmp_path).stdout)
    assert [x["run_id"] for x in h["records"]] == [record["run_id"]]


# ----------------------------------------------------------------------------- 14. read-only commands


@pytest.mark.parametrize("command", [["history"], ["history", "--json"], ["report", "--out", "REPORT"]])
def test_read_only_commands_leave_an_empty_history_file_as_it_is(command, tmp_path):
    d = tmp_path / "h"
    d.mkdir()
    empty = d / "empty.sqlite3"
    empty.touch()
    args = [str(tmp_path / "report.html") if a == "REPORT" else a for a in command]
    r = canary_cli(*args, "--history", str(empty), tmp_path=tmp_path)
    assert r.returncode == 0, r.stderr
    _no_traceback(r)
    assert empty.stat().st_size == 0 and sorted(p.name for p in d.iterdir()) == ["empty.sqlite3"]


@pytest.mark.parametrize("command", [["history"], ["report", "--out", "REPORT"]])
def test_read_only_commands_never_write_beside_dev_null(command, tmp_path):
    before = set(os.listdir("/dev"))
    args = [str(tmp_path / "report.html") if a == "REPORT" else a for a in command]
    r = canary_cli(*args, "--history", "/dev/null", tmp_path=tmp_path)
    _no_traceback(r)
    assert r.returncode == 2 and b"not a regular file" in r.stderr, r.stderr
    assert not Path("/dev/null-journal").exists() and not Path("/dev/null-wal").exists()
    assert set(os.listdir("/dev")) - before == set()


def test_a_symlink_loop_as_out_is_bad_input(tmp_path):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    r = canary_cli("run", "cpu", "--out", str(loop), tmp_path=tmp_path)
    assert r.returncode == 2, r.stderr
    _no_traceback(r)
    assert b"--out" in r.stderr


def test_a_log_of_nuls_is_the_same_bad_input_by_path_and_on_stdin(tmp_path):
    log = tmp_path / "nul.log"
    log.write_bytes(b"\x00" * 4096)
    by_path = canary_cli("signature", str(log), tmp_path=tmp_path)
    by_stdin = canary_cli("signature", "-", tmp_path=tmp_path, stdin=log.read_bytes())
    assert by_path.returncode == by_stdin.returncode == 2, (by_path.stderr, by_stdin.stderr)
    for r in (by_path, by_stdin):
        _no_traceback(r)
        assert b"binary content" in r.stderr and b"byte offset 0" in r.stderr


def test_a_nul_after_a_megabyte_is_found_on_stdin_too(tmp_path):
    data = b"step 1 loss 2.0\n" * 100_000 + b"\x00tail\n"
    r = canary_cli("signature", "-", tmp_path=tmp_path, stdin=data)
    assert r.returncode == 2 and f"byte offset {len(data) - 6}".encode() in r.stderr, r.stderr


# ----------------------------------------------------------------------------- found by bench/hostile_sweep.py


def test_a_fifo_as_history_is_bad_input_not_a_hang(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    r = canary_cli("history", "--history", str(fifo), tmp_path=tmp_path)
    assert r.returncode != 0 and b"not a regular file" in r.stderr, r.stderr
    _no_traceback(r)


def test_a_golden_that_is_dev_zero_is_bad_input_not_a_hang(tmp_path):
    gates = _golden_copy(tmp_path, lambda g: "{}")
    gates.write_text(gates.read_text().replace("moe-canary.cpu.golden.json", "zero.golden.json"))
    (gates.parent / "zero.golden.json").symlink_to("/dev/zero")
    r = canary_cli("run", "cpu", "--gates", str(gates), "--out", str(tmp_path / "runs"), tmp_path=tmp_path)
    assert r.returncode == 2 and b"not a regular file" in r.stderr, r.stderr
    _nothing_trained(tmp_path / "runs")


def test_a_report_that_cannot_be_written_is_bad_input(tmp_path):
    r = canary_cli("report", "--out", "/proc/canary-report/r.html", tmp_path=tmp_path)
    assert r.returncode == 2 and b"--out" in r.stderr, r.stderr
    _no_traceback(r)
