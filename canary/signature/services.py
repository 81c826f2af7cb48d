"""Failures the services a run reports to log on a line of their own, not as a traceback: Weights &
Biases' ``wandb: ERROR`` lines, Ray's core worker and object store, and the CI that runs it (GitHub Actions' own
steps). Pure. They take their place in
:data:`canary.signature.bare.BARE_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.kinds import line_kind
from canary.signature.masks import canonical_class
from canary.signature.recogniser import BareError, environment_check

# wandb logs the error it is about to raise, without its class: the class its words are raised with
_WANDB_CLASSES = (
    (re.compile(r"^api_key not configured\b"), "UsageError"),
    (re.compile(r"^API key must be 40 characters long\b"), "ValueError"),
    (re.compile(r"^Invalid project name\b"), "UsageError"),
    (
        re.compile(
            r"^(?:Run initialization has timed out|Error while calling W&B API|It appears that you do not have "
            r"permission)"
        ),
        "CommError",
    ),
)
# a file it failed to upload names the class and the error after it: 'Error uploading "config.yaml": CommError, ...'
_UPLOAD = re.compile(r'^Error uploading "[^"]{1,300}": (?P<cls>\w{1,60}Error), (?P<why>.{1,1000})$')


def _wandb_class(m: re.Match[str]) -> str | None:
    upload = _UPLOAD.match(m["msg"])
    if upload:
        return upload["cls"]
    return next((c for rx, c in _WANDB_CLASSES if rx.match(m["msg"])), None)


def _wandb_message(m: re.Match[str]) -> str:
    upload = _UPLOAD.match(m["msg"])
    if m["msg"].startswith("Invalid project name "):  # (which name, and the characters it lists, are the run's)
        return "Invalid project name: it contains a character a project name cannot contain"
    return f"Error uploading a file: {upload['why']}" if upload else m["msg"]


# what experiment trackers name of the run (the ``trackers`` rule): the length of a key that is not W&B's ("API key
# must be 40 characters long, yours was 86"), MLflow's parameter and its two values ("Changing param values is not
# allowed. Param with key='lr' was already logged with value='0.02' for run ID='...'. Attempted logging new value
# '0.03'."), which a tracking server raises as RestException with its code first ("INVALID_PARAMETER_VALUE: ...")
_KEY_LENGTH = re.compile(r"^(API key must be 40 characters long), yours was \d{1,6}\.?$")
# (and what it advises after a missing key, "Run wandb login" by release "call wandb.login(key=[your_api_key])";
# MLflow's allowed schemes, a set printed in either order; wandb-core missing by the file or, reworded, by the system,
# its platform the machine's)
_NO_TTY = re.compile(r"^(api_key not configured \(no-tty\))\..*$")
_SCHEMES = re.compile(
    r"^(The configured tracking uri scheme: '\w{1,40}' is invalid for use with the proxy [\w-]{1,60} "
    r"scheme)\. The allowed tracking schemes are: .*$"
)
_PARAM_CHANGED = re.compile(
    r"^(?:INVALID_PARAMETER_VALUE: )?(Changing param values is not allowed)\. Param with key=.*$"
)


_MLFLOW_NAMED = re.compile(
    r"^(?:(Param value) '.*|(Cannot set a deleted experiment) '[^']{0,300}' as the active experiment\b.*)$"
)


def tracker_words(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    if message.startswith("API key must be 40"):
        message = _KEY_LENGTH.sub(r"\1", message)
    elif message.startswith("api_key not configured (no-tty)."):
        message = _NO_TTY.sub(r"\1", message)
    elif message.startswith("The configured tracking uri scheme: "):
        message = _SCHEMES.sub(r"\1", message)
    elif exc == "WandbCoreNotAvailableError" and "wandb-core" in message:
        message = "wandb-core is not available for this system"
    elif message.startswith(("Param value '", "Cannot set a deleted experiment '")):
        # (which parameter or experiment, and its length, are the run's)
        message = _MLFLOW_NAMED.sub(
            lambda m: "Param value exceeded the length limit" if m[1] else f"{m[2]} as the active experiment", message
        )
    elif message.startswith("Detected out-of-date database schema"):
        message = "Detected out-of-date database schema"  # (which revisions are the database's and the release's)
    elif "Changing param values is not allowed" in message and (m := _PARAM_CHANGED.match(message)):
        return ("MlflowException" if exc == "RestException" else exc), m[1], frames
    return exc, message, frames


# (a log whose every line wandb wrote has its "wandb: " taken off, as a logger's name: its own words say it is wandb's)
_OWN_WORDS = (
    'Error uploading "',
    "api_key not configured",
    "Run initialization has timed out",
    "Error while calling W&B",
)
_WANDB = re.compile(r"^(?:wandb: ERROR |ERROR (?=" + "|".join(map(re.escape, _OWN_WORDS)) + r"))(?P<msg>.{1,2000})$")

_BECAUSE = re.compile(r"^\s{0,8}(?:> )?Because (?:no versions of |every version of )?`?(?P<pkg>[\w.-]{1,100})")


def _first_because(lines: list[str], i: int, said: str) -> str:
    """The package the resolver's first reason names, in the dozen lines above its conclusion."""
    for line in lines[max(0, i - 12) : i + 1]:
        if m := _BECAUSE.match(line):
            return f"{said} ({m['pkg']})"
    return said


SERVICE_ERRORS: list[BareError] = [
    # Ray's core worker that could not register with its node's raylet ("core_worker.cc:496: Failed to register worker
    # to Raylet: IOError: [RayletClient] Unable to register worker with raylet. Failed to read data from the socket: End
    # of file worker_id=...", 2025's without the RayletClient sentence, an older one naming the worker before "to
    # Raylet."): the node's, and why (end of file, no such socket) tells two apart; the worker's id is the run's
    BareError(
        "ray-register-worker",
        ("to Raylet",),
        re.compile(
            r"Failed to register worker(?: \w{8,64})? to Raylet[.:] IOError: (?:\[RayletClient\] )?"
            r"(?:Unable to register worker with raylet\. )?(?P<why>.{1,300}?)\.?(?: worker_id=\S{0,64})?$"
        ),
        "OSError",
        "infrastructure",
        message=lambda m: f"Failed to register worker to Raylet: {m['why']}",
    ),
    # the plasma store's client logging an object it could not put ("plasma_store_provider.cc:122: Failed to put
    # object <id> in object store because it is full. Object size is <n> bytes."): what Ray raises as
    # ObjectStoreFullError (its words folded by the ray rule)
    BareError(
        "ray-object-store-full",
        ("in object store because it is full",),
        re.compile(r"(?P<msg>Failed to put object \S{1,100} in object store because it is full)"),
        "ObjectStoreFullError",
    ),
    # Ray's object store on /tmp because /dev/shm is too small (2020's "... This may slow down performance! ...",
    # later "... This will harm performance! ..."), a warning the run goes on after: the machine's shared memory
    environment_check(
        "ray-object-store-tmp",
        ("The object store is using /tmp instead",),
        r"The object store is using /tmp instead\b",
        None,
        message=lambda m: "ray: the object store is not in shared memory",
        weak=True,
    ),
    # Ray's RaySystemError after a title's tag ("[Core] ray.exceptions.RaySystemError: System error: Broken pipe"),
    # or without its class: its API called before ray.init() ("System error: Ray has not been started yet. You can
    # start Ray with 'ray.init()'."), any after a "[ray]" tag
    BareError(
        "ray-system-error",
        ("System error: ",),
        re.compile(
            r"^(?P<tag>\[\w{1,20}\] (?:ray\.exceptions\.)?(?:RaySystemError: )?)?"
            r"(?P<msg>System error: (?(tag).{1,300}|Ray has not been started yet\b))"
        ),
        "RaySystemError",
    ),
    # a file upload that failed while the run went on: the failure only when nothing else is
    BareError(
        "wandb-upload",
        ("ERROR Error uploading",),
        _WANDB,
        _wandb_class,
        line_kind,
        message=_wandb_message,
        weak=True,
    ),
    BareError(
        "wandb",
        ("wandb: ERROR", *(f"ERROR {w}" for w in _OWN_WORDS)),
        _WANDB,
        _wandb_class,
        line_kind,
        message=_wandb_message,
    ),
    # W&B's and MLflow's errors quoted or titled without their class, as their words are raised: wandb's backend gone
    # ("Exception: The wandb backend process has shutdown", its raise line), its key missing without a terminal (a
    # reporter may split the class, "Usage Error:api_key not configured (no-tty)"), MLflow's tracking URI refused and
    # its database's schema out of date ("ERROR mlflow.cli: Detected out-of-date database schema (found version ...")
    BareError(
        "tracker-words",
        (
            "The wandb backend process has shutdown",
            "api_key not configured (no-tty)",
            "The configured tracking uri",
            "Detected out-of-date database schema",
        ),
        re.compile(
            r"(?P<msg>The wandb backend process has shutdown|api_key not configured \(no-tty\)|The configured tracking "
            r"uri scheme: '\w{1,40}' is invalid for use with the proxy [\w-]{1,60} scheme|"
            r"Detected out-of-date database schema)"
        ),
        lambda m: (
            "Exception" if "backend" in m["msg"] else "UsageError" if "api_key" in m["msg"] else "MlflowException"
        ),
    ),
    # wandb's local service process not up in time ("Timed out waiting for wandb service to start after 30.0 seconds.
    # Try increasing the timeout with the `_service_wait` setting."), raised as ServiceStartTimeoutError, printed by its
    # command line after "Error: " or by an embedding host's wrapper: how long it waited is the setting's
    BareError(
        "wandb-service-start",
        ("waiting for wandb service to start",),
        re.compile(r"\bTimed out waiting for wandb service to start\b"),
        "ServiceStartTimeoutError",
        "timeout",
        message=lambda m: "Timed out waiting for wandb service to start",
    ),
]

# GitHub Actions' own steps refusing the workflow on the runner it got: setup-python without the Python it pins for
# the runner's image ("The version '3.7' with architecture 'x64' was not found for Ubuntu 24.04."), an action's
# release GitHub retired ("This request has been automatically failed because it uses a deprecated version of
# `actions/upload-artifact: v3`."), and the warning before a runtime it retires ("Node.js 16 actions are deprecated.
# Please update the following actions to use Node.js 20: actions/checkout@v3"): the workflow against the runner, an
# environment mismatch; which version, which action are the failure (a post's backticks are not)
_RETIRED = re.compile(r"(?:use Node\.js \d{1,3}|may not work as expected): (?P<acts>[\w./@, -]{1,500}?)\.?(?: |$)")


def _retired_actions(lines: list[str], i: int, said: str) -> str:
    """The actions GitHub's warning of a retired runtime names, on its line or the two a terminal wrapped it onto."""
    m = _RETIRED.search(" ".join(line.strip() for line in lines[i : i + 3]))
    return f"{said}: {m['acts']}" if m else said


CI_CHECKS: list[BareError] = [
    # Buildkite's agent cancelling a job under its step ("# Received cancellation signal, interrupting"): the CI's
    BareError(
        "buildkite-cancelled",
        ("Received cancellation signal",),
        re.compile(r"^# Received cancellation signal, interrupting"),
        None,
        "infrastructure",
        message=lambda m: "Buildkite: the job received a cancellation signal",
    ),
    # Travis CI's limit on a job's time ("The job exceeded the maximum time limit for jobs, and has been terminated."):
    # a timeout, as GitHub Actions' maximum execution time is
    BareError(
        "travis-time-limit",
        ("The job exceeded the maximum time limit for jobs",),
        re.compile(r"The job exceeded the maximum time limit for jobs, and has been terminated"),
        None,
        "timeout",
        message=lambda m: "Travis CI: the job exceeded the maximum time limit for jobs",
    ),
    environment_check(
        "setup-python",
        ("with architecture",),
        r"(?P<msg>The version '[\w.+-]{1,30}' with architecture '\w{1,10}' was not found for [\w .-]{1,40}?\d)",
        None,
    ),
    # (its releases before v5: "Version 3.7 with arch x64 not found", after "Error: " or "##[error]", also where a
    # self-hosted runner's installation script failed)
    environment_check(
        "setup-python-arch",
        ("with arch ",),
        r"^(?:Error: |##\[error\])?(?P<msg>Version [\w.+-]{1,30} with arch \w{1,10} not found)\b",
        None,
    ),
    environment_check(
        "retired-action",
        ("uses a deprecated version of",),
        # (or a post's line broken before "because")
        r"(?:^|This request has been automatically failed )(?P<msg>because it uses a deprecated version of `?[\w./-]"
        r"{1,100}:? ?v\d{1,3}`?)",
        None,
        message=lambda m: "This request has been automatically failed " + m["msg"].replace("`", ""),
    ),
    # a workflow command GitHub disabled or deprecates ("The `add-path` command is disabled. Please upgrade to using
    # Environment Files ...", "The `set-output` command is deprecated and will be disabled soon."; a post may drop the
    # backticks), a runner image it retires ("This is a scheduled Ubuntu-18.04 brownout.", "This is a scheduled Ubuntu
    # 20.04 retirement."), an artifact's name taken on the run (upload-artifact v4's 409): which command, which image
    environment_check(
        "workflow-command",
        ("command is disabled",),
        r"The `?(?P<cmd>[\w-]{1,30})`? command is disabled",
        None,
        message=lambda m: f"GitHub Actions: the `{m['cmd']}` command is disabled",
    ),
    environment_check(
        "workflow-command-deprecated",
        ("command is deprecated",),
        r"The `?(?P<cmd>[\w-]{1,30})`? command is deprecated",
        None,
        message=lambda m: f"GitHub Actions: the `{m['cmd']}` command is deprecated",
        weak=True,
    ),
    environment_check(
        "runner-image",
        ("This is a scheduled Ubuntu",),
        r"This is a scheduled Ubuntu[- ](?P<release>\d{2}\.\d{2}) (?:brownout|retirement)",
        None,
        message=lambda m: f"GitHub Actions: the Ubuntu-{m['release']} runner image is retired",
    ),
    environment_check(
        "artifact-name",
        ("an artifact with this name already exists",),
        r"\(409\) Conflict: an artifact with this name already exists on the workflow run",
        None,
        message=lambda m: (
            "upload-artifact: (409) Conflict: an artifact with this name already exists on the workflow run"
        ),
    ),
    # GitHub's GraphQL API refusing a CI bot, as gh prints it ("GraphQL: Resource not accessible by integration
    # (addComment)") and as octokit does ("Request failed due to following response errors:" and each below it): a
    # token without the permission is the job's configuration; the mutation gh names is which call
    BareError(
        "github-graphql",
        ("GraphQL: ", "following response errors"),
        re.compile(
            r"^(?:GraphQL: (?P<msg>.{1,300}?) \((?P<op>\w{1,60})\)|"
            r"(?:Error: )?(?P<octokit>Request failed due to following response errors):?)$"
        ),
        None,
        lambda text: "environment" if "not accessible by integration" in text else "runtime_crash",
        message=lambda m: f"GraphQL: {m['msg']} ({m['op']})" if m["msg"] else m["octokit"] + ":",
        context=3,
    ),
    # poetry's resolver with no set of versions that fits ("So, because x depends on both a (1.0) and b (2.0), version
    # solving failed."): the requirements conflict, by the package its first reason names ("Because torchvision
    # (0.10.0+cu111) depends on torch (1.9.0)", "Because no versions of torchaudio match ..."), not the versions
    environment_check(
        "version-solving",
        ("version solving failed",),
        r"(?P<msg>version solving failed)\.?$",
        None,
        message=lambda m: "resolver: version solving failed",
        weak=True,
        below=_first_because,
    ),
    # (by release: "Please update the following actions to use Node.js 20: actions/checkout@v3", 2025's "The following
    # actions are running on Node.js 20 and may not work as expected: actions/checkout@v4"; a terminal may wrap it)
    environment_check(
        "node-runtime",
        ("actions are deprecated",),
        r"Node\.js (?P<n>\d{1,3}) actions are deprecated\.",
        None,
        message=lambda m: f"Node.js {m['n']} actions are deprecated",
        below=_retired_actions,
        weak=True,
    ),
]


# a notebook's front-end reporting its kernel's death in its own words, the only words a post of it has: Jupyter's
# "The kernel appears to have died. It will restart automatically." and, when the restart fails too, "The kernel has
# died, and the automatic restart has failed.", VS Code's "The Kernel crashed while executing code in the current cell
# or a previous cell.", Colab's "Your session crashed after using all available RAM." or "... for an unknown reason."
# (which front-end, and whether
# the machine's memory ran out, are the failure); and VS Code's debugger's report of an exception
FRONT_END_REPORTS: list[BareError] = [
    BareError(
        "notebook-kernel",
        (
            "kernel appears to have died",
            "automatic restart has failed",
            "Kernel crashed while executing",
            "session crashed",
        ),
        re.compile(
            r"(?P<msg>The kernel appears to have died\. It will restart automatically|"
            r"The kernel has died, and the automatic restart has failed|"
            r"The Kernel crashed while executing code in the current cell or a previous cell|"
            r"Your session crashed (?:after using all available RAM|for an unknown reason))"
        ),
        None,
    ),
    # VS Code's debugger: "Exception has occurred: FloatingPointError" and the message after it, on its line
    # or the next
    BareError(
        "vscode-exception",
        ("Exception has occurred: ",),  # (in a code span too)
        re.compile(
            r"^`?Exception has occurred: (?P<cls>[A-Za-z_][\w.]{0,200}(?:Error|Exception|Interrupt|Exit))"
            r"(?::? (?P<msg>.{1,2000}))?$"
        ),
        lambda m: canonical_class(m["cls"], m["msg"] or ""),
        line_kind,
        message=lambda m: m["msg"] or "",
        context=12,
    ),
]


# Azure Storage refusing a principal (the .NET SDK's RequestFailedException: "Service request failed.", then "Status:
# 403 (This request is not authorized to perform this operation using this permission.)" and "ErrorCode:
# AuthorizationPermissionMismatch", also printed as one escaped string): which refusal, not the request's ids
AZURE_ERRORS: list[BareError] = [
    BareError(
        "azure-storage",
        ("This request is not authorized to perform this operation",),
        re.compile(
            r"(?:^|\\n|Service request failed\. ?)Status: (?P<code>\d{3}) \((?P<msg>This request is not authorized "
            r"to perform this operation[^)]{0,100})\)"
        ),
        "RequestFailedException",
        message=lambda m: f"Status: {m['code']} ({m['msg']})",
    ),
]
