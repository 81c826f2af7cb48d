"""`canary bisect`: the first bad commit named in a temporary worktree, each revision tested with
its own code, the user's checkout never touched; and the notifier's use of it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from canary.bisect import (
    BisectOptions,
    bisect,
    check,
    choose_test,
    judge_lower,
    judge_run,
    newest,
    parse_git_bisect,
)
from canary.errors import ConfigError
from canary.history.windows import WindowCommit
from canary.notify.bisecting import plan
from canary.notify.compose import new_issue, recurrence_comment
from canary.notify.model import Facts, FirstBad, LastPass
from tests.bisect_repo import build, git
from tests.conftest import run_cli
from tests.github_server import REPO, TOKEN, client, github, spool_dir  # noqa: F401 (fixtures)
from tests.notify_records import failing, passing, signature

# ----------------------------------------------------------------------------- judging a revision (pure)


def _lower_report(ok: bool) -> str:
    p = {
        "platform": "tpu",
        "ok": ok,
        "error": None if ok else "ValueError: The Pallas TPU lowering currently requires",
        "diagnosis": None if ok else "grad-lhs of the down projection: block (512, 32) on its output",
    }
    return json.dumps({"ferry": "moe-canary", "ok": ok, "platforms": [p]})


def test_lower_verdicts():
    assert judge_lower(0, _lower_report(True)) == ("good", "lowered for tpu")
    verdict, detail = judge_lower(1, _lower_report(False))
    assert verdict == "bad" and detail.startswith("tpu: grad-lhs of the down projection")


@pytest.mark.parametrize(
    "rc, stdout, stderr",
    [
        (2, "", "canary: ferries/moe-canary.toml: invalid ferry:\n  lanes.tpu.tiling: Input should be 'per-shape'"),
        (1, "", "Traceback (most recent call last):\nModuleNotFoundError: No module named 'canary_missing_dependency'"),
        (2, "", "Error: No such command 'lower'."),
        (1, "not json", ""),
    ],
)
def test_a_revision_that_cannot_be_tested_is_skipped(rc, stdout, stderr):
    verdict, detail = judge_lower(rc, stdout, stderr)
    assert verdict == "skip" and f"exit {rc}" in detail
    assert judge_run(rc, stdout, stderr, "abc")[0] == "skip"
    if stderr:
        assert stderr.splitlines()[-1].strip() in detail


def _run_record(verdict: str, fingerprint: str | None = None, kind: str = "nan") -> str:
    sig = {"fingerprint": fingerprint, "kind": kind, "exception": None, "message": "loss became non-finite"}
    return json.dumps(
        {"verdict": verdict, "steps_completed": 5, "final_loss": 1.5, "signature": sig if fingerprint else None}
    )


def test_run_counts_only_the_same_failure_as_bad():
    assert judge_run(0, _run_record("pass"), "", "fp1")[0] == "good"
    assert judge_run(1, _run_record("fail", "fp1"), "", "fp1")[:2] == ("bad", "nan fp1: loss became non-finite")
    verdict, detail, seen = judge_run(1, _run_record("fail", "fp2", "runtime_crash"), "", "fp1")
    assert verdict == "skip" and seen == "fp2" and detail.startswith("another failure, runtime_crash fp2")
    assert judge_run(1, _run_record("fail", "fp2"), "", "fp1", other_failure="good")[0] == "good"
    # no fingerprint yet (the bad end): any failure is bad, and names the fingerprint to look for
    assert judge_run(1, _run_record("fail", "fp9"), "", None)[0::2] == ("bad", "fp9")


@pytest.mark.parametrize(
    "kind, platform, launcher, test",
    [
        ("compile_error", "tpu", "ray", "lower"),
        ("compile_error", "cpu", "local", "lower"),
        ("nan", "cpu", "local", "run"),
        ("runtime_crash", "cpu", "local", "run"),
        ("gate_regression", "cpu", "local", "run"),
        ("nan", "tpu", "ray", None),
        ("runtime_crash", "cpu", "ray", None),
        ("timeout", "cpu", "local", None),
        ("infrastructure", "tpu", "ray", None),
        (None, "cpu", "local", None),
    ],
)
def test_which_failures_can_be_tested_here(kind, platform, launcher, test):
    assert choose_test(kind, platform, launcher) == test


# git's own words, as git 2.39 prints them
NEXT = (
    "Bisecting: 2 revisions left to test after this (roughly 2 steps)\n[782fed72b6be8245ab93cf9d560b567326cf58b7] c3\n"
)
FOUND = (
    "c5305cd62eacbf9e73b1c9145e56410ec3c3401c is the first bad commit\n"
    "commit c5305cd62eacbf9e73b1c9145e56410ec3c3401c\nAuthor: a <a@b>\n\n    c5\n"
)
ONLY_SKIPPED = (
    "There are only 'skip'ped commits left to test.\nThe first bad commit could be any of:\n"
    "782fed72b6be8245ab93cf9d560b567326cf58b7\n63fabae8eda4994c3d36349f78131307bdf73bb5\n"
    "We cannot bisect more!\n"
)


def test_reads_what_git_bisect_says():
    assert parse_git_bisect(NEXT) == ("next", ["782fed72b6be8245ab93cf9d560b567326cf58b7"], 2)
    assert parse_git_bisect(FOUND) == ("found", ["c5305cd62eacbf9e73b1c9145e56410ec3c3401c"], 0)
    assert parse_git_bisect(ONLY_SKIPPED) == (
        "only-skipped",
        ["782fed72b6be8245ab93cf9d560b567326cf58b7", "63fabae8eda4994c3d36349f78131307bdf73bb5"],
        0,
    )
    assert parse_git_bisect("fatal: something else")[0] == "error"


# ----------------------------------------------------------------------------- bad input, on a small repository


@pytest.fixture(scope="module")
def small_repo(tmp_path_factory) -> tuple[Path, list[str]]:
    """Three commits of a lanes file and a note, and a side branch: history for the input checks."""
    repo = tmp_path_factory.mktemp("small")
    git(repo, "init", "--quiet", "--initial-branch=main")
    (repo / "lanes.toml").write_text(
        '[lanes.cpu]\nplatform = "cpu"\n\n[lanes.tpu]\nplatform = "tpu"\nlauncher = { kind = "ray" }\n'
    )
    shas = []
    for n in range(3):
        (repo / "note.txt").write_text(f"{n}\n")
        git(repo, "add", "-A")
        git(repo, "commit", "--quiet", "-m", f"note {n}")
        shas.append(git(repo, "rev-parse", "HEAD"))
    git(repo, "checkout", "--quiet", "-b", "side", shas[0])
    (repo / "side.txt").write_text("x\n")
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "a side branch")
    shas.append(git(repo, "rev-parse", "HEAD"))
    git(repo, "checkout", "--quiet", "main")
    return repo, shas


@pytest.mark.parametrize(
    "good, bad, lane, test, match",
    [
        ("nope", "HEAD", "cpu", "lower", "--good 'nope' is not a commit"),
        ("HEAD~2", "nope", "cpu", "lower", "--bad 'nope' is not a commit"),
        ("HEAD", "HEAD~2", "cpu", "lower", "is not an ancestor of --bad"),
        ("HEAD", "HEAD", "cpu", "lower", "nothing to bisect"),
        ("side", "HEAD", "cpu", "lower", "is not an ancestor of --bad"),
        ("HEAD~2", "HEAD", "cpu", "fuzz", "--test 'fuzz' is not a test"),
    ],
)
def test_bad_revisions_are_bad_input(small_repo, good, bad, lane, test, match):
    repo, _ = small_repo
    with pytest.raises(ConfigError, match=match):
        check(BisectOptions(lane=lane, good=good, bad=bad, test=test, checkout=str(repo)))


def _untouched(repo: Path) -> tuple[str, str, str, str]:
    return (
        git(repo, "rev-parse", "HEAD"),
        git(repo, "status", "--porcelain", "--untracked-files=all"),
        git(repo, "worktree", "list", "--porcelain"),
        git(repo, "for-each-ref"),
    )


@pytest.mark.parametrize(
    "lane, test, match",
    [
        ("gpu", "lower", "unknown lane 'gpu'; lanes.toml at --bad defines: cpu, tpu"),
        ("tpu", "run", "lane 'tpu' is not a local cpu lane"),
    ],
)
def test_an_unknown_or_untrainable_lane_is_bad_input_and_leaves_nothing_behind(small_repo, lane, test, match):
    repo, _ = small_repo
    before = _untouched(repo)
    with pytest.raises(ConfigError, match=match):
        bisect(BisectOptions(lane=lane, good="HEAD~2", bad="HEAD", test=test, checkout=str(repo)))
    assert _untouched(repo) == before


def test_the_command_exits_2_on_bad_input(small_repo):
    repo, _ = small_repo
    p = run_cli("bisect", "--lane", "cpu", "--good", "HEAD", "--bad", "HEAD~1", "-C", str(repo))
    assert p.returncode == 2 and "is not an ancestor" in p.stderr and "Traceback" not in p.stderr
    p = run_cli("bisect", "--good", "HEAD~1", "--bad", "HEAD", "-C", str(repo))
    assert p.returncode == 2 and "--lane" in p.stderr


def test_the_failing_run_gives_the_lane(small_repo, tmp_path):
    repo, _ = small_repo
    (tmp_path / "result.json").write_text(json.dumps(failing(lane="gpu").to_dict()))
    p = run_cli("bisect", "--run", str(tmp_path), "--good", "HEAD~1", "--bad", "HEAD", "-C", str(repo))
    assert p.returncode == 2 and "unknown lane 'gpu'" in p.stderr
    assert git(repo, "worktree", "list").count("\n") == 0


def test_bisect_flags_need_notify_on_canary_run():
    p = run_cli("run", "cpu", "--no-bisect")
    assert p.returncode == 2 and "--no-bisect only applies with --notify github" in p.stderr


def test_a_windows_bad_end_is_the_commit_the_others_lead_to(small_repo):
    repo, shas = small_repo
    assert newest(str(repo), [shas[1], shas[2]], shas[0]) == shas[2]
    assert newest(str(repo), [shas[2], shas[1]], shas[0]) == shas[2]


# ----------------------------------------------------------------------------- the notifier's part (pure)


def _window(*shas: str) -> tuple[WindowCommit, ...]:
    return tuple(WindowCommit(s, f"commit {s[:4]}", [], False) for s in shas)


def test_the_notifier_bisects_only_a_testable_failure_with_a_window_of_several_commits(small_repo):
    repo, shas = small_repo
    record = failing(lane="tpu")  # the incident: a compile_error
    facts = Facts(last_pass=LastPass("r0", "2026-08-26", shas[0]), window=_window(shas[2], shas[1]))
    assert plan(record, facts, str(repo)) == ("lower", shas[0], shas[2])
    assert "fewer than two" in plan(record, Facts(last_pass=facts.last_pass, window=_window(shas[1])), str(repo))
    assert "fewer than two" in plan(record, Facts(), str(repo))
    assert "no recorded commit" in plan(record, Facts(last_pass=LastPass("r0", "d"), window=facts.window), str(repo))
    command = failing(lane="tpu", ferry=str(Path(__file__).parent.parent / "ferries/examples/levanter-standin.toml"))
    assert "runs a team's own trainer" in plan(command, facts, str(repo))
    infra = failing(lane="tpu", signature=replace(signature(), kind="infrastructure"))
    assert "cannot be tested on this machine" in plan(infra, facts, str(repo))
    assert "not in this checkout" in plan(
        record, Facts(last_pass=facts.last_pass, window=_window("f" * 40, "e" * 40)), str(repo)
    )


def test_a_new_issue_names_the_first_bad_commit():
    record = failing(lane="tpu")
    sha = "ab" * 20
    fb = FirstBad(sha, "ferry: tpu lane uses the static <b>tiling</b>", "lower", 5, 1, 61.2, False, 600.0)
    body = new_issue(record, Facts(first_bad=fb)).body
    assert f"first bad commit: {sha} ferry: tpu lane uses the static" in body
    assert "<b>" not in body  # a commit subject is outside text
    assert "`canary bisect --test lower`: 5 revisions tested, 1 skipped, 61 s" in body
    assert "First bad commit" not in recurrence_comment(record, Facts()).body


def test_a_new_issue_says_when_the_bisect_ran_out_of_budget_or_found_nothing():
    record = failing(lane="tpu")
    out = FirstBad(None, "", "lower", 3, 0, 600.4, True, 600.0, ("cd" * 20, "ef" * 20), "the budget ran out")
    body = new_issue(record, Facts(first_bad=out)).body
    assert (
        "Bisect ran out of its 10-minute budget" in body and "It is one of 2: `cdcdcdcdcdcd`, `efefefefefef`." in body
    )
    none = FirstBad(None, "", "lower", 1, 0, 4.0, note="the failure does not reproduce at --bad")
    assert (
        "Bisect named none (`canary bisect --test lower`: 1 revision tested, 0 skipped, 4 s): the failure does not "
        "reproduce at --bad." in new_issue(record, Facts(first_bad=none)).body
    )


def test_first_bad_survives_the_spool_round_trip():
    fb = FirstBad(None, "", "run", 3, 1, 9.5, True, 60.0, ("cd" * 20,), "out of time")
    facts = Facts(first_bad=fb)
    assert Facts.from_dict(json.loads(json.dumps(facts.to_dict()))) == facts


class Found:
    """A bisect hook that finds a commit at once, and counts its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, record, facts):
        self.calls += 1
        return replace(facts, first_bad=FirstBad("ab" * 20, "the bad one", "lower", 4, 0, 9.0, budget_s=600.0))


def test_the_hook_runs_only_for_a_new_issue_and_its_finding_survives_an_outage(github, client, spool_dir):
    from canary.notify import notify

    hook = Found()
    github.state.fail(503, times=6, method="POST", path_re=r"/issues$")  # creating the issue fails, every retry
    res = notify(failing(), Facts(), repo=REPO, client=client, bisect=hook)
    assert res.deliveries[-1].status == "spooled" and hook.calls == 1 and github.state.issues() == []
    # the next notify sends the spooled issue with what the bisect found, without bisecting again
    later = failing("20260829T060000Z-tpu-cd34", "2026-08-29")
    notify(later, Facts(), repo=REPO, client=client, bisect=hook)
    [issue] = github.state.issues()
    assert f"first bad commit: {'ab' * 20} the bad one" in issue["body"]
    assert hook.calls == 1  # the recurrence that followed is a comment: no bisect
    [comment] = github.state.comments(issue["number"])
    assert "First bad commit" not in comment["body"]


# ----------------------------------------------------------------------------- end to end (slow)

TILING_HISTORY = ["harmless", "break-import", "harmless", "fix-import", "static-tiling", "harmless"]


@pytest.fixture(scope="module")
def tiling_repo(tmp_path_factory) -> tuple[Path, list[str]]:
    repo = tmp_path_factory.mktemp("bisect") / "repo"
    return repo, build(repo, TILING_HISTORY)


@pytest.mark.slow
def test_bisect_names_the_tiling_commit_skips_the_broken_import_and_leaves_the_checkout_alone(tiling_repo):
    repo, shas = tiling_repo
    (repo / "scratch.txt").write_text("a user's uncommitted file\n")
    before = _untouched(repo)
    p = run_cli("bisect", "--lane", "tpu", "--good", shas[0], "--bad", "main", "-C", str(repo), "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    tiling = shas[1 + TILING_HISTORY.index("static-tiling")]
    broken = shas[1 + TILING_HISTORY.index("break-import")], shas[2 + TILING_HISTORY.index("break-import")]
    assert out["first_bad"] == tiling and out["subject"] == "ferry: tpu lane uses the static megablox tiling"
    assert out["skipped"] and set(out["skipped"]) <= set(broken)
    skip = next(s for s in out["log"] if s["verdict"] == "skip")
    assert "canary_missing_dependency" in skip["detail"]
    by_sha = {s["sha"]: s for s in out["log"]}
    assert by_sha[shas[-1]]["role"] == "bad end" and by_sha[shas[0]]["verdict"] == "good"
    assert "block (512, 32)" in by_sha[tiling]["detail"]  # tested with its own ferry: the static tiling's block
    assert out["tested"] == len(out["log"]) and out["seconds"] > 0
    assert _untouched(repo) == before  # HEAD, files, worktrees and refs as they were


@pytest.mark.slow
def test_a_failure_that_does_not_reproduce_at_bad_names_nothing(tiling_repo):
    repo, shas = tiling_repo
    p = run_cli("bisect", "--lane", "tpu", "--good", shas[0], "--bad", shas[1], "-C", str(repo))
    assert p.returncode == 1, p.stderr
    assert "no first bad commit named: the failure does not reproduce at --bad" in " ".join(p.stdout.split())
    p = run_cli("bisect", "--lane", "tpu", "--good", shas[0], "--bad", shas[2], "-C", str(repo), "--json")
    out = json.loads(p.stdout)
    assert p.returncode == 1 and out["first_bad"] is None and out["skipped"] == [shas[2]]
    assert out["reason"].startswith("--bad cannot be tested (exit 1)") and "canary_missing_dependency" in out["reason"]


@pytest.mark.slow
def test_out_of_budget_names_the_commits_left(tiling_repo):
    repo, shas = tiling_repo
    result = bisect(BisectOptions(lane="tpu", good=shas[0], bad=shas[-1], checkout=str(repo), budget_s=1))
    assert not result.found and result.exhausted and "budget ran out" in result.reason
    assert set(result.candidates) == set(shas[1:])
    assert git(repo, "worktree", "list").count("\n") == 0  # the temporary worktree is gone


@pytest.mark.slow
def test_run_bisects_a_cpu_lane_failure_by_its_fingerprint(tmp_path):
    repo = tmp_path / "repo"
    shas = build(repo, ["nan", "harmless"])
    p = run_cli(
        "bisect",
        "--lane",
        "cpu",
        "--test",
        "run",
        "--steps",
        "3",
        "--good",
        shas[0],
        "--bad",
        shas[-1],
        "-C",
        str(repo),
        "--json",
    )
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["first_bad"] == shas[1] and out["fingerprint"]
    assert [s["verdict"] for s in out["log"]] == ["bad", "good", "bad"]
    assert all(out["fingerprint"] in s["detail"] for s in out["log"] if s["verdict"] == "bad")


def _notify(github, tmp_path, repo: Path, shas: list[str], *flags: str):
    """``canary notify`` run in ``repo`` for a tpu compile error at its HEAD after a pass at ``shas[0]``."""
    from canary.history import open_store

    env = {
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_API_URL": github.url,
        "GITHUB_REPOSITORY": "",
        "CANARY_HISTORY": str(tmp_path / "history.sqlite3"),
        "CANARY_SPOOL_DIR": str(tmp_path / "hspool"),
    }
    store = open_store(env["CANARY_HISTORY"], spool_dir=env["CANARY_SPOOL_DIR"])
    store.append(passing(commit=shas[0], date="2026-08-26"))
    record = failing(commit=shas[-1], date="2026-08-27")
    store.append(record)
    d = tmp_path / "runs" / record.run_id
    d.mkdir(parents=True)
    (d / "result.json").write_text(json.dumps(record.to_dict()))
    p = run_cli("notify", str(d), "--repo", REPO, *flags, cwd=repo, env=env)
    assert p.returncode == 0, p.stderr
    [issue] = github.state.issues()
    return issue["body"], p.stderr


@pytest.mark.slow
def test_the_notifier_names_the_first_bad_commit_in_the_new_issue(github, tmp_path, tiling_repo):
    repo, shas = tiling_repo
    before = _untouched(repo)
    since = 1 + TILING_HISTORY.index("fix-import")  # the last pass: a window of the tiling commit and one more
    body, stderr = _notify(github, tmp_path, repo, shas[since:])
    tiling = shas[1 + TILING_HISTORY.index("static-tiling")]
    assert f"first bad commit: {tiling} ferry: tpu lane uses the static megablox tiling" in body
    assert "canary: bisecting 2 commits with canary lower (budget 600 s)" in stderr
    assert "revisions tested, 0 skipped" in body
    assert _untouched(repo) == before


@pytest.mark.slow
def test_the_notifier_says_when_the_bisect_ran_out_of_budget(github, tmp_path, tiling_repo):
    repo, shas = tiling_repo
    body, _ = _notify(github, tmp_path, repo, shas, "--bisect-budget", "1")
    assert "Bisect ran out of its 1-second budget" in body and "It is one of 6:" in body


@pytest.mark.slow
def test_no_bisect_leaves_the_issue_without_it(github, tmp_path, small_repo):
    repo, shas = small_repo
    body, stderr = _notify(github, tmp_path, repo, shas[:3], "--no-bisect")
    assert "First bad commit" not in body and "bisecting" not in stderr
    assert "2 commits since the last pass" in body  # the window was there to bisect
