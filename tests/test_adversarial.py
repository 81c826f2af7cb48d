"""canary as an operator and an attacker would treat it: stopped by signals, killed outright,
starved of disk, fed hostile bytes, handed secrets, and pointed at a hostile GitHub.

Each class of fault has its own tests here; they run the real command line (``python -m
canary``) against real child processes, a real tmpfs and the loopback GitHub server.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT

PY = sys.executable


def _lanes(tmp_path: Path, command: list[str], attempts: int = 1, timeout_s: int = 600) -> Path:
    """A lanes file whose ``cpu`` lane runs ``command`` (through the command launcher) in place
    of the workload: the ferry and gates of the real cpu lane still apply."""
    p = tmp_path / "lanes.toml"
    p.write_text(
        "[lanes.cpu]\naccelerator = \"cpu\"\nplatform = \"cpu\"\n"
        f"launcher = {{ kind = \"command\", command = {json.dumps(command)} }}\n"
        f"attempts = {attempts}\ntimeout_s = {timeout_s}\n"
    )
    return p


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "CANARY_HISTORY": str(tmp_path / "history.sqlite3"),
            "CANARY_SPOOL_DIR": str(tmp_path / "spool"), **extra}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purposes
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return True


def _wait_for(pred, timeout: float = 30.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _assert_child_dies_with(parent: subprocess.Popen, child_pid) -> None:
    """SIGKILL ``parent`` once ``child_pid()`` names its live child; the child must die too."""
    try:
        found: list[int] = []
        _wait_for(lambda: found.append(child_pid()) or found[-1], what="the child")
        child = found[-1]
        assert _alive(child)
        parent.kill()
        parent.wait(timeout=10)
        _wait_for(lambda: not _alive(child), timeout=10, what="the orphaned child to die")
    finally:
        if parent.poll() is None:
            parent.kill()


# A stand-in workload: a process group of three sleepers (the shell and two children) that
# writes their pids and would run for five minutes.
GROUP = ["sh", "-c", 'sleep 300 & a=$!; sleep 300 & b=$!; echo "$$ $a $b" > "$PIDS"; wait', "{entrypoint}"]


# ----------------------------------------------------------------------------- 1. signals


@pytest.mark.slow
@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130), (signal.SIGHUP, 129)])
def test_a_stop_signal_kills_the_attempts_process_group_and_records_a_cancelled_run(tmp_path, sig, code):
    pids_file = tmp_path / "pids"
    env = _env(tmp_path, CANARY_LANES=str(_lanes(tmp_path, GROUP, attempts=3)), PIDS=str(pids_file))
    proc = subprocess.Popen([PY, "-m", "canary", "run", "cpu", "--out", str(tmp_path / "runs"), "--json",
                             "--notify", "github", "--repo", "acme/canary", "--dry-run"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(lambda: pids_file.is_file() and len(pids_file.read_text().split()) == 3, what="the workload")
        group = [int(p) for p in pids_file.read_text().split()]
        t0 = time.monotonic()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code, err
    assert took < 10, f"{sig.name} took {took:.1f}s to end the run"
    assert not [p for p in group if _alive(p)], "the attempt's process group outlived the run"
    result = json.loads(out)
    assert result["verdict"] == "cancelled" and result["classification"] == "cancelled"
    assert len(result["attempts"]) == 1, "a stopped run must not try again"
    assert result["attempts"][0]["outcome"] == "cancelled"
    assert f"stopped by {sig.name}" in result["error"]
    assert "process group" in result["attempts"][0]["detail"]
    assert "notify" not in result, "a cancelled run is never notified"
    on_disk = json.loads(Path(result["run_dir"], "result.json").read_text())
    assert on_disk["verdict"] == "cancelled"
    assert result["context"]["history"]["status"] == "stored"
    hist = subprocess.run([PY, "-m", "canary", "history", "--json"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert [r["verdict"] for r in json.loads(hist.stdout)["records"]] == ["cancelled"], hist.stdout


@pytest.mark.slow
def test_the_workload_dies_with_a_harness_killed_without_a_word(tmp_path):
    """SIGKILL of the harness: no handler runs, yet the kernel ends its child (parent-death
    signal), so no orphan keeps an accelerator busy."""
    pids_file = tmp_path / "pids"
    child = ["sh", "-c", 'echo $$ > "$PIDS"; exec sleep 300', "{entrypoint}"]
    env = _env(tmp_path, CANARY_LANES=str(_lanes(tmp_path, child)), PIDS=str(pids_file))
    proc = subprocess.Popen([PY, "-m", "canary", "run", "cpu", "--out", str(tmp_path / "runs")],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _assert_child_dies_with(proc, lambda: pids_file.is_file() and pids_file.read_text().strip() and int(pids_file.read_text()))


def test_parent_death_signal_is_armed_in_the_workload_itself(tmp_path):
    """The workload arms it too (for launchers whose child is not the workload: a Ray driver,
    a site's job CLI): a python parent that dies by SIGKILL takes the workload-like child along."""
    child_code = "import time; from canary import signals; signals.die_with_parent(); print(1, flush=True); time.sleep(300)"
    code = ("import subprocess, sys, time\n"
            f"c = subprocess.Popen([sys.executable, '-c', {child_code!r}], stdout=subprocess.PIPE)\n"
            "c.stdout.readline(); print(c.pid, flush=True); time.sleep(300)\n")
    parent = subprocess.Popen([PY, "-c", code], cwd=ROOT, env=_env(tmp_path), stdout=subprocess.PIPE, text=True)
    _assert_child_dies_with(parent, lambda: int(parent.stdout.readline()))


def test_sigint_says_interrupted_and_exits_130(tmp_path):
    """Ctrl-C in any command: a short line and 130, not click's "Aborted!" and 1."""
    proc = subprocess.Popen([PY, "-m", "canary", "signature", "-"], cwd=ROOT, env=_env(tmp_path),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)  # reading stdin by now
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Aborted" not in err and "Traceback" not in err


class _UnreachableRay:
    """A Ray job client whose cluster went away: every call fails as JobSubmissionClient's do."""

    def stop_job(self, job_id):
        raise ConnectionError("Failed to connect to Ray at address: http://127.0.0.1:1")

    def get_job_status(self, job_id):
        raise ConnectionError("Failed to connect to Ray at address: http://127.0.0.1:1")


def test_a_ray_job_that_cannot_be_stopped_is_said_not_swallowed():
    from canary.launchers.ray import RayLauncher

    said = RayLauncher("http://127.0.0.1:1", {}, 1.0)._stop(_UnreachableRay(), "raysubmit_1", 0.01, wait_s=0.1)
    assert "could not stop Ray job raysubmit_1" in said and "may still be running" in said
    assert "Failed to connect" in said


def test_cancelled_runs_are_neither_passes_nor_failures_in_the_history_queries():
    from canary import queries
    from canary.record import RunRecord

    def rec(i, verdict):
        return RunRecord(f"r{i}", "cpu", "moe-canary", 1, verdict, None, None, [], "",
                         started_at=f"2026-08-2{i}T00:00:00+00:00")

    runs = [rec(1, "pass"), rec(2, "cancelled"), rec(3, "pass"), rec(4, "cancelled")]
    assert queries.flakiness(runs, "cpu") == 0.0
    assert queries.strip(runs, "cpu") == "PP"


# ----------------------------------------------------------------------------- 3. bytes

from canary.errors import ConfigError  # noqa: E402
from canary.metrics import load_run_metrics, parse_step_metrics, parse_tracker_summary  # noqa: E402
from canary.textio import decode, read_text  # noqa: E402

HOSTILE = [  # (name, bytes, the offset the message must give)
    ("latin-1", "loss = 1 # caf\u00e9\n".encode("latin-1"), 14),
    ("utf-16", "a = 1\n".encode("utf-16"), 0),
    ("binary", b"\x7fELF\x02\x01\x01\x00\x00\x00", 7),
    ("nul in text", b'version = 1\nname = "x\x00y"\n', 21),
    ("lone continuation", b"x = 1\n\x80\n", 6),
    ("truncated multibyte", b"x = '\xe2\x82'", 5),
]


@pytest.mark.parametrize("name, data, offset", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_non_utf8_and_binary_text_is_one_line_naming_the_file_and_the_byte_offset(tmp_path, name, data, offset):
    p = tmp_path / "f.toml"
    p.write_bytes(data)
    with pytest.raises(ConfigError) as e:
        read_text(p)
    msg = str(e.value)
    assert "\n" not in msg and str(p) in msg and f"byte offset {offset}" in msg, msg


def test_a_bom_is_not_an_error_and_logs_replace_stray_bytes_but_refuse_binary():
    assert decode(b"\xef\xbb\xbfa = 1\n", "f") == "a = 1\n"
    assert decode(b"Traceback \xff\n", "<stdin>", lenient=True) == "Traceback \ufffd\n"
    with pytest.raises(ConfigError, match=r"<stdin>: binary content.*byte offset 3"):
        decode(b"abc\x00def", "<stdin>", lenient=True)


@pytest.mark.parametrize("kind", ["ferry", "gates", "lanes"])
@pytest.mark.parametrize("name, data, offset", HOSTILE[:3], ids=[h[0] for h in HOSTILE[:3]])
def test_config_files_with_hostile_bytes_are_bad_input(tmp_path, kind, name, data, offset):
    from canary.config import load_ferry, load_gates, load_lanes

    p = tmp_path / f"{kind}.toml"
    p.write_bytes(data)
    load = {"ferry": load_ferry, "gates": load_gates, "lanes": load_lanes}[kind]
    with pytest.raises(ConfigError, match=rf"{p}: .*byte offset {offset}"):
        load(str(p))


@pytest.mark.parametrize("name, data, offset", HOSTILE, ids=[h[0] for h in HOSTILE])
@pytest.mark.parametrize("file", ["metrics.jsonl", "tracker_metrics.jsonl"])
def test_metrics_files_with_hostile_bytes_are_bad_input(tmp_path, name, data, offset, file):
    (tmp_path / file).write_bytes(data)
    with pytest.raises(ConfigError, match=rf"{tmp_path / file}: .*byte offset {offset}"):
        load_run_metrics(tmp_path)
    with pytest.raises(ConfigError, match=r"byte offset"):
        load_run_metrics(tmp_path / file)


def test_a_torn_line_in_the_middle_is_skipped_with_a_warning():
    text = '{"global_step": 0, "train/loss": 5.0}\n{"global_step": 1, "tr\n{"global_step": 2, "train/loss": 4.0}\n[1]\n'
    m = parse_step_metrics(text, source="m.jsonl")
    assert (m.steps_completed, m.final_loss) == (3, 4.0)
    assert m.warnings == ["m.jsonl:2: skipped a line that is not JSON (torn or truncated)",
                          "m.jsonl:4: skipped a line that is not a JSON object"]
    # the expected torn end of a killed writer is silent
    assert parse_step_metrics('{"global_step": 0, "train/loss": 5.0}\n{"glo', source="m").warnings == []


@pytest.mark.parametrize("text, match", [
    ('{"global_step": 1e400, "train/loss": 1.0}\n', r"step inf is not a step number"),
    ('{"global_step": -3, "train/loss": 1.0}\n', r"step -3 is not a step number"),
    ('{"global_step": "nan", "train/loss": 1.0}\n', r"step 'nan' is not a step number"),
    ('{"global_step": 1e20, "train/loss": 1.0}\n', r"step 1e\+20 is not a step number"),
])
def test_absurd_step_numbers_are_bad_input(text, match):
    with pytest.raises(ConfigError, match=match):
        parse_step_metrics(text, source="m.jsonl")
    with pytest.raises(ConfigError, match=match):
        parse_tracker_summary(text, source="t.jsonl")


@pytest.mark.parametrize("summary", ["[1, 2]", '"x"', "3", "null"])
def test_a_summary_that_is_not_an_object_is_bad_input(summary):
    with pytest.raises(ConfigError, match=r't.jsonl: "summary" is a JSON \w+, not an object of metrics'):
        parse_tracker_summary('{"config": {}, "summary": %s}\n' % summary, source="t.jsonl")


@pytest.mark.parametrize("content, match", [
    (b"\x00\x01binary", r"result.json: binary content, .*byte offset 0"),
    (b'{"lane": "cpu\xff"}', r"result.json: not UTF-8 text .*byte offset 13"),
    (b"[1, 2]", r"result.json: expected a JSON object, found list"),
    (b'{"lane": ["cpu"]}', r"result.json: 'lane' is a JSON list, expected str"),
    (b'{"lane": "cpu", "steps_requested": "many"}', r"'steps_requested' is a JSON str, expected int"),
    (b"[" * 100000, r"result.json: (not valid JSON|JSON nested too deeply)"),
])
def test_a_hostile_result_json_is_bad_input_for_gate(tmp_path, content, match):
    from canary.runner import judge_path

    (tmp_path / "result.json").write_bytes(content)
    (tmp_path / "metrics.jsonl").write_text('{"global_step": 0, "train/loss": 1.0}\n')
    with pytest.raises(ConfigError, match=match):
        judge_path(tmp_path, None, None)


def _cli(*args, tmp_path, stdin: bytes | None = None, **env):
    return subprocess.run([PY, "-m", "canary", *args], cwd=ROOT, env=_env(tmp_path, **env), input=stdin,
                          capture_output=True, timeout=120)


@pytest.mark.slow
def test_the_command_line_says_one_line_and_exits_2_for_hostile_bytes(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"name = 'caf\xe9'\n")
    metrics = tmp_path / "tracker_metrics.jsonl"
    metrics.write_bytes(b'{"summary": {"_step": 1e400}}\n')
    cases = [
        _cli("run", "cpu", "--ferry", str(bad), tmp_path=tmp_path),
        _cli("run", "cpu", "--gates", str(bad), tmp_path=tmp_path),
        _cli("run", "cpu", tmp_path=tmp_path, CANARY_LANES=str(bad)),
        _cli("list", tmp_path=tmp_path, CANARY_LANES=str(bad)),
        _cli("gate", str(metrics), "--lane", "cpu", tmp_path=tmp_path),
        _cli("signature", "-", tmp_path=tmp_path, stdin=b"\x7fELF\x02\x01\x01\x00\x00"),
        _cli("run", "cpu", "--steps", "1e20", tmp_path=tmp_path),
    ]
    for r in cases:
        err = r.stderr.decode()
        assert r.returncode == 2, (r.args, err)
        assert "Traceback" not in err, err
    for r in cases[:6]:
        lines = r.stderr.decode().strip().splitlines()
        assert len(lines) == 1, lines
    assert "byte offset 11" in cases[0].stderr.decode() and str(bad) in cases[0].stderr.decode()
    assert "<stdin>: binary content" in cases[5].stderr.decode()
    assert "step inf is not a step number" in cases[4].stderr.decode()


# A stand-in workload that finishes but writes torn and absurd metrics: the spec (the last word of
# the entrypoint) says where its attempt directory is.
_WRITER = r'''
import json, shlex, sys
spec = json.load(open(shlex.split(sys.argv[1])[-1]))
out = spec["out_dir"]
open(out + "/metrics.jsonl", "wb").write(bytes.fromhex(sys.argv[2]))
'''


@pytest.mark.slow
@pytest.mark.parametrize("metrics, verdict", [
    ('{"global_step": 0, "train/loss": 5.0}\n{"global_step": 1, "tr\n{"global_step": 2, "train/loss": 4.0}\n', "fail"),
    ('{"global_step": 1e400, "train/loss": 1.0}\n', "fail"),
    ("\x00\x00\x00", "fail"),
])
def test_a_finished_run_with_bad_metrics_is_recorded_never_bad_input(tmp_path, metrics, verdict):
    lanes = _lanes(tmp_path, [PY, "-c", _WRITER, "{entrypoint}", metrics.encode().hex()])
    r = _cli("run", "cpu", "--out", str(tmp_path / "runs"), "--json", tmp_path=tmp_path, CANARY_LANES=str(lanes))
    assert r.returncode == 1, r.stderr.decode()
    result = json.loads(r.stdout)
    assert result["verdict"] == verdict
    assert result["context"]["history"]["status"] == "stored"
    assert result["warnings"], "what was skipped is said"


# ----------------------------------------------------------------------------- 4. secrets

import urllib.parse  # noqa: E402

from canary.notify.redact import REDACTED, redact  # noqa: E402

# Fake credentials of every common shape (assembled, so no scanner mistakes this file for a leak).
TOKENS = {
    "github classic": "ghp_" + "a1B2c3D4e5" * 3 + "f6G7h8",
    "github oauth": "gho_" + "Z9y8X7w6V5" * 3 + "u4T3s2",
    "github user": "ghu_" + "0aB1cD2eF3" * 3 + "gH4iJ5",
    "github app": "ghs_" + "kL6mN7oP8q" * 3 + "R9sT0u",
    "github refresh": "ghr_" + "vW1xY2zA3b" * 3 + "C4dE5f",
    "github fine-grained": "github_" + "pat_11ABCDEFG0" + "x" * 20 + "_" + "Y" * 59,
    "gitlab": "glpat" + "-Ab3De6Gh9Jk2Mn5Pq8St",
    "slack bot": "xoxb" + "-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "slack user": "xoxp" + "-123456789012-123456789012-123456789012-0123456789abcdef0123456789abcdef",
    "stripe live": "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "stripe restricted": "rk_" + "live_" + "51H8c2eKl9ZbCdEfGhIjKlMn",
    "google api key": "AIza" + "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
    "google oauth": "ya29" + ".a0AfB_byC-1234567890abcdefGHIJKLmnop_qrstuvWXYZ",
    "aws key id": "AKIA" + "IOSFODNN7EXAMPLE",
    "aws temporary key id": "ASIA" + "Y34FZKBOKMUTVV7A",
    "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "hugging face": "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh",
}
# Secrets with no shape of their own: recognised by the name that carries them.
KEYED = {
    "aws secret key": ("aws_secret_access_key = ", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    "w&b key": ("WANDB_API_KEY=", "0123456789abcdef0123456789abcdef01234567"),
    "secret-named setting": ("DB_PASSWORD=", "correct-horse-battery-staple"),
    "client secret": ('"client_secret": "', "Zq3-opaque-Client-Secret-Value"),
}
PEM_BODY = ["MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2Zlo", "gkSr1Bo4P1ZpNRCxZ7mZ0wNmeVuRQdUtW0fAx4T8", "pJq5c3Kx0Qv+u/w=="]
PEM = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(PEM_BODY) + "\n-----END RSA PRIVATE KEY-----"

ENCODINGS = {
    "plain": lambda s: f"ERROR request failed: {s} was rejected",
    "url-encoded": lambda s: f"GET /callback?state={urllib.parse.quote(s, safe='')}&x=1 HTTP/1.1",
    "python repr": lambda s: f"ValueError: {repr(chr(10).join(['header', s, 'footer']))}",
    "json-escaped": lambda s: json.dumps({"event": "auth", "detail": f"line one\n{s}\n"}),
    "suffix glued on": lambda s: f"wrote /tmp/{s}_v2.log and {s}abc",
}


def _forms(secret: str) -> set[str]:
    return {secret, urllib.parse.quote(secret, safe=""), json.dumps(secret)[1:-1], repr(secret)[1:-1]}


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
@pytest.mark.parametrize("kind", sorted(TOKENS))
def test_every_token_format_is_redacted_in_every_encoding(kind, encoding):
    secret = TOKENS[kind]
    out = redact(ENCODINGS[encoding](secret))
    assert not [f for f in _forms(secret) if f in out], out
    assert REDACTED in out


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
@pytest.mark.parametrize("kind", sorted(KEYED))
def test_secrets_named_by_their_key_are_redacted_in_every_encoding(kind, encoding):
    key, secret = KEYED[kind]
    out = redact(ENCODINGS[encoding](key + secret))
    assert not [f for f in _forms(secret) if f in out], out


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_a_pem_private_key_is_redacted_whole_in_every_encoding(encoding):
    out = redact(ENCODINGS[encoding](PEM))
    assert not [b for b in PEM_BODY if b[:16] in out or urllib.parse.quote(b[:16], safe="") in out], out


def test_a_pem_key_cut_short_is_redacted_to_its_end():
    out = redact("key = '" + PEM.split("-----END")[0][:-12] + "'\nnext line (kept)")
    assert "MIIEpAIBAAKCAQEA" not in out and "gkSr1Bo4" not in out and "next line (kept)" in out


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_exact_values_of_secret_environment_variables_in_every_encoding(encoding):
    value = "opaque value/with+odd=chars&more"
    out = redact(ENCODINGS[encoding](value), [value])
    assert not [f for f in _forms(value) if f in out], out


def test_ordinary_training_logs_survive_redaction():
    text = ("step 12 train/loss=5.7976 throughput/tokens_per_second=123456.7 max_tokens: 8192 KeyError: 'x'\n"
            "commit c0ffee1234567890c0ffee1234567890c0ffee12 in /home/ci/canary/workload/model.py:393\n"
            "Block spec (Blocked(block_size=512), Blocked(block_size=32)), array shape (524288, 128)\n"
            "https://github.com/acme/canary/actions/runs/123 token_count=17 desk-check ok")
    assert redact(text) == text


@pytest.mark.parametrize("text", [
    "A" * 300_000, "TOKEN" * 60_000, "X_" * 150_000 + "TOKEN", "eyJ" * 100_000, "%3D" * 100_000, '\\"' * 150_000,
    "-----BEGIN PRIVATE KEY-----" * 10_000, "-----BEGIN RSA PRIVATE KEY-----" + "A" * 300_000, "ghp_" * 75_000,
    "TOKEN=" * 50_000, "://a:" * 60_000, "1//0" * 75_000, "sk-" * 100_000, "AKIA" * 75_000,
])
def test_redaction_stays_linear_on_hostile_input(text):
    """No pattern backtracks over unbounded input: these would take minutes if one did."""
    t0 = time.process_time()
    redact(text)
    assert time.process_time() - t0 < 5, "a pattern is not linear in its input"


def test_redacting_before_truncating_never_leaves_half_a_secret():
    from canary.runner import error_excerpt

    secret = TOKENS["github classic"]
    log = "\n".join([f"noise {i}" for i in range(100)] + ["Traceback (most recent call last):"]
                    + [f'  File "x.py", line {i}, in f  # {secret}' for i in range(60)] + [f"RuntimeError: {secret}"])
    excerpt = error_excerpt(redact(log))
    assert secret[:12] not in excerpt and REDACTED in excerpt


# A failing stand-in workload that prints every planted secret, in every encoding, then dies with
# a traceback whose message (the issue's title) carries a token too.
_LEAKER = r'''
import json, os, sys
planted = json.loads(os.environ["PLANTED"])
for line in planted:
    print(line, flush=True)
print("Traceback (most recent call last):")
print('  File "/srv/train.py", line 3, in <module>')
print("    login()")
print("RuntimeError: login refused for " + planted[0].split()[-1] + " (password " + os.environ["OPAQUE_PASSWORD"] + ")")
sys.exit(1)
'''


@pytest.mark.slow
def test_planted_secrets_reach_neither_github_nor_the_record_history_or_spool(tmp_path):
    from github_server import REPO, TOKEN, GitHubServer

    opaque = "Opaque&Value/Without=Shape-77"
    secrets = list(TOKENS.values()) + [s for _, s in KEYED.values()] + [opaque]
    planted = [f"auth with {TOKENS['github classic']}"]
    for kind, token in TOKENS.items():
        planted += [enc(token) for enc in ENCODINGS.values()]
    for key, value in KEYED.values():
        planted += [enc(key + value) for enc in ENCODINGS.values()]
    planted += [enc(PEM) for enc in ENCODINGS.values()] + [enc(opaque) for enc in ENCODINGS.values()]
    lanes = _lanes(tmp_path, [PY, "-c", _LEAKER, "{entrypoint}"])
    with GitHubServer(TOKEN, REPO) as github:
        env = dict(CANARY_LANES=str(lanes), PLANTED=json.dumps(planted), OPAQUE_PASSWORD=opaque, GITHUB_TOKEN=TOKEN,
                   GITHUB_API_URL=github.url, CANARY_GITHUB_BACKOFF_SCALE="0.001",
                   CANARY_NOTIFY_SPOOL=str(tmp_path / "notify-spool"))
        github.state.down = True  # the first telling fails: the notification waits in the spool
        r = _cli("run", "cpu", "--out", str(tmp_path / "runs"), "--json", "--notify", "github", "--repo", REPO,
                 tmp_path=tmp_path, **env)
        assert r.returncode == 1, r.stderr.decode()
        result = json.loads(r.stdout)
        assert result["notify"]["delivered"] is False
        run_dir = Path(result["run_dir"])
        assert (run_dir / "notify-pending.json").is_file()
        kept = {"result.json": (run_dir / "result.json").read_bytes(), "stdout": r.stdout,
                "history": (tmp_path / "history.sqlite3").read_bytes(),
                **{str(p): p.read_bytes() for p in tmp_path.rglob("*.json") if "attempt-" not in str(p)}}

        # a later notify, in another process without the secret environment, sends what was kept
        github.state.down = False
        env.pop("OPAQUE_PASSWORD")
        r = _cli("notify", str(run_dir), "--repo", REPO, tmp_path=tmp_path, **env)
        assert r.returncode == 0, r.stderr.decode()
        [issue] = github.state.issues()
        posted = {"title": issue["title"], "body": issue["body"]}
    assert "RuntimeError" in posted["body"] and REDACTED in posted["title"]
    for where, data in {**kept, **posted}.items():
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        for secret in secrets:
            leaked = [f for f in _forms(secret) if f in text]
            assert not leaked, f"{secret!r} reached {where}"
        assert not [b for b in PEM_BODY if b[:16] in text], f"the PEM key reached {where}"


# ----------------------------------------------------------------------------- 5. the GitHub client

import threading  # noqa: E402
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer  # noqa: E402

from github_server import REPO, TOKEN, github  # noqa: E402,F401 (fixture)


class _Elsewhere:
    """Another host on loopback that records whatever reaches it (and what it was told)."""

    def __init__(self):
        seen = self.seen = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                seen.append((self.path, self.headers.get("Authorization")))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"[]")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def elsewhere():
    e = _Elsewhere()
    yield e
    e.close()


def _client(github):
    from canary.notify.github import GitHubClient, RetryPolicy

    return GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(scale=0.001), per_page=1)


@pytest.mark.parametrize("hostile", [
    "{elsewhere}",                                  # another port on the same machine
    "http://localhost:{port}",                      # the same port under another name
    "https://127.0.0.1:{port}",                     # another scheme
    "http://127.0.0.1:{port}@{elsewhere_host}",     # userinfo dressing up another host
    "{elsewhere}/api.github.com",                   # a lookalike path
])
def test_a_link_header_to_anywhere_but_the_api_host_is_refused_and_gets_no_token(github, elsewhere, hostile):
    from canary.notify.github import GitHubError

    for n in (1, 2, 3):
        github.state.add_issue(REPO, f"issue {n}", "body", ["canary"])
    port = github.url.rsplit(":", 1)[1]
    github.state.link_host = hostile.format(elsewhere=elsewhere.url, port=port,
                                            elsewhere_host=elsewhere.url.split("//", 1)[1])
    with pytest.raises(GitHubError, match=r"refused: not the API at .* \(the token is sent only there\)") as e:
        _client(github).list_issues("canary")
    assert TOKEN not in str(e.value)
    assert elsewhere.seen == [], "a request left for another host"
    assert len(github.state.requests) == 1, "a refusal is not retried"


def test_a_redirect_to_another_host_is_refused_and_gets_no_token(github, elsewhere):
    from canary.notify.github import GitHubError

    github.state.redirect_to = elsewhere.url
    with pytest.raises(GitHubError, match=r"refused a redirect .* the token goes only to the API host"):
        _client(github).list_issues("canary")
    assert elsewhere.seen == []
    assert len(github.state.requests) == 1


def test_a_url_for_another_host_is_refused_before_anything_is_sent(github, elsewhere):
    from canary.notify.github import GitHubError

    with pytest.raises(GitHubError, match="refused"):
        _client(github).request("GET", elsewhere.url + f"/repos/{REPO}/issues")
    assert elsewhere.seen == []


def test_a_persons_issue_quoting_the_marker_is_never_canarys_own(github):
    """A person's issue that quotes canary's markers (pasted from canary's issue) is neither
    commented on as canary's, nor kept as the original, nor closed as a duplicate."""
    from canary.notify.compose import Facts, fingerprint_marker, run_marker
    from canary.notify.tracker import report
    from notify_records import failing

    record = failing()
    quoted = "\n".join(["I see this too; canary's issue says:", "", "> " + fingerprint_marker("3f9a1c2b7d4e"),
                        fingerprint_marker("3f9a1c2b7d4e"), run_marker(record.run_id, record.lane)])
    person = github.state.add_issue(REPO, "my notes on the gmm crash", quoted, ["canary"])
    client = _client(github)
    actions = report(client, record, Facts())
    assert [a.kind for a in actions] == ["opened"], actions
    assert actions[0].issue != person["number"]
    mine = github.state.issues()[person["number"] - 1]
    assert mine["state"] == "open" and github.state.comments(person["number"]) == []

    # the next run's recurrence goes to canary's issue, still not to the person's
    again = report(client, failing("20260829T060000Z-tpu-cd34", "2026-08-29"), Facts())
    assert [(a.kind, a.issue) for a in again] == [("commented", actions[0].issue)]
    assert github.state.comments(person["number"]) == [] and mine["state"] == "open"


# ----------------------------------------------------------------------------- 2. disks and permissions


def _mount_tmpfs(path: Path, options: str) -> str | None:
    """Mounts a tmpfs at ``path``; None, or why it could not."""
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return "mounting a tmpfs needs root"
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], capture_output=True, text=True)
    return None if r.returncode == 0 else f"mount -t tmpfs failed: {r.stderr.strip()}"


@pytest.fixture
def small_disk(tmp_path):
    """A 256 KiB tmpfs: room for a run directory, not for much more."""
    d = tmp_path / "small"
    why = _mount_tmpfs(d, "size=256k")
    if why:
        pytest.skip(f"no small disk to fill: {why}")
    yield d
    subprocess.run(["umount", "-l", str(d)], check=False)


@pytest.fixture
def readonly_dir(tmp_path):
    """A directory nothing can be written to: a read-only tmpfs (as root), else mode 0555."""
    d = tmp_path / "readonly"
    why = _mount_tmpfs(d, "ro,size=64k")
    if why is None:
        yield d
        subprocess.run(["umount", "-l", str(d)], check=False)
        return
    if os.geteuid() == 0:
        pytest.skip(f"no read-only directory for root: {why}")
    d.chmod(0o555)
    yield d
    d.chmod(0o755)


# A stand-in workload that writes a passing-looking metrics file, then fills the disk under --out.
_FILLER = r'''
import json, shlex, sys
out = json.load(open(shlex.split(sys.argv[1])[-1]))["out_dir"]
with open(out + "/metrics.jsonl", "w") as f:
    for step in range(3):
        f.write(json.dumps({"global_step": step, "train/loss": 4.0}) + "\n")
try:
    with open(out + "/ballast", "wb") as f:
        while True:
            f.write(b"\0" * 4096)
            f.flush()
except OSError:
    pass
print("trained; the disk is full now")
'''


@pytest.mark.slow
def test_a_disk_that_fills_up_under_out_still_gives_the_verdict_and_records_the_run(tmp_path, small_disk):
    lanes = _lanes(tmp_path, [PY, "-c", _FILLER, "{entrypoint}"])
    r = _cli("run", "cpu", "--steps", "3", "--out", str(small_disk), "--cold", tmp_path=tmp_path, CANARY_LANES=str(lanes))
    out, err = r.stdout.decode(), r.stderr.decode()
    assert r.returncode == 1, err
    assert "Traceback" not in out + err
    assert ("PASS" in out or "FAIL" in out), out
    [line] = [x for x in err.splitlines() if "no space left" in x]
    assert line.startswith(f"canary: {small_disk}/") and line.endswith(": no space left on device"), line
    assert "/attempt-1/" not in line, "the path named is the one that could not be written"
    hist = _cli("history", "--json", tmp_path=tmp_path)
    [rec] = json.loads(hist.stdout)["records"]
    assert "no space left on device" in rec["context"]["disk"]


@pytest.mark.parametrize("flag", ["--out", "--cache-dir"])
def test_an_unwritable_out_or_cache_dir_is_bad_input_before_training(tmp_path, readonly_dir, flag):
    from canary.runner import RunOptions, run_canary
    from canary.spec import CacheSpec

    where = readonly_dir / "runs"
    opts = RunOptions(lane="cpu", out=where if flag == "--out" else tmp_path / "runs", record_history=False,
                      cache=CacheSpec(mode="warm", dir=str(where) if flag == "--cache-dir" else str(tmp_path / "c")))
    with pytest.raises(ConfigError, match=rf"{flag} {where}: cannot write there: (read-only file system|permission denied)"):
        run_canary(opts)
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir()), "nothing was started"


def test_an_out_that_is_not_a_directory_is_bad_input(tmp_path):
    from canary.runner import RunOptions, run_canary

    (tmp_path / "file").write_text("x")
    with pytest.raises(ConfigError, match=r"--out .*/file/runs: cannot write there: not a directory"):
        run_canary(RunOptions(lane="cpu", out=tmp_path / "file" / "runs", record_history=False))


@pytest.mark.slow
def test_a_read_only_data_dir_keeps_the_record_where_it_says_and_the_next_invocation_uploads_it(tmp_path, readonly_dir):
    lanes = _lanes(tmp_path, [PY, "-c", _WRITER, "{entrypoint}", b'{"global_step": 0, "train/loss": 1.0}\n'.hex()])
    env = dict(CANARY_LANES=str(lanes), CANARY_HISTORY=str(readonly_dir / "history.sqlite3"),
               CANARY_SPOOL_DIR=str(readonly_dir / "spool"), TMPDIR=str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    r = _cli("run", "cpu", "--out", str(tmp_path / "runs"), "--json", tmp_path=tmp_path, **env)
    assert r.returncode in (0, 1), r.stderr.decode()
    said = json.loads(r.stdout)["context"]["history"]
    assert said["status"] == "spooled", said
    kept = Path(said["detail"].split("kept in ", 1)[1].split(", uploaded", 1)[0])
    assert kept.is_file() and kept.is_relative_to(tmp_path / "tmp"), said["detail"]
    assert json.loads(kept.read_text())["run_id"] == json.loads(r.stdout)["run_id"]

    # the data dir becomes writable again: the next invocation uploads what waited
    if os.geteuid() == 0:
        subprocess.run(["mount", "-o", "remount,rw", str(readonly_dir)], check=True)
    else:
        readonly_dir.chmod(0o755)
    hist = _cli("history", "--json", tmp_path=tmp_path, **env)
    assert [x["run_id"] for x in json.loads(hist.stdout)["records"]] == [json.loads(r.stdout)["run_id"]]
    assert not kept.exists()


def test_a_cancelled_run_notified_later_posts_nothing(github):
    """``canary notify`` on a stopped run's record, in another process, says nothing either."""
    from dataclasses import replace as dc_replace

    from canary.notify.compose import Facts
    from canary.notify.tracker import report
    from notify_records import failing

    stopped = dc_replace(failing(), verdict="cancelled", classification="cancelled", signature=None)
    assert report(_client(github), stopped, Facts()) == []
    assert github.state.writes() == [] and github.state.issues() == []


def test_cancellable_notes_the_first_stop_signal_and_restores_the_handlers():
    from canary import signals

    before = signal.getsignal(signal.SIGTERM)
    with signals.cancellable():
        assert signals.requested() is None
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGHUP)
        time.sleep(0.05)
        assert signals.requested() == signal.SIGTERM  # the first one counts; nothing was raised
    assert signal.getsignal(signal.SIGTERM) is before and signals.requested() is None
    assert [signals.exit_code(s) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)] == [143, 130, 129]
