"""Secrets never reach a post; untrusted text cannot inject markdown, ping people or forge markers;
posts fit GitHub's size limit by trimming only the excerpt."""

import re

import pytest
from notify_records import failing, signature

from canary.notify.compose import new_issue, recurrence_comment
from canary.notify.markers import has_run_marker, issue_fingerprint
from canary.notify.model import Facts
from canary.text.markdown import clean, fence, fit, neutralize_mentions, trim_lines
from canary.text.redact import redact
from canary.text.secret_shapes import REDACTED

GH_CLASSIC = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
SECRETS = {
    "github classic": GH_CLASSIC,
    "github oauth": "gho_" + "Z" * 36,
    "github app": "ghs_" + "0aB" * 12,
    "github fine-grained": "github_pat_11ABCDEFG0" + "x" * 20 + "_" + "Y" * 59,
    "google oauth": "ya29.a0AfB_byC-1234567890abcdefGHIJKLmnop_qrstuvWXYZ",
    "aws key id": "AKIAIOSFODNN7EXAMPLE",
    "aws temp key id": "ASIAY34FZKBOKMUTVV7A",
}


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_token_shapes_are_redacted_wherever_they_appear(kind):
    secret = SECRETS[kind]
    text = f"fetching with {secret} failed\nurl=https://x/?t={secret}&y=1"
    out = redact(text)
    assert secret not in out
    assert REDACTED in out
    assert "fetching with" in out  # the rest of the line is kept


@pytest.mark.parametrize(
    "line, secret",
    [
        ("WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567", "0123456789abcdef0123456789abcdef01234567"),
        (
            "wandb: export WANDB_KEY: 'fedcba9876543210fedcba9876543210fedcba98'",
            "fedcba9876543210fedcba9876543210fedcba98",
        ),
        ("$ wandb login 00112233445566778899aabbccddeeff00112233", "00112233445566778899aabbccddeeff00112233"),
        (
            "machine api.wandb.ai\n  login user\n  password 99887766554433221100ffeeddccbbaa99887766",
            "99887766554433221100ffeeddccbbaa99887766",
        ),
        ("api_key=local-0123456789abcdef0123456789abcdef01234567", "local-0123456789abcdef0123456789abcdef01234567"),
        ("host key vm-" + "k" * 40, "vm-" + "k" * 40),
        ("WANDB_API_KEY=" + "A1b_" * 21 + "xy", "A1b_" * 21 + "xy"),  # the newer 86-character keys
        ('wandb.login(key="' + "Z9_" * 28 + 'qq", relogin=True)', "Z9_" * 28 + "qq"),
        ("machine example.com login bot password hunter2-is-secret", "hunter2-is-secret"),
        (
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        (
            '"AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"',
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc-def_ghi", "eyJhbGciOiJIUzI1NiJ9.e30.abc-def_ghi"),
        ("-H 'authorization: token s3cr3t-0paque-value'", "s3cr3t-0paque-value"),
        ("proxy sent bearer abc.DEF-ghi_jkl/mno+pqr==", "abc.DEF-ghi_jkl/mno+pqr=="),
        ("GCS_HMAC_SECRET=verysecretvalue123", "verysecretvalue123"),
    ],
)
def test_secrets_given_by_their_setting_or_header_are_redacted(line, secret):
    out = redact(line)
    assert secret not in out
    assert REDACTED in out


def test_commit_ids_and_ordinary_log_text_survive_redaction():
    text = (
        "commit c0ffee1234567890c0ffee1234567890c0ffee12 touched canary/workload/model.py\n"
        "array shape (524288, 128) tokens_per_second=1234.5 max_tokens: 8192"
    )
    assert redact(text) == text


def test_exact_secret_values_are_redacted_whatever_their_shape():
    assert redact("token is hunter2hunter2!", ["hunter2hunter2!"]) == f"token is {REDACTED}"


def test_fence_is_longer_than_any_backtick_run_inside():
    nasty = "ok\n````\n# Heading injected\n```\n[click](http://evil)\n`````x"
    block = fence(nasty)
    bar = block.splitlines()[0].removesuffix("text")
    assert len(bar) == 6 and set(bar) == {"`"}
    inner = block.splitlines()[1:-1]
    assert all(not ln.startswith(bar) for ln in inner)  # nothing inside can close it
    assert block.endswith("\n" + bar)


def test_mentions_are_neutralized_but_emails_and_decorators_kept():
    out = neutralize_mentions("cc @octocat and @acme/infra-team; mail dev@example.com")
    assert "@octocat" not in out and "@acme/infra-team" not in out
    assert "@\u200boctocat" in out and "@\u200bacme/infra-team" in out
    assert "dev@example.com" in out


def test_untrusted_text_cannot_forge_a_canary_marker():
    forged = "<!-- canary:run=20260828T060000Z-tpu-ab12 lane=tpu -->\n<!-- canary:fingerprint=deadbeef -->"
    rec = failing(error=forged, signature=signature(message=forged))
    body = new_issue(rec, Facts()).body
    assert issue_fingerprint(body) == "3f9a1c2b7d4e"
    assert body.count("<!-- canary:run=") == 1
    assert "<!-- canary:fingerprint=deadbeef -->" not in body


def test_every_secret_kind_is_gone_from_a_composed_issue_and_comment():
    leaky = "\n".join(SECRETS.values()) + "\nAuthorization: Bearer sekrit-bearer-value\n@octocat look"
    sig = signature(message="boom " + SECRETS["aws key id"])
    rec = failing(error=leaky, signature=type(sig)(**{**sig.__dict__, "excerpt": leaky}))
    for msg in (new_issue(rec, Facts()), recurrence_comment(rec, Facts())):
        text = msg.body + (msg.title or "")
        for secret in list(SECRETS.values()) + ["sekrit-bearer-value"]:
            assert secret not in text
        assert "@octocat" not in text


def test_trim_lines_keeps_head_and_tail_and_says_what_was_cut():
    text = "\n".join(f"line {i}" for i in range(1000))
    out = trim_lines(text, 200)
    assert len(out) <= 200
    assert out.startswith("line 0") and out.endswith("line 999")
    assert re.search(r"\.\.\. \d+ lines trimmed \.\.\.", out)


def test_trim_lines_cuts_one_huge_line_by_characters():
    out = trim_lines("x" * 10_000, 100)
    assert len(out) <= 100 and "[trimmed]" in out


def test_fit_trims_only_the_excerpt():
    context = "CONTEXT " * 10

    def render(excerpt):
        return f"{context}\n{fence(excerpt)}\n{context}"

    out = fit(render, "y\n" * 50_000, limit=2000)
    assert len(out) <= 2000
    assert out.startswith(context) and out.endswith(context)


def test_huge_log_keeps_the_comment_under_githubs_limit_and_keeps_the_context_block():
    huge = "\n".join(f"E1128 worker {i}: ``` stray fence ``` and noise " + "z" * 80 for i in range(2_000))
    sig = signature()
    rec = failing(signature=type(sig)(**{**sig.__dict__, "excerpt": huge}))
    for msg in (
        new_issue(rec, Facts(lane_context="GCP, TPU v6e-4, europe-west4")),
        recurrence_comment(rec, Facts(lane_context="GCP, TPU v6e-4, europe-west4")),
    ):
        assert len(msg.body) <= 65536
        assert "lines trimmed" in msg.body
        assert "Lane: tpu (GCP, TPU v6e-4, europe-west4)" in msg.body
        assert "W&B run: https://wandb.ai/acme/canary/runs/abc123" in msg.body
        assert "Date: 2026-08-28" in msg.body
        assert has_run_marker([msg.body], rec.run_id, "tpu")
        assert "### How to reproduce" in msg.body


def test_clean_applies_every_defence():
    out = clean(f"@octocat {GH_CLASSIC} <!-- x -->")
    assert "@octocat" not in out and GH_CLASSIC not in out and "<!--" not in out


def test_a_huge_message_and_call_path_still_fit_and_keep_the_context():
    sig = signature(message="M" * 100_000 + "\n" + "N" * 100_000)
    sig = type(sig)(
        **{**sig.__dict__, "frames": [f"frame{i}.py:f" * 20 for i in range(1000)], "excerpt": "E" * 100_000}
    )
    msg = recurrence_comment(failing(signature=sig), Facts(lane_context="GCP, TPU v6e-4, europe-west4"))
    assert len(msg.body) <= 65536
    assert "Lane: tpu (GCP, TPU v6e-4, europe-west4)" in msg.body and "Date: 2026-08-28" in msg.body
    assert "frames ..." in msg.body


# ----------------------------------------------------------------------------- round 3 (#34)

ROUND3_SHAPES = {
    "MinIO secret key": ("MINIO_SECRET_KEY=", "Mn1oS3cretKeyValue42"),
    "SECRET_KEY=": ("SECRET_KEY=", "a8Zk2Lq9Wm4Xn7Vb"),
    "secret_key in JSON": ('{"secret_key": "', 'Qp7Rs2Tu9Vw4Xy1Z"}'),
    "Django": ("SECRET_KEY = '", "django-insecure-k3#v&x!m(z)q^w*e9'"),
    "boto Credentials": ("Credentials(access_key='AKIAIOSFODNN7EXAMPLE', secret_key='", "wJalrXUtnFEMI/K7MDENG')"),
    "redis empty user": ("redis://:", "R3disPassw0rd@cache:6379/0"),
    "curl -u": ("curl -u deploy:", "Cu7lPassw0rd https://x.example"),
    "curl --user": ("curl --user=deploy:", "Cu7lPassw0rd https://x.example"),
    "--db-password": ("serve --db-password ", "Db9Passw0rdX --port 1"),
    "--hf-token=": ("push --hf-token=", "HfT0kenValue77 --repo x"),
    "--db_password": ("serve --db_password=", "Db9Passw0rdX"),
    "netrc default": ("default login bot password ", "N3trcDefaultPw"),
    "Cookie": ("> Cookie: sessionid=", "s3ss10nValue42; csrftoken=abc"),
    "Set-Cookie": ("< Set-Cookie: sessionid=", "s3ss10nValue42; Path=/"),
    "private_key_id spaced": ("private_key_id ", "9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6"),
    "client_secret spaced": ("client_secret ", "Zq3opaqueClient5ecret"),
    "short client_secret": ("client_secret=", "x7Kp2"),
    "short password": ('{"password": "', 'pw12"}'),
    "docker PAT": ("docker login -p ", "dckr_pat_" + "2YotnFZFEjr1zCsicMWpAA7Q"),
    "databricks": ("token ", "dapi" + "0123456789abcdef0123456789abcdef-2"),
    "HF org token": ("using ", "api_org_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"),
    "discord webhook": ("https://discord.com/api/webhooks/1234567890/", "AbCdEf_GhIjKl-MnOpQr"),
}


@pytest.mark.parametrize("kind", sorted(ROUND3_SHAPES))
def test_round_three_secret_shapes_are_redacted(kind):
    head, tail = ROUND3_SHAPES[kind]
    secret = re.split(r"""[ '"}@;)]""", tail)[0] if kind not in ("Django",) else tail[:-1]
    out = redact(head + tail)
    assert secret not in out, out
    assert REDACTED in out


def test_placeholders_and_tokenizer_settings_are_no_secrets():
    text = 'password=None client_secret=*** "eos_token": "<|endoftext|>" "pad_token": "<pad>" max_tokens: 8192'
    assert redact(text) == text


def test_a_pgp_private_key_block_is_redacted_whole():
    block = "\n".join(
        [
            "-----BEGIN PGP PRIVATE KEY BLOCK-----",
            "Version: GnuPG v2",
            "Comment: https://keys.example.org/x.asc",
            "",
            "lQdGBF9xZ2sBEADHq8mJ3KlPz7vW1s0aT2eR6yU4iO9pA5sD3fG7hJ1kL8zX2cV",
            "=Ab3d",
            "-----END PGP PRIVATE KEY BLOCK-----",
        ]
    )
    out = redact(f"key:\n{block}\nstep 2 loss 3.0")
    assert "lQdGBF9xZ2sBEAD" not in out and "keys.example.org" not in out and "step 2 loss 3.0" in out


@pytest.mark.parametrize(
    "content",
    [
        b'{\n  "type": "service_account",\n  "private_key_id": "abc",\n  "private_key": "-----BEGIN PRIVATE KEY-----'
        b'\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----\\n"\n}\n',
        b"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2Zlo\n"
        + b"QUFB" * 1200
        + b"\n-----END RSA PRIVATE KEY-----\n",
    ],
    ids=["service-account JSON as GCP_SA_KEY_B64", "kubeconfig client-key-data"],
)
def test_base64_of_a_multi_line_secret_is_redacted_whole(content):
    import base64

    blob = base64.b64encode(content).decode()
    out = redact(f"GCP_SA_KEY_B64 {blob}\n    client-key-data: {blob}\nnext")
    assert blob[:40] not in out and blob[-40:] not in out and out.endswith("next")


def test_secret_named_environment_variables():
    from canary.text.redact import env_secrets

    env = {"MINIO_SECRET_KEY": "minio-secret-1", "GCP_SA_KEY_B64": "eyJ0eXBlIjoi", "PATH": "/usr/bin:/bin"}
    assert set(env_secrets(env)) == {"minio-secret-1", "eyJ0eXBlIjoi"}


IDEMPOTENT = [
    "Authorization: Bearer abc.def-ghi",
    "Authorization: token s3cr3t-0paque-value",
    "Cookie: sessionid=abc123; other=x",
    f"machine h login u password pw123456 {GH_CLASSIC}",
    "password=[REDACTED]]] x",
    "--password [REDACTED] --token=[REDACTED]",
    "redis://:pw@h curl -u a:b SECRET_KEY='x&y(z)12345'",
    "X-Api-Key: a1b2c3d4e5f6a7b8c9d0e1f2 https://u:p@h/?sig=abcdEFGHijkl%2BmnopQRST",
    "\x1b[36mpassword\x1b[0m=\x1b[35mhunter2hunter2\x1b[0m",
]


@pytest.mark.parametrize("text", IDEMPOTENT)
def test_redaction_is_idempotent(text):
    once = redact(text, ["pw123456"])
    assert redact(once, ["pw123456"]) == once
    assert once.count(REDACTED + "]") <= text.count(REDACTED + "]"), once


def test_escapes_are_stripped_before_redaction():
    coloured = "\x1b[36mpassword\x1b[0m=\x1b[35mhunter2hunter2\x1b[0m ghp_a1B2c3D4e5F6\x1b[0mg7H8i9J0k1L2m3N4o5P6q7R8"
    out = redact(coloured)
    assert out == f"password={REDACTED} {REDACTED}"
    assert "hunter2" not in clean(coloured) and "g7H8i9J0" not in clean(coloured)


def test_inline_code_redacts_and_entities_cannot_form_mentions():
    from canary.text.markdown import code, escape_inline

    assert GH_CLASSIC not in code(f"x {GH_CLASSIC}") and REDACTED in code(f"x {GH_CLASSIC}")
    assert "s3cr" not in code("opaque s3cr3tvalue", ["s3cr3tvalue"])
    for entity in ("&commat;octocat", "&#64;octocat", "&#x40;octocat", "&lt;!-- canary:run=x --&gt;"):
        out = escape_inline(f"fix: {entity}")
        assert "&" not in out.replace("\\&", ""), out  # every & escaped: no entity forms


def test_secrets_in_commit_subjects_are_redacted_before_a_notification_is_kept(tmp_path, monkeypatch):
    import json

    from canary.history.windows import WindowCommit
    from canary.notify import spool
    from canary.notify.model import Facts, FirstBad

    monkeypatch.setenv("CANARY_NOTIFY_SPOOL", str(tmp_path))
    subject = f"ci: rotate to {GH_CLASSIC} and \x1b[1mpass\x1b[0mword=Hunter2Hunter2"
    facts = Facts(
        window=(WindowCommit("c0ffee1234567890c0ffee1234567890c0ffee12", subject, ["a.py"], True),),
        first_bad=FirstBad("c0ffee1234567890c0ffee1234567890c0ffee12", subject=subject),
        secrets=("OpaqueSecretValue9",),
        window_note="note with OpaqueSecretValue9",
    )
    pending = spool.Pending("github", "acme/canary", failing(error=f"boom {GH_CLASSIC}"), facts)
    path = spool.put(pending)
    kept = path.read_text() + json.dumps(spool.mark(pending).to_dict())
    for leaked in (GH_CLASSIC, "Hunter2Hunter2", "OpaqueSecretValue9", "\x1b", "\\u001b"):
        assert leaked not in kept, leaked
    assert "c0ffee1234567890c0ffee1234567890c0ffee12" in kept  # the commit is still named
    assert spool.Pending.from_dict(json.loads(path.read_text())).facts.window[0].subject.startswith("ci: rotate")


def test_escaped_colours_and_letters_hide_no_secret_and_json_stays_json():
    import json

    line = json.dumps(
        {
            "event": "\x1b[36mpassword\x1b[0m=\x1b[35mHunter2Hunter2\x1b[0m",
            "\u0070assword": "Sh0rtButSecret99",
            "path": "C:\\u0070ath\\new",
            "quote": 'say "hi"',
        }
    )  # json.dumps writes \u001b and keeps p; \u0070assword is spelled out below
    line = line.replace('"password"', '"\\u0070assword"')
    out = redact(line)
    assert "Hunter2Hunter2" not in out and "Sh0rtButSecret99" not in out, out
    assert json.loads(out)["path"] == "C:\\u0070ath\\new" and json.loads(out)["quote"] == 'say "hi"'
