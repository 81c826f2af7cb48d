"""The shapes a secret takes in a log: token formats (GitHub, GitLab, Slack, cloud keys, JWTs, PEM
blocks, ...), credentials in headers, URLs, flags and netrc entries, and any ``KEY=value`` whose
key says it is secret, in the encodings logs spell them (quoted, URL-encoded, JSON inside JSON).

Add a shape by appending ``(name, pattern, replacement)`` to :data:`PATTERNS` and its words to
:data:`NEEDLES`. Pure string work, linear in its input. How they are looked for in a long log is
:mod:`canary.text.shape_search`'s; the environment's own secret values, and base64 that hides
one, are :mod:`canary.text.redact`'s.
"""

from __future__ import annotations

import re

REDACTED = "[REDACTED]"

# How a setting's name meets its value, in the forms logs show it: KEY=v, "KEY": "v", KEY: 'v',
# URL-encoded (KEY%3Dv, KEY%253Dv), JSON inside JSON (\"KEY\": \"v\"), \u003d. Bounded runs only: every
# pattern below is linear in the text (no nested quantifiers over unbounded input).
_Q = r"""(?:\\{0,3}["']|%2[27])?"""
_SEP = r"(?:\s|%20|\+){0,8}(?:[:=]|%(?:25)?3[aAdD]|\\u003[aAdD])(?:\s|%20|\+){0,8}"  # %253D: encoded twice
_KV = _Q + _SEP + _Q
_VALUE = r"""[^\s"'\\,;&<>)\]}]"""  # a value runs until a quote, a backslash escape, a separator
_FRESH = r"(?!\[REDACTED\])"  # a value already redacted is left as it is: redacting twice changes nothing

# Words that name a secret, as UPPER_CASE, lower_case, Title_Case and camelCase spell them (listed
# rather than matched case-blind: a case-blind alternation costs five times as much per byte).
_SECRET_WORDS = sorted(
    {
        form
        for w in (
            "TOKEN",
            "SECRET",
            "PASSWORD",
            "PASSWD",
            "API_KEY",
            "APIKEY",
            "ACCESS_KEY",
            "ACCESSKEY",
            "PRIVATE_KEY_ID",
            "PRIVATE_KEY",
            "PRIVATEKEY",
            "CREDENTIALS",
            "CREDENTIAL",
            "ACCOUNT_KEY",
            "SHARED_ACCESS_KEY",
            "SECRET_KEY",
            "SECRETKEY",
            "CLIENT_SECRET",
            "SESSIONID",
        )
        for form in (w, w.lower(), w.title(), w.title().replace("_", ""), w.lower().replace("_", ""))
    }
    | {"apiKey", "accessKey", "privateKey", "secretKey", "clientSecret"},
    key=len,
    reverse=True,
)

# Where a token may start: not inside a longer run of its own characters (which also keeps the
# scan linear: one try per run), but right after an escaped newline (\n in a repr or JSON) or a
# URL-encoded byte (%0A).
_START = r"(?:(?<![A-Za-z0-9_\-])|(?<=\\[nrt])|(?<=%[0-9A-Fa-f]{2}))"
_START_UPPER = r"(?:(?<![A-Z0-9])|(?<=%[0-9A-Fa-f]{2}))"

GITHUB_TOKEN_LEN = 36  # characters after a classic or app token's prefix (ghp_, ghs_, ...)
_BREAK = re.compile(r"\\?(?:\r?\n|\\n)")


def _github(m: re.Match[str]) -> str:
    """A GitHub token, joined across a line break when its first line holds less than a whole one."""
    text = m.group(0)
    cut = _BREAK.search(text)
    head = text[: cut.start()] if cut else text
    if cut and len(head) - 4 < GITHUB_TOKEN_LEN:
        tail = text[cut.end() :].lstrip(" \t>|")
        return REDACTED if len(head) - 4 + len(tail) >= 20 else text
    if len(head) - 4 < 20:
        return text
    return REDACTED + text[len(head) :]


# (name, pattern, replacement). Patterns with a group keep the group (a key's name) and redact
# only the value after it. Token shapes carry no word boundary after them: a suffix glued on
# (``ghp_...abc.log``, ``..._v2``) must not let the token through.
PATTERNS: list[tuple[str, re.Pattern[str], str]] = [
    # PEM private keys, whole blocks: as printed, inside a Python repr or JSON (\n escaped), or
    # URL-encoded; a block cut short (no END line) is redacted to where its base64 stops.
    (
        "pem",
        re.compile(
            r"-----BEGIN(?:[ A-Z]|%20|\+){0,40}PRIVATE(?: |%20|\+)KEY-----(?<!PGP PRIVATE KEY-----)"
            r"(?:[A-Za-z0-9+/=\s:,]|-(?!----)|\\[nr/]|%[0-9A-Fa-f]{2})*+"
            r"(?:-----END(?:[ A-Z]|%20|\+){0,40}PRIVATE(?: |%20|\+)KEY-----)?"
        ),
        REDACTED,
    ),
    # PGP private key blocks: their armour has headers (Version:, Comment: a URL), so whatever
    # comes to the END line, or 64 KiB of it when that is missing.
    (
        "pgp",
        re.compile(
            r"-----BEGIN PGP PRIVATE KEY BLOCK-----(?:(?!-----END)[\s\S]){0,65536}"
            r"(?:-----END PGP PRIVATE KEY BLOCK-----)?"
        ),
        REDACTED,
    ),
    # Authorization headers and bearer tokens, whatever the token looks like.
    (
        "authorization",
        re.compile(
            r"(?i)(\bauthorization\b" + _KV + r")(?:(?:bearer|token|basic)(?:\s|%20|\+)+)?+" + _FRESH + _VALUE + "+"
        ),
        r"\1" + REDACTED,
    ),
    ("bearer", re.compile(r"(?i)(\bbearer(?:\s|%20|\+)+)" + _FRESH + r"[A-Za-z0-9\-._~+/]+=*"), r"\1" + REDACTED),
    # Credentials in a URL: scheme://user:password@host, the user empty too (redis://:pw@host).
    ("url_password", re.compile(r"(://[^/\s:@\"']{0,256}:)[^/\s@\"']{1,256}(?=@)"), r"\1" + REDACTED),
    # Cookies, whole: a session id is a password.
    (
        "cookie",
        re.compile(r"(?i)(\b(?:set-)?cookie" + _KV + r")" + _FRESH + r"[^\s\"'\\][^\r\n\"'\\]*"),
        r"\1" + REDACTED,
    ),
    # curl -u user:password, --user user:password (the user kept).
    (
        "curl_user",
        re.compile(r"((?:(?<![\w-])-u\s*|--user(?:=|\s+))[\"']?[^\s:\"']{1,128}:)" + _FRESH + r"[^\s\"']+"),
        r"\1" + REDACTED,
    ),
    # GitHub tokens: classic and app tokens (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained PATs.
    # A token cut by a line break (optionally after a backslash, or an escaped \\n) keeps going on the next line.
    (
        "github",
        re.compile(r"gh[opusr]_[A-Za-z0-9]{1,255}(?:\\?(?:\r?\n|\\n)[ \t>|]{0,8}[A-Za-z0-9]{1,255}(?![A-Za-z0-9_]))?"),
        _github,
    ),
    ("github_pat", re.compile(r"github_pat_[A-Za-z0-9_]{20,}"), REDACTED),
    # GitLab personal/project/group access tokens; Slack bot, user, app and refresh tokens.
    ("gitlab", re.compile(r"gl(?:pat|rt|ptt|dt|cbt|imt|soat|ffct|oas)-[A-Za-z0-9_\-]{20,}"), REDACTED),
    ("sendgrid", re.compile(r"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}"), REDACTED),
    ("slack", re.compile(r"xox[abeoprs]-[A-Za-z0-9\-]{10,}"), REDACTED),
    ("slack_app", re.compile(r"xapp-[0-9]-[A-Za-z0-9\-]{10,}"), REDACTED),
    # Stripe secret and restricted keys.
    ("stripe", re.compile(r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}"), REDACTED),
    # Google API keys, OAuth access tokens and refresh tokens.
    ("google_api_key", re.compile(r"AIza[0-9A-Za-z_\-]{35}"), REDACTED),
    ("google_oauth", re.compile(r"ya29\.[0-9A-Za-z\-_.]+"), REDACTED),
    ("google_refresh", re.compile(_START + r"1//0[A-Za-z0-9_\-]{20,}"), REDACTED),
    # JSON Web Tokens: header.payload.signature, the first two base64url JSON objects.
    ("jwt", re.compile(_START + r"eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*"), REDACTED),
    # Hugging Face, npm and OpenAI-style keys.
    ("huggingface", re.compile(r"hf_[A-Za-z0-9]{30,}"), REDACTED),
    ("npm", re.compile(r"npm_[A-Za-z0-9]{36,}"), REDACTED),
    ("openai", re.compile(_START + r"sk-(?:proj-|ant-)?[A-Za-z0-9_\-]{32,}"), REDACTED),
    # W&B API keys: 40 or more word characters (86 for newer keys; self-hosted ones prefixed, as in
    # local-<key>), with no shape of their own, so recognised by what carries them: the setting,
    # wandb login, wandb.login(key=...), a netrc entry. A bare 40-hex string may well be a commit id.
    (
        "wandb",
        re.compile(r"(?i)(\bwandb[_-]?(?:api[_-]?)?key" + _KV + r")" + _FRESH + _VALUE + "+"),
        r"\1" + REDACTED,
    ),
    ("wandb_login", re.compile(r"(?i)(\bwandb\s+login\s+(?:--\S+\s+)*)[^\s\"',;-][^\s\"',;]*"), r"\1" + REDACTED),
    ("wandb_login_call", re.compile(r"(?i)(\bwandb\.login\([^)]{0,200}?\bkey\s*=\s*[\"'])[^\"']+"), r"\1" + REDACTED),
    (
        "netrc",
        re.compile(
            r"(?i)(\b(?:machine\s+\S+|default(?=\s+(?:login|password|account)\b))[\s\S]{0,200}?\bpassword\s+)"
            + _FRESH
            + r"\S+"
        ),
        r"\1" + REDACTED,
    ),
    ("wandb_onprem", re.compile(r"\b(?:local|vm)-[A-Za-z0-9_]{40,}"), REDACTED),
    # AWS access key ids and secret access keys (also as STS prints them: "SecretAccessKey").
    ("aws_key_id", re.compile(_START_UPPER + r"(?:AKIA|ASIA|AGPA|AIDA|AROA|ABIA|ACCA)[0-9A-Z]{16}"), REDACTED),
    (
        "aws_secret",
        re.compile(r"(?i)(\baws_?secret_?(?:access_?)?key" + _KV + r")[A-Za-z0-9/+=]{40}"),
        r"\1" + REDACTED,
    ),
    ("aws_sts_secret", re.compile(r"(\bSecretAccessKey" + _KV + r")[A-Za-z0-9/+=]{40}"), r"\1" + REDACTED),
    # Cloud signatures and keys: Azure SAS (sig=) and storage account keys, signed URLs (GCS, S3),
    # a Slack webhook's secret path, API-key headers, PyPI upload tokens, passwords given as flags.
    (
        "sas_sig",
        re.compile(
            r"(?:(?<![A-Za-z0-9_])|(?<=%[0-9A-Fa-f]{2}))((?:sig|Signature)(?:=|%3[dD]))"
            r"[A-Za-z0-9%+/_\-]{16,}=*"
        ),
        r"\1" + REDACTED,
    ),
    (
        "signed_url",
        re.compile(r"(?i)(\bx-(?:goog|amz)-(?:signature|credential|security-token)(?:=|%3d))[^\s&\"'<>]+"),
        r"\1" + REDACTED,
    ),
    (
        "slack_webhook",
        re.compile(
            r"(hooks\.slack\.com(?:/|%2[fF])(?:services|workflows|triggers)(?:/|%2[fF]))"
            r"(?:[A-Za-z0-9_/\-]|%2[fF])+"
        ),
        r"\1" + REDACTED,
    ),
    (
        "api_key_header",
        re.compile(
            r"(?i)(\b(?:x-)?(?:api-key|auth-token|access-token|private-token|goog-api-key)"
            + _KV
            + r")"
            + _FRESH
            + _VALUE
            + "+"
        ),
        r"\1" + REDACTED,
    ),
    ("pypi", re.compile(_START + r"pypi-[A-Za-z0-9_\-]{16,}"), REDACTED),
    # Docker Hub PATs, Databricks tokens, Hugging Face organisation tokens, Discord webhooks.
    ("docker_pat", re.compile(r"dckr_pat_[A-Za-z0-9_\-]{20,}"), REDACTED),
    ("databricks", re.compile(_START + r"dapi[0-9a-f]{32}(?:-\d+)?"), REDACTED),
    ("hf_org", re.compile(r"api_org_[A-Za-z0-9]{30,}"), REDACTED),
    (
        "discord_webhook",
        re.compile(
            r"(discord(?:app)?\.com(?:/|%2[fF])api(?:/|%2[fF])webhooks(?:/|%2[fF])\d+(?:/|%2[fF]))[A-Za-z0-9_\-]+"
        ),
        r"\1" + REDACTED,
    ),
    (
        "password_flag",
        re.compile(
            r"(?i)((?:(?<![\w-])|(?<=%[0-9a-f]{2}))--?(?:[a-z0-9]{1,16}[-_]){0,4}"
            r"(?:password|passwd|pass|token|secret|api[-_]key|apikey|access[-_]key|"
            r"secret[-_]key|client[-_]secret)(?:=|%3[dD]|\s+|%20|\+))(?!-)" + _FRESH + r"(?:[^\s\"'%]|%(?!20|0[aAdD]))+"
        ),
        r"\1" + REDACTED,
    ),
    # A password given as -p, where -p means password and not a port or a plugin: a registry login
    # (docker login -u ci -p VALUE, glued -pVALUE too), sshpass, and mysql's glued -pVALUE (its
    # spaced -p prompts, and the word after it is a database's name).
    (
        "login_p_flag",
        re.compile(
            r"(?i)((?:(?:\b|(?<=\\[nrt]))(?:docker|podman|buildah|skopeo|nerdctl|oras|helm(?:\s|%20|\+)+registry)"
            r"(?:\s|%20|\+)+login\b[^\n]{0,200}?(?:\s|%20|\+)-p(?:=|%3[dD]|\s+|%20|\+)?"
            r"|(?:\b|(?<=\\[nrt]))sshpass(?:\s|%20|\+)+-p(?:\s|%20|\+)*"
            r"|(?:\b|(?<=\\[nrt]))mysql(?:dump|admin)?\b[^\n]{0,200}?(?:\s|%20|\+)-p(?=[^\s\-%]))"
            r")(?!-)" + _FRESH + r"(?:[^\s\"'%]|%(?!20|0[aAdD]))+"
        ),
        r"\1" + REDACTED,
    ),
    # A secret-named setting whose value is quoted: whatever it holds until its quote (Django's
    # SECRET_KEY = '...&*(...'); a tokenizer's "<|endoftext|>" is no secret.
    (
        "secret_quoted",
        re.compile(
            r"((?:"
            + "|".join(_SECRET_WORDS)
            + r")\b"
            + _Q
            + _SEP
            + r"(\\{0,3}[\"']))"
            + _FRESH
            + r"(?!<)[^\"'\\\n]{8,512}(?=\2)"
        ),
        r"\1" + REDACTED,
    ),
    # Anything else handed over as KEY=VALUE whose key says it is secret.
    # (The match starts at the word that says so, not at the name's start: MY_TOKEN=v keeps MY_.)
    (
        "secret_env",
        re.compile(r"((?:" + "|".join(_SECRET_WORDS) + r")\b" + _KV + r")" + _FRESH + _VALUE + "{8,}"),
        r"\1" + REDACTED,
    ),
    # Short passwords and client secrets, 3 to 7 characters (placeholders such as None or *** stay).
    (
        "secret_short",
        re.compile(
            r"((?:(?i:client_?secret|passw(?:or)?d))\b"
            + _KV
            + r")"
            + _FRESH
            + r"(?!(?:None|null|true|false|True|False|\*+)(?!"
            + _VALUE
            + "))"
            + _VALUE
            + "{3,7}(?!"
            + _VALUE
            + ")"
        ),
        r"\1" + REDACTED,
    ),
    # A secret's name, a space, then its value: private_key_id 9f8e..., client_secret Zq3...
    (
        "secret_spaced",
        re.compile(
            r"(?i)(\b(?:private_?key_?id|client_?secret|secret_?key|api_?key|access_?key)[\"']?[ \t]{1,8})"
            + _FRESH
            + r"(?=[A-Za-z/+=_\-]{0,200}[0-9])[A-Za-z0-9/+=_\-]{16,}"
        ),
        r"\1" + REDACTED,
    ),
]

# A pattern runs only over text holding one of its words (lower case): a cheap substring test
# that spares a long, ordinary log most of the regular-expression passes. A secret's name is
# looked for as a whole word's end (tokens_per_second and KeyError are none).
_SECRET_WORD = re.compile(r"(?:token|secret|passw(?:or)?d|key(?:_id)?|credentials?|sessionid)\b")
Word = str | re.Pattern[str]
NEEDLES: dict[str, tuple[Word, ...]] = {
    "pem": ("private",),
    "pgp": ("pgp private",),
    "authorization": ("authorization",),
    "bearer": ("bearer",),
    "url_password": ("://",),
    "cookie": ("cookie",),
    "curl_user": ("-u", "--user"),
    "github": (re.compile(r"gh[opusr]_"),),
    "github_pat": ("github_pat_",),
    "gitlab": (re.compile(r"gl(?:pat|rt|ptt|dt|cbt|imt|soat|ffct|oas)-"),),
    "sendgrid": ("sg.",),
    "slack": ("xox",),
    "slack_app": ("xapp-",),
    "stripe": ("_live_", "_test_"),
    "google_api_key": ("aiza",),
    "google_oauth": ("ya29.",),
    "google_refresh": ("1//0",),
    "jwt": ("eyj",),
    "huggingface": ("hf_",),
    "npm": ("npm_",),
    "openai": ("sk-",),
    "wandb": ("wandb",),
    "wandb_login": ("wandb",),
    "wandb_login_call": ("wandb",),
    "netrc": ("machine", "default"),
    "wandb_onprem": ("local-", "vm-"),
    "aws_key_id": (re.compile(r"a(?:kia|sia|gpa|ida|roa|bia|cca)"),),
    "aws_secret": ("secret",),
    "aws_sts_secret": ("secretaccesskey",),
    "secret_env": (_SECRET_WORD,),
    "secret_quoted": (_SECRET_WORD,),
    "secret_short": (_SECRET_WORD,),
    "secret_spaced": (_SECRET_WORD,),
    "sas_sig": (re.compile(r"sig(?:nature)?(?:=|%3d)"),),
    "signed_url": ("x-goog-", "x-amz-"),
    "slack_webhook": ("hooks.slack.com",),
    "api_key_header": ("api-key", "-token"),
    "pypi": ("pypi-",),
    "docker_pat": ("dckr_pat_",),
    "databricks": ("dapi",),
    "hf_org": ("api_org_",),
    "discord_webhook": ("discord",),
    "password_flag": (re.compile(r"[-_](?:pass|token|secret|api|access)"),),
    "login_p_flag": ("login", "sshpass", "mysql"),
}
