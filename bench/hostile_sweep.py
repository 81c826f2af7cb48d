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
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from github_server import GitHubServer, RawReply  # noqa: E402  (the tests' loopback server)
from notify_records import failing  # noqa: E402

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
        "CANARY_GITHUB_BACKOFF_SCALE": "0.001",
        "GITHUB_TOKEN": TOKEN,
        "DEPLOY_API_KEY": SECRET,
        "XDG_DATA_HOME": str(tmp / "data"),
        "GITHUB_API_URL": "http://127.0.0.1:9",
        **extra,
    }


def cli(tmp: Path, *args: str, stdin: bytes | None = None, timeout: float = 90, **extra: str) -> Outcome:
    t0 = time.monotonic()
    try:
        r = subprocess.run(
            [PY, "-m", "canary", *args],
            cwd=tmp,
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
        "backoff scale 1e308",
        "github",
        (1, 2),
        notify_case(raw=[RawReply(500, b"{}", times=20)], CANARY_GITHUB_BACKOFF_SCALE="1e308"),
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
