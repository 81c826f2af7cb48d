"""Secrets never reach a post; untrusted text cannot inject markdown, ping people or forge markers;
posts fit GitHub's size limit by trimming only the excerpt."""

import re

import pytest
from notify_records import failing, signature

from canary.notify.compose import new_issue, recurrence_comment
from canary.notify.markdown import clean, fence, fit, neutralize_mentions, trim_lines
from canary.notify.markers import has_run_marker, issue_fingerprint
from canary.notify.model import Facts
from canary.notify.redact import redact
from canary.notify.secret_shapes import REDACTED

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
