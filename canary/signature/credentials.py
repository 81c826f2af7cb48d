"""Cloud credentials refused or not found: Google Cloud's as a CI step and gcloud report them, Azure's
DefaultAzureCredential by the credentials it tried, printed without a traceback. Pure.

google-github-actions/auth says what failed after its own name, since v1 after its retries' count ("Error:
google-github-actions/auth failed with: retry function failed after 4 attempts: failed to generate Google Cloud
federated token for //iam.googleapis.com/projects/...: {"error":"invalid_target",...}", v0's "retry function failed
with 0 attempts"): which step failed and the error code the token service answered with are the failure; the
provider's path and the count are the job's. Its check of its inputs ("the GitHub Action workflow must specify exactly
one of "workload_identity_provider" or "credentials_json"!", v0.4's "The GitHub Action ...") is a secret not set: the
job's environment. The action without an OIDC token (the id-token permission), gcloud without an account or a
project, or refused a bucket, are named by which. gcloud refreshing its tokens quotes the token service's code first
("There was a problem refreshing your current auth tokens: ('Error code invalid_target: ...', '{...}')"). They take
their place in
:data:`canary.signature.bare.BARE_ERRORS`, before a JSON body's own words are read.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Rule, rewrite

_CODE = re.compile(r'"error": ?"(?P<code>\w{1,60})"')
_HTTP = re.compile(r"\bHTTP (?P<status>\d{3})\b")


def _step(m: re.Match[str]) -> str:
    """The action's failed step without the account or provider it names, and the code or HTTP status it was answered
    with on its line (an answer in a JSON body below is the body's to name)."""
    said = _CODE.search(m["rest"]) or _HTTP.search(m["rest"])
    return f"google-github-actions/auth: failed to generate Google Cloud {m['token']}: {said[1] if said else ''}"


CREDENTIAL_ERRORS: list[BareError] = [
    # Azure's DefaultAzureCredential printed by a tool without its class, with the credentials it tried below it
    BareError(
        "azure-default-credential",
        ("DefaultAzureCredential failed to retrieve a token",),
        re.compile(
            r"(?:^|: )(?:[\w.]{0,100}ClientAuthenticationError: )?(?P<msg>DefaultAzureCredential failed to retrieve a "
            r"token from the included credentials\b.*)$"
        ),
        "ClientAuthenticationError",
        below=lambda lines, i, said: " ".join(
            [said, *(s.strip() for s in lines[i + 1 : i + 10] if "Credential: " in s)]
        ),
    ),
    BareError(
        "gha-auth-inputs",
        ("must specify exactly one of",),
        re.compile(
            r"\b[Tt]he GitHub Action workflow must specify exactly one of \"workload_identity_provider\" or "
            r"\"credentials_json\""
        ),
        None,
        "environment",
        message=lambda m: (
            'google-github-actions/auth: the workflow must specify exactly one of "workload_identity_provider" or '
            '"credentials_json"'
        ),
    ),
    BareError(
        "gha-auth-token",
        ("auth failed with: ",),
        re.compile(
            r"google-github-actions/auth failed with: (?:retry function failed (?:after|with) \d{1,4} attempts?: )?"
            r"failed to generate Google Cloud (?P<token>federated token|OAuth 2\.0 Access Token|access token) for "
            r"(?P<rest>.{0,1000}?(?:\"error\": ?\"\w{1,60}\"|\bHTTP \d{3}\b).{0,1000})$"
        ),
        None,
        "infrastructure",
        message=_step,
    ),
    BareError(
        "gcloud-token-refresh",
        ("problem refreshing your current auth tokens",),
        re.compile(r"There was a problem refreshing your current auth tokens: \('Error code (?P<code>\w{1,60}): "),
        None,
        "infrastructure",
        message=lambda m: f"gcloud: there was a problem refreshing your current auth tokens: {m['code']}",
    ),
    # the action without the OIDC token a job gets only with the id-token permission (v2's "gitHub Actions did not
    # inject $ACTIONS_ID_TOKEN_REQUEST_TOKEN or $ACTIONS_ID_TOKEN_REQUEST_URL into this job", v0.4's "Unable to get
    # ACTIONS_ID_TOKEN_REQUEST_URL env variable"): the workflow's permissions
    BareError(
        "gha-auth-oidc",
        ("did not inject $ACTIONS_ID_TOKEN_REQUEST_", "Unable to get ACTIONS_ID_TOKEN_REQUEST_URL"),
        re.compile(
            r"did not inject \$ACTIONS_ID_TOKEN_REQUEST_|Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable"
        ),
        None,
        "environment",
        message=lambda m: "google-github-actions/auth: the job has no OIDC token (the workflow's id-token permission)",
    ),
    # gcloud without an account or a project to act as or on ("ERROR: (gcloud.compute.disks.list) You do not currently
    # have an active account selected.", "The required property [project] is not currently set.") or refused a bucket
    # ("The user is forbidden from accessing the bucket [x_cloudbuild]"): which, whichever command
    BareError(
        "gcloud-unset",
        (
            "You do not currently have an active account selected",
            "is not currently set",
            "forbidden from accessing the",
        ),
        re.compile(
            r"(?P<msg>You do not currently have an active account selected|The required property \[\w{1,40}\] is not "
            r"currently set)|(?P<bucket>The user is forbidden from accessing the bucket) \["
        ),
        None,
        "infrastructure",
        message=lambda m: f"gcloud: {m['msg'] or m['bucket']}",
    ),
]

# google-auth's refusals with the advice after them, which a post may cut or quote to its own punctuation
# ("Reauthentication is needed. Please run `gcloud auth application-default login` to reauthenticate.", "Your default
# credentials were not found. To set up Application Default Credentials, see https://... for more information.")
_GOOGLE_AUTH = re.compile(
    r"^(Reauthentication is needed|Your default credentials were not found|Could not automatically determine "
    r"credentials)\b.+$"
)

# Azure's DefaultAzureCredential listing the credentials it tried under its one sentence ("DefaultAzureCredential failed
# to retrieve a token from the included credentials. Attempted credentials: EnvironmentCredential: EnvironmentCredential
# authentication unavailable. ...", by release a different list and links): that none was available to it, or which
# one failed and how, not the list's order, length or links
_AZURE_DEFAULT = re.compile(r"^DefaultAzureCredential failed to retrieve a token from the included credentials\b")
_AZURE_TRIED = re.compile(r"\b(\w{2,40}Credential): (?!\1 authentication unavailable)(?P<why>[^.;]{1,80})")
_AZURE_LISTED = re.compile(r"\b\w{2,40}Credential: ")
_AZURE_ABSENT = re.compile(
    r"^(?:Please run 'az login'|Az\.Account module|Azure Developer CLI could not be found|Azure CLI not found on path|"
    r"PowerShell is not installed)"
)


def azure_default(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    """The ``azure-default-credential`` rule: that no credential was available, or the first that failed and how; the
    sentence alone where the list was cut."""
    if message.startswith("DefaultAzureCredential") and (head := _AZURE_DEFAULT.match(message)):
        if not _AZURE_LISTED.search(message):
            return exc, head[0], frames  # (its list cut, or not posted: the sentence alone)
        failed = next((m for m in _AZURE_TRIED.finditer(message) if not _AZURE_ABSENT.match(m["why"])), None)
        how = f"{failed[1]}: {failed['why'].strip()}" if failed else "no credential was available"
        message = f"DefaultAzureCredential failed to retrieve a token: {how}"
    return exc, message, frames


CREDENTIAL_RULES: tuple[Rule, ...] = (
    Rule(
        "google-auth-advice",
        "google-auth follows a refusal (reauthentication needed, no default credentials, none determined) with the "
        "command, page or advice by release that would fix it: the refusal is the failure",
        rewrite(" ", _GOOGLE_AUTH, r"\1"),
    ),
    Rule(
        "azure-default-credential",
        "Azure's DefaultAzureCredential lists the credentials it tried, by release a different list with links: that "
        "none was available, or which one failed and how, is the failure",
        azure_default,
    ),
)
