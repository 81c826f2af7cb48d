"""The words: what a new issue, a recurrence and a recovery say (pure, no I/O)."""

from dataclasses import replace

import pytest
from notify_records import failing, passing

from canary.history.windows import WindowCommit
from canary.notify.compose import issue_title, new_issue, recovery_comment, recurrence_comment
from canary.notify.markers import issue_fingerprint
from canary.notify.model import Facts, LastPass, Previous, StreakFacts
from canary.notify.reproduce import repro_commands
from canary.notify.sections import context_block, determinism, summary_line
from canary.notify.timeline import streak_sentence
from canary.record import Attempt, Signature, cold_reason

INCIDENT = Facts(lane_context="GCP, TPU v6e-4, europe-west4", platform="tpu")


def test_context_block_is_the_field_notes_form():
    block = context_block(failing(), INCIDENT)
    assert block.endswith(
        "```text\n"
        "Lane: tpu (GCP, TPU v6e-4, europe-west4)\n"
        "Job: /runner/canary-tpu-ab12\n"
        "GHA run: https://github.com/acme/canary/actions/runs/1234567\n"
        "W&B run: https://wandb.ai/acme/canary/runs/abc123\n"
        "Date: 2026-08-28\n"
        "```"
    )


def test_context_block_says_na_for_what_is_unknown_and_falls_back_to_the_attempts_job():
    rec = failing(context={})
    block = context_block(rec, Facts())
    assert "Lane: tpu\n" in block and "GHA run: n/a" in block and "W&B run: n/a" in block
    assert "Job: /runner/canary-tpu-ab12-4" in block


@pytest.mark.parametrize(
    "runs, days, consecutive, expected",
    [
        (5, 5, 5, "This is the fourth straight daily recurrence (failing since 2026-08-27: 5 runs on 5 days)."),
        (2, 2, 2, "This is the first daily recurrence (failing since 2026-08-27: 2 runs on 2 days)."),
        (9, 7, 3, "This is the second straight daily recurrence (failing since 2026-08-27: 9 runs on 7 days)."),
        (3, 1, 1, "Failing 3 runs in a row (failing since 2026-08-27: 3 runs on 1 day)."),
        (1, 1, 1, "First failure since the last pass."),
    ],
)
def test_streak_sentence(runs, days, consecutive, expected):
    assert streak_sentence(StreakFacts(runs, days, consecutive, "2026-08-27")) == expected


def test_unknown_streak_is_said_plainly():
    assert "unknown" in streak_sentence(None)
    assert (
        streak_sentence(StreakFacts(1, 1, 1, "2026-08-27"), ever_passed=False)
        == "First failure; no passing full run of this ferry on this lane is recorded."
    )


def test_determinism_by_classification():
    assert "all 4 attempts failed with this signature" in determinism(failing())
    assert determinism(failing(classification="intermittent")).startswith("Intermittent: 4 of 4")
    assert "lowered cold" in determinism(failing(classification="cache-masked"))
    rec = failing(classification=None)
    rec.attempts[1] = Attempt(2, "succeeded", 0, 10.0, "log")
    assert determinism(rec) == "3 of 4 attempts failed (3 with this signature)."
    gate_failure = failing(attempts=1)
    gate_failure.attempts[0].outcome = "succeeded"  # ran to the end, then failed its gates
    assert determinism(gate_failure).startswith("Unconfirmed: the run's only attempt failed")


def test_cold_reasons():
    assert cold_reason(None) is None
    assert cold_reason({"mode": "warm", "misses": 0, "errors": []}) is None
    assert cold_reason({"mode": "cold"}) == "cache bypassed (--cold)"
    assert cold_reason({"mode": "warm", "misses": 2, "errors": ["x"]}) == "2 cache misses, 1 cache read error"
    write_failed = "UserWarning: Error writing persistent compilation cache entry for 'jit_step': quota"
    assert cold_reason({"mode": "warm", "misses": 0, "errors": [write_failed]}) is None


def test_a_warm_run_with_one_program_compiled_afresh_is_not_called_a_cold_lowering():
    rec = failing()
    for a in rec.attempts:
        a.cache = {"mode": "warm", "requests": 33, "hits": 32, "misses": 1, "errors": []}
    assert cold_reason(rec.attempts[0].cache) == "1 of 33 programs compiled fresh, 32 read from the cache"
    body = new_issue(rec, INCIDENT).body
    assert "Lowered cold: in part (attempt 1: 1 of 33 programs compiled fresh, 32 read from the cache;" in body
    assert "not a cold lowering of the train step" in body and "Lowered cold: yes" not in body


def test_cache_section_reports_warm_runs_and_missing_facts():
    rec = failing()
    for a in rec.attempts:
        a.cache = {"mode": "warm", "requests": 3, "hits": 3, "misses": 0, "errors": []}
    body = new_issue(rec, INCIDENT).body
    assert "Lowered cold: no" in body and "Cache read errors before lowering: none" in body
    for a in rec.attempts:
        a.cache = None
    assert "No cache facts were recorded" in new_issue(rec, INCIDENT).body


def test_incident_cache_facts_name_the_read_error_and_its_attempts():
    body = new_issue(failing(), INCIDENT).body
    assert "Lowered cold: yes" in body
    assert "Cache read errors before lowering: yes, on attempt 1, attempt 3:" in body
    assert "RuntimeError: Session is closed" in body


def test_window_lists_watched_commits_first():
    window = (
        WindowCommit("a" * 40, "docs: typo", ["README.md"], False),
        WindowCommit("b" * 40, "ragged_dot: new tiling", ["canary/workload/ragged_dot/megablox.py"], True),
        WindowCommit("c" * 40, "ci: bump", [".ci/run"], False),
    )
    facts = Facts(last_pass=LastPass("20260826T060000Z-tpu-0000", "2026-08-26", "d" * 40), window=window)
    body = recurrence_comment(failing(), facts).body
    section = body.split("### Regression window")[1].split("###")[0]
    assert "3 commits since the last pass" in section and "1 touches watched paths (listed first)" in section
    lines = [ln for ln in section.splitlines() if ln.startswith("- ")]
    assert lines[0].startswith("- **watched** `bbbbbbbbbbbb` ragged\\_dot: new tiling")
    assert "`aaaaaaaaaaaa`" in lines[1] and "`cccccccccccc`" in lines[2]


def test_window_without_commits_points_away_from_the_code():
    facts = Facts(last_pass=LastPass("r", "2026-08-26", "d" * 40), window=())
    assert "the code is unchanged since the last pass" in recurrence_comment(failing(), facts).body


def test_window_unknown_or_without_a_pass():
    assert "No passing run on this lane is recorded" in recurrence_comment(failing(), Facts()).body
    facts = Facts(last_pass=LastPass("r", "2026-08-26", None), window_note="git is not available")
    assert "The commits since are unknown: git is not available" in recurrence_comment(failing(), facts).body


def test_repro_names_the_lowering_preflight_only_for_compile_errors():
    assert repro_commands(failing(), INCIDENT) == ["canary repro tpu --cold", "canary lower --lane tpu --platform tpu"]
    sig = Signature("f00d", "runtime_crash", "RuntimeError", "boom")
    assert repro_commands(failing(signature=sig), INCIDENT) == ["canary repro tpu --cold"]


def test_the_issue_tables_the_gates():
    gates = [
        {"name": "max_final_loss", "value": 4.2, "threshold": 4.0, "status": "FAIL", "detail": ""},
        {"name": "throughput", "value": 17132.5, "threshold": 18263.2, "status": "FAIL", "margin": -0.0619},
    ]
    body = new_issue(replace(failing(), gates=gates), INCIDENT).body
    assert "| gate | value | threshold | margin | status |" in body
    assert "| `max_final_loss` | 4.2000 | 4.0000 |  | FAIL |" in body
    assert "| `throughput` | 17,132 | 18,263 | -6.2% | FAIL |" in body


def test_a_command_ferrys_repro_names_its_ferry():
    """`canary repro cpu --cold` alone reruns the built-in ferry, not the command ferry that failed."""
    sig = Signature("f00d", "runtime_crash", "RuntimeError", "boom")
    mine = replace(failing(lane="cpu", signature=sig), ferry="levanter-standin", ferry_path="/w/standin.toml")
    assert repro_commands(mine, Facts()) == ["canary repro cpu --cold --ferry /w/standin.toml"]
    pinned = replace(mine, ferry_path="/src/canary/ferries/levanter-standin.toml")
    assert repro_commands(pinned, Facts()) == ["canary repro cpu --cold --ferry levanter-standin"]


def test_a_gate_failure_is_reproduced_by_the_full_run_cold_with_its_gates():
    """A run that trained to the end and failed its gates (the final loss) is not reproduced by a
    10-step repro, which passes: the hint is the full run, cold, with the gates it used; its
    attempts table says the attempt failed its gates, not that it succeeded."""
    sig = Signature("0ddba11", "gate_regression", None, "max_final_loss: 4.2 > 4.0")
    att = Attempt(1, "succeeded", 0, 30.0, "train.log", 200, 4.2, signature=sig)
    run = replace(
        failing(lane="cpu", signature=sig, classification="deterministic"),
        attempts=[att],
        gates_path="/home/me/mine/moe-canary.toml",
        ferry_path="/src/canary/ferries/moe-canary.toml",
        steps_requested=200,
        ferry_steps=200,
    )
    assert repro_commands(run, Facts(platform="cpu")) == ["canary run cpu --cold --gates /home/me/mine/moe-canary.toml"]
    pinned = replace(run, gates_path="/src/canary/gates/moe-canary.toml", steps_requested=50)
    assert repro_commands(pinned, Facts()) == ["canary run cpu --cold --steps 50"]
    crashed_late = replace(run, attempts=[replace(att, outcome="failed", steps_completed=120, signature=None)])
    assert repro_commands(crashed_late, Facts())[0].startswith("canary run cpu --cold")
    body = new_issue(run, Facts(platform="cpu")).body
    assert "| 1 | trained to the end, failed its gates |" in body and "| succeeded |" not in body
    assert "canary run cpu --cold --gates /home/me/mine/moe-canary.toml" in body and "canary repro" not in body


def test_a_failure_says_which_series_its_streak_is_of():
    body = new_issue(failing(), Facts(streak=StreakFacts(2, 2, 2, "2026-08-27"))).body
    assert "(Streak and last pass of the tpu/moe-canary series: full runs of ferry moe-canary on lane tpu.)" in body


def test_title_is_one_short_line():
    long = Signature("f00d", "runtime_crash", "RuntimeError", "x" * 500 + "\nsecond line")
    title = issue_title(failing(signature=long))
    assert title.startswith("[canary-tpu] RuntimeError: xxx") and "\n" not in title
    assert len(title) <= len("[canary-tpu] ") + 120


def test_summary_without_a_signature_uses_the_error_or_the_gates():
    assert summary_line(failing(signature=None, error="Traceback...\nKilled by signal 9")) == "Killed by signal 9"
    rec = failing(signature=None, error=None)
    rec.attempts = []
    assert summary_line(rec) == "gate failed: min_steps (0 < 200)"


def test_a_record_without_signature_still_gets_a_stable_fingerprint():
    a = new_issue(failing(signature=None), INCIDENT).body
    b = new_issue(failing("20260829T000000Z-tpu-9999", signature=None), INCIDENT).body
    assert issue_fingerprint(a) == issue_fingerprint(b) and issue_fingerprint(a).startswith("unsigned-")


def test_recovery_comment_says_what_passed():
    body = recovery_comment(passing(), Facts(failure_streak=StreakFacts(3, 2, 2, "2026-08-30"))).body
    assert "**Recovered on the scheduled tpu canary (2026-09-01)**" in body
    assert "238 steps, final loss 5.7976" in body
    assert "began on 2026-08-30 and lasted 3 runs over 2 days" in body
    assert "Closing" not in body


def test_manual_runs_are_not_called_scheduled():
    rec = failing(context={"event": "workflow_dispatch"})
    assert "Recurred on the manual tpu canary" in recurrence_comment(rec, INCIDENT).body
    # outside Actions (a person at a laptop with --notify github): run by hand, on the host it ran on
    by_hand = failing(context={"host": "ada-laptop"})
    said = recurrence_comment(by_hand, INCIDENT).body
    assert "**Recurred on the tpu canary run by hand on ada-laptop (2026-08-28)**" in said
    assert "run by hand on an unrecorded host" in new_issue(failing(context={}), INCIDENT).body
    unnamed = failing(context={"ci": {"workflow": "canary"}})  # Actions, its event not recorded
    assert "The tpu canary run by GitHub Actions failed" in new_issue(unnamed, INCIDENT).body
    pushed = failing(context={"ci": {"event_name": "push"}})
    pushed_body = new_issue(pushed, INCIDENT).body
    assert "scheduled" not in pushed_body and "The push tpu canary" in pushed_body


def test_one_attempt_is_unconfirmed_until_it_recurs_and_two_failed_runs_confirm_it():
    once = failing(attempts=1, classification="unconfirmed")
    body = new_issue(once, INCIDENT).body
    assert "Unconfirmed: the run's only attempt failed" in body and "Unconfirmed until it recurs" in body
    assert "eterministic" not in body
    twice = Facts(streak=StreakFacts(2, 2, 2, "2026-08-27", "r1"))
    comment = recurrence_comment(once, twice).body
    assert "Confirmed: the last two runs on this lane failed with this signature." in comment
    assert "Unconfirmed until" not in comment


def test_facts_round_trip_without_secrets():
    facts = Facts(
        lane_context="x",
        platform="tpu",
        streak=StreakFacts(2, 2, 2, "2026-08-27", "r1"),
        last_pass=LastPass("r0", "2026-08-26", "abc"),
        window=(WindowCommit("s", "subj", ["p"], True, ["p"]),),
        recovered=("fp",),
        secrets=("hunter2hunter2",),
    )
    d = facts.to_dict()
    assert "secrets" not in d and "hunter2hunter2" not in str(d)
    assert Facts.from_dict(d) == Facts(**{**facts.__dict__, "secrets": ()})


def test_what_is_new_compares_with_the_previous_occurrence():
    before = failing("20260827T060000Z-tpu-0001", "2026-08-27", classification="intermittent")
    before.attempts[1] = Attempt(2, "succeeded", 0, 10.0, "log")
    for a in before.attempts:
        a.cache = {"mode": "warm", "requests": 3, "hits": 3, "misses": 0, "errors": []}
    facts = Facts(previous=Previous.of(before))
    body = recurrence_comment(failing(), facts).body
    line = next(ln for ln in body.splitlines() if ln.startswith("New since the previous occurrence"))
    assert "run `20260827T060000Z-tpu-0001` (2026-08-27)" in line
    assert "classification intermittent → deterministic" in line
    assert "4 of 4 attempts failed (was 3 of 4)" in line
    assert "lowered cold: yes (was no)" in line and "cache read errors: yes (was no)" in line


def test_nothing_new_is_said_as_such():
    facts = Facts(previous=Previous.of(failing("20260827T060000Z-tpu-0001", "2026-08-27")))
    assert (
        "Nothing new since the previous occurrence, run `20260827T060000Z-tpu-0001` (2026-08-27)"
        in recurrence_comment(failing(), facts).body
    )
    assert "previous occurrence" not in recurrence_comment(failing(), Facts()).body


def test_previous_round_trips_through_facts():
    facts = Facts(previous=Previous.of(failing()))
    assert Facts.from_dict(facts.to_dict()) == facts


def test_the_window_of_a_regression_with_nothing_changed_says_what_is_left():
    from canary.history.windows import VersionChange, WindowCommit
    from canary.notify.model import Facts, LastPass
    from canary.notify.timeline import window_section

    lp = LastPass("r1", "2026-12-01", "a" * 40)
    same = window_section(Facts(last_pass=lp, window=(), versions=()))
    assert "the code and every version are the last pass's" in same
    assert "the machine, the compilation cache or the data changed" in same
    # versions that changed come first, before the commits: the likelier cause
    commit = WindowCommit("b" * 40, "refactor the router", ["model.py"], False)
    moved = window_section(
        Facts(last_pass=lp, window=(commit,), versions=(VersionChange("marin-haliax", "0.2.20", "0.2.21"),))
    )
    assert moved.index("marin-haliax") < moved.index("refactor the router")
    assert moved.count("marin-haliax") == 1 and "every version" not in moved
    unknown = window_section(Facts(last_pass=lp, window=(), versions=None))
    assert "No commits: the code is unchanged" in unknown and "every version" not in unknown
