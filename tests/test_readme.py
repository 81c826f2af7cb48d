"""The README's sample commands, read from the README when the tests run, against the code.

Every `canary ...` command the README shows (in a console or indented code block, in the command
table, or inline in its prose) must name a real subcommand and only flags that subcommand has.
Those with nothing left to fill in (no LANE, PATH, [--option], <run_id>) and that need no
accelerator, no GitHub and no cloud bucket are then run as written, in a scratch directory; the
ones that train, compile or lower are slow tests.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, run_cli

README = ROOT / "README.md"

QUICK = {"list", "history", "signature", "gate", "report"}  # commands that train, compile and lower nothing
# what a command needs that a test machine does not have
NEEDS_MORE = re.compile(
    r"gs://|--ray-address|--notify\b|--repo\b|^notify\b(?!.*--dry-run)|^run (tpu|gpu)\b"
    r"|^repro (tpu|gpu)\b(?!.*--json)"
)
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_/]{1,}\b|[<>\[\]]|\.\.\.|\bN\b")


def _commands_in(text: str) -> list[tuple[str, str]]:
    """Every `canary ...` command in ``text`` with where it was found: ``block`` (a console block's
    ``$ canary`` line or an indented code block), ``table`` (a table row's code span) or ``prose``
    (a code span in a sentence, often just naming a command)."""
    found: list[tuple[str, str]] = []
    text = re.sub(r"\\\n\s*", " ", text)  # a command continued over lines with a backslash
    for line in text.splitlines():
        stripped = line.strip()
        if (line.startswith("    ") or stripped.startswith("$ ")) and re.search(r"(?:^|\s|/)canary\s", stripped):
            found.append((stripped.removeprefix("$ "), "block"))
            continue
        for span in re.findall(r"`([^`]+)`", line):
            if re.match(r"^canary\s+[a-z]", span.strip()):
                found.append((span.strip(), "table" if stripped.startswith("|") else "prose"))
    out: list[tuple[str, str]] = []
    for command, kind in found:
        command = command.split("&&")[-1].strip()  # `python3 -m venv .venv && ... && .venv/bin/canary run cpu`
        command = " ".join(re.split(r"\s+#\s", command)[0].split())  # a trailing comment; runs of spaces
        command = re.sub(r"^(?:[A-Z_]+=\S+\s+)*(?:\S*/)?canary\s+", "canary ", command)  # ENV=... .venv/bin/canary
        if command.startswith("canary ") and command not in [c for c, _ in out]:
            out.append((command, kind))
    return out


def readme_commands() -> list[str]:
    return [c for c, _ in _commands_in(README.read_text())]


def _argv(command: str) -> list[str]:
    return shlex.split(command)[1:]


def _help_path(argv: list[str]) -> list[str]:
    """The command path whose --help lists the flags: ``history import`` for a group's subcommand."""
    import click

    from canary.cli import cli

    cmd = cli.get_command(None, argv[0])
    if isinstance(cmd, click.Group) and len(argv) > 1 and argv[1] in cmd.list_commands(None):
        return argv[:2]
    return argv[:1]


def test_the_readme_shows_commands():
    commands = readme_commands()
    assert any(c.startswith("canary run cpu") for c in commands)
    assert len({_argv(c)[0] for c in commands}) >= 5  # the table names most subcommands


def test_the_extraction_reads_blocks_tables_and_prose():
    text = (
        "    python3 -m venv .venv && .venv/bin/canary run cpu\n"
        "```console\n$ canary history --lane tpu\n```\n"
        "| `canary gate PATH` | judge it |\n"
        "A quick run (`canary run cpu --steps 20`) and `--cold` and `python x.py`; `canary gate` reads it.\n"
        "    XLA_FLAGS=--x canary list   # every lane\n"
        "        run: |\n          canary run tpu --ferry f.toml \\\n            --json > result.json\n"
    )
    assert _commands_in(text) == [
        ("canary run cpu", "block"),
        ("canary history --lane tpu", "block"),
        ("canary gate PATH", "table"),
        ("canary run cpu --steps 20", "prose"),
        ("canary gate", "prose"),
        ("canary list", "block"),
        ("canary run tpu --ferry f.toml --json > result.json", "block"),
    ]


@pytest.mark.parametrize("command", readme_commands())
def test_each_readme_command_is_a_real_subcommand_with_real_flags(command):
    from canary.cli import COMMANDS, cli

    argv = _argv(command)
    assert argv[0] in COMMANDS, f"README shows `{command}`, but there is no `canary {argv[0]}`"
    path = _help_path(argv)
    r = CliRunner().invoke(cli, [*path, "--help"])
    assert r.exit_code == 0, r.output
    for flag in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", command):
        assert _has_flag(r.output, flag), f"README shows `{command}`, but `canary {' '.join(path)}` has no {flag}"


def _has_flag(help_text: str, flag: str) -> bool:
    return re.search(re.escape(flag) + r"(?![\w-])", help_text) is not None


def _runnable() -> list:
    out = []
    for command, kind in _commands_in(README.read_text()):
        if PLACEHOLDER.search(command) or NEEDS_MORE.search(command[len("canary ") :]):
            continue
        if kind == "prose" and len(_argv(command)) == 1:
            continue  # a sentence naming a command (`canary gate` reads ...), not a sample
        sub = _argv(command)[0]
        out.append(pytest.param(command, marks=() if sub in QUICK else pytest.mark.slow, id=command))
    return out


@pytest.mark.parametrize("command", _runnable())
def test_each_runnable_readme_command_runs_as_written(command, tmp_path):
    # a scratch directory that looks like the checkout (its relative paths resolve), whose runs/ is
    # new; for `canary golden record` its gates/ is a copy, so the golden is written there, never
    # into the checkout
    writes_gates = _argv(command)[:2] == ["golden", "record"]
    for entry in ROOT.iterdir():
        if entry.name == "gates" and writes_gates:
            shutil.copytree(entry, tmp_path / entry.name)
        elif entry.name not in ("runs", ".git") and not entry.name.startswith("."):
            (tmp_path / entry.name).symlink_to(entry)
    # a golden's recording trains its ~16 runs one after another: minutes on a quiet machine, and as
    # long as the machine's load makes it on a busy one (each run has its own timeout)
    r = run_cli(*_argv(command), cwd=tmp_path, timeout=3600 if writes_gates else 900)
    assert r.returncode != 2, f"`{command}` was refused as bad input:\n{r.stderr}"
    assert "Traceback" not in r.stderr, r.stderr
    shown = _sample_output(command)
    if shown is not None and re.search(r"^PASS\b", shown, re.M):
        # the speed gates measure this machine as it is now (its load included): a live speed is
        # for bench/, so a run whose only FAILs are speed gates shows the README's sample as written
        record = _record(r.stdout)
        failed = [g["name"] for g in record["gates"] if g["status"] == "FAIL"] if record else []
        assert r.returncode == 0 or (failed and set(failed) <= PERF_GATES), (
            f"README shows `{command}` passing; it exited {r.returncode}:\n"
            + _why(r.stdout)
            + f"\n{r.stdout}{r.stderr}"
        )


PERF_GATES = {"throughput", "compile_seconds", "peak_memory"}


def _record(stdout: str) -> dict | None:
    """The record of the run whose output is ``stdout`` (its result.json), if it names one."""
    import json

    m = re.search(r"^run directory: (\S+)", stdout, re.M)
    if not m or not (Path(m.group(1)) / "result.json").is_file():
        return None
    return json.loads((Path(m.group(1)) / "result.json").read_text())


def _why(stdout: str) -> str:
    """What a README run's failure depends on. The loss gates hold on any x86 machine (the golden's
    band covers other instruction sets); the throughput floor is a FAIL only on the golden's kind of
    machine (its CPU count and model), where a slower run is a finding, not noise."""
    record = _record(stdout)
    if record is None:
        return "(no run directory)"
    failed = [f"{g['name']}: {g.get('detail')}" for g in record["gates"] if g["status"] == "FAIL"]
    host = {k: record["summary"].get(f"host/{k}") for k in ("cpus", "cpu_model")}
    perf = all(f.split(":")[0] in PERF_GATES for f in failed)
    return (
        "failed gates: "
        + "; ".join(failed)
        + f"; this host: {host}"
        + (
            "; only perf gates failed, so this host is the golden's kind and slower than its floor: "
            "measure its speed with `canary golden record cpu --perf-only`"
            if failed and perf
            else ""
        )
    )


def _sample_output(command: str) -> str | None:
    """What a console block shows after ``$ command``, when it does."""
    m = re.search(r"^\$ " + re.escape(command) + r"\n(.*?)^```", README.read_text(), re.M | re.S)
    return m.group(1) if m else None


def test_the_runnable_commands_include_a_quick_one():
    assert any(not p.marks for p in _runnable()), [p.id for p in _runnable()]


def _table_rows(text: str) -> list[tuple[str, list[str]]]:
    """(command, every --flag in its row) for each table row that starts with a canary command."""
    rows = []
    for line in text.splitlines():
        m = re.match(r"^\|\s*`(canary\s+[^`]+)`\s*\|(.*)$", line.strip())
        if m:
            rows.append((m.group(1), re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", line)))
    return rows


def test_the_flags_a_table_row_describes_belong_to_its_command():
    from canary.cli import cli

    rows = _table_rows(README.read_text())
    assert rows
    for command, flags in rows:
        path = _help_path(_argv(command))
        text = CliRunner().invoke(cli, [*path, "--help"]).output
        missing = [f for f in flags if not _has_flag(text, f)]
        assert not missing, f"README's row for `{command}` names {missing}, which `canary {' '.join(path)}` lacks"


@pytest.mark.slow  # collects the whole suite in a child pytest (several seconds on 2 cores)
def test_the_quick_suite_count_in_the_readme_is_in_step_with_the_suite():
    """The README dates its quick-suite figures; the count is checkable, so it must stay within a
    tenth of what the suite collects (the times follow the machine and its load, and are not)."""
    import subprocess
    import sys

    said = re.search(r"the quick suite \((\d+) tests on (\d{4}-\d\d-\d\d)", " ".join(README.read_text().split()))
    assert said, "README's Development section no longer says how many quick tests there are, and when"
    argv = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "not slow", "-p", "no:cacheprovider"]
    r = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    collected = re.search(r"^(\d+)/\d+ tests collected", r.stdout, re.M)
    assert collected, r.stdout[-2000:] + r.stderr[-2000:]
    n, claimed = int(collected.group(1)), int(said.group(1))
    assert abs(n - claimed) <= claimed // 10, f"README says {claimed} quick tests ({said.group(2)}); the suite has {n}"
