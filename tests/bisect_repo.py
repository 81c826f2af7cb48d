"""A git repository of this project's own tree with a history to bisect: harmless commits, one
that switches the tpu lane to the static megablox tiling (the incident's lowering bug), one that
makes the cpu lane's loss diverge, and commits that break and mend the import. Used by
tests/test_bisect.py and bench/bisect.py.

    shas = build(tmp / "repo", ["harmless", "break-import", "fix-import", "static-tiling", "harmless"])
    shas[0]          # the base commit: this checkout's files as they are
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FERRY = "ferries/moe-canary.toml"
BROKEN = "import canary_missing_dependency  # a dependency this revision needs and nobody has\n"
KINDS = ("harmless", "static-tiling", "break-import", "fix-import", "nan")

GIT_ENV = {
    "GIT_AUTHOR_NAME": "canary tests",
    "GIT_AUTHOR_EMAIL": "tests@canary.invalid",
    "GIT_COMMITTER_NAME": "canary tests",
    "GIT_COMMITTER_EMAIL": "tests@canary.invalid",
}


def git(repo: Path, *args: str) -> str:
    p = subprocess.run(
        ["git", "-c", "commit.gpgsign=false", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
        check=True,
    )
    return p.stdout.strip()


def _static_tiling(repo: Path) -> None:
    path = repo / FERRY
    text = path.read_text()
    tpu = text.index("[lanes.tpu]")
    line = text.index('tiling = "per-shape"', tpu)
    path.write_text(text[:line] + 'tiling = "static"' + text[line + len('tiling = "per-shape"') :])


def _edit(repo: Path, kind: str, n: int) -> str:
    """Change the tree for a commit of ``kind``; return its subject."""
    if kind == "harmless":
        with (repo / "docs" / "changelog.txt").open("a") as f:
            f.write(f"change {n}\n")
        return f"docs: changelog entry {n}"
    if kind == "static-tiling":
        _static_tiling(repo)
        return "ferry: tpu lane uses the static megablox tiling"
    if kind == "nan":
        path = repo / FERRY
        text = path.read_text()
        assert "\nlearning_rate = " in text
        path.write_text(re.sub(r"(?m)^learning_rate = .*$", "learning_rate = 1e12", text, count=1))
        return "ferry: a learning rate that diverges"
    cli = repo / "canary" / "cli.py"
    if kind == "break-import":
        cli.write_text(cli.read_text() + BROKEN)
        return "cli: import a dependency that is not installed"
    if kind == "fix-import":
        cli.write_text(cli.read_text().replace(BROKEN, ""))
        return "cli: drop the missing dependency"
    raise ValueError(f"unknown commit kind {kind!r}; known: {', '.join(KINDS)}")


def build(repo: Path, kinds: list[str], source: Path = ROOT) -> list[str]:
    """A new repository at ``repo``: the base commit (``source``'s files as they are, tracked and
    new, so the code under test is the working tree's) and one commit per kind. Returns the full
    shas, base first."""
    repo.mkdir(parents=True)
    git(repo, "init", "--quiet", "--initial-branch=main")
    files = subprocess.run(
        ["git", "-C", str(source), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    for name in files:
        if name and (source / name).is_file():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source / name, repo / name)
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "base: the project as it is")
    shas = [git(repo, "rev-parse", "HEAD")]
    for n, kind in enumerate(kinds, 1):
        subject = _edit(repo, kind, n)
        git(repo, "add", "-A")
        git(repo, "commit", "--quiet", "-m", subject)
        shas.append(git(repo, "rev-parse", "HEAD"))
    return shas
