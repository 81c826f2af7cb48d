"""Round 2 against the notifier (#27): tokens that cannot be a header, API URLs and answers that
are not GitHub's, ids that climb out, names that ping, huge error messages. Each case ends with
one clear line and no traceback, loses nothing (the notification waits in notify-pending.json) and
leaks nothing; all against the loopback GitHub server, through the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli
from github_server import REPO, TOKEN, RawReply, cli_env, github  # noqa: F401 (fixture)
from notify_records import failing

from canary.notify.markers import issue_fingerprint


def _env(github, tmp_path, **extra):
    return cli_env(github, tmp_path, **extra)


def _run_dir(tmp_path, record=None, raw: dict | None = None) -> Path:
    record = record or failing()
    d = tmp_path / "runs" / "the-run"
    d.mkdir(parents=True)
    data = raw if raw is not None else record.to_dict()
    (d / "result.json").write_text(json.dumps(data))
    return d


def _no_traceback(r) -> None:
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr


# ----------------------------------------------------------------------------- 1. the token

BAD_TOKENS = {
    "trailing newline": "ghs_" + "A1b2C3d4E5" * 3 + "f6G7h8\n",
    "not latin-1": "ghp_" + "Ж" * 36,
    "whitespace only": "   \t ",
    "a space inside": "ghp_abc def" + "x" * 30,
}


@pytest.mark.parametrize("kind", sorted(BAD_TOKENS))
def test_a_token_that_cannot_be_a_header_is_bad_input_named_never_shown(kind, github, tmp_path):
    token = BAD_TOKENS[kind]
    d = _run_dir(tmp_path)
    r = run_cli("notify", str(d), "--repo", REPO, "--no-history", env=_env(github, tmp_path, GITHUB_TOKEN=token))
    assert r.returncode == 2, r.stderr
    _no_traceback(r)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "GITHUB_TOKEN" in lines[0], r.stderr
    core = token.strip()
    assert not core or (core[:8] not in r.stderr and core[-8:] not in r.stderr)
    assert github.state.requests == []


def test_run_notify_refuses_a_bad_token_before_training(github, tmp_path):
    token = BAD_TOKENS["trailing newline"]
    r = run_cli(
        "run",
        "cpu",
        "--steps",
        "2",
        "--out",
        str(tmp_path / "runs"),
        "--json",
        "--notify",
        "github",
        "--repo",
        REPO,
        env=_env(github, tmp_path, GITHUB_TOKEN=token),
    )
    assert r.returncode == 2, r.stderr
    _no_traceback(r)
    assert "GITHUB_TOKEN" in r.stderr and token.strip()[:12] not in r.stderr + r.stdout
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


# ----------------------------------------------------------------------------- 6. --repo


@pytest.mark.parametrize("repo", ["../x", "a/..", "a/.", "./b", "../..", "a/b/../c"])
def test_repo_with_dot_segments_is_bad_input_and_nothing_is_sent(repo, github, tmp_path):
    r = run_cli("notify", str(_run_dir(tmp_path)), "--repo", repo, "--no-history", env=_env(github, tmp_path))
    assert r.returncode == 2, r.stderr
    _no_traceback(r)
    assert "--repo" in r.stderr
    assert github.state.requests == []


# ----------------------------------------------------------------------------- 7. answers and URLs

HOSTILE_ANSWERS = {
    "truncated json": RawReply(200, b'[{"number": 1, "body": "<!-- canary:fing', times=10),
    "html with status 200": RawReply(200, b"<html><body>Unicorn! maintenance</body></html>", "text/html", times=10),
    "an object where a list belongs": RawReply(200, b'{"number": 7, "body": "x"}', times=10),
    "a list of strings": RawReply(200, b'["a", "b"]', times=10),
    "created issue is a list": RawReply(201, b"[1, 2]", method="POST", times=10),
    "deep nesting": RawReply(200, b"[" * 100_000 + b"]" * 100_000, times=10),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_ANSWERS))
def test_a_malformed_answer_keeps_the_notification_pending_and_it_is_sent_later(kind, github, tmp_path):
    d = _run_dir(tmp_path)
    env = _env(github, tmp_path)
    github.state.raw.append(HOSTILE_ANSWERS[kind])
    r = run_cli("notify", str(d), "--repo", REPO, "--no-history", env=env)
    assert r.returncode == 1, r.stderr
    _no_traceback(r)
    assert "not sent" in r.stdout and (d / "notify-pending.json").is_file()

    github.state.raw.clear()
    r = run_cli("notify", str(d), "--repo", REPO, "--no-history", env=env)
    assert r.returncode == 0, r.stderr + r.stdout
    assert not (d / "notify-pending.json").exists()
    assert [issue_fingerprint(i["body"]) for i in github.state.issues()].count(failing().signature.fingerprint) == 1


@pytest.mark.parametrize("url", ["http://127.0.0.1:99999", "http://[::1", "http://[::1]:70000/api"])
def test_an_api_url_urllib_cannot_use_spools(url, tmp_path):
    d = _run_dir(tmp_path)
    r = run_cli(
        "notify", str(d), "--repo", REPO, "--no-history", "--json", env=_env(None, tmp_path, GITHUB_API_URL=url)
    )
    assert r.returncode == 1, r.stderr
    _no_traceback(r)
    out = json.loads(r.stdout)
    assert out["deliveries"][0]["status"] == "spooled" and (d / "notify-pending.json").is_file()


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://127.0.0.1/",
        "javascript:alert(1)",
        "api.github.com",
        "127.0.0.1:8080",
        "http:/127.0.0.1",
        "gopher://127.0.0.1:70/",
    ],
)
def test_an_api_url_of_another_scheme_is_bad_input(url, tmp_path):
    d = _run_dir(tmp_path)
    r = run_cli("notify", str(d), "--repo", REPO, "--no-history", env=_env(None, tmp_path, GITHUB_API_URL=url))
    assert r.returncode == 2, r.stderr
    _no_traceback(r)
    assert "GITHUB_API_URL" in r.stderr and "root:" not in r.stdout + r.stderr
    assert not (d / "notify-pending.json").exists()


def test_run_notify_keeps_the_notification_when_the_answer_is_malformed(github, tmp_path):
    """``canary run --notify``: the run's notification waits in notify-pending.json, the verdict stands."""
    from adversary import PY, lanes_toml

    lanes = lanes_toml(tmp_path, [PY, "-c", "import sys; print('RuntimeError: boom'); sys.exit(1)", "{entrypoint}"])
    github.state.raw.append(RawReply(200, b"<html>not json</html>", "text/html", times=50))
    r = run_cli(
        "run",
        "cpu",
        "--out",
        str(tmp_path / "runs"),
        "--json",
        "--notify",
        "github",
        "--repo",
        REPO,
        env=_env(github, tmp_path, CANARY_LANES=str(lanes)),
        own_process=True,
    )
    assert r.returncode == 1, r.stderr
    _no_traceback(r)
    result = json.loads(r.stdout)
    assert result["notify"]["deliveries"][0]["status"] == "spooled"
    assert (Path(result["run_dir"]) / "notify-pending.json").is_file()


# ----------------------------------------------------------------------------- 14. huge error messages


def test_a_huge_api_error_message_is_cut_once_and_kept_short(github, tmp_path):
    d = _run_dir(tmp_path)
    huge = "Server Error " + "x" * 5_000_000
    github.state.fail(500, times=6, message=huge)
    r = run_cli("notify", str(d), "--repo", REPO, "--no-history", env=_env(github, tmp_path))
    assert r.returncode == 1
    _no_traceback(r)
    assert len(r.stderr) + len(r.stdout) < 20_000, len(r.stderr)
    pending = (d / "notify-pending.json").read_text()
    assert len(json.loads(pending)["error"]) < 1_000 and "characters in all" in pending


# ----------------------------------------------------------------------------- 4. ids that climb out


@pytest.mark.parametrize("run_id", ["../../../../x", "a/../../b", "..", "x/y", "/abs/x", "run\nid", ""])
def test_a_run_id_that_would_become_a_path_outside_is_bad_input(run_id, tmp_path):
    rec = failing().to_dict()
    rec["run_id"] = run_id
    d = _run_dir(tmp_path, raw=rec)
    spool = tmp_path / "deep" / "a" / "b" / "spool"
    env = _env(
        None,
        tmp_path,
        GITHUB_API_URL="http://127.0.0.1:9",
        CANARY_NOTIFY_SPOOL=str(spool),
        CANARY_HISTORY="/proc/canary-no-history/h.sqlite3",
    )
    before = set(tmp_path.rglob("*"))
    r = run_cli("notify", str(d), "--repo", REPO, env=env)
    assert r.returncode == 2, r.stderr
    _no_traceback(r)
    assert "run_id" in r.stderr
    assert set(tmp_path.rglob("*")) == before


# ----------------------------------------------------------------------------- 5. names that ping

HOSTILE_NAMES = {
    "lane": ("ci @everyone -->", "moe-canary"),
    "ferry": ("tpu", "inj` @team `x"),
    "both": (".@octocat <!-- canary:run=x lane=y -->", "-@everyone +@a /@b GH-3 \x1b]0;title\x07"),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_NAMES))
def test_lane_and_ferry_text_in_a_record_cannot_ping_or_break_markers(kind, github, tmp_path):
    lane, ferry = HOSTILE_NAMES[kind]
    rec = failing().to_dict()
    rec.update(lane=lane, ferry=ferry)
    d = _run_dir(tmp_path, raw=rec)
    r = run_cli("notify", str(d), "--repo", REPO, "--no-history", env=_env(github, tmp_path))
    assert r.returncode == 0, r.stderr
    [issue] = github.state.issues()
    body, title = issue["body"], issue["title"]
    import re

    for text in (body, title):
        assert not re.search(r"(?<![A-Za-z0-9_])@(everyone|octocat|team|a|b)\b", text), text
        assert "\x1b" not in text and "\x07" not in text
        assert not re.search(r"\bGH-3\b", text)
    head = body.split("\n")
    assert issue_fingerprint(body) == failing().signature.fingerprint
    assert head[0].startswith("<!-- canary:fingerprint=") and head[0].endswith(" -->")
    markers = [ln for ln in head if ln.startswith("<!--")]
    assert all(ln.count("-->") == 1 and ln.endswith("-->") for ln in markers), markers
    assert sum("<!-- canary:run=" in ln for ln in head) == 1
    # inline code holds: every line has an even number of backtick runs outside of fences
    fenced = False
    for ln in head:
        if ln.startswith("```"):
            fenced = not fenced
        elif not fenced:
            assert len(re.findall(r"(?<!\\)`+", ln)) % 2 == 0, ln
    # a second notify sees its own marker and posts nothing
    writes = len(github.state.writes())
    assert run_cli("notify", str(d), "--repo", REPO, "--no-history", env=_env(github, tmp_path)).returncode == 0
    assert len(github.state.writes()) == writes
