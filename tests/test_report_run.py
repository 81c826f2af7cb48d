"""What `canary run` leaves beside its verdict: the loss image in the run directory, a loss
sparkline, and the GitHub Actions job summary."""

import json
import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT
from notify_records import failing, passing
from report_records import write_metrics

from canary.history import open_store
from canary.history.windows import WindowCommit
from canary.notify.after_run import run_facts
from canary.notify.model import Facts, LastPass
from canary.report.after_run import after_run, loss_line
from canary.report.summary import run_summary


def test_failing_run_summary_has_verdict_gates_signature_cache_window_and_links():
    r = failing()
    window = (
        WindowCommit("a1b2c3d4e5f6a7b8", "Bump jax", ["pyproject.toml"], True, ["pyproject.toml"]),
        WindowCommit("0f0f0f0f0f0f0f0f", "docs: typo", ["README.md"], False),
    )
    md = run_summary(
        r,
        Facts(last_pass=LastPass("20260826T060000Z-tpu-0001", "2026-08-26", "feedface" * 5), window=window),
        loss_line="▇▅▃▁ 11.80 → 6.10 (steps 0–39)",
    )
    assert md.startswith("## canary ❌ FAIL (deterministic): moe-canary v1 on tpu")
    assert "| min\\_steps | 0 | 200 | -200 | **FAIL** | 0 \\< 200 |" in md
    assert "`3f9a1c2b7d4e`" in md and "Call path:" in md and "megablox/gmm.py:gmm" in md
    assert "### Compilation cache" in md and "Session is closed" in md
    assert "### Regression window" in md and "**watched** `a1b2c3d4e5f6` Bump jax" in md
    assert "[Actions run](https://github.com/acme/canary/actions/runs/1234567)" in md
    assert "[W&B run](https://wandb.ai/acme/canary/runs/abc123)" in md and "[GitHub issue](" in md
    assert "Loss: `▇▅▃▁ 11.80 → 6.10 (steps 0–39)`" in md


def test_passing_run_summary_is_short_and_secrets_never_appear():
    r = passing(
        gates=[
            {
                "name": "max_final_loss",
                "value": 5.7976,
                "threshold": 8.0,
                "status": "PASS",
                "detail": "token ghp_" + "x" * 36,
            }
        ]
    )
    md = run_summary(r, secrets=("hunter2-secret",))
    assert md.startswith("## canary ✅ PASS: moe-canary v1 on tpu")
    assert "| max\\_final\\_loss | 5.7976 | 8.0000 | +2.202 | PASS |" in md
    assert "Regression window" not in md and "Signature" not in md
    assert "ghp_xxxx" not in md


def test_after_run_writes_loss_image_and_appends_the_summary(tmp_path):
    run_dir = tmp_path / "runs" / "r1"
    write_metrics(run_dir, steps=30)
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step's summary\n")
    r = failing(run_dir=str(run_dir))
    store = open_store(str(tmp_path / "h.sqlite3"), spool_dir=tmp_path / "hspool")
    said = after_run(r, run_facts(r, store), environ={"GITHUB_STEP_SUMMARY": str(summary)})
    assert said.notes == [] and said.loss_image == str(run_dir / "loss.svg")
    svg = (run_dir / "loss.svg").read_text()
    assert "<svg" in svg and r.run_id in svg and ">step<" in svg
    text = summary.read_text()
    assert text.startswith("earlier step's summary\n## canary ❌ FAIL")  # appended, never replaced
    assert said.loss_line.startswith("█") and "11.80 →" in said.loss_line and "(steps 0–29)" in said.loss_line
    assert "No passing run on this lane is recorded" in text  # the (empty) history was read


def test_after_run_without_metrics_or_summary_does_nothing(tmp_path):
    said = after_run(passing(run_dir=str(tmp_path / "gone")), environ={})
    assert (said.loss_line, said.loss_image, said.step_summary, said.notes) == ("", None, None, [])
    assert loss_line([]) == ""


def test_the_loss_image_needs_no_matplotlib(tmp_path):
    run_dir = tmp_path / "r"
    write_metrics(run_dir, steps=5)
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "from canary.report.after_run import after_run\n"
        "from notify_records import passing\n"
        f"said = after_run(passing(run_dir={str(run_dir)!r}), environ={{}})\n"
        "print(said.notes); print(said.loss_line)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}"},
    )
    assert out.returncode == 0, out.stderr
    notes, line = out.stdout.splitlines()
    assert notes == "[]" and line.startswith("█")
    assert "<polyline" in (run_dir / "loss.svg").read_text()


def test_the_loss_image_is_an_svg_document_with_axes_title_and_a_broken_line():
    import xml.etree.ElementTree as ET

    from canary.report.charts import loss_image_svg, nice_ticks

    assert nice_ticks(0, 199) == [0, 50, 100, 150]
    assert nice_ticks(2.37, 6.93) == [3, 4, 5, 6]
    assert nice_ticks(0.1, 0.35) == [0.1, 0.15, 0.2, 0.25, 0.3, 0.35]
    assert nice_ticks(5.0, 5.0) == [5.0]
    assert nice_ticks(0, 2, least=1) == [0, 1, 2]
    losses = [(0, 6.7), (1, 6.1), (2, float("nan")), (3, 5.2), (4, 4.9)]
    svg = loss_image_svg(losses, title="moe-canary v1 on cpu <r1>")
    root = ET.fromstring(svg.split("?>", 1)[1])  # well-formed XML
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(f"{ns}polyline")) == 2  # broken at the NaN step
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert "step" in texts and "loss" in texts and "moe-canary v1 on cpu <r1>" in texts
    assert loss_image_svg([(0, 5.0)])  # one point, no range: still drawn
    assert "<polyline" not in loss_image_svg([(0, float("inf"))])


@pytest.mark.slow
def test_run_prints_sparkline_writes_image_and_job_summary(cli, tmp_path):
    gates = tmp_path / "lenient.toml"
    gates.write_text("[lanes.cpu]\nmin_steps = 8\nmax_final_loss = 20.0\n")
    summary = tmp_path / "summary.md"
    env = {
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_REPOSITORY": "acme/canary",
        "GITHUB_RUN_ID": "77",
        "GITHUB_SERVER_URL": "https://github.com",
        "COLUMNS": "100",
    }
    r = cli(
        "run",
        "cpu",
        "--steps",
        "8",
        "--gates",
        str(gates),
        "--out",
        str(tmp_path / "runs"),
        "--history",
        str(tmp_path / "h.sqlite3"),
        env=env,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    line = next(x for x in r.stdout.splitlines() if x.startswith("loss "))
    assert any(c in line for c in "▁▂▃▄▅▆▇█") and "(steps 0–7)" in line
    run_dir = next((tmp_path / "runs").iterdir())
    assert (run_dir / "loss.svg").read_text().lstrip().startswith("<?xml")
    md = summary.read_text()
    assert re.match(r"## canary ✅ PASS: moe-canary v\d+ on cpu", md) and "| min\\_steps | 8 | 8 | +0 | PASS |" in md
    assert "[Actions run](https://github.com/acme/canary/actions/runs/77)" in md

    r = cli(
        "run",
        "cpu",
        "--steps",
        "8",
        "--gates",
        str(gates),
        "--out",
        str(tmp_path / "runs"),
        "--json",
        "--no-history",
        env={**env, "GITHUB_STEP_SUMMARY": str(tmp_path / "second.md")},
    )
    assert r.returncode == 0
    said = json.loads(r.stdout)["after_run"]
    assert said["loss_image"].endswith("loss.svg") and said["step_summary"] == str(tmp_path / "second.md")


def test_the_summary_links_the_issue_the_notifier_just_used(tmp_path):
    from canary.notify import Delivery, NotifyResult
    from canary.notify.tracker import Action

    r = failing(run_dir=str(tmp_path / "none"))
    summary = tmp_path / "s.md"
    url = "https://github.com/acme/canary/issues/12"
    sent = NotifyResult(
        [
            Delivery("older-run", "sent", [Action("commented", 3, "", "https://x/3")]),
            Delivery(r.run_id, "sent", [Action("commented", 12, "commented on #12", url)]),
        ]
    )
    after_run(r, environ={"GITHUB_STEP_SUMMARY": str(summary)}, notified=sent)
    assert f"[GitHub issue]({url})" in summary.read_text()
    dry = NotifyResult([Delivery(r.run_id, "dry-run", [Action("opened", None, "would open", None)])])
    after_run(r, environ={"GITHUB_STEP_SUMMARY": str(tmp_path / "d.md")}, notified=dry)
    assert "issues?q=is%3Aissue+3f9a1c2b7d4e" in (tmp_path / "d.md").read_text()
