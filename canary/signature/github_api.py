"""GitHub's API refusing a workflow's or a tool's request, in the words the action, the library or gh prints. Pure.

A workflow's token without a permission is refused with "Resource not accessible by integration": actions/stale names
what it was doing ("[#1728] Error when creating a comment: ...", v3's "Get issues for repo error: ...", v10's "Getting
issues was blocked by the error: ..."), an action that says nothing more prints it under its step ("Run
mshick/add-pr-comment@v1" above "Error: Resource not accessible by integration"), octokit's error is Node's
("RequestError [HttpError]: ...", a paste may run the step's name onto it) or a JSON logger's ('{"level":"error",
"message":"...","name":"HttpError",...}'). gh names the status and the endpoint ("HTTP 403: Resource not accessible by
integration (https://api.github.com/repos/o/r/releases)", "HTTP 401: Bad credentials (https://api.github.com/graphql)",
0.9's "http error, 'https://api.github.com/graphql' failed (401): 'Bad credentials'"), and the rate limit it met ("HTTP
403: API rate limit exceeded for 10.0.0.1. (But here's the good news: ...)"). A permission or a credential is the
job's environment, which call it refused is the failure; a rate limit is the service's (infrastructure). The
repository, the issue's number and the caller's address are the job's. They take their place in
:data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError

NOT_ACCESSIBLE = "Resource not accessible by integration"
_STEP = re.compile(r"^Run (?P<action>[\w.-]{1,100}/[\w.-]{1,100})@")
_STEP_WITHIN = 40  # lines above a bare refusal within which the step that printed it is looked for


def _stale(m: re.Match[str]) -> str:
    what = m["what"]
    what = "getting issues" if what.startswith(("Get issues", "Getting issues")) else what[0].lower() + what[1:]
    return f"actions/stale: {what}: {NOT_ACCESSIBLE}"


def _step(lines: list[str], i: int, said: str) -> str:
    """The action whose step printed a bare refusal: the nearest ``Run owner/action@ref`` above it."""
    step = next((m for k in range(i - 1, max(-1, i - _STEP_WITHIN), -1) if (m := _STEP.match(lines[k].strip()))), None)
    return f"{step['action']}: {said}" if step else said


_CALLER = re.compile(r" for \S{1,60}$")  # (the caller's address after a rate limit)
_REPOSITORY = re.compile(r"^.{0,200}?/repos/[^/]{1,100}/[^/]{1,100}/?")


def _gh(m: re.Match[str]) -> str:
    code, why, url = m["code"] or m["code2"], (m["why"] or m["why2"]).rstrip(". "), m["url"] or m["url2"]
    endpoint = "graphql" if url.endswith("/graphql") else _REPOSITORY.sub("", url)
    return f"gh: HTTP {code}: {_CALLER.sub('', why)} ({endpoint or 'repository'})"


GITHUB_API_ERRORS: list[BareError] = [
    BareError(
        "github-stale",
        (NOT_ACCESSIBLE,),
        re.compile(
            r"(?:\[#\d{1,8}\] )?(?P<what>Error when [a-z][\w ]{2,60}?|Get issues for repo error|Getting issues was "
            rf"blocked by the error)(?: \"[^\"]{{0,200}}\" from pull request)?: {NOT_ACCESSIBLE}"
        ),
        None,
        "environment",
        message=_stale,
    ),
    BareError(
        "github-step-refused",
        (NOT_ACCESSIBLE,),
        re.compile(rf"^(?:Error: )?(?P<msg>{NOT_ACCESSIBLE})$"),
        None,
        "environment",
        below=_step,
    ),
    # (octokit's error where a paste ran the step's name onto it, or a JSON logger printed it: its class and words)
    BareError(
        "octokit-error",
        ("[HttpError]: ", '"name":"'),
        re.compile(
            r"\bRequestError \[(?P<cls>HttpError)\]: (?P<msg>[A-Z][\w ]{2,200}?)(?= at |$)|"
            r'^\{"level":"error","message":"(?P<jmsg>[^"]{1,300})","name":"(?P<jcls>\w{1,60}Error)"'
        ),
        lambda m: m["cls"] or m["jcls"],
        message=lambda m: m["msg"] or m["jmsg"],
    ),
    # (the secondary rate limit on content creation, an action's "Error: You have exceeded a secondary rate limit and
    # have been temporarily blocked from content creation. ...", where no class names it)
    BareError(
        "github-secondary-limit",
        ("You have exceeded a secondary rate limit",),
        re.compile(r"^(?:Error: )?(?P<msg>You have exceeded a secondary rate limit)\b"),
        None,
        "infrastructure",
        message=lambda m: "GitHub: You have exceeded a secondary rate limit",
    ),
    BareError(
        "gh-http",
        ("https://api.github.com/",),
        re.compile(
            r"HTTP (?P<code>[45]\d\d): (?P<why>[^()]{1,200}?)(?: \(But here's the good news: [^)]{0,300}\))? "
            r"\((?P<url>https://api\.github\.com/\S{1,200})\)|"
            r"http error, '(?P<url2>https://api\.github\.com/[^']{1,200})' failed \((?P<code2>[45]\d\d)\): "
            r"'(?P<why2>[^']{1,200})'"
        ),
        None,
        lambda text: "infrastructure" if "rate limit" in text else "environment",
        message=_gh,
    ),
]
