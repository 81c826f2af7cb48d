"""Queries over run history (pure), and the git facts regression windows are built from."""

import subprocess
from dataclasses import replace

import pytest

from canary.config import load_ferry
from canary.errors import ConfigError
from canary.git import Commit, commits_between, head_commit, parse_log
from canary.history import queries as q
from canary.history import series, windows
from canary.record import RunRecord, Signature

INCIDENT = Signature("79eb0cfbcef3", "compile_error", "ValueError", "The Pallas TPU lowering ...")
OTHER = Signature("0123456789ab", "runtime_crash", "IndexError", "index out of range")


def rec(
    when: str,
    verdict: str,
    sig: Signature | None = None,
    lane: str = "tpu",
    commit: str | None = None,
    run_id: str | None = None,
) -> RunRecord:
    return RunRecord(
        run_id=run_id or f"{when.replace('-', '').replace(':', '')}-{lane}",
        lane=lane,
        ferry="moe-canary",
        ferry_version=1,
        verdict=verdict,
        steps_completed=238,
        final_loss=5.8,
        gates=[],
        run_dir="",
        started_at=f"{when}+00:00" if "T" in when else f"{when}T03:00:00+00:00",
        commit=commit,
        signature=sig if verdict == "fail" else None,
        classification="pass" if verdict == "pass" else "deterministic",
    )


# The incident: passes alternating with failures, then a daily failure from Aug 27 to Aug 31.
HISTORY = [
    rec("2026-08-22", "pass", commit="c22"),
    rec("2026-08-23", "fail", INCIDENT, commit="c23"),
    rec("2026-08-24", "pass", commit="c24"),
    rec("2026-08-25", "fail", INCIDENT, commit="c25"),
    rec("2026-08-26", "pass", commit="c26"),
    rec("2026-08-27", "fail", INCIDENT, commit="c27"),
    rec("2026-08-28", "fail", INCIDENT, commit="c28"),
    rec("2026-08-29", "fail", INCIDENT, commit="c29"),
    rec("2026-08-30", "fail", INCIDENT, commit="c30"),
    rec("2026-08-31", "fail", INCIDENT, commit="c31"),
    rec("2026-08-31", "pass", lane="gpu", commit="c31"),
]


def test_two_ferries_on_one_lane_are_two_series():
    """A second ferry (a command ferry's example, another pinned ferry) on the tpu lane has its own
    last pass, streak, strip and flakiness; neither mixes into the other."""
    other = [
        replace(rec(f"2026-08-{d}", v, OTHER if v == "fail" else None, commit=f"o{d}"), ferry="levanter-standin")
        for d, v in (("27", "pass"), ("28", "fail"), ("31", "pass"))
    ]
    rs = HISTORY + other
    key = series.SeriesKey
    assert series.series_keys(rs) == [
        key("gpu", "moe-canary"),
        key("tpu", "levanter-standin"),
        key("tpu", "moe-canary"),
    ]
    assert str(series.series_of(other[0])) == "tpu/levanter-standin"
    assert q.last_pass(rs, "tpu", ferry="moe-canary").commit == "c26"
    assert q.last_pass(rs, "tpu", ferry="levanter-standin").commit == "o31"
    assert q.current_streak(rs, "tpu", ferry="moe-canary").runs == 5
    assert not q.current_streak(rs, "tpu", ferry="levanter-standin").failing
    assert q.strip(rs, "tpu", ferry="moe-canary") == q.strip(HISTORY, "tpu") == "PFPFPFFFFF"
    assert q.strip(rs, "tpu", ferry="levanter-standin") == "PFP"
    assert q.flakiness(rs, "tpu", ferry="levanter-standin") == 1.0
    assert q.regression_range(rs, "tpu", ferry="moe-canary") == ("c26", "c27")
    assert q.regression_range(rs, "tpu", ferry="levanter-standin") == (None, None)


def test_a_short_run_is_kept_but_never_the_series_last_pass_or_streak():
    """A repro (10 steps of a 238-step ferry) that passes is no last pass; one that fails neither
    starts nor extends the streak; a run of the ferry's own steps counts."""

    def short(when, verdict, sig=None):
        return replace(rec(when, verdict, sig, commit="s"), steps_requested=10, ferry_steps=238)

    full = replace(rec("2026-08-26", "pass", commit="full"), steps_requested=238, ferry_steps=238)
    assert not series.is_short(full) and series.is_short(short("2026-08-27", "pass"))
    assert not series.is_short(rec("2026-08-27", "pass"))  # an older record, without the ferry's steps: a full run
    rs = [
        full,
        short("2026-08-27", "pass"),
        rec("2026-08-28", "fail", INCIDENT, commit="c28"),
        short("2026-08-29", "fail", OTHER),
        short("2026-08-30", "pass"),
    ]
    assert q.last_pass(rs, "tpu").commit == "full"
    s = q.current_streak(rs, "tpu")
    assert (s.runs, s.fingerprint, s.last_pass.commit) == (1, INCIDENT.fingerprint, "full")
    assert q.strip(rs, "tpu") == "PF" and q.flakiness(rs, "tpu") == 1.0
    assert q.regression_range(rs, "tpu") == ("full", "c28")
    assert [r.commit for r in series.in_series(rs, "tpu", "moe-canary")] == ["full", "s", "c28", "s", "s"]
    assert q.occurrences(rs)[OTHER.fingerprint].count == 1  # its failure is still an occurrence
    assert q.last_pass([short("2026-08-27", "pass")], "tpu") is None


def test_last_pass():
    assert q.last_pass(HISTORY, "tpu").started_at.startswith("2026-08-26")
    assert q.last_pass(HISTORY, "gpu").lane == "gpu"
    assert q.last_pass([rec("2026-08-27", "fail", INCIDENT)], "tpu") is None
    assert q.last_pass(HISTORY, "cpu") is None


def test_streak_of_the_incident():
    s = q.current_streak(list(reversed(HISTORY)), "tpu")  # any order in, time order used
    assert s.failing
    assert (s.runs, s.days, s.consecutive_days) == (5, 5, 5)
    assert s.first_failure.started_at.startswith("2026-08-27")
    assert s.last_failure.started_at.startswith("2026-08-31")
    assert s.fingerprint == INCIDENT.fingerprint and s.same_fingerprint
    assert s.daily_ordinal == "fourth straight daily recurrence"
    assert s.last_pass.started_at.startswith("2026-08-26")


@pytest.mark.parametrize(
    "upto, text",
    [
        ("2026-08-27", "first occurrence"),
        ("2026-08-28", "first daily recurrence"),
        ("2026-08-29", "second straight daily recurrence"),
        ("2026-08-30", "third straight daily recurrence"),
        ("2026-08-31", "fourth straight daily recurrence"),
    ],
)
def test_daily_recurrence_wording(upto, text):
    rs = [r for r in HISTORY if r.started_at[:10] <= upto]
    assert q.current_streak(rs, "tpu").daily_ordinal == text


def test_streak_counts_runs_and_days_separately():
    rs = [
        rec("2026-09-01", "pass"),
        rec("2026-09-02T01:00:00", "fail", INCIDENT),
        rec("2026-09-02T13:00:00", "fail", INCIDENT),
        rec("2026-09-04T01:00:00", "fail", INCIDENT),
        rec("2026-09-05T01:00:00", "fail", INCIDENT),
    ]
    s = q.current_streak(rs, "tpu")
    assert (s.runs, s.days) == (4, 3)
    assert s.consecutive_days == 2  # Sep 4 and 5; Sep 3 had no run
    assert s.daily_ordinal == "first daily recurrence"
    assert s.first_failure.started_at.startswith("2026-09-02T01")


def test_streak_with_changing_fingerprints():
    rs = [
        rec("2026-09-01", "pass"),
        rec("2026-09-02", "fail", OTHER),
        rec("2026-09-03", "fail", INCIDENT),
        rec("2026-09-04", "fail", INCIDENT),
    ]
    s = q.current_streak(rs, "tpu")
    assert s.runs == 3 and not s.same_fingerprint
    assert s.fingerprint == INCIDENT.fingerprint
    assert s.fingerprints == [OTHER.fingerprint, INCIDENT.fingerprint]
    only = q.current_streak(rs, "tpu", fingerprint=INCIDENT.fingerprint)
    assert only.runs == 2 and only.first_failure.started_at.startswith("2026-09-03")


def test_no_streak_when_the_last_run_passed():
    s = q.current_streak(HISTORY, "gpu")
    assert not s.failing and s.runs == 0 and s.first_failure is None and s.daily_ordinal == ""
    assert s.last_pass.lane == "gpu"
    assert q.current_streak([], "tpu").runs == 0


def test_streak_without_any_pass():
    rs = [rec("2026-09-01", "fail", OTHER), rec("2026-09-02", "fail", OTHER)]
    s = q.current_streak(rs, "tpu")
    assert s.runs == 2 and s.last_pass is None


def test_occurrences():
    rs = HISTORY + [rec("2026-09-01", "fail", INCIDENT, lane="gpu"), rec("2026-09-02", "fail", OTHER, lane="cpu")]
    occ = q.occurrences(rs)
    assert set(occ) == {INCIDENT.fingerprint, OTHER.fingerprint}
    o = occ[INCIDENT.fingerprint]
    assert o.count == 8
    assert o.first_seen.startswith("2026-08-23") and o.last_seen.startswith("2026-09-01")
    assert o.lanes == ["gpu", "tpu"]
    assert o.kind == "compile_error"
    assert occ[OTHER.fingerprint].count == 1 and occ[OTHER.fingerprint].lanes == ["cpu"]
    assert q.occurrences([rec("2026-09-01", "pass")]) == {}


def test_flakiness():
    assert q.flakiness(HISTORY, "tpu") == pytest.approx(5 / 9)  # P F P F P F F F F F: 5 flips in 9 pairs
    alternating = [rec(f"2026-09-{d:02d}", "pass" if d % 2 else "fail", OTHER) for d in range(1, 11)]
    assert q.flakiness(alternating, "tpu") == 1.0
    steady = [rec(f"2026-09-{d:02d}", "fail", OTHER) for d in range(1, 6)]
    assert q.flakiness(steady, "tpu") == 0.0
    assert q.flakiness(HISTORY, "tpu", last=5) == 0.0
    assert q.flakiness(HISTORY, "gpu") == 0.0  # a single run
    assert q.strip(HISTORY, "tpu") == "PFPFPFFFFF"
    assert q.strip(HISTORY, "tpu", last=3) == "FFF"


def test_regression_range():
    assert q.regression_range(HISTORY, "tpu") == ("c26", "c27")
    assert q.regression_range(HISTORY, "gpu") == (None, None)
    assert q.regression_range([rec("2026-09-01", "fail", OTHER, commit="x")], "tpu") == (None, "x")


COMMITS = [
    Commit("a1", "Docs: describe the tpu lane", ["README.md"]),
    Commit("b2", "Bump jax pin", ["pyproject.toml"]),
    Commit("c3", "Refactor the ragged_dot wrapper", ["canary/workload/ragged_dot/megablox.py", "tests/test_rd.py"]),
    Commit("d4", "CI: cache pip", [".github/workflows/canary.yml"]),
]


def test_regression_window_flags_watched_paths_first():
    ferry, _ = load_ferry("moe-canary")
    w = windows.regression_window(COMMITS, ferry.watched_paths)
    assert [c.sha for c in w] == ["b2", "c3", "a1", "d4"]
    assert [c.watched for c in w] == [True, True, False, False]
    assert w[1].watched_paths == ["canary/workload/ragged_dot/megablox.py"]
    assert w[1].paths == ["canary/workload/ragged_dot/megablox.py", "tests/test_rd.py"]
    assert all(not c.watched for c in windows.regression_window(COMMITS, []))


@pytest.mark.parametrize(
    "path, glob, hit",
    [
        ("canary/workload/model.py", "canary/workload/**", True),
        ("canary/workload/ragged_dot/xla.py", "canary/workload/**", True),
        ("canary/workload", "canary/workload/**", True),
        ("canary/runner.py", "canary/workload/**", False),
        ("pyproject.toml", "pyproject.toml", True),
        ("sub/pyproject.toml", "pyproject.toml", False),
        ("sub/pyproject.toml", "**/pyproject.toml", True),
        ("pyproject.toml", "**/pyproject.toml", True),
        ("canary/workload/model.py", "canary/*.py", False),
        ("canary/gates.py", "canary/*.py", True),
        ("kernels/gmm_v2.py", "kernels/gmm_v?.py", True),
        ("ferries/moe-canary.toml", "ferries", True),
        ("./ferries/moe-canary.toml", "ferries/*.toml", True),
        ("requirements-tpu.txt", "requirements-[a-z]*.txt", True),
    ],
)
def test_watched_path_globs(path, glob, hit):
    assert windows.path_matches(path, [glob]) is hit


def test_ordinals():
    assert [q.ordinal(n) for n in (1, 2, 3, 4, 11, 20, 21, 22, 23, 111)] == [
        "first",
        "second",
        "third",
        "fourth",
        "eleventh",
        "twentieth",
        "21st",
        "22nd",
        "23rd",
        "111th",
    ]


# ----------------------------------------------------------------------------- git


def _git(repo, *args):
    subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        env={
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@x",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@x",
            "HOME": str(repo),
            "PATH": "/usr/bin:/bin:/usr/local/bin",
        },
    )


def _commit(repo, files: dict[str, str], message: str) -> str:
    for name, text in files.items():
        p = repo / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        _git(repo, "add", name)
    _git(repo, "commit", "-q", "-m", message)
    return head_commit(str(repo))


@pytest.fixture
def repo(tmp_path):
    r = tmp_path / "repo"
    r.mkdir()
    _git(r, "init", "-q", "-b", "main")
    return r


def test_git_window_end_to_end(repo):
    good = _commit(repo, {"README.md": "hi\n"}, "Initial")
    _commit(repo, {"README.md": "hello\n"}, "Docs")
    _commit(repo, {"canary/workload/ragged_dot/megablox.py": "tile = 1\n", "notes.txt": "x"}, "Static tiling for gmm")
    bad = _commit(repo, {".github/workflows/ci.yml": "on: push\n"}, "CI tweak")
    assert len(good) == 40 and good != bad
    commits = commits_between(good, bad, str(repo))
    assert [c.subject for c in commits] == ["CI tweak", "Static tiling for gmm", "Docs"]  # newest first
    assert commits[1].paths == ["canary/workload/ragged_dot/megablox.py", "notes.txt"]
    w = windows.regression_window(commits, ["canary/workload/**", "pyproject.toml"])
    assert [(c.subject, c.watched) for c in w] == [
        ("Static tiling for gmm", True),
        ("CI tweak", False),
        ("Docs", False),
    ]
    assert commits_between(bad, bad, str(repo)) == []


def test_git_errors(repo, tmp_path):
    assert head_commit(str(repo)) is None  # no commits yet
    assert head_commit(str(tmp_path / "nowhere")) is None
    plain = tmp_path / "plain"
    plain.mkdir()
    assert head_commit(str(plain)) is None
    _commit(repo, {"a": "1"}, "one")
    with pytest.raises(ConfigError, match="deadbeef"):
        commits_between("deadbeef", "HEAD", str(repo))


def test_parse_log_reads_nul_separated_fields_whatever_the_subject_holds():
    a, d = "a" * 40, "d" * 40
    text = f"\0{a}\0A U Thor\x002026-08-27T03:00:00+00:00\0Fix: a | b \x1e{d}\x1f\0\ncanary/x.py\0\n\0"
    text += f"\0{d}\0B\x002026\0Empty\0"
    cs = parse_log(text)
    assert [(c.sha, c.subject, c.paths) for c in cs] == [
        (a, f"Fix: a | b \x1e{d}\x1f", ["canary/x.py", "\n"]),
        (d, "Empty", []),
    ]


# ----------------------------------------------------------------------------- the compilation cache

WARM = {"mode": "warm", "requests": 12, "hits": 12, "misses": 0, "errors": []}
READ_FAILED = {
    "mode": "warm",
    "requests": 12,
    "hits": 0,
    "misses": 0,
    "errors": ["Error reading persistent compilation cache entry for 'jit__create_lm_example'"],
}


def _with_cache(r: RunRecord, cache: dict, attempts: int = 1) -> RunRecord:
    from canary.record import Attempt

    ok = r.verdict == "pass"
    r.attempts = [
        Attempt(
            n,
            "succeeded" if ok else "failed",
            0 if ok else 1,
            1.0,
            "log",
            cache=cache,
            signature=None if ok else r.signature,
        )
        for n in range(1, attempts + 1)
    ]
    return r


def test_a_cache_read_failure_is_a_fact_of_the_record():
    failed = _with_cache(rec("2026-08-25", "fail", INCIDENT), READ_FAILED, attempts=4)
    assert failed.cache_read_failed() and not _with_cache(rec("2026-08-24", "pass"), WARM).cache_read_failed()
