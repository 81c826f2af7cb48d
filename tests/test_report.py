"""``canary report``: what the page shows, computed from records, and the command writing it."""

import json
import re
from dataclasses import replace

import pytest
from notify_records import failing, passing
from report_records import SUMMARY, history, write_metrics

from canary.history.sqlite import SqliteStore
from canary.report import golden_band, loss_view, model, parse_band, render


def test_each_run_is_a_cell_labelled_and_coloured_by_its_classification(tmp_path):
    views = {v.lane: v for v in model.lane_views(history(tmp_path))}
    assert [c.label for c in views["tpu"].cells] == ["P", "D", "CM", "P", "D"]
    assert [c.classification for c in views["cpu"].cells] == ["pass"] * 4 + [
        "intermittent",
        "infrastructure",
        "cancelled",
    ]
    colours = {c.classification: c.colour for v in views.values() for c in v.cells}
    assert len(set(colours.values())) == len(colours)  # one colour per classification
    assert views["tpu"].streak.runs == 1 and views["tpu"].passes == 2


def test_a_record_without_classification_shows_its_verdict():
    r = failing(classification=None)
    assert model.cell(r).label == "F" and model.cell(passing(classification=None)).label == "P"


def test_gate_margins_are_headroom():
    assert model.gate_margin({"name": "min_steps", "value": 238, "threshold": 200}) == "+38"
    assert model.gate_margin({"name": "min_steps", "value": 0, "threshold": 200}) == "-200"
    assert model.gate_margin({"name": "max_final_loss", "value": 5.8, "threshold": 8.0}) == "+2.2"
    assert model.gate_margin({"name": "max_final_loss", "value": float("nan"), "threshold": 8.0}) == ""
    assert model.gate_margin({"name": "max_final_loss", "value": None, "threshold": 8.0}) == ""


def test_run_details_hold_gates_signature_cache_versions_and_links():
    d = model.run_details(failing(versions={"jax": "0.10.2"}))
    assert d.gates[0]["margin"] == "-200" and d.signature["fingerprint"] == "3f9a1c2b7d4e"
    assert d.signature["frames"][-1].endswith("gmm.py:gmm")
    assert dict(d.cache)["mode"] == "warm" and dict(d.cache)["misses"] == "1" and d.versions == {"jax": "0.10.2"}
    first = model.cache_facts(failing().attempts[0].cache)
    assert dict(first)["read errors"].startswith("1: UserWarning: Error reading persistent compilation cache")
    labels = {link.label: link.url for link in d.links}
    assert labels["Actions run"] == "https://github.com/acme/canary/actions/runs/1234567"
    assert labels["W&B run"] == "https://wandb.ai/acme/canary/runs/abc123"
    # no issue link recorded: the repository's issues searched for the fingerprint
    assert labels["GitHub issue"] == "https://github.com/acme/canary/issues?q=is%3Aissue+3f9a1c2b7d4e"
    linked = failing(context={"issue_url": "https://github.com/acme/canary/issues/7"})
    assert {link.label: link.url for link in model.links(linked)}["GitHub issue"].endswith("/issues/7")


def test_signatures_failing_now_first_with_counts_and_streak(tmp_path):
    rows = model.signature_rows(history(tmp_path))
    assert [r.fingerprint for r in rows][0] == "3f9a1c2b7d4e"
    top = rows[0]
    assert (top.occurrences, top.streak, top.failing_now, top.lanes) == (3, 1, True, ["tpu"])
    assert top.first_seen.startswith("2026-08-27") and top.last_seen.startswith("2026-08-30")
    assert all(not r.failing_now for r in rows[1:])


def test_perf_series_per_lane_from_summaries_and_cache_facts(tmp_path):
    series = {s.lane: s for s in model.perf_series(history(tmp_path))}
    tpu = series["tpu"]
    assert tpu.values["tokens_per_second"] == [41000.0, None, None, 43000.0, None]
    assert tpu.values["compile_seconds"] == [9.5, 9.0, 9.0, 1.2, 9.0]  # failures: from their cache facts


@pytest.mark.parametrize(
    "data",
    [
        {"steps": [0, 1, 2], "low": [9.0, 8.0, 7.0], "high": [11.0, 10.0, 9.0]},
        {
            "points": [
                {"step": 0, "lower": 9.0, "upper": 11.0},
                {"step": 1, "lower": 8.0, "upper": 10.0},
                {"step": 2, "lower": 7.0, "upper": 9.0},
            ]
        },
    ],
)
def test_golden_band_shapes(data):
    assert parse_band(data) == [(0, 9.0, 11.0), (1, 8.0, 10.0), (2, 7.0, 9.0)]


def test_golden_band_from_loss_and_tolerance_and_nonsense():
    assert parse_band({"steps": [0, 10], "loss": [10.0, 5.0], "rtol": 0.1}) == [(0, 9.0, 11.0), (10, 4.5, 5.5)]
    assert parse_band({"steps": "x"}) is None and parse_band([1, 2]) is None


def test_the_page_holds_every_run_charts_and_no_external_resource(tmp_path):
    records = history(tmp_path)
    html = render(records, "test-history")
    for r in records:
        assert f'data-run="{r.run_id}"' in html and f'id="run-{r.run_id}"' in html
    assert html.count('class="cell c-') == len(records)
    assert html.count("<svg") == 2  # the cpu loss curve (tpu's run directories are elsewhere) and the figures
    assert "no per-step losses" in html
    assert not re.search(r"""(src|@import|url\()\s*=?\s*["']?(https?:)?//""", html)
    assert re.findall(r"<link[^>]*>", html) == ['<link rel="icon" href="data:,">'] and "<img" not in html


def test_loss_curve_drawn_against_its_golden_band(tmp_path, monkeypatch):
    gates = tmp_path / "gates"
    gates.mkdir()
    (gates / "moe-canary.cpu.golden.json").write_text(
        json.dumps({"steps": list(range(40)), "loss": [6.0 + 5.8 * 0.9**s for s in range(40)], "rtol": 0.05})
    )
    monkeypatch.setenv("CANARY_GATES_PATH", str(gates))
    band, source = golden_band("moe-canary", "cpu")
    assert len(band) == 40 and source.endswith("moe-canary.cpu.golden.json")
    html = render(history(tmp_path), "test-history")
    assert "golden band from" in html and "golden band</text>" in html


@pytest.mark.slow  # two canary report commands, each importing matplotlib to draw its charts
def test_report_command_writes_the_page(tmp_path, cli):
    store = SqliteStore(tmp_path / "h.sqlite3")
    for r in history(tmp_path):
        store.append(r)
    out = tmp_path / "site" / "report.html"
    proc = cli("report", "--history", str(tmp_path / "h.sqlite3"), "--out", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    said = json.loads(proc.stdout)
    assert said["runs"] == 12 and said["lanes"] == ["cpu", "tpu"] and said["path"] == str(out)
    assert out.read_text().count('class="cell c-') == 12
    proc = cli(
        "report", "--history", str(tmp_path / "h.sqlite3"), "--lane", "tpu", "--since", "2026-08-28", "--out", str(out)
    )
    assert proc.returncode == 0 and "wrote" in proc.stdout and "3 runs in 1 series" in proc.stdout
    assert out.read_text().count('class="cell c-') == 3


def test_report_on_an_empty_history_says_so(tmp_path, cli):
    out = tmp_path / "r.html"
    proc = cli("report", "--history", str(tmp_path / "empty.sqlite3"), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "No runs recorded." in out.read_text()


def test_report_bad_history_is_bad_input(tmp_path, cli):
    proc = cli("report", "--history", "ftp://nowhere/x", "--out", str(tmp_path / "r.html"))
    assert proc.returncode == 2 and "ftp" in proc.stderr


# ----------------------------------------------------------------------------- text without colour


def _column(lines: list[str], header: str, next_header: str) -> str:
    """A column's text in a borderless table, folded lines joined."""
    head = next(line for line in lines if f" {header} " in line and f" {next_header}" in line)
    start, end = head.index(f" {header} ") + 1, head.index(f" {next_header}") + 1
    return "".join(line[start:end].strip() for line in lines[lines.index(head) + 2 :])


def test_list_fits_80_columns_without_cutting_a_value(cli):
    proc = cli("list", env={"COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"})
    assert proc.returncode == 0, proc.stderr
    assert "…" not in proc.stdout
    lanes = proc.stdout.split("\nFerry ")[0].splitlines()
    assert max(len(line.rstrip()) for line in lanes) <= 80
    cache = _column(lanes, "cache", "W&B")
    assert "gs://canary-compilation-cache/ttl=30d/tpu" in cache and "gs://canary-compilation-cache/ttl=30d/gpu" in cache
    assert "accelerator" in proc.stdout and "megablox" in proc.stdout


def test_list_to_a_pipe_cuts_and_splits_no_value(cli):
    """Output to a pipe or a file (a CI log) is data: without COLUMNS no cell is cut ("ragged_…")
    and no path is split over lines, however long its line gets."""
    proc = cli("list", env={"COLUMNS": "", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "…" not in proc.stdout and " ragged_dot " in proc.stdout
    lines = proc.stdout.splitlines()
    assert any(line.startswith("Lanes (") and line.rstrip().endswith("lanes.toml)") for line in lines)
    assert any("gs://canary-compilation-cache/ttl=30d/tpu" in line for line in lines)


def test_a_lowering_failure_to_a_file_keeps_its_error_and_path_on_one_line(monkeypatch):
    import io

    monkeypatch.delenv("COLUMNS", raising=False)  # a file's lines are as long as they hold, unless COLUMNS says

    from canary.render import console, lowering_report
    from canary.run.lowered import PlatformResult
    from canary.run.lowering import LowerReport

    path = "/home/ci01/.venv/lib/python3.11/site-packages/jax/experimental/pallas/ops/tpu/megablox/gmm.py:393"
    error = (
        f"ValueError: The Pallas TPU lowering currently requires ... Block spec for outputs at {path} has block shape"
    )
    frame = "/home/ci01/.venv/lib/python3.11/site-packages/haliax/nn/ragged_dot.py:120 in ragged_dot"
    failed = PlatformResult("tpu", "tpu", False, error, 17.1, "megablox", "static", 32, 8192, 4, call_path=[frame])
    buf = io.StringIO()
    lowering_report(LowerReport("moe-canary", [failed]), console(file=buf))
    lines = buf.getvalue().splitlines()
    assert error in lines and any(line.endswith(frame) for line in lines), lines
    assert any("ragged_dot" in line and "batch x seq (per device)" in line for line in lines)


def test_history_tells_pass_from_fail_without_colour(tmp_path, cli):
    store = SqliteStore(tmp_path / "h.sqlite3")
    for r in history(tmp_path):
        store.append(r)
    proc = cli("history", "--history", str(tmp_path / "h.sqlite3"), env={"COLUMNS": "80", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "\x1b[" not in proc.stdout and "…" not in proc.stdout
    strips = {
        line.split()[0]: line.split()[1]
        for line in proc.stdout.splitlines()
        if line.strip().startswith(("tpu/", "cpu/"))
    }
    assert strips == {"tpu/moe-canary": "✓✗✗✓✗", "cpu/moe-canary": "✓✓✓✓✗✗✗"}
    assert "✓ pass, ✗ fail" in proc.stdout and proc.stdout.count("✗ FAIL") == 6
    assert "3f9a1c2b7d4e" in proc.stdout and "0a1b2c3d4e5f" in proc.stdout


def test_verdict_strip_and_sparkline():
    from canary.render import sparkline, verdict_strip

    assert verdict_strip("PF") == "[green]✓[/][red]✗[/]"
    assert sparkline([3.0, 2.0, 1.0]) == "█▅▁"
    assert sparkline(range(100), width=10) == "▁▂▃▃▄▅▆▆▇█"
    assert sparkline([2.0, float("nan")]) == "▁×" and sparkline([1.0, 1.0]) == "▁▁" and sparkline([]) == ""


GOLDEN_FILE = {  # the shape `canary golden record` writes (gates/<ferry>.<lane>.golden.json)
    "ferry": "moe-canary",
    "ferry_version": 1,
    "lane": "cpu",
    "steps": 40,
    "metric": "train/loss",
    "window": 20,
    "final_loss": 6.1,
    "tolerance": {"loss_curve": {"rtol": 0.01, "observed": 0.004, "factor": 1.5, "floor": 0.001}},
    "perf": {},
    "host": {},
    "recorded": {},
    "loss_windows": [
        {"steps": [0, 19], "mean": 8.0, "spread": 0.002},
        {"steps": [20, 39], "mean": 6.3, "spread": 0.001},
    ],
}


def test_windowed_golden_band_and_the_runs_window_means(tmp_path, monkeypatch):
    from canary.report import window_means

    band = parse_band(GOLDEN_FILE)
    expected = [(0, 7.92, 8.08), (19, 7.92, 8.08), (20, 6.237, 6.363), (39, 6.237, 6.363)]
    assert [p[0] for p in band] == [e[0] for e in expected]
    assert [p[1:] for p in band] == [pytest.approx(e[1:]) for e in expected]
    means = window_means([(s, 10.0 - s / 10) for s in range(40)], band)
    assert means == [(9.5, pytest.approx(9.05)), (29.5, pytest.approx(7.05))]
    assert window_means([(0, 1.0)], [(0, 1.0, 2.0), (5, 1.5, 2.5)]) == []  # not windowed: no means
    own = {
        **GOLDEN_FILE,
        "loss_windows": [
            dict(GOLDEN_FILE["loss_windows"][0], rtol=0.001),
            dict(GOLDEN_FILE["loss_windows"][1], rtol=0.02),
        ],
    }
    assert [p[1:] for p in parse_band(own)] == [
        pytest.approx(e) for e in ((7.992, 8.008), (7.992, 8.008), (6.174, 6.426), (6.174, 6.426))
    ]  # each window its own band
    gates = tmp_path / "gates"
    gates.mkdir()
    (gates / "moe-canary.cpu.golden.json").write_text(json.dumps(GOLDEN_FILE))
    monkeypatch.setenv("CANARY_GATES_PATH", str(gates))
    html = render(history(tmp_path), "test-history")
    assert "window mean</text>" in html and "golden band</text>" in html


def test_report_help_imports_neither_jax_nor_matplotlib():
    import subprocess
    import sys

    from conftest import ROOT

    code = (
        "import sys; sys.argv = ['canary', 'report', '--help']\n"
        "from canary.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print([m for m in ('jax', 'matplotlib') if m in sys.modules])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    assert "--history" in out.stdout and out.stdout.strip().endswith("[]")


def test_report_without_matplotlib_says_how_to_get_it(tmp_path):
    import subprocess
    import sys

    from conftest import ROOT

    store = SqliteStore(tmp_path / "h.sqlite3")
    store.append(passing())
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        f"sys.argv = ['canary', 'report', '--history', {str(tmp_path / 'h.sqlite3')!r}, "
        f"'--out', {str(tmp_path / 'r.html')!r}]\n"
        "from canary.cli import main\nmain()"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 2 and "matplotlib" in out.stderr and "pip install matplotlib" in out.stderr
    assert not (tmp_path / "r.html").exists()


def _short(r, requested=10, ferry_steps=40):
    return replace(r, steps_requested=requested, ferry_steps=ferry_steps)


def test_a_second_ferry_and_a_short_run_are_their_own_timeline_and_never_the_latest_curve(tmp_path):
    """A command ferry's example on the cpu lane is its own series; a 10-step repro is shown in
    the cpu/moe-canary timeline (label in lower case) but is not the series' latest loss curve,
    nor part of its passes, streak or figures."""
    rs = history(tmp_path)
    repro_dir = tmp_path / "runs" / "repro"
    write_metrics(repro_dir, steps=10)
    rs.append(
        _short(
            passing(
                "20260902T070000Z-cpu-1008", "2026-09-02", lane="cpu", run_dir=str(repro_dir), summary=dict(SUMMARY)
            )
        )
    )
    rs.append(passing("20260902T080000Z-cpu-2001", "2026-09-02", lane="cpu", ferry="levanter-standin"))
    views = {v.series: v for v in model.lane_views(rs)}
    assert set(views) == {"cpu/moe-canary", "cpu/levanter-standin", "tpu/moe-canary"}
    cpu = views["cpu/moe-canary"]
    assert cpu.runs == 8 and cpu.short == 1 and cpu.passes == 4 and cpu.cells[-1].label == "p"
    assert "short run: 10 of 40 steps" in cpu.cells[-1].title
    assert cpu.latest.run_id == "20260901T070000Z-cpu-1007"
    assert views["cpu/levanter-standin"].runs == 1 and views["tpu/moe-canary"].runs == 5
    loss = loss_view(rs, "cpu", "moe-canary")
    assert loss.lane == "cpu/moe-canary" and loss.run_id == "20260829T070000Z-cpu-1004"
    series = {s.label: s for s in model.perf_series(rs)}
    # the short run's and the cancelled run's figures left out
    assert len(series["cpu/moe-canary"].started_at) == 6
    html = render(rs, "test-history")
    assert (
        'data-series="cpu/levanter-standin"></span>cpu/levanter-standin</h3>' in html
        and "1 short run, in lower case, not counted" in html
    )


def test_an_experiment_and_a_cancelled_run_are_never_the_latest_curve_nor_points_on_the_charts(tmp_path):
    """An experiment (gates not the pinned ones) is shown in its series' timeline, in lower case,
    and counted nowhere: not its passes, streak, charts or signatures. A cancelled run that left
    per-step losses is not the latest loss curve, nor a point on the tokens/s and final-loss charts."""
    rs = [r for r in history(tmp_path) if r.classification != "cancelled"]
    stopped_dir = tmp_path / "runs" / "stopped"
    write_metrics(stopped_dir, steps=12)
    rs.append(
        passing(
            "20260902T070000Z-cpu-1008",
            "2026-09-02",
            lane="cpu",
            verdict="cancelled",
            classification="cancelled",
            run_dir=str(stopped_dir),
            final_loss=9.0,
            summary=dict(SUMMARY),
        )
    )
    impossible_dir = tmp_path / "runs" / "impossible"
    write_metrics(impossible_dir)
    why = "gates file /tmp/w/gates/moe-canary.toml is not the pinned gates/moe-canary.toml"
    rs.append(
        failing(
            "20260903T070000Z-cpu-1009",
            "2026-09-03",
            lane="cpu",
            fp="c0ffeec0ffee",
            run_dir=str(impossible_dir),
            summary=dict(SUMMARY),
            experiment=why,
        )
    )
    cpu = {v.series: v for v in model.lane_views(rs)}["cpu/moe-canary"]
    assert cpu.experiments == 1 and cpu.short == 0 and cpu.cells[-1].label == cpu.cells[-1].label.lower()
    assert f"experiment ({why}), not counted" in cpu.cells[-1].title
    assert cpu.streak.runs == 2 and "c0ffeec0ffee" not in cpu.streak.fingerprints  # as before the experiment
    assert cpu.latest.run_id != "20260903T070000Z-cpu-1009"
    loss = loss_view(rs, "cpu", "moe-canary")
    assert loss.run_id == "20260829T070000Z-cpu-1004"  # neither the experiment nor the cancelled run
    charted = {s.label: s for s in model.perf_series(rs)}["cpu/moe-canary"]
    assert all(not t.startswith(("2026-09-02", "2026-09-03")) for t in charted.started_at)
    assert "c0ffeec0ffee" not in {row.fingerprint for row in model.signature_rows(rs)}
    assert "1 experiment, in lower case, not counted" in render(rs, "test-history")


@pytest.mark.parametrize("command", ["history", "report"])
def test_an_unknown_lane_is_bad_input(tmp_path, cli, command):
    store = SqliteStore(tmp_path / "h.sqlite3")
    store.append(passing(lane="cpu"))
    proc = cli(
        command,
        "--history",
        str(tmp_path / "h.sqlite3"),
        "--lane",
        "nope",
        "--out" if command == "report" else "--last",
        str(tmp_path / "r.html") if command == "report" else "5",
    )
    assert proc.returncode == 2 and "unknown lane 'nope'" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "r.html").exists()
    proc = cli(
        command,
        "--history",
        str(tmp_path / "h.sqlite3"),
        "--lane",
        "tpu",
        *(["--out", str(tmp_path / "r.html")] if command == "report" else []),
    )
    assert proc.returncode == 0, proc.stderr  # a known lane with no runs yet: an empty answer


def test_a_step_in_the_passing_runs_is_marked_on_its_chart():
    from tests.perf_records import history as perf_history
    from tests.perf_records import stepped

    records = perf_history(stepped(40, 20, -0.05, seed=1))
    (mark,) = model.step_marks(records)
    assert (mark.lane, mark.ferry, mark.chart, mark.run_id, mark.worse) == (
        "cpu",
        "moe-canary",
        "tokens_per_second",
        records[20].run_id,
        True,
    )
    assert mark.label.startswith("-") and mark.label.endswith("%")
    html = render(records, "test")
    assert html.count(f'id="step-{records[20].run_id}"') == 1 and f"step {mark.label}" in html
    assert model.step_marks(perf_history([12000.0] * 40)) == []


def _stroke(svg_group: str) -> str:
    return re.search(r"stroke: ?(#[0-9a-f]{6})", svg_group).group(1)


def test_a_series_keeps_its_colour_in_every_chart_and_the_legend(tmp_path):
    """Three series, one of them without a step time (absent from the first panel): each series'
    line has one colour in the loss chart and every figures panel, the legend's and its timeline's
    swatch, and no two series share one."""
    rs = history(tmp_path)
    standin_dir = tmp_path / "runs" / "standin"
    write_metrics(standin_dir)
    no_step_time = {k: v for k, v in SUMMARY.items() if k != "throughput/median_step_seconds"}
    rs.append(
        passing(
            "20260902T080000Z-cpu-2001",
            "2026-09-02",
            lane="cpu",
            ferry="levanter-standin",
            run_dir=str(standin_dir),
            summary=no_step_time,
        )
    )
    html = render(rs, "test-history")
    drawn: dict[str, dict[str, str]] = {}  # series id -> chart -> colour
    for m in re.finditer(
        r'<g id="(loss|perf-[a-z_]+)-(cpu-moe-canary|cpu-levanter-standin|tpu-moe-canary)">(.*?)</g>', html, re.S
    ):
        drawn.setdefault(m.group(2), {})[m.group(1)] = _stroke(m.group(3))
    swatches = re.findall(r'<span class="swatch" style="background:(#[0-9a-f]{6})" data-series="([^"]+)">', html)
    assert {s for _, s in swatches} == {"cpu/moe-canary", "cpu/levanter-standin", "tpu/moe-canary"}
    legend = {}
    for colour, series in swatches:  # the legend, the timelines and the loss headings agree
        assert legend.setdefault(series, colour) == colour, series
    assert "perf-step_seconds" not in drawn["cpu-levanter-standin"]
    assert "perf-step_seconds" in drawn["cpu-moe-canary"] and "perf-step_seconds" in drawn["tpu-moe-canary"]
    assert {"loss", "perf-tokens_per_second", "perf-final_loss"} <= set(drawn["cpu-levanter-standin"])
    assert len(drawn["cpu-moe-canary"]) >= 5
    for series, colour in legend.items():
        assert set(drawn[series.replace("/", "-")].values()) == {colour}, (series, drawn[series.replace("/", "-")])
    assert len(set(legend.values())) == 3
    # the assignment follows the sorted series keys, whatever the records' order
    assert render(list(reversed(rs)), "test-history").count(f"background:{legend['cpu/levanter-standin']}") == (
        html.count(f"background:{legend['cpu/levanter-standin']}")
    )
