"""Revisions and commit messages from outside, against real git repositories: a commit subject
that tries to forge a commit (one whose "sha" is ``--output=PATH``), a recorded commit that is an
option, a ref name, an abbreviation or a tree, and paths and branches that look like options.
Each is tried the way it would arrive: through ``canary notify`` (its regression window and
automatic bisect), ``canary history``, ``canary bisect``, ``canary golden diff`` and the doctor."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from git_repos import GIT_ENV, shallow_clone, source_repo
from git_repos import git as run_git

from canary import git
from canary.doctor import check_git
from canary.errors import ConfigError
from canary.history import open_store, windows
from canary.notify.bisecting import plan
from canary.notify.model import Facts, LastPass
from tests.conftest import run_cli
from tests.github_server import REPO, TOKEN, github  # noqa: F401 (fixture)
from tests.notify_records import failing, passing

FORGED_SHA = "ab" * 20


def forging(option: str) -> str:
    """The issue's subject: a record separator, then a forged commit whose sha is ``option``."""
    return f"x\x1e{option}\x1fa\x1f2026-01-01\x1fforged"


def hostile_repo(tmp_path: Path, subject: str) -> tuple[Path, list[str]]:
    return source_repo(
        tmp_path / "repo",
        [("README.md", "the last pass ran here"), ("canary/workload/model.py", subject), ("docs/a.md", "docs")],
    )


def fingerprint(path: Path) -> tuple[int, str]:
    return path.stat().st_size, hashlib.sha256(path.read_bytes()).hexdigest()


def env(tmp_path: Path, github_url: str = "http://127.0.0.1:9") -> dict[str, str]:
    return {
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_API_URL": github_url,
        "GITHUB_REPOSITORY": "",
        "CANARY_HISTORY": str(tmp_path / "history.sqlite3"),
        "CANARY_SPOOL_DIR": str(tmp_path / "hspool"),
        "CANARY_NOTIFY_SPOOL": str(tmp_path / "nspool"),
        **GIT_ENV,
    }


def recorded(tmp_path: Path, good: str, bad: str) -> Path:
    """A history with a pass at ``good`` and a tpu compile error at ``bad``; returns the failure's run directory."""
    store = open_store(str(tmp_path / "history.sqlite3"), spool_dir=str(tmp_path / "hspool"))
    store.append(passing(commit=good, date="2026-08-26"))
    record = failing(commit=bad, date="2026-08-27")
    store.append(record)
    d = tmp_path / "runs" / record.run_id
    d.mkdir(parents=True)
    (d / "result.json").write_text(json.dumps(record.to_dict()))
    return d


# ----------------------------------------------------------------------------- parsing git log


@pytest.mark.parametrize("option", ["--output=/nonexistent/PWNED", FORGED_SHA])
def test_a_subject_cannot_forge_a_commit_or_a_field(tmp_path, option):
    repo, shas = hostile_repo(tmp_path, forging(option))
    found = git.commits_between(shas[0], shas[-1], str(repo))
    assert [c.sha for c in found] == shas[:0:-1]
    assert found[1].subject == forging(option) and found[1].author == "t"
    assert found[1].paths == ["canary/workload/model.py"] and found[1].date.startswith("2026-08-21T12:00:00")


def crafted_commit(repo: Path, parent: str, author: str, message: str, header: str = "") -> str:
    """A commit object written as given, NUL bytes and all (``git commit`` cannot make one); a
    surrogate in ``message`` stands for the byte it escapes (``\\udcff``: 0xff)."""
    tree = run_git(repo, "rev-parse", f"{parent}^{{tree}}")
    raw = f"tree {tree}\nparent {parent}\nauthor {author} <x@y> 1700000000 +0000\n"
    raw += f"committer c <x@y> 1700000000 +0000\n{header}\n{message}"
    return (
        subprocess.run(
            ["git", "-C", str(repo), "hash-object", "--literally", "-t", "commit", "-w", "--stdin"],
            input=raw.encode("utf-8", "surrogateescape"),
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )


def test_a_nul_in_a_subject_or_an_author_forges_nothing(tmp_path):
    repo, shas = hostile_repo(tmp_path, "plain")
    forged = f"\0\0{FORGED_SHA}\0a\x002026-01-01\0forged\0\nmore\n"
    in_subject = crafted_commit(repo, shas[-1], "a", "sub" + forged)
    in_author = crafted_commit(repo, in_subject, "a" + forged.replace("\n", ""), "sub\n")
    found = git.commits_between(shas[0], in_author, str(repo))
    assert [c.sha for c in found] == [in_author, in_subject, *shas[:0:-1]]
    assert found[1].subject == "sub" and found[1].author == "a"
    assert FORGED_SHA not in repr(found) and "forged" not in repr(found)


def test_a_subject_and_a_path_that_are_not_utf8_are_shown_all_the_same(github, tmp_path):  # noqa: F811
    repo, shas = hostile_repo(tmp_path, "plain")
    name = os.fsdecode(b"f\xff")
    (repo / name).write_text("x")
    run_git(repo, "add", "--", name)
    run_git(repo, "commit", "-q", "-m", "a path that is not UTF-8")
    raw = "raw \udcff\udcfe subject\n"
    head = crafted_commit(repo, run_git(repo, "rev-parse", "HEAD"), "a", raw, "encoding UTF-8\n")
    p = run_cli("notify", str(recorded(tmp_path, shas[0], head)), "--repo", REPO, "--no-bisect", cwd=repo,
                env=env(tmp_path, github.url))  # fmt: skip
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    [issue] = github.state.issues()
    assert "4 commits since the last pass" in issue["body"] and "raw \ufffd\ufffd subject" in issue["body"]
    assert "f\ufffd" in issue["body"]


def test_paths_that_look_like_options_are_only_names(tmp_path):
    repo, shas = source_repo(tmp_path / "repo", [("README.md", "base"), ("--output=PWNED", "a dash"), ("a\nb", "nl")])
    found = git.commits_between(shas[0], shas[-1], str(repo))
    assert [c.paths for c in found] == [["a\nb"], ["--output=PWNED"]]
    window = windows.regression_window(found, ["--output=*"])  # a watched path with a leading dash
    assert [(c.sha, c.watched) for c in window] == [(shas[1], True), (shas[2], False)]
    assert not (repo / "PWNED").exists() and not Path("PWNED").exists()


def test_output_of_another_shape_is_refused():
    with pytest.raises(ConfigError, match="cannot read"):
        git.parse_log("\0--output=x\0a\0d\0s\0")
    assert git.parse_log("") == []


# ----------------------------------------------------------------------------- the notifier, as the issue did it


@pytest.mark.parametrize("target", ["history.sqlite3", "other.bin"])
def test_the_notifier_truncates_nothing_and_posts_no_forged_commit(github, tmp_path, target):  # noqa: F811
    path = tmp_path / target
    repo, shas = hostile_repo(tmp_path, forging(f"--output={path}"))
    run_dir = recorded(tmp_path, shas[0], shas[-1])
    if target != "history.sqlite3":
        path.write_bytes(b"precious\n" * 1000)
    before = fingerprint(path)
    p = run_cli("notify", str(run_dir), "--repo", REPO, cwd=repo, env=env(tmp_path, github.url))
    if target != "history.sqlite3":  # (the notifier itself writes to the history)
        assert fingerprint(path) == before
    assert p.returncode == 0 and path.stat().st_size > 0, p.stderr
    [issue] = github.state.issues()
    assert "2 commits since the last pass" in issue["body"]
    assert shas[1][:12] in issue["body"] and shas[2][:12] in issue["body"]
    assert "canary: bisecting 2 commits" in p.stderr  # the bisect plan ran, on the real window
    h = run_cli("history", "--json", cwd=repo, env=env(tmp_path))
    assert h.returncode == 0 and len(json.loads(h.stdout)["records"]) == 2


def test_the_notifier_posts_no_invented_commit(github, tmp_path):  # noqa: F811
    repo, shas = hostile_repo(tmp_path, forging(FORGED_SHA))
    p = run_cli("notify", str(recorded(tmp_path, shas[0], shas[-1])), "--repo", REPO, "--no-bisect", cwd=repo,
                env=env(tmp_path, github.url))  # fmt: skip
    assert p.returncode == 0, p.stderr
    [issue] = github.state.issues()
    assert f"`{FORGED_SHA[:12]}`" not in issue["body"] and "2 commits since the last pass" in issue["body"]
    assert f"`{shas[1][:12]}`" in issue["body"]


def test_the_bisect_plan_refuses_a_window_commit_from_outside(tmp_path):
    repo, shas = hostile_repo(tmp_path, "plain")
    pwned = tmp_path / "PWNED"
    from tests.test_bisect import _window

    facts = Facts(last_pass=LastPass("r0", "2026-08-26", shas[0]), window=_window(shas[2], f"--output={pwned}"))
    assert "'--output=" in plan(failing(), facts, str(repo)) and "not a full commit id" in plan(failing(), facts)
    facts = Facts(last_pass=LastPass("r0", "2026-08-26", "HEAD~2"), window=_window(shas[2], shas[1]))
    assert "'HEAD~2' is not a full commit id" in plan(failing(), facts, str(repo))
    assert not pwned.exists()


# ----------------------------------------------------------------------------- recorded commits from outside


@pytest.mark.parametrize("which", ["good", "bad"])
def test_canary_history_passes_no_recorded_option_to_git(tmp_path, which):
    repo, shas = hostile_repo(tmp_path, "plain")
    pwned = tmp_path / "x" / "PWNED"
    pwned.parent.mkdir()
    good, bad = (f"--output={pwned}", shas[-1]) if which == "good" else (shas[0], f"--output={pwned}")
    recorded(tmp_path, good, bad)
    p = run_cli("history", "--json", cwd=repo, env=env(tmp_path))
    assert p.returncode == 0, p.stderr
    assert list(pwned.parent.iterdir()) == []  # not PWNED, nor PWNED..SHA
    [series] = json.loads(p.stdout)["series"]
    assert series["window"]["commits"] is None
    assert "'--output=" in series["window"]["note"] and "is not a full commit id" in series["window"]["note"]
    p = run_cli("history", cwd=repo, env=env(tmp_path))
    assert p.returncode == 0 and "no runs recorded" not in p.stdout and list(pwned.parent.iterdir()) == []


def _tree(repo: Path, shas: list[str]) -> str:
    return run_git(repo, "rev-parse", f"{shas[0]}^{{tree}}")


@pytest.mark.parametrize(
    "good, says",
    [
        (lambda repo, shas: "HEAD~2", "'HEAD~2' is not a full commit id"),
        (lambda repo, shas: "main", "'main' is not a full commit id"),
        (lambda repo, shas: shas[0][:12], "is not a full commit id"),
        (lambda repo, shas: shas[0][:39], "is not a full commit id"),
        (lambda repo, shas: shas[0].upper(), "is not a full commit id"),
        (lambda repo, shas: shas[0] + "\n--output=x", "is not a full commit id"),
        (lambda repo, shas: f"{shas[0]}^", "is not a full commit id"),
        (lambda repo, shas: "f" * 64, "git log"),  # the right shape, but no such commit
        (_tree, "git log"),  # a tree, not a commit
    ],
    ids=["ref-HEAD~2", "branch-main", "short", "39-chars", "upper-case", "newline", "parent-suffix", "absent", "tree"],
)
def test_a_recorded_commit_that_is_not_a_full_commit_id_is_refused(tmp_path, good, says):
    repo, shas = hostile_repo(tmp_path, "plain")
    with pytest.raises(ConfigError, match=re.escape(says)):
        git.commits_between(good(repo, shas), shas[-1], str(repo))


def test_a_shallow_clone_fetches_nothing_for_a_recorded_option(tmp_path):
    src, shas = hostile_repo(tmp_path, "plain")
    clone = shallow_clone(src, tmp_path / "clone")
    pwned = tmp_path / "PWNED"
    with pytest.raises(ConfigError, match="not a full commit id"):
        git.commits_between(f"--upload-pack=touch {pwned}", shas[-1], str(clone), deepen=True)
    assert not pwned.exists() and git.is_shallow(str(clone)) is True  # nothing was fetched
    assert not git.has_commit(f"--output={pwned}", str(clone)) and not pwned.exists()


def test_the_doctor_names_a_recorded_commit_that_is_an_option(tmp_path):
    repo, shas = hostile_repo(tmp_path, "plain")
    pwned = tmp_path / "PWNED"
    check = check_git(str(repo), "tpu", [passing(commit=f"--output={pwned}")])
    assert not check.ok and "is not a full commit id" in check.detail and not pwned.exists()


# ----------------------------------------------------------------------------- revisions typed on the command line


def test_bisect_refuses_a_revision_that_is_an_option_even_where_a_branch_has_that_name(tmp_path):
    repo, shas = hostile_repo(tmp_path, "plain")
    pwned = tmp_path / "PWNED"
    run_git(repo, "update-ref", f"refs/heads/--output={pwned}", shas[0])
    for flags in (["--good", f"--output={pwned}", "--bad", "HEAD"], ["--good", shas[0], f"--bad=--output={pwned}"]):
        p = run_cli("bisect", "--lane", "tpu", *flags, "-C", str(repo), env=env(tmp_path))
        assert p.returncode == 2 and "is not a revision" in p.stderr, p.stderr
    assert not pwned.exists()


def test_golden_diff_refuses_a_rev_that_is_an_option(tmp_path):
    pwned = tmp_path / "PWNED"
    (tmp_path / "PWNED:gates").mkdir()  # where `git show --output=PWNED:gates/<golden>` would write
    p = run_cli("golden", "diff", "cpu", f"--rev=--output={pwned}", env=env(tmp_path))
    assert [str(f.relative_to(tmp_path)) for f in tmp_path.rglob("*")] == ["PWNED:gates"]
    assert p.returncode == 2 and "--rev '--output=" in p.stderr and "Traceback" not in p.stderr, p.stderr


@pytest.mark.parametrize("rev", ["", "-", "--output=x", "-p", "main branch", "HEAD\n", "HEAD\x1b[2J", "\u202eHEAD"])
def test_a_typed_revision_git_could_take_for_an_option_is_refused(rev):
    with pytest.raises(ConfigError, match="--good .* is not a revision"):
        git.typed_revision(rev, "--good")
    assert git.typed_revision("HEAD~1", "--good") == "HEAD~1" and git.typed_revision("v1.2", "--bad") == "v1.2"


def test_head_and_resolve_answer_only_full_ids(tmp_path):
    repo, shas = hostile_repo(tmp_path, "plain")
    assert git.head_commit(str(repo)) == shas[-1]
    assert git.resolve(str(repo), "HEAD~2", "--good") == shas[0]
    with pytest.raises(ConfigError, match="is not a commit"):
        git.resolve(str(repo), "HEAD~9", "--good")
