"""A hostile sweep of canary's edges, through the real command line:

    python bench/hostile_sweep.py [--only WORD] [--json]

Each case runs ``python -m canary ...`` in a subprocess, in a temporary folder of its own, against
the loopback GitHub server of the tests (127.0.0.1 only) or a stand-in workload through the
command launcher, and is **clean** when it ends as canary promises: the exit status it should
have, no traceback, nothing leaked (a planted secret, or a piece of one, in any output, file or
posted text), no control sequence echoed or posted, nothing written outside its folder, and
within its time limit. A case that is not clean is printed with what was wrong. The table it
prints is the one in docs/security.md. A plain script, run by hand; it takes a few minutes.
"""

from __future__ import annotations

import argparse
import base64
import glob
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from git_repos import GIT_ENV, shallow_clone, source_repo  # noqa: E402
from github_server import GitHubServer, RawReply  # noqa: E402  (the tests' loopback server)
from notify_records import failing, passing  # noqa: E402

PY = sys.executable
REPO = "acme/canary"
TOKEN = "ghs_" + "Hx7Kp2Lm9Qw4Er6Ty8Ui1Op3As5Df7Gh9Jk"
SECRET = "Vq8Zr3Wn6Tb1Yc5Xm0Ls7Kd2Pf4Hg9"  # an opaque secret of the environment (DEPLOY_API_KEY)
CONTROL = ("\x1b]", "\x1b[2J", "\x1bP", "\x07", "\x9b")


@dataclass
class Outcome:
    rc: int | None
    out: str
    err: str
    files: dict[str, str] = field(default_factory=dict)
    posted: list[str] = field(default_factory=list)
    seconds: float = 0.0
    wrong: list[str] = field(default_factory=list)  # what the case itself saw go wrong (a file it wrote)


@dataclass
class Case:
    name: str
    area: str
    expect: tuple[int, ...]
    run: Callable[[Path], Outcome]
    secrets: tuple[str, ...] = ()
    fragments: bool = False  # every 8-character piece of the secrets counts as a leak
    check: Callable[[Outcome], str | None] | None = None  # anything else it must show (None: fine)


# ----------------------------------------------------------------------------- plumbing


def env(tmp: Path, **extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "CANARY_"))}
    return {
        **base,
        "PYTHONPATH": str(ROOT),
        "CANARY_HISTORY": str(tmp / "history.sqlite3"),
        "CANARY_SPOOL_DIR": str(tmp / "spool"),
        "CANARY_NOTIFY_SPOOL": str(tmp / "notify-spool"),
        "GITHUB_TOKEN": TOKEN,
        "DEPLOY_API_KEY": SECRET,
        "XDG_DATA_HOME": str(tmp / "data"),
        "GITHUB_API_URL": "http://127.0.0.1:9",
        **extra,
    }


def cli(
    tmp: Path, *args: str, stdin: bytes | None = None, timeout: float = 90, cwd: Path | None = None, **extra: str
) -> Outcome:
    t0 = time.monotonic()
    try:
        r = subprocess.run(
            [PY, "-m", "canary", *args],
            cwd=cwd or tmp,
            env=env(tmp, **extra),
            input=stdin,
            capture_output=True,
            timeout=timeout,
        )
        rc, out, err = r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        rc, out, err = None, (e.stdout or b"").decode(errors="replace"), f"timed out after {timeout:g} s"
    return Outcome(rc, out, err, seconds=time.monotonic() - t0)


def files_under(tmp: Path) -> dict[str, str]:
    out = {}
    for p in tmp.rglob("*"):
        if p.is_file() and not p.is_symlink() and p.stat().st_size < 50 << 20:
            out[str(p.relative_to(tmp))] = p.read_bytes().decode("utf-8", "replace")
    return out


def lanes(tmp: Path, script: str, *args: str, attempts: int = 1) -> Path:
    p = tmp / "lanes.toml"
    p.write_text(
        '[lanes.cpu]\naccelerator = "cpu"\nplatform = "cpu"\n'
        f'launcher = {{ kind = "command", command = {json.dumps([PY, "-c", script, "{entrypoint}", *args])} }}\n'
        f"attempts = {attempts}\ntimeout_s = 120\n"
    )
    return p


def run_dir(tmp: Path, record: dict) -> Path:
    d = tmp / "runs" / "r1"
    d.mkdir(parents=True)
    (d / "result.json").write_text(json.dumps(record))
    return d


def record(**kw) -> dict:
    d = failing().to_dict()
    d.update(kw)
    return d


def notify_case(
    record_fields: dict | None = None,
    raw: list[RawReply] = (),
    args: tuple[str, ...] = (),
    down: bool = False,
    **extra: str,
) -> Callable[[Path], Outcome]:
    """``canary notify`` of a hostile record, against the loopback server (told to misbehave)."""

    def go(tmp: Path) -> Outcome:
        d = run_dir(tmp, record(**(record_fields or {})))
        with GitHubServer(TOKEN, REPO) as gh:
            gh.state.raw.extend(raw)
            gh.state.down = down
            o = cli(tmp, "notify", str(d), "--repo", REPO, "--no-history", *args, **{"GITHUB_API_URL": gh.url, **extra})
            o.posted = [i["title"] + "\n" + i["body"] for i in gh.state.issues()]
            o.posted += [c["body"] for i in gh.state.issues() for c in gh.state.comments(i["number"])]
        o.files = files_under(tmp)
        return o

    return go


def run_case(
    script: str,
    *args: str,
    attempts: int = 1,
    notify: bool = False,
    raw: list[RawReply] = (),
    extra_args: tuple[str, ...] = (),
    **extra: str,
) -> Callable[[Path], Outcome]:
    """``canary run cpu`` with a stand-in workload, optionally notifying the loopback server."""

    def go(tmp: Path) -> Outcome:
        lanes_file = lanes(tmp, script, *args, attempts=attempts)
        base = ["run", "cpu", "--out", str(tmp / "runs"), *extra_args]
        if notify:
            with GitHubServer(TOKEN, REPO) as gh:
                gh.state.raw.extend(raw)
                o = cli(
                    tmp,
                    *base,
                    "--notify",
                    "github",
                    "--repo",
                    REPO,
                    CANARY_LANES=str(lanes_file),
                    GITHUB_API_URL=gh.url,
                    **extra,
                )
                o.posted = [i["title"] + "\n" + i["body"] for i in gh.state.issues()]
        else:
            o = cli(tmp, *base, CANARY_LANES=str(lanes_file), **extra)
        o.files = files_under(tmp)
        return o

    return go


def plain(
    *args: str,
    stdin: bytes | None = None,
    setup: Callable[[Path], None] | None = None,
    timeout: float = 90,
    **extra: str,
) -> Callable[[Path], Outcome]:
    def go(tmp: Path) -> Outcome:
        if setup:
            setup(tmp)
        o = cli(
            tmp,
            *[a.replace("{tmp}", str(tmp)) for a in args],
            stdin=stdin,
            timeout=timeout,
            **{k: v.replace("{tmp}", str(tmp)) for k, v in extra.items()},
        )
        o.files = files_under(tmp)
        return o

    return go


def printing(*lines: str, rc: int = 1) -> str:
    """A stand-in workload that prints ``lines`` then dies with a traceback (or exits ``rc``)."""
    body = "".join(f"print({line!r})\n" for line in lines)
    return (
        f"import sys\n{body}print('Traceback (most recent call last):')\n"
        f"print('  File \"/srv/train.py\", line 3, in <module>')\nprint('RuntimeError: boom')\nsys.exit({rc})\n"
    )


def write_file(rel: str, data: bytes | str) -> Callable[[Path], None]:
    def go(tmp: Path) -> None:
        p = tmp / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data if isinstance(data, bytes) else data.encode())

    return go


def contains(*words: str, where: str = "any") -> Callable[[Outcome], str | None]:
    def go(o: Outcome) -> str | None:
        text = {"out": o.out, "err": o.err, "posted": "\n".join(o.posted)}.get(where, o.out + o.err)
        missing = [w for w in words if w not in text]
        return f"missing {missing!r}" if missing else None

    return go


def posted_once(o: Outcome) -> str | None:
    return None if len(o.posted) == 1 else f"{len(o.posted)} posts"


# ----------------------------------------------------------------------------- git: hostile commits and revisions

FORGED = "ab" * 20  # a commit id a subject invents


def forging(sha: str) -> str:
    """A subject that, split on \\x1e and \\x1f, reads as one more commit whose sha is ``sha``."""
    return f"x\x1e{sha}\x1fa\x1f2026-01-01\x1fforged"


def git_repo(tmp: Path, subject: str = "plain", path: str = "canary/workload/model.py") -> list[str]:
    """A git repository at ``tmp/repo``: the last pass, a commit (``subject``, touching ``path``), docs."""
    _, shas = source_repo(tmp / "repo", [("README.md", "the last pass ran here"), (path, subject), ("docs/a.md", "d")])
    return shas


def recorded_run(tmp: Path, good: str, bad: str) -> Path:
    """A history with a pass at ``good`` and a tpu compile error at ``bad``; the failure's run directory."""
    from canary.history import open_store

    store = open_store(str(tmp / "history.sqlite3"), spool_dir=str(tmp / "spool"))
    store.append(passing(commit=good, date="2026-08-26"))
    rec = failing(commit=bad, date="2026-08-27")
    store.append(rec)
    return run_dir(tmp, rec.to_dict())


def notify_in(tmp: Path, checkout: Path, rd: Path, *args: str) -> Outcome:
    """``canary notify`` of ``rd`` run in ``checkout``, with the history, against the loopback server."""
    with GitHubServer(TOKEN, REPO) as gh:
        o = cli(tmp, "notify", str(rd), "--repo", REPO, *args, cwd=checkout, GITHUB_API_URL=gh.url, **GIT_ENV)
        o.posted = [i["title"] + "\n" + i["body"] for i in gh.state.issues()]
    o.files = files_under(tmp)
    return o


def untouched(o: Outcome, path: Path, before: bytes | None) -> Outcome:
    """Note in ``o`` a file the case planted that changed, or (``before`` None) any file beside it
    whose name starts with its name (``git log --output=PWNED..SHA`` writes ``PWNED..SHA``)."""
    if before is None:
        made = [f.name for f in path.parent.glob(glob.escape(path.name) + "*") if f.is_file()]
        o.wrong.extend(f"{name} created" for name in made)
    elif path.read_bytes() != before:
        o.wrong.append(f"{path.name} now {path.stat().st_size} bytes")
    return o


def forged_option(target: str) -> Callable[[Path], Outcome]:
    """The issue: a subject forging a commit ``--output=PATH``, through the notifier and its bisect plan."""

    def go(tmp: Path) -> Outcome:
        path = tmp / target
        shas = git_repo(tmp, forging(f"--output={path}"))
        rd = recorded_run(tmp, shas[0], shas[-1])
        if target != "history.sqlite3":
            path.write_bytes(b"precious\n" * 1000)
        before = path.read_bytes()
        o = notify_in(tmp, tmp / "repo", rd)
        if target != "history.sqlite3":
            return untouched(o, path, before)
        h = cli(tmp, "history", "--json")
        if h.rc != 0 or len(json.loads(h.out or "{}").get("records") or []) != 2:
            o.wrong.append(f"the history lost its runs: {path.stat().st_size} bytes")
        return o

    return go


def forged_window(o: Outcome) -> str | None:
    said = "\n".join(o.posted)
    if f"`{FORGED[:12]}`" in said:
        return "an invented commit in the window"
    return None if "2 commits since the last pass" in said else "the window is not the 2 real commits"


def forged_sha(tmp: Path) -> Outcome:
    shas = git_repo(tmp, forging(FORGED))
    return notify_in(tmp, tmp / "repo", recorded_run(tmp, shas[0], shas[-1]), "--no-bisect")


def history_of(good: Callable[[Path, list[str]], str], bad: Callable[[Path, list[str]], str] | None = None):
    """``canary history --json`` in a repository whose recorded commits are ``good(tmp, shas)`` (and ``bad``)."""

    def go(tmp: Path) -> Outcome:
        shas = git_repo(tmp)
        pwned = tmp / "PWNED"
        recorded_run(tmp, good(tmp, shas), bad(tmp, shas) if bad else shas[-1])
        o = cli(tmp, "history", "--json", cwd=tmp / "repo")
        o.files = files_under(tmp)
        return untouched(o, pwned, None)

    return go


def window_note(*words: str) -> Callable[[Outcome], str | None]:
    def go(o: Outcome) -> str | None:
        try:
            [series] = json.loads(o.out)["series"]
            w = series["window"]
        except (ValueError, KeyError, TypeError):
            return "no series in --json"
        if w["commits"] is not None:
            return f"a window of {len(w['commits'])} commits"
        return None if all(x in w["note"] for x in words) else f"note {w['note'][:80]!r}"

    return go


# a last pass's commit that is no full commit id: (name, the commit, how the window's note quotes it)
RECORDED = (
    ("HEAD~1", lambda tmp, shas: "HEAD~1", "'HEAD~1'"),
    ("main", lambda tmp, shas: "main", "'main'"),
    ("of 12 hex digits", lambda tmp, shas: shas[0][:12], "'"),
    ("of 39 hex digits", lambda tmp, shas: shas[0][:39], "'"),
)


def crafted(author: str, message: str, path: str = "canary/workload/model.py") -> Callable[[Path], Outcome]:
    """The notifier over a window whose newest commit object is written as given (``git commit``
    cannot make it): NUL bytes, or bytes that are not UTF-8 (a surrogate stands for the byte it
    escapes) under an ``encoding UTF-8`` header."""

    def go(tmp: Path) -> Outcome:
        shas = git_repo(tmp, "plain", path=path)
        repo = tmp / "repo"
        tree = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD^{tree}"], capture_output=True, text=True)
        raw = f"tree {tree.stdout.strip()}\nparent {shas[-1]}\nauthor {author} <x@y> 1700000000 +0000\n"
        raw += f"committer c <x@y> 1700000000 +0000\nencoding UTF-8\n\n{message}"
        head = subprocess.run(
            ["git", "-C", str(repo), "hash-object", "--literally", "-t", "commit", "-w", "--stdin"],
            input=raw.encode("utf-8", "surrogateescape"),
            capture_output=True,
        )
        o = notify_in(tmp, repo, recorded_run(tmp, shas[0], head.stdout.decode().strip()), "--no-bisect")
        if "3 commits since the last pass" not in "\n".join(o.posted):
            o.wrong.append("the window is not the 3 real commits")
        return o

    return go


GCS_BUCKET = "sweep-history"


def gcs_case(
    objects: dict[str, bytes | None], *args: str, stand_in: str | None = None, **extra: str
) -> Callable[[Path], Outcome]:
    """A command against a ``gs://`` history on the tests' fake-gcs-server (127.0.0.1), holding
    two runs of lane tpu, then each of ``objects`` written over (None: deleted). ``{url}`` in the
    arguments is the history; with ``stand_in``, the cpu lane runs that script."""

    def go(tmp: Path) -> Outcome:
        from gcs_emulator import Emulator

        from canary.history.gcs import GcsStore
        from canary.record import RunRecord

        e = Emulator(tmp / "gcs").start()
        saved = os.environ.get("STORAGE_EMULATOR_HOST")
        try:
            e.create_bucket(GCS_BUCKET)
            url = f"gs://{GCS_BUCKET}/h"
            os.environ["STORAGE_EMULATOR_HOST"] = e.url
            store = GcsStore(url)
            store.append(RunRecord.from_dict(record(run_id="r-old", started_at="2026-08-20T06:00:00+00:00")))
            store.append(RunRecord.from_dict(record(run_id="r-new")))
            for name, data in objects.items():
                blob = store.bucket().blob(f"h/{name}")
                blob.delete() if data is None else blob.upload_from_string(data)
            if stand_in:
                extra["CANARY_LANES"] = str(lanes(tmp, stand_in))
            o = cli(
                tmp,
                *[a.replace("{url}", url).replace("{tmp}", str(tmp)) for a in args],
                STORAGE_EMULATOR_HOST=e.url,
                CANARY_GCS_RETRY_S="1",
                **extra,
            )
        finally:
            if saved is None:
                os.environ.pop("STORAGE_EMULATOR_HOST", None)
            else:
                os.environ["STORAGE_EMULATOR_HOST"] = saved
            e.stop()
        o.files = {k: v for k, v in files_under(tmp).items() if not k.startswith("gcs/")}
        return o

    return go


NUL_FORGED = f"\0\0{FORGED}\0a\x002026-01-01\0forged\0"  # a NUL, then a commit after it


def dashed_path(tmp: Path) -> Outcome:
    shas = git_repo(tmp, "a file named like an option", path="--output=PWNED")
    o = notify_in(tmp, tmp / "repo", recorded_run(tmp, shas[0], shas[-1]), "--no-bisect")
    if "--output=PWNED" not in "\n".join(o.posted).replace("\\", ""):
        o.wrong.append("the path is not in the window")
    return untouched(untouched(o, tmp / "PWNED", None), tmp / "repo" / "PWNED", None)


def dashed_branch(tmp: Path) -> Outcome:
    shas = git_repo(tmp)
    pwned = tmp / "PWNED"
    subprocess.run(["git", "-C", str(tmp / "repo"), "update-ref", f"refs/heads/--output={pwned}", shas[0]], check=True)
    o = cli(tmp, "bisect", "--lane", "tpu", "--good", f"--output={pwned}", "--bad", "HEAD", "-C", str(tmp / "repo"))
    o.files = files_under(tmp)
    return untouched(o, pwned, None)


def golden_rev(tmp: Path) -> Outcome:
    (tmp / "PWNED:gates").mkdir()  # where `git show --output=PWNED:gates/<golden>` would write
    o = cli(tmp, "golden", "diff", "cpu", f"--rev=--output={tmp / 'PWNED'}")
    o.files = files_under(tmp)
    if o.files:
        o.wrong.append(f"wrote {sorted(o.files)[:2]}")
    return o


def shallow(good: Callable[[Path, list[str]], str], keep_remote: bool) -> Callable[[Path], Outcome]:
    """The notifier in a shallow clone (``actions/checkout``) that lacks the last pass's commit."""

    def go(tmp: Path) -> Outcome:
        shas = git_repo(tmp)
        clone = shallow_clone(tmp / "repo", tmp / "clone")
        if not keep_remote:
            subprocess.run(["git", "-C", str(clone), "remote", "remove", "origin"], check=True)
        o = notify_in(tmp, clone, recorded_run(tmp, good(tmp, shas), shas[-1]), "--no-bisect")
        return untouched(o, tmp / "PWNED", None)

    return go


def linked(url: object, **context: object) -> Callable[[Path], Outcome]:
    """``canary report`` of a history holding a run whose links are ``url``."""
    ctx = {"ci_run_url": url, "wandb_url": url, "issue_url": url, **context}
    return lambda tmp: plain("report", "--out", "{tmp}/r.html")(_imported(tmp, record(context=ctx)))


def only_web_links(o: Outcome) -> str | None:
    import re

    page = o.files.get("r.html", "")
    hrefs = [h for h in re.findall(r"""href\s*=\s*["']?([^"'>\s]*)""", page, re.I) if h != "data:,"]
    bad = [h for h in hrefs if not h.startswith(("#", "http://", "https://"))]
    return f"links {bad[:2]!r}" if bad or not page else None


def bisect_index(index_url: str | None) -> Callable[[Path], Outcome]:
    """``canary bisect --package`` asking only the index at ``index_url`` (None: a loopback
    server that answers 500 to everything)."""

    def go(tmp: Path) -> Outcome:
        import http.server
        import threading

        class Answer500(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                self.send_response(500)
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.HTTPServer(("127.0.0.1", 0), Answer500)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = index_url or f"http://127.0.0.1:{server.server_port}/simple"
        try:
            return plain(
                "bisect", "--package", "marin-haliax", "--old", "1.0", "--new", "2.0", "--lane", "tpu",
                "--python", PY, PIP_INDEX_URL=url, PIP_CONFIG_FILE="/dev/null", PIP_RETRIES="0",
                PIP_FIND_LINKS="", PIP_EXTRA_INDEX_URL="",
            )(tmp)  # fmt: skip
        finally:
            server.shutdown()
            server.server_close()

    return go


def doctor_of(tmp: Path) -> Outcome:
    shas = git_repo(tmp)
    recorded_run(tmp, f"--output={tmp / 'PWNED'}", shas[-1])
    o = cli(tmp, "doctor", "tpu", "--json", cwd=tmp / "repo", timeout=120)
    o.files = files_under(tmp)
    return untouched(o, tmp / "PWNED", None)


def golden_edit(edit: Callable[[dict], object]) -> Callable[[Path], None]:
    """The cpu lane's gates and golden copied to ``gates/``, the golden edited; a one-step metrics
    file beside them for ``canary gate``."""

    def go(tmp: Path) -> None:
        g = tmp / "gates"
        g.mkdir()
        (g / "g.toml").write_text(
            (ROOT / "gates" / "moe-canary.toml").read_text().replace("moe-canary.cpu.golden.json", "e.golden.json")
        )
        golden = json.loads((ROOT / "gates" / "moe-canary.cpu.golden.json").read_text())
        edit(golden)
        (g / "e.golden.json").write_text(json.dumps(golden))
        (tmp / "metrics.jsonl").write_text(json.dumps({"global_step": 1, "train/loss": 4.0}) + "\n")

    return go


def ferry_with(old: str, new: str) -> Callable[[Path], None]:
    return write_file(
        "ferries/moe-canary.toml", (ROOT / "ferries" / "moe-canary.toml").read_text().replace(old, new, 1)
    )


def lanes_with(line: str) -> Callable[[Path], None]:
    return write_file("lanes.toml", f'[lanes.cpu]\naccelerator = "cpu"\nplatform = "cpu"\n{line}\n')


def symlink_loop(name: str) -> Callable[[Path], None]:
    return lambda tmp: os.symlink(tmp / name, tmp / name)


def warned(*words: str) -> Callable[[Outcome], str | None]:
    return contains("canary: warning:", *words, where="err")


RUN = ("run", "cpu", "--out", "{tmp}/runs")
LANES = {"CANARY_LANES": "{tmp}/lanes.toml"}
GATES_NAN = write_file("g.toml", "[lanes.cpu]\nmin_steps = 1\nmax_final_loss = nan\n")


def gcs_read(name: str, objects: dict[str, bytes | None], rc: int, *words: str) -> Case:
    """``canary history`` of a gs:// history with ``objects`` written over: exit 1 saying the store
    is unavailable (a broken index), or 0 with a warning holding ``words`` (a skipped entry)."""
    check = contains("store unavailable", *words, where="err") if rc == 1 else warned(*words)
    return Case(name, "stores", (rc,), gcs_case(objects, "history", "--history", "{url}"), check=check)


def golden_case(name: str, edit: Callable[[dict], object], key: str = "golden") -> Case:
    """``canary gate`` with the cpu lane's golden edited by ``edit``: bad input naming ``key``."""
    args = ("gate", "{tmp}", "--lane", "cpu", "--gates", "{tmp}/gates/g.toml")
    return Case(name, "config", (2,), plain(*args, setup=golden_edit(edit)), check=contains(key, where="err"))


def glob_case(name: str, glob: str) -> Case:
    """``canary run`` of a ferry whose ``watched_paths`` hold ``glob`` too: bad input at load."""
    setup = ferry_with("watched_paths = [", f"watched_paths = [{json.dumps(glob)}, ")
    args = ("run", "cpu", "--ferry", "{tmp}/ferries/moe-canary.toml")
    return Case(name, "config", (2,), plain(*args, setup=setup), check=contains("watched_paths", where="err"))


def linked_case(name: str, url: object) -> Case:
    return Case(name, "links", (0,), linked(url), check=only_web_links)


def env_case(var: str, value: str, *args: str, **extra: str) -> Case:
    return Case(f"{var}={value}", "env", (2,), plain(*args, **{var: value, **extra}), check=contains(var, where="err"))


# a gs:// history where nothing listens: what a GCS retry setting bounds
NO_GCS = ("history", "--history", "gs://b/p")
NO_GCS_HOST = {"STORAGE_EMULATOR_HOST": "http://127.0.0.1:9"}
# ----------------------------------------------------------------------------- the notify spool


def spooled_run(tmp: Path, run_id: str, date: str, fp: str = "3f9a1c2b7d4e") -> Path:
    """A failing run's directory under ``tmp/runs``, named after its run id."""
    d = tmp / "runs" / run_id
    d.mkdir(parents=True)
    rec = failing(run_id, date, fp=fp)
    rec.run_dir = str(d)
    (d / "result.json").write_text(json.dumps(rec.to_dict()))
    return d


def all_posts(gh: GitHubServer) -> list[str]:
    out = []
    for repo in list(gh.state.repos):
        for i in gh.state.issues(repo):
            out.append(i["title"] + "\n" + i["body"])
            out += [c["body"] for c in gh.state.comments(i["number"], repo)]
    return out


def steps(*outs: Outcome, rc_of: int = -1) -> Outcome:
    """Several commands as one case: the exit status of one of them, the output of all."""
    return Outcome(
        outs[rc_of].rc,
        "\n".join(o.out for o in outs),
        "\n".join(o.err for o in outs),
        seconds=sum(o.seconds for o in outs),
    )


def spool_case(
    scenario: Callable[[Path, GitHubServer, Callable[..., Outcome]], Outcome], *repos: str
) -> Callable[[Path], Outcome]:
    """A scenario of several ``canary notify`` calls against one loopback server (which also
    knows ``repos``); ``say(run_dir_or_flag, *args, repo=REPO, **env)`` runs one of them."""

    def go(tmp: Path) -> Outcome:
        with GitHubServer(TOKEN, REPO) as gh:
            for r in repos:
                gh.state.repo(r)

            def say(*args: str, repo: str | None = REPO, **extra: str) -> Outcome:
                where = ("--repo", repo) if repo else ()
                return cli(
                    tmp, "notify", *map(str, args), *where, "--runs", str(tmp / "runs"), GITHUB_API_URL=gh.url, **extra
                )

            o = scenario(tmp, gh, say)
            o.posted = all_posts(gh)
        o.files = files_under(tmp)
        return o

    return go


def _popen(tmp: Path, gh: GitHubServer, *args: str, **extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [PY, "-m", "canary", *args],
        cwd=tmp,
        env=env(tmp, GITHUB_API_URL=gh.url, **extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
    )


def signalled(proc: subprocess.Popen, gh: GitHubServer, sig: int) -> Outcome:
    """Signal ``proc`` once the server holds its call; then let the call through."""
    t0 = time.monotonic()
    if not gh.state.received.wait(120):
        proc.kill()
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    gh.state.hold_re = None
    gh.state.release.set()
    return Outcome(
        proc.returncode if proc.returncode >= 0 else 128 - proc.returncode, out, err, seconds=time.monotonic() - t0
    )


def plant(tmp: Path, name: str, repo: str, run_id: str = "20260801T060000Z-tpu-ee99", **record: Any) -> Path:
    """A ``notify-pending.json`` put in a sibling run directory by hand."""
    from canary.notify.model import Facts
    from canary.notify.spool import Pending

    d = tmp / "runs" / name
    d.mkdir(parents=True, exist_ok=True)
    rec = failing("20260801T060000Z-tpu-ee99", "2026-08-01")
    body = Pending("github", repo, rec, Facts()).to_dict()
    body["record"].update(run_id=run_id, **record)
    (d / "notify-pending.json").write_text(json.dumps(body))
    return d / "notify-pending.json"


def many_waiting(tmp: Path, n: int) -> None:
    """``n`` notifications this canary spooled (in its ledger), each in its run's directory."""
    from canary.notify import spool
    from canary.notify.model import Facts

    old = os.environ.get("CANARY_NOTIFY_SPOOL")
    os.environ["CANARY_NOTIFY_SPOOL"] = str(tmp / "notify-spool")
    try:
        for i in range(n):
            rid = f"20260701T{i // 3600 % 24:02d}{i // 60 % 60:02d}{i % 60:02d}Z-tpu-{i:04x}"
            rec = failing(rid, "2026-07-01")
            rec.started_at = f"2026-07-01T00:00:{i % 60:02d}.{i:06d}+00:00"
            (tmp / "runs" / rid).mkdir(parents=True)
            rec.run_dir = str(tmp / "runs" / rid)
            spool.put(spool.Pending("github", REPO, rec, Facts(), error="HTTP 503"))
    finally:
        if old is None:
            os.environ.pop("CANARY_NOTIFY_SPOOL")
        else:
            os.environ["CANARY_NOTIFY_SPOOL"] = old


def said(*words: str) -> Callable[[Outcome], str | None]:
    """Like :func:`contains`, with the output's line wrapping folded away."""

    def go(o: Outcome) -> str | None:
        text = " ".join((o.out + "\n" + o.err).split())
        missing = [w for w in words if w not in text]
        return f"missing {missing!r}" if missing else None

    return go


def no_file(rel: str) -> Callable[[Outcome], str | None]:
    return lambda o: f"{rel} was written" if any(k.endswith(rel) for k in o.files) else None


def all_of(*checks: Callable[[Outcome], str | None]) -> Callable[[Outcome], str | None]:
    return lambda o: next((w for w in (c(o) for c in checks) if w), None)


def posts(n: int) -> Callable[[Outcome], str | None]:
    return lambda o: None if len(o.posted) == n else f"{len(o.posted)} posts, not {n}"


# --- the scenarios


def _typo_then_right(tmp, gh, say):
    a, b = (
        spooled_run(tmp, "20260828T060000Z-tpu-ab12", "2026-08-28"),
        spooled_run(tmp, "20260829T060000Z-tpu-cd34", "2026-08-29"),
    )
    return steps(say(a, repo="acme/typo"), say(b), say("--pending", repo=None), rc_of=1)


def _sigterm_run(tmp, gh, say):
    script = "import sys\nprint('Traceback (most recent call last):')\nprint('RuntimeError: boom')\nsys.exit(1)"
    lanes_file = lanes(tmp, script)
    gh.state.hold(r"^POST /repos/acme/canary/issues$")
    proc = _popen(
        tmp,
        gh,
        "run",
        "cpu",
        "--out",
        str(tmp / "runs"),
        "--notify",
        "github",
        "--repo",
        REPO,
        CANARY_LANES=str(lanes_file),
    )
    return signalled(proc, gh, signal.SIGTERM)


def _sigkill_notify(tmp, gh, say):
    a = spooled_run(tmp, "20260828T060000Z-tpu-ab12", "2026-08-28")
    gh.state.hold(r"^GET /repos/acme/canary/issues$")  # before anything is created
    proc = _popen(tmp, gh, "notify", str(a), "--repo", REPO, "--runs", str(tmp / "runs"))
    first = signalled(proc, gh, signal.SIGKILL)
    return steps(first, say(spooled_run(tmp, "20260829T060000Z-tpu-cd34", "2026-08-29")))


def _planted(repo: str, **record: Any):
    def go(tmp, gh, say):
        plant(tmp, "sibling", repo, **record)
        return say(spooled_run(tmp, "20260829T060000Z-tpu-cd34", "2026-08-29"))

    return go


def _with_file(make: Callable[[Path], None]):
    def go(tmp, gh, say):
        (tmp / "runs" / "odd").mkdir(parents=True)
        make(tmp / "runs" / "odd" / "notify-pending.json")
        return steps(
            say(spooled_run(tmp, "20260829T060000Z-tpu-cd34", "2026-08-29")), say("--pending", repo=None), rc_of=0
        )

    return go


def _ten_thousand(tmp, gh, say):
    many_waiting(tmp, 10_000)
    return steps(
        say(spooled_run(tmp, "20260829T060000Z-tpu-cd34", "2026-08-29")), say("--pending", "--json", repo=None), rc_of=0
    )


def _copied(tmp, gh, say):
    gh.state.down = True
    a = spooled_run(tmp, "20260828T060000Z-tpu-ab12", "2026-08-28")
    first = say(a)
    gh.state.down = False
    (tmp / "runs" / "copy").mkdir()
    (tmp / "runs" / "copy" / "notify-pending.json").write_text((a / "notify-pending.json").read_text())
    return steps(first, say(spooled_run(tmp, "20260829T060000Z-tpu-cd34", "2026-08-29")))


def _closed_meanwhile(tmp, gh, say):
    first = say(spooled_run(tmp, "20260827T060000Z-tpu-aa01", "2026-08-27"))
    gh.state.down = True
    second = say(spooled_run(tmp, "20260828T060000Z-tpu-ab12", "2026-08-28"))
    gh.state.down = False
    for issue in gh.state.issues():
        issue["state"] = "closed"
    return steps(first, second, say(spooled_run(tmp, "20260829T060000Z-tpu-cd34", "2026-08-29")))


def _year_429(tmp, gh, say):
    gh.state.fail(429, retry_after="31536000", message="slow down")
    return say(spooled_run(tmp, "20260828T060000Z-tpu-ab12", "2026-08-28"))


def _read_only(down: bool):
    def go(tmp, gh, say):
        d = tmp / "elsewhere"
        d.mkdir()
        rec = failing()
        rec.run_dir = "/ci-runner/gone"
        (d / "result.json").write_text(json.dumps(rec.to_dict()))
        gh.state.down = down
        return say(d, "--no-history", CANARY_NOTIFY_SPOOL="/proc/canary-spool")

    return go


def _two_at_once(tmp, gh, say):
    gh.state.down = True
    first = say(spooled_run(tmp, "20260828T060000Z-tpu-ab12", "2026-08-28"), "--no-history")
    gh.state.down = False
    gh.state.hold(r"^POST /repos/acme/canary/issues$")
    proc = _popen(tmp, gh, "notify", "--resend", "all", "--repo", REPO, "--runs", str(tmp / "runs"), "--no-history")
    gh.state.received.wait(120)
    gh.state.hold_re = None
    other = say(spooled_run(tmp, "20260829T060000Z-tpu-cd34", "2026-08-29", fp="999999999999"), "--no-history")
    gh.state.release.set()
    out, err = proc.communicate(timeout=120)
    return steps(first, other, Outcome(proc.returncode, out, err), rc_of=1)


def _climbing(tmp, gh, say):
    plant(tmp, "sibling", REPO, run_id="../../outside", run_dir=str(tmp / "outside"))
    (tmp / "outside").mkdir()
    gh.state.down = True
    return steps(say(spooled_run(tmp, "20260829T060000Z-tpu-cd34", "2026-08-29")), say("--resend", "all"), rc_of=1)


def _escapes(tmp, gh, say):
    plant(tmp, "sibling", "acme/\x1b]0;pwn\x07x\x1b[2J", lane="tpu\x9b2J")
    return steps(say("--pending", repo=None), say(spooled_run(tmp, "20260829T060000Z-tpu-cd34", "2026-08-29")))


def _bad_token_then_good(tmp, gh, say):
    a, b = (
        spooled_run(tmp, "20260828T060000Z-tpu-ab12", "2026-08-28"),
        spooled_run(tmp, "20260829T060000Z-tpu-cd34", "2026-08-29"),
    )
    return steps(say(a, GITHUB_TOKEN="ghp_" + "W" * 36), say(b), say("--pending", repo=None), rc_of=1)


# ----------------------------------------------------------------------------- the cases

B64 = base64.b64encode
GH = "ghp_" + "Mn4Bv6Cx8Za1Sd3Fg5Hj7Kl9Qw2Er4Ty6Ui8"
SG = "SG." + "a" * 22 + "." + "b" * 43
# round 3 (#34)
CY, MG, RS = "\x1b[36m", "\x1b[35m", "\x1b[0m"
PW3 = "Col0ured-Pa55word"
GH3 = "ghp_" + "Rt5Yu7Io9Pa2Sd4Fg6Hj8Kl1Zx3Cv5Bn7Mq9W"
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjaS1ib3QiLCJyb2xlIjoiYWRtaW4ifQ.c2lnbmF0dXJlLXZhbHVlLTEyMzQ1Njc4"
SA_B64 = B64(
    json.dumps(
        {
            "type": "service_account",
            "private_key_id": "9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6",
            "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n",
        },
        indent=2,
    ).encode()
).decode()
KEY_B64 = B64(
    b"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2Zlo\n"
    + b"QUFB" * 300
    + b"\n-----END RSA PRIVATE KEY-----\n"
).decode()
DOCKER_PAT = "dckr_pat_" + "2YotnFZFEjr1zCsicMWpAA7Q"
DATABRICKS = "dapi" + "0123456789abcdef0123456789abcdef"
HF_ORG = "api_org_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"
AZ_KEY = "abcdEFGHijklMNOPqrstUVWXyz0123456789+/abcdEFGHijklMNOPqrstUVWX=="
PGP = "\n".join(
    [
        "-----BEGIN PGP PRIVATE KEY BLOCK-----",
        "Comment: https://keys.example.org/x.asc",
        "",
        "lQdGBF9xZ2sBEADHq8mJ3KlPz7vW1s0aT2eR6yU4iO9pA5sD3fG7hJ1kL8zX2cV",
        "=Ab3d",
        "-----END PGP PRIVATE KEY BLOCK-----",
    ]
)
CASES: list[Case] = [
    # secrets: shapes and encodings the earlier rounds did not try
    Case(
        "token in a URL with x-oauth-basic",
        "secrets",
        (1,),
        run_case(printing(f"git clone https://{GH}:x-oauth-basic@github.com/a/b")),
        (GH,),
    ),
    Case(
        "env secret printed in three pieces",
        "secrets",
        (1,),
        run_case(printing(SECRET[:10], SECRET[10:20], SECRET[20:])),
        (SECRET,),
        fragments=True,
    ),
    Case(
        "env secret in a docker config auth",
        "secrets",
        (1,),
        run_case(printing('{"auths": {"ghcr.io": {"auth": "' + B64(f"bot:{SECRET}".encode()).decode() + '"}}}')),
        (SECRET, B64(f"bot:{SECRET}".encode()).decode()),
    ),
    Case(
        "env secret as a k8s secret's base64 data",
        "secrets",
        (1,),
        run_case(printing("  api-key: " + B64(SECRET.encode()).decode())),
        (B64(SECRET.encode()).decode(),),
    ),
    Case(
        "env secret URL-safe base64, glued",
        "secrets",
        (1,),
        run_case(printing("id=" + base64.urlsafe_b64encode(SECRET.encode()).decode() + "xyz")),
        (base64.urlsafe_b64encode(SECRET.encode()).decode()[:24],),
    ),
    Case(
        "env secret in hex",
        "secrets",
        (1,),
        run_case(printing("key hex " + SECRET.encode().hex())),
        (SECRET.encode().hex(),),
    ),
    Case("env secret spaced out", "secrets", (1,), run_case(printing("k: " + " ".join(SECRET))), (" ".join(SECRET),)),
    Case("env secret reversed", "secrets", (1,), run_case(printing("rev " + SECRET[::-1])), (SECRET[::-1],)),
    Case(
        "env secret as \\u escapes",
        "secrets",
        (1,),
        run_case(printing("".join(f"\\u{ord(c):04x}" for c in SECRET))),
        ("".join(f"\\u{ord(c):04x}" for c in SECRET),),
    ),
    Case(
        "access_token in a query string",
        "secrets",
        (1,),
        run_case(printing("GET /api?access_token=Zk39aPqLm20xYv&x=1")),
        ("Zk39aPqLm20xYv",),
    ),
    Case(
        "--token=VALUE flag",
        "secrets",
        (1,),
        run_case(printing("exec: uploader --token=Qm8xPz2Lk5Nv7 --dry")),
        ("Qm8xPz2Lk5Nv7",),
    ),
    Case(
        "mysql -pPASSWORD", "secrets", (1,), run_case(printing("mysql -uroot -pHunter2Hunter2 db")), ("Hunter2Hunter2",)
    ),
    Case("SendGrid key", "secrets", (1,), run_case(printing("sendgrid key " + SG)), (SG,)),
    Case(
        "GitLab runner token glrt-",
        "secrets",
        (1,),
        run_case(printing("token glrt-" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn")),
        ("glrt-Ab1Cd2Ef3Gh4Ij5Kl6Mn",),
    ),
    Case(
        "Azure SharedAccessKey",
        "secrets",
        (1,),
        run_case(
            printing(
                "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=r;SharedAccessKey="
                + "q1W2e3R4t5Y6u7I8o9P0aSdFgHjKlZxCvBnM1234567="
            )
        ),
        ("q1W2e3R4t5Y6u7I8o9P0aSdFgHjKlZxCvBnM",),
    ),
    Case(
        "JWT in a Cookie header",
        "secrets",
        (1,),
        run_case(printing("> Cookie: session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjaSJ9.c2lnbmF0dXJlLXZhbHVl")),
        ("eyJzdWIiOiJjaSJ9",),
    ),
    Case("curl -v Authorization line", "secrets", (1,), run_case(printing(f"> Authorization: token {GH}")), (GH,)),
    Case(
        "service-account JSON, escaped",
        "secrets",
        (1,),
        run_case(
            printing(
                json.dumps(
                    {
                        "type": "service_account",
                        "private_key_id": "9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6",
                        "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n"
                        "-----END PRIVATE KEY-----\n",
                    }
                )
            )
        ),
        ("9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"),
    ),
    Case(
        "token after 6 MB of log",
        "secrets",
        (1,),
        run_case(
            "import sys\nfor i in range(60000): print('step', i, 'x' * 90)\n"
            f"print('leak {GH}')\nprint('Traceback (most recent call last):')\nprint('RuntimeError: late')\n"
            "sys.exit(1)"
        ),
        (GH,),
    ),
    Case(
        "env secret in the issue title",
        "secrets",
        (1,),
        run_case(
            "import os, sys\nprint('Traceback (most recent call last):')\n"
            "print('RuntimeError: auth failed for ' + os.environ['DEPLOY_API_KEY'][:16])\nsys.exit(1)",
            notify=True,
        ),
        (SECRET[:16],),
        fragments=True,
        check=posted_once,
    ),
    Case(
        "token in tracker config of a passing run",
        "secrets",
        (0, 1),
        run_case(
            "import json, shlex, sys\nout = json.load(open(shlex.split(sys.argv[1])[-1]))['out_dir']\n"
            f"open(out + '/tracker_metrics.jsonl', 'w').write(json.dumps({{'config': {{'hub': '{GH}'}}, "
            "'summary': {'_step': 1, 'train/loss': 4.0}}) + '\\n')"
        ),
        (GH,),
    ),
    Case(
        "token in wandb.json of an attempt",
        "secrets",
        (1,),
        run_case(
            "import json, shlex, sys\nout = json.load(open(shlex.split(sys.argv[1])[-1]))['out_dir']\n"
            f"open(out + '/wandb.json', 'w').write(json.dumps({{'mode': 'online', 'error': 'bad key {GH}'}}))\n"
            "sys.exit(1)"
        ),
        (GH,),
    ),
    # the notifier against a GitHub that misbehaves
    Case("list answer is JSON null", "github", (0, 1), notify_case(raw=[RawReply(200, b"null", times=3)])),
    Case("redirect loop on the API host", "github", (1,), notify_case(raw=[RawReply(308, b"", times=50)])),
    Case(
        "issue with a null body in the list",
        "github",
        (0, 1),
        notify_case(
            raw=[
                RawReply(
                    200,
                    json.dumps([{"number": 5, "body": None, "labels": []}]).encode(),
                    method="GET",
                    path_re=r"/issues$",
                    times=3,
                )
            ]
        ),
    ),
    Case("created issue has no number", "github", (0, 1), notify_case(raw=[RawReply(201, b"{}", method="POST")])),
    Case(
        "label create answers 422 garbage",
        "github",
        (0, 1),
        notify_case(raw=[RawReply(422, b"<html>nope</html>", "text/html", path_re="/labels", times=5)]),
    ),
    Case(
        "error message carries escapes",
        "github",
        (1,),
        notify_case(raw=[RawReply(500, json.dumps({"message": "\x1b]0;pwned\x07\x1b[2Jboom"}).encode(), times=10)]),
    ),
    Case(
        "error message carries the token",
        "github",
        (1,),
        notify_case(raw=[RawReply(500, json.dumps({"message": f"bad credentials {TOKEN}"}).encode(), times=10)]),
        (TOKEN,),
        fragments=True,
    ),
    Case(
        "a 10 MB answer of garbage",
        "github",
        (1,),
        notify_case(raw=[RawReply(200, b"x" * (10 << 20), "text/plain", times=10)]),
    ),
    Case("token of 5000 characters", "github", (2,), notify_case(GITHUB_TOKEN="ghp_" + "a" * 5000)),
    Case("token with a tab in it", "github", (2,), notify_case(GITHUB_TOKEN="ghp_abc\tdef" + "x" * 30)),
    Case(
        "API URL with credentials in it",
        "github",
        (0, 1),
        lambda tmp: notify_case(GITHUB_API_URL="http://user:Sup3rS3cretPw@127.0.0.1:9")(tmp),
        ("Sup3rS3cretPw",),
    ),
    Case("API URL with a newline", "github", (2,), notify_case(GITHUB_API_URL="https://api.github.com\n")),
    Case("API URL data:", "github", (2,), notify_case(GITHUB_API_URL="data:text/plain,hello")),
    Case(
        "GITHUB_REPOSITORY with a newline",
        "github",
        (2,),
        lambda tmp: plain("notify", "{tmp}/runs/r1", "--no-history", GITHUB_REPOSITORY="acme/canary\n")(
            (run_dir(tmp, record()), tmp)[1]
        ),
    ),
    Case("--repo with a homoglyph", "github", (2,), notify_case(args=("--repo", "acme/с" + "anary"))),
    Case("--repo of 300 characters", "github", (0, 1, 2), notify_case(args=("--repo", "a/" + "b" * 300))),
    Case(
        "GitHub down, spool on a full disk",
        "github",
        (1,),
        notify_case(down=True, CANARY_NOTIFY_SPOOL="/proc/canary-cannot-write"),
    ),
    Case(
        "a 5xx asking to retry after 10^400 seconds",
        "github",
        (1,),
        notify_case(raw=[RawReply(500, b"{}", times=20, headers={"Retry-After": "1" + "0" * 400})]),
    ),
    # hostile records
    Case("attempts is a string", "records", (2,), notify_case({"attempts": "oops"})),
    Case("run_id of 300 characters", "records", (2,), notify_case({"run_id": "r" * 300})),
    Case(
        "lane with a newline and a mention",
        "records",
        (0,),
        notify_case({"lane": "tpu\n@org/oncall"}),
        check=lambda o: "@org/oncall" in "\n".join(o.posted) and "live mention" or None,
    ),
    Case(
        "fingerprint holding -->",
        "records",
        (0,),
        notify_case({"signature": {**failing().signature.to_dict(), "fingerprint": "x --> <!-- canary:run=y"}}),
        check=lambda o: None if o.posted and o.posted[0].split("\n")[1].count("-->") == 1 else "marker broken",
    ),
    Case(
        "a 20 MB error text",
        "records",
        (0,),
        notify_case({"error": "E" * (20 << 20)}),
        check=lambda o: None if o.posted and len(o.posted[0]) < 66000 else "post too long",
    ),
    Case(
        "window note with escapes",
        "records",
        (0,),
        notify_case({"error": "\x1b]52;c;ZXZpbA==\x07 RuntimeError: x", "signature": None}),
    ),
    Case(
        "ferry version as a string",
        "records",
        (0, 2),
        notify_case({"ferry_version": "1 @everyone"}),
        check=lambda o: "@everyone" in "\n".join(o.posted) and "live mention" or None,
    ),
    Case(
        "history import of a climbing run id",
        "records",
        (2,),
        lambda tmp: plain("history", "import", "{tmp}/runs/r1")((run_dir(tmp, record(run_id="../../x")), tmp)[1]),
    ),
    Case(
        "result.json nested 100,000 deep",
        "records",
        (2,),
        plain(
            "notify",
            "{tmp}/r/result.json",
            "--repo",
            REPO,
            "--no-history",
            setup=write_file("r/result.json", "[" * 100_000 + "]" * 100_000),
        ),
    ),
    # files and paths
    Case("--out on /proc", "paths", (2,), plain("run", "cpu", "--out", "/proc/canary-out")),
    Case(
        "--out a dangling symlink",
        "paths",
        (2,),
        lambda tmp: plain("run", "cpu", "--out", "{tmp}/dangling")(
            (os.symlink(tmp / "nowhere" / "x", tmp / "dangling"), tmp)[1]
        ),
    ),
    Case(
        "--history a FIFO",
        "paths",
        (0, 1, 2),
        lambda tmp: plain("history", "--history", "{tmp}/fifo", timeout=30)((os.mkfifo(tmp / "fifo"), tmp)[1]),
    ),
    Case(
        "--history a text file",
        "paths",
        (1, 2),
        plain("history", "--history", "{tmp}/h.txt", setup=write_file("h.txt", "not a database\n" * 100)),
    ),
    Case("CANARY_LANES a directory", "paths", (2,), plain("run", "cpu", CANARY_LANES="{tmp}")),
    Case(
        "lanes.toml nested 50,000 deep",
        "paths",
        (2,),
        plain("run", "cpu", CANARY_LANES="{tmp}/lanes.toml", setup=write_file("lanes.toml", "x = " + "[" * 50_000)),
    ),
    Case(
        "gates naming /etc/passwd as golden",
        "paths",
        (2,),
        plain(
            "run",
            "cpu",
            "--gates",
            "{tmp}/g.toml",
            "--out",
            "{tmp}/runs",
            setup=write_file(
                "g.toml",
                (ROOT / "gates" / "moe-canary.toml").read_text().replace("moe-canary.cpu.golden.json", "/etc/passwd"),
            ),
        ),
        check=lambda o: "root:" in o.out + o.err and "leaked /etc/passwd" or None,
    ),
    Case(
        "golden a symlink to /dev/zero",
        "paths",
        (2,),
        lambda tmp: plain("gate", "{tmp}", "--lane", "cpu", "--gates", "{tmp}/gates/g.toml", timeout=60)(
            _zero_golden(tmp)
        ),
    ),
    Case("signature of /dev/zero", "paths", (2,), plain("signature", "/dev/zero", timeout=60)),
    Case("signature of a directory without a log", "paths", (2,), plain("signature", "{tmp}")),
    Case("report --out under /proc", "paths", (2,), plain("report", "--out", "/proc/canary/r.html")),
    Case(
        "--ferry a FIFO",
        "paths",
        (2,),
        lambda tmp: plain("run", "cpu", "--ferry", "{tmp}/f.toml", timeout=30)((os.mkfifo(tmp / "f.toml"), tmp)[1]),
    ),
    # the terminal
    Case("a missing path with escapes in its name", "terminal", (2,), plain("signature", "{tmp}/\x1b]0;x\x07.log")),
    Case(
        "signature --json of escapes",
        "terminal",
        (0,),
        plain(
            "signature",
            "-",
            "--json",
            stdin=b"Traceback (most recent call last):\nRuntimeError: \x1b]8;;http://e\x1b\\x\n",
        ),
    ),
    Case(
        "history shows a hostile lane",
        "terminal",
        (0,),
        lambda tmp: plain("history")(_imported(tmp, record(lane="\x1b[2J\x1b]0;t\x07tpu", run_id="r-esc"))),
    ),
    Case(
        "report HTML of a <script> error",
        "terminal",
        (0,),
        lambda tmp: plain("report", "--out", "{tmp}/r.html")(_imported(tmp, record(error="<script>alert(1)</script>"))),
        check=lambda o: "<script>alert(1)" in o.files.get("r.html", "") and "script in the page" or None,
    ),
    Case(
        "dry run of a body with escapes",
        "terminal",
        (0,),
        notify_case({"error": "\x1b[2J\x1b]0;t\x07RuntimeError: y", "signature": None}, args=("--dry-run",)),
    ),
    Case(
        "a workload that prints a DCS and C1 CSI",
        "terminal",
        (1,),
        run_case(printing("\x1bP+q544e\x1b\\", "\x9b2J", "\u202eexe.txt"), FORCE_COLOR="1"),
    ),
    # the machine
    Case(
        "workload killed by SIGKILL (OOM killer)",
        "machine",
        (1,),
        run_case("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", attempts=2),
        check=lambda o: None,
    ),
    Case(
        "a workload that closes stdout and hangs up",
        "machine",
        (1,),
        run_case("import os, sys\nos.close(1)\nos.close(2)\nsys.exit(3)"),
    ),
    Case(
        "a workload writing 50,000 tiny lines per second",
        "machine",
        (1,),
        run_case("import sys\nfor i in range(200000): sys.stdout.write('.\\n')\nsys.exit(1)"),
    ),
    Case(
        "a workload that prints invalid UTF-8",
        "machine",
        (1,),
        run_case(
            "import sys\nsys.stdout.buffer.write(b'\\xff\\xfe bad \\xc3\\n')\n"
            "print('Traceback (most recent call last):')\n"
            "print('RuntimeError: bytes')\nsys.exit(1)"
        ),
    ),
    Case(
        "a workload that forks and leaves a child",
        "machine",
        (1,),
        run_case("import os, sys, time\nif os.fork() == 0:\n    time.sleep(3)\n    os._exit(0)\nsys.exit(1)"),
    ),
    # round 3: git
    Case("a subject forging a commit --output=the history", "git", (0,), forged_option("history.sqlite3")),
    Case("a subject forging a commit --output=a file", "git", (0,), forged_option("other.bin")),
    Case("a subject forging a commit into the window", "git", (0,), forged_sha, check=forged_window),
    Case(
        "history of a recorded commit --output=PWNED",
        "git",
        (0,),
        history_of(lambda tmp, shas: f"--output={tmp / 'PWNED'}"),
        check=window_note("'--output=", "is not a full commit id"),
    ),
    Case("NUL bytes in a subject and an author", "git", (0,), crafted("a" + NUL_FORGED, f"sub{NUL_FORGED}\nmore\n")),
    *[
        Case(f"a recorded commit {name}", "git", (0,), history_of(good), check=window_note(f"{said} is not a full"))
        for name, good, said in RECORDED
    ],
    Case(
        "a recorded failing commit with a newline and an option",
        "git",
        (0,),
        history_of(lambda tmp, shas: shas[0], lambda tmp, shas: f"{shas[-1]}\n--output={tmp / 'PWNED'}"),
        check=window_note("is not a full commit id"),
    ),
    Case(
        "a recorded commit that is a tree",
        "git",
        (0,),
        history_of(
            lambda tmp, shas: subprocess.check_output(
                ["git", "-C", str(tmp / "repo"), "rev-parse", f"{shas[0]}^{{tree}}"], text=True
            ).strip()
        ),
        check=window_note("failed:", "tree"),
    ),
    Case("a file named --output=PWNED in the window", "git", (0,), dashed_path),
    Case(
        "a subject and a path that are not UTF-8",
        "git",
        (0,),
        crafted("a", "raw \udcff\udcfe subject\n", path=os.fsdecode(b"f\xff")),
        check=contains("raw \ufffd\ufffd subject", "f\ufffd", where="posted"),
    ),
    Case(
        "bisect --good a branch named --output=PWNED", "git", (2,), dashed_branch, check=contains("is not a revision")
    ),
    Case("golden diff --rev=--output=PWNED", "git", (2,), golden_rev, check=contains("is not a revision")),
    Case(
        "a shallow clone without the good commit, no remote",
        "git",
        (0,),
        shallow(lambda tmp, shas: shas[0], keep_remote=False),
        check=contains("shallow clone without a remote", where="posted"),
    ),
    Case(
        "a recorded --upload-pack=touch PWNED in a shallow clone",
        "git",
        (0,),
        shallow(lambda tmp, shas: f"--upload-pack=touch {tmp / 'PWNED'}", keep_remote=True),
        check=contains("is not a full commit id", where="posted"),
    ),
    Case("doctor of a recorded commit --output=PWNED", "git", (1,), doctor_of, check=contains("not a full commit id")),
    # round 3: inputs and stores
    glob_case("watched_paths glob [z-a]", "src/[z-a]"),
    golden_case("golden tolerance [1, 2]", lambda g: g.update(tolerance=[1, 2]), "tolerance"),
    golden_case(
        "golden window past its own steps",
        lambda g: g["loss_windows"][-1].update(steps=[180, 260]),
        "loss_windows.9.steps",
    ),
    gcs_read("GCS index not JSON", {"index/tpu.json": b"{not json"}, 1, "index/tpu.json"),
    gcs_read("GCS index a list", {"index/tpu.json": b"[1, 2]"}, 1),
    gcs_read("GCS index runs null", {"index/tpu.json": b'{"runs": null}'}, 1),
    gcs_read(
        "GCS index entry with no run_id",
        {"index/tpu.json": b'{"runs": [{"lane": "tpu"}, {"run_id": "r-new"}]}'},
        0,
        "entry 0 has no run_id",
    ),
    gcs_read("GCS run object deleted", {"runs/r-old.json": None}, 0, "r-old.json", "missing"),
    gcs_read("GCS run object garbage", {"runs/r-old.json": b"\xff garbage"}, 0, "r-old.json"),
    Case(
        "canary run with a broken GCS index",
        "stores",
        (1,),
        gcs_case(
            {"index/cpu.json": b"[]"},
            "run",
            "cpu",
            "--out",
            "{tmp}/runs",
            "--history",
            "{url}",
            "--json",
            stand_in="import sys; sys.exit(1)",
        ),
        check=contains('"status": "spooled"', "store unavailable", where="out"),
    ),
    Case("--ci-run-url javascript:", "links", (2,), plain(*RUN, "--ci-run-url", "javascript:alert(1)")),
    Case("CANARY_WANDB_URL javascript:", "links", (2,), plain(*RUN, CANARY_WANDB_URL="javascript:alert(1)")),
    linked_case("a history record with javascript: links", "javascript:alert(document.cookie)"),
    env_case("CANARY_GCS_RETRY_S", "nan", *NO_GCS, **NO_GCS_HOST),
    env_case("CANARY_GCS_RETRY_S", "inf", *NO_GCS, **NO_GCS_HOST),
    env_case("CANARY_GCS_RETRY_S", "1e400", *NO_GCS, **NO_GCS_HOST),
    Case(
        "package index refusing connections",
        "paths",
        (1,),
        bisect_index("http://127.0.0.1:9/simple"),
        check=contains("index unreachable", where="err"),
    ),
    Case(
        "package index answering 500",
        "paths",
        (1,),
        bisect_index(None),
        check=contains("index unreachable", where="err"),
    ),
    Case(
        "--history a symlink loop",
        "paths",
        (2,),
        plain("history", "--history", "{tmp}/loop", setup=symlink_loop("loop")),
        check=contains("symlink loop", where="err"),
    ),
    # round 3, beyond the issue
    Case(
        "ferry with a 10 MB description",
        "config",
        (0,),
        plain(
            "list",
            CANARY_FERRIES_PATH="{tmp}/ferries",
            setup=ferry_with('description = "', 'description = "' + "x" * 10_000_000),
        ),
    ),
    Case("gates threshold nan", "config", (2,), plain(*RUN, "--gates", "{tmp}/g.toml", setup=GATES_NAN)),
    Case("lanes timeout_s = 1e400", "config", (2,), plain(*RUN, setup=lanes_with("timeout_s = 1e400"), **LANES)),
    Case("lanes attempts = 1e400", "config", (2,), plain(*RUN, setup=lanes_with("attempts = 1e400"), **LANES)),
    glob_case("watched_paths glob [!]", "[!]"),
    golden_case("golden loss_windows an object", lambda g: g.update(loss_windows={"a": 1})),
    Case(
        "golden a FIFO",
        "paths",
        (2,),
        lambda tmp: plain("gate", "{tmp}", "--lane", "cpu", "--gates", "{tmp}/gates/g.toml", timeout=30)(
            (
                golden_edit(lambda g: None)(tmp),
                (tmp / "gates" / "e.golden.json").unlink(),
                os.mkfifo(tmp / "gates" / "e.golden.json"),
                tmp,
            )[-1]
        ),
    ),
    Case("--gates a symlink loop", "paths", (2,), plain(*RUN, "--gates", "{tmp}/loop", setup=symlink_loop("loop"))),
    Case(
        "CANARY_LANES a symlink loop", "paths", (2,), plain(*RUN, CANARY_LANES="{tmp}/loop", setup=symlink_loop("loop"))
    ),
    gcs_read("GCS run object a JSON list", {"runs/r-old.json": b"[1, 2, 3]"}, 0, "not a canary run record"),
    gcs_read(
        "GCS run object of another run",
        {"runs/r-old.json": json.dumps(record(run_id="r-new")).encode()},
        0,
        "holds run 'r-new'",
    ),
    gcs_read("GCS index nested 100,000 deep", {"index/tpu.json": b"[" * 100_000 + b"]" * 100_000}, 1),
    gcs_read(
        "GCS index entry with a climbing run_id",
        {"index/tpu.json": b'{"runs": [{"run_id": "../../etc/passwd"}, {"run_id": "r-new"}]}'},
        0,
        "not a safe id",
    ),
    Case(
        "SQLite history row of garbage",
        "stores",
        (0,),
        lambda tmp: plain("history")(
            (
                _imported(tmp, record()),
                sqlite3.connect(tmp / "history.sqlite3")
                .execute("UPDATE runs SET record = '{torn'")
                .connection.commit(),
                tmp,
            )[-1]
        ),
        check=warned("not a canary run record"),
    ),
    Case(
        "record whose context is a list",
        "records",
        (2,),
        lambda tmp: plain("history", "import", "{tmp}/runs/r1")((run_dir(tmp, record(context=["x"])), tmp)[-1]),
    ),
    linked_case("report URL JaVaScRiPt:", "JaVaScRiPt:alert(1)"),
    linked_case("report URL after a newline", "\njavascript:alert(1)"),
    linked_case("report URL with a tab in its scheme", "java\tscript:alert(1)"),
    linked_case("report URL data:text/html", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="),
    linked_case("report URL a JSON object", {"href": "javascript:alert(1)"}),
    env_case("CANARY_NUM_PROCESSES", "1e400", "list"),
    env_case("CANARY_NUDGE_SEED", "-1", "list"),
    # round 3: notify spool
    Case(
        "404 repository, then the right one",
        "spool",
        (0,),
        spool_case(_typo_then_right),
        check=all_of(said("HTTP 404", "given-up acme/typo", "canary notify --resend"), posts(1)),
    ),
    Case(
        "SIGTERM while run --notify posts",
        "spool",
        (143,),
        spool_case(_sigterm_run),
        check=all_of(
            said("FAIL", "stopped by SIGTERM while notifying"),
            lambda o: None if any(k.endswith("notify-pending.json") for k in o.files) else "nothing kept",
        ),
    ),
    Case("SIGKILL while notifying, then the next notify", "spool", (0,), spool_case(_sigkill_notify), check=posts(2)),
    Case(
        "hand-placed notify-pending.json for another repository",
        "spool",
        (0,),
        spool_case(_planted("victim/private"), "victim/private"),
        check=all_of(said("not spooled by this canary"), posts(1)),
    ),
    Case(
        "hand-placed notify-pending.json for the configured repository",
        "spool",
        (0,),
        spool_case(_planted(REPO)),
        check=all_of(said("not spooled by this canary"), posts(1)),
    ),
    Case(
        "a pending file of binary garbage",
        "spool",
        (0,),
        spool_case(_with_file(lambda p: p.write_bytes(b"\x00\xff\x1b[2J{" * 1000))),
        check=said("cannot be read"),
    ),
    Case(
        "a pending file that is a FIFO",
        "spool",
        (0,),
        spool_case(_with_file(os.mkfifo)),
        check=said("cannot be read"),
    ),
    Case(
        "a pending file linking to /dev/zero",
        "spool",
        (0,),
        spool_case(_with_file(lambda p: os.symlink("/dev/zero", p))),
        check=said("cannot be read"),
    ),
    Case(
        "a spool of 10,000 waiting notifications",
        "spool",
        (0,),
        spool_case(_ten_thousand),
        check=all_of(said("still wait"), posts(21)),
    ),
    Case("a waiting entry copied into a sibling directory", "spool", (0,), spool_case(_copied), check=posts(2)),
    Case("a waiting entry whose issue was closed meanwhile", "spool", (0,), spool_case(_closed_meanwhile)),
    Case(
        "a 429 asking to wait a year",
        "spool",
        (1,),
        spool_case(_year_429),
        check=all_of(said("the next notify sends it"), lambda o: None if o.seconds < 30 else "waited"),
    ),
    Case("a read-only spool directory", "spool", (0,), spool_case(_read_only(False)), check=posts(1)),
    Case(
        "a read-only spool directory, GitHub down",
        "spool",
        (1,),
        spool_case(_read_only(True)),
        check=said("not sent"),
    ),
    Case("two canaries resending at once", "spool", (0,), spool_case(_two_at_once), check=posts(2)),
    Case(
        "a planted entry whose run id climbs out",
        "spool",
        (0, 1),
        spool_case(_climbing),
        check=no_file("outside/notify-pending.json"),
    ),
    Case("a planted entry with escapes in its repository", "spool", (0,), spool_case(_escapes)),
    Case(
        "a 401, then the right token",
        "spool",
        (0,),
        spool_case(_bad_token_then_good),
        check=all_of(said("HTTP 401", "given-up"), posts(1)),
    ),
    # round 3: secrets
    Case(
        "coloured password=value (structlog)",
        "secrets",
        (1,),
        run_case(printing(f"{CY}password{RS}={MG}{PW3}{RS} {CY}event{RS}=login")),
        (PW3,),
    ),
    Case(
        "token interrupted by an escape",
        "secrets",
        (1,),
        run_case(printing(f"push with {GH3[:20]}{RS}{GH3[20:]}"), notify=True),
        (GH3[4:20], GH3[20:]),
    ),
    Case(
        "MINIO_SECRET_KEY of the environment",
        "secrets",
        (1,),
        run_case(
            "import os, sys\nprint('s3 secret', os.environ['MINIO_SECRET_KEY'])\nsys.exit(1)",
            MINIO_SECRET_KEY="Mn1oOpaque/Val+ue77",
        ),
        ("Mn1oOpaque/Val+ue77",),
    ),
    Case(
        'SECRET_KEY= and "secret_key": "..."',
        "secrets",
        (1,),
        run_case(printing("SECRET_KEY=a8Zk2Lq9Wm4Xn7Vb", '{"secret_key": "Qp7Rs2Tu9Vw4Xy1Z"}')),
        ("a8Zk2Lq9Wm4Xn7Vb", "Qp7Rs2Tu9Vw4Xy1Z"),
    ),
    Case(
        "Django SECRET_KEY = '...'",
        "secrets",
        (1,),
        run_case(printing("SECRET_KEY = 'django-insecure-k3#v&x!m(z)q^w*e9'")),
        ("django-insecure", "x!m(z)q^w*e9"),
    ),
    Case(
        "boto Credentials(secret_key=...)",
        "secrets",
        (1,),
        run_case(printing("Credentials(access_key='AKIAIOSFODNN7EXAMPLE', secret_key='wJalrXUtnFEMI/K7MDENG')")),
        ("wJalrXUtnFEMI/K7MDENG",),
    ),
    Case(
        "service-account JSON as GCP_SA_KEY_B64",
        "secrets",
        (1,),
        run_case(printing("GCP_SA_KEY_B64=" + SA_B64)),
        (SA_B64[40:80], SA_B64[-40:]),
    ),
    Case(
        "kubeconfig client-key-data",
        "secrets",
        (1,),
        run_case(printing("    client-key-data: " + KEY_B64)),
        (KEY_B64[40:80], KEY_B64[-40:]),
    ),
    Case(
        "redis://:PASSWORD@host",
        "secrets",
        (1,),
        run_case(printing("redis://:R3disPa55word@cache:6379/0")),
        ("R3disPa55word",),
    ),
    Case(
        "curl -u user:pass",
        "secrets",
        (1,),
        run_case(printing("curl -u deploy:Cu7lPa55word https://x")),
        ("Cu7lPa55word",),
    ),
    Case(
        "--db-password and --hf-token flags",
        "secrets",
        (1,),
        run_case(printing("serve --db-password Db9Pa55wordX --hf-token=HfT0kenValue77 --port 1")),
        ("Db9Pa55wordX", "HfT0kenValue77"),
    ),
    Case(
        "netrc default line",
        "secrets",
        (1,),
        run_case(printing("default login bot password N3trcDefaultPw")),
        ("N3trcDefaultPw",),
    ),
    Case(
        "Cookie: sessionid=",
        "secrets",
        (1,),
        run_case(printing("> Cookie: sessionid=s3ss10nValue42; csrftoken=Csrf7Value99")),
        ("s3ss10nValue42", "Csrf7Value99"),
    ),
    Case(
        "private_key_id <hex>, spaced",
        "secrets",
        (1,),
        run_case(printing("private_key_id 9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6")),
        ("9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6",),
    ),
    Case(
        "dckr_pat_, dapi, api_org_ tokens",
        "secrets",
        (1,),
        run_case(printing(DOCKER_PAT, DATABRICKS, HF_ORG)),
        (DOCKER_PAT, DATABRICKS, HF_ORG),
    ),
    Case(
        "PGP private key block",
        "secrets",
        (1,),
        run_case(printing(*PGP.splitlines())),
        ("lQdGBF9xZ2sBEADHq8mJ3KlPz7vW1s0a",),
    ),
    Case(
        "Discord webhook",
        "secrets",
        (1,),
        run_case(printing("POST https://discord.com/api/webhooks/1234567890/AbCdEf_GhIjKl-MnOpQrSt")),
        ("AbCdEf_GhIjKl-MnOpQrSt",),
    ),
    Case("short client_secret", "secrets", (1,), run_case(printing("client_secret=x7Kp2")), ("x7Kp2",)),
    Case(
        "&commat; in a record's prose",
        "secrets",
        (0, 2),
        notify_case({"ferry_version": "1 &commat;everyone"}),
        check=lambda o: "&commat;everyone" in "\n".join(o.posted).replace("\\&commat;", "") and "live mention" or None,
    ),
    Case(
        "a line already redacted is redacted once",
        "secrets",
        (1,),
        run_case(printing("Authorization: Bearer [REDACTED]", "Cookie: [REDACTED]"), notify=True),
        check=lambda o: any("[REDACTED]]" in t for t in [o.out, *o.posted, *o.files.values()]) and "]]" or None,
    ),
    Case(
        "token in a commit subject while GitHub is down",
        "secrets",
        (0, 1),
        lambda tmp: _subject_in_window(tmp),
        (GH3,),
        check=lambda o: (
            None
            if any(k.endswith("notify-pending.json") and "ci: push with [REDACTED]" in v for k, v in o.files.items())
            else "the window was not kept"
        ),
    ),
    # round 3: secrets, cases of our own
    Case(
        "password split by an OSC 8 hyperlink",
        "secrets",
        (1,),
        run_case(printing(f"pass\x1b]8;;https://e.example\x1b\\word\x1b]8;;\x1b\\={PW3}")),
        (PW3,),
    ),
    Case(
        "password= overstruck with backspaces",
        "secrets",
        (1,),
        run_case(printing("".join(c + "\b" + c for c in "password") + "=" + PW3)),
        (PW3,),
    ),
    Case(
        "token with a carriage return inside",
        "secrets",
        (1,),
        run_case(printing(GH3[:22] + "\r" + GH3[22:])),
        (GH3[22:],),
    ),
    Case(
        "password URL-encoded twice",
        "secrets",
        (1,),
        run_case(printing(f"GET /cb?next=%2Fx%3Fpassword%253D{PW3}%2526a=1")),
        (PW3,),
    ),
    Case("JWT split by an escape", "secrets", (1,), run_case(printing(JWT[:30] + RS + JWT[30:])), (JWT[30:],)),
    Case(
        "Azure connection string, lower case",
        "secrets",
        (1,),
        run_case(printing("defaultendpointsprotocol=https;accountname=a;accountkey=" + AZ_KEY + ";endpointsuffix=x")),
        (AZ_KEY[:30],),
    ),
    Case(
        "token as a key of wandb.json",
        "secrets",
        (1,),
        run_case(
            "import json, shlex, sys\nout = json.load(open(shlex.split(sys.argv[1])[-1]))['out_dir']\n"
            f"open(out + '/wandb.json', 'w').write(json.dumps({{'mode': 'offline', 'config': {{'{GH3}': 1}}}}))\n"
            "sys.exit(1)"
        ),
        (GH3,),
    ),
    Case(
        "\\u0070assword in JSON",
        "secrets",
        (1,),
        run_case(printing('{"event": "login", "\\u0070assword": "' + PW3 + '"}')),
        (PW3,),
    ),
    Case(
        "JSON-escaped colours around password=",
        "secrets",
        (1,),
        run_case(printing('{"event": "\\u001b[36mpassword\\u001b[0m=\\u001b[35m' + PW3 + '\\u001b[0m"}')),
        (PW3,),
    ),
    Case(
        "repr-escaped colours around token=",
        "secrets",
        (1,),
        run_case(printing("'\\x1b[36mapi_token\\x1b[0m=\\x1b[35m" + PW3 + "\\x1b[0m'")),
        (PW3,),
    ),
    Case(
        "bidi override inside a token",
        "secrets",
        (1,),
        run_case(printing(GH3[:18] + "\u202e" + GH3[18:])),
        (GH3[18:],),
    ),
    Case(
        "set -x trace of curl -u",
        "secrets",
        (1,),
        run_case(printing("+ curl -sS -u ci-bot:Tr4ceP4ssw0rd https://artifacts.example/x")),
        ("Tr4ceP4ssw0rd",),
    ),
    Case(
        "kubectl --from-literal=password=",
        "secrets",
        (1,),
        run_case(printing("kubectl create secret generic db --from-literal=password=Kube7Pa55word")),
        ("Kube7Pa55word",),
    ),
    Case(
        "Proxy-Authorization: Basic",
        "secrets",
        (1,),
        run_case(printing("> Proxy-Authorization: Basic " + B64(b"proxy:Pr0xyPa55").decode())),
        (B64(b"proxy:Pr0xyPa55").decode(),),
    ),
]


def _subject_in_window(tmp: Path) -> Outcome:
    """A failure whose regression window holds a commit with a token in its subject, told while
    GitHub is down: the notification is kept (notify-pending.json, the history) for later."""

    def git(*args: str) -> str:
        cmd = ["git", "-c", "user.email=ci@example.com", "-c", "user.name=ci", *args]
        return subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, check=True).stdout.strip()

    from notify_records import passing

    git("init", "-q")
    git("commit", "-q", "--allow-empty", "-m", "base")
    good = git("rev-parse", "HEAD")
    git("commit", "-q", "--allow-empty", "-m", f"ci: push with {GH3} for now")
    bad = git("rev-parse", "HEAD")
    d = tmp / "runs" / "r0"
    d.mkdir(parents=True)
    (d / "result.json").write_text(
        json.dumps({**passing("20260827T060000Z-tpu-cd34", "2026-08-27").to_dict(), "commit": good})
    )
    subprocess.run([PY, "-m", "canary", "history", "import", str(d)], cwd=tmp, env=env(tmp), capture_output=True)
    bad_dir = run_dir(tmp, record(commit=bad))
    with GitHubServer(TOKEN, REPO) as gh:
        gh.state.down = True
        o = cli(tmp, "notify", str(bad_dir), "--repo", REPO, GITHUB_API_URL=gh.url)
    o.files = {k: v for k, v in files_under(tmp).items() if not k.startswith(".git/")}  # the case's own repo
    return o


def _zero_golden(tmp: Path) -> Path:
    g = tmp / "gates"
    g.mkdir()
    (g / "g.toml").write_text(
        (ROOT / "gates" / "moe-canary.toml").read_text().replace("moe-canary.cpu.golden.json", "zero.golden.json")
    )
    os.symlink("/dev/zero", g / "zero.golden.json")
    (tmp / "metrics.jsonl").write_text(json.dumps({"global_step": 1, "train/loss": 4.0}) + "\n")
    return tmp


def _imported(tmp: Path, rec: dict) -> Path:
    d = run_dir(tmp, rec)
    subprocess.run([PY, "-m", "canary", "history", "import", str(d)], cwd=tmp, env=env(tmp), capture_output=True)
    return tmp


# ----------------------------------------------------------------------------- judging


def judge(case: Case, o: Outcome, tmp: Path, outside_before: set[str]) -> list[str]:
    wrong = []
    if o.rc is None:
        wrong.append(o.err)
    elif o.rc not in case.expect:
        wrong.append(f"exit {o.rc}, expected {'/'.join(map(str, case.expect))}")
    texts = {
        "stdout": o.out,
        "stderr": o.err,
        **{f"file {k}": v for k, v in o.files.items()},
        **{f"post {i}": p for i, p in enumerate(o.posted)},
    }
    # canary's own traceback (the workload's is data: its excerpt is shown under "training failed:")
    if (
        "Traceback (most recent call last)" in o.err
        or "canary/" in o.out
        and 'File "' in o.out
        and "training failed" not in o.out
        and "--json" not in case.name
    ):
        wrong.append("a traceback")
    for secret in case.secrets:
        pieces = [secret] + ([secret[i : i + 8] for i in range(len(secret) - 7)] if case.fragments else [])
        for where, text in texts.items():
            if where == "file lanes.toml":  # the case's own stand-in, which holds what it plants
                continue
            if any(p in text for p in pieces):
                wrong.append(f"leaked into {where}")
                break
    for where in ("stdout", "stderr", *[k for k in texts if k.startswith("post")]):
        if any(c in texts[where] for c in CONTROL):
            wrong.append(f"control sequence in {where}")
    if case.check:
        said = case.check(o)
        if said:
            wrong.append(said)
    wrong.extend(o.wrong)
    outside = set(os.listdir("/dev"))
    if outside - outside_before:
        wrong.append(f"wrote outside: {sorted(outside - outside_before)[:3]}")
    return wrong


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", metavar="WORD", help="only the cases whose name or area holds WORD")
    ap.add_argument("--json", action="store_true", help="also print the rows as JSON")
    a = ap.parse_args()
    rows = []
    for case in CASES:
        if a.only and a.only.lower() not in (case.name + " " + case.area).lower():
            continue
        with tempfile.TemporaryDirectory(prefix="sweep-") as d:
            tmp = Path(d)
            before = set(os.listdir("/dev"))
            try:
                o = case.run(tmp)
                wrong = judge(case, o, tmp, before)
                rc, seconds = o.rc, o.seconds
            except Exception as e:  # noqa: BLE001 - the sweep itself must finish
                wrong, rc, seconds = [f"sweep error: {type(e).__name__}: {e}"], None, 0.0
        rows.append(
            {
                "area": case.area,
                "case": case.name,
                "rc": rc,
                "clean": not wrong,
                "seconds": round(seconds, 1),
                "wrong": "; ".join(wrong),
            }
        )
        print(
            f"{'clean' if not wrong else 'NOT CLEAN':9} {case.area:9} {case.name}"
            + (f"  [{'; '.join(wrong)}]" if wrong else ""),
            flush=True,
        )
    clean = sum(r["clean"] for r in rows)
    print(f"\n{len(rows)} cases, {clean} clean, {len(rows) - clean} left over")
    if a.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
