"""Python's HTTP clients in their releases' words: urllib3 2's refusal of the ``ssl`` module's library and its names
imported through requests' re-export (``requests.packages.urllib3``); aiohttp's response body cut short, raised as
ClientPayloadError around the parser's error ("Response payload is not completed: <TransferEncodingError: 400,
message='Not enough data to satisfy transfer length header.'>"), or as that error where a program catches it first, in
words releases changed ("for satisfy" in older releases); the OpenAI SDK 1.0's refusal of the module-level APIs it
removed; an error class named for its HTTP status, printed without its module. Pure. Its rules take their place in
:data:`canary.signature.word_folds.WORD_RULES`, the recogniser in :data:`canary.signature.bare.BARE_ERRORS`."""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts, Rule, rewrite

# urllib3 2's check of the library Python's ssl module was built with, raised (2.0.0's ImportError) or warned
# (NotOpenSSLWarning since 2.0.x): "urllib3 v2.0 only supports OpenSSL 1.1.1+, currently the 'ssl' module is compiled
# with 'OpenSSL 1.0.2k-fips  26 Jan 2017'. See: https://github.com/urllib3/urllib3/issues/2168", later "v2" and the
# library quoted or not
_SSL = re.compile(
    r"^urllib3 v2(?:\.0)? only supports OpenSSL 1\.1\.1\+, currently the 'ssl' module is compiled with "
    r"'?(OpenSSL|LibreSSL)\b.*$"
)

_PAYLOAD = re.compile(
    r"^(?:Response payload is not completed: <?)?(?:(?:TransferEncoding|ContentLength)Error: )?\d{3}, "
    r"message='Not enough data (?:to|for) satisfy (transfer length|content length) header\.?'?>?$"
)


# the OpenAI SDK 1.0's words for a module-level API it removed, before its README's advice
_OPENAI_REMOVED = r"You tried to access openai\.[\w.]{1,100}, but this is no longer supported in openai>=1\.0\.0"


def payload(exc: str | None, message: str, frames: list[str]) -> Parts:
    """aiohttp's body cut short by which header it could not satisfy, whichever of its errors a program met."""
    if "Not enough data " in message and (m := _PAYLOAD.match(message)):
        return (
            "ClientPayloadError",
            f"Response payload is not completed: not enough data to satisfy {m[1]} header",
            frames,
        )
    return exc, message, frames


# aiohttp's body cut short posted without its class, in a logger's line or a program's own message; its connector's
# error after its class without the colon ("ClientConnectorError Cannot connect to host x:80 ssl:default [...]")
HTTP_CLIENT_ERRORS = [
    BareError(
        "aiohttp-connector",
        ("Error Cannot connect to host ",),
        re.compile(
            r"^(?P<cls>Client\w{0,30}Error) (?P<msg>Cannot connect to host \S{1,300} ssl:\S{1,40} \[.{1,300}\])$"
        ),
        lambda m: m["cls"],
    ),
    # the OpenAI SDK 1.0's module-level APIs it removed (openai.ChatCompletion, openai.Completion, openai.Embedding),
    # raised as APIRemovedInV1 with a message that opens on a new line, so its class prints alone above it ("openai.lib.
    # _old_api.APIRemovedInV1:", a blank line, "You tried to access openai.ChatCompletion, but this is no longer
    # supported in openai>=1.0.0 - see the README ..."), or relayed by a program's own "Error:": the API asked for
    BareError(
        "openai-removed-api",
        ("but this is no longer supported in openai>=1",),
        re.compile(rf"(?:^|(?<=\s))(?P<msg>{_OPENAI_REMOVED})\b"),
        "APIRemovedInV1",
    ),
    # an HTTP client's error class named for its status, printed without its module, as a program's handler or a post
    # quotes it ("Forbidden: 403 Forbidden 453 - You currently have access to a subset of Twitter API v2 endpoints
    # ...", tweepy's; google-api-core's, werkzeug's): the class its module raises, and its words
    BareError(
        "http-status-class",
        tuple(f": {code} " for code in (400, 401, 403, 404, 405, 409, 429, 500, 502, 503, 504)),
        re.compile(
            r"^`?(?P<cls>BadRequest|Unauthorized|Forbidden|NotFound|MethodNotAllowed|Conflict|TooManyRequests|"
            r"InternalServerError|BadGateway|ServiceUnavailable|GatewayTimeout): (?P<msg>[45]\d\d [A-Z].{1,1000}?)`?$"
        ),
        lambda m: m["cls"],
    ),
    BareError(
        "aiohttp-payload",
        ("Response payload is not completed: ",),
        re.compile(r"(?P<msg>Response payload is not completed: <\w{1,40}: \d{3}, message='[^']{1,200}'?>?)$"),
        "ClientPayloadError",
    ),
]

HTTP_CLIENT_RULES: tuple[Rule, ...] = (
    Rule(
        "aiohttp-payload",
        "aiohttp raises a body cut short as ClientPayloadError around its parser's error, which a program may meet "
        "first, and words it by release ('for satisfy' in older releases): which header it could not satisfy is the "
        "failure",
        payload,
    ),
    Rule(
        "openai-removed-api",
        "the OpenAI SDK 1.0 follows an API it removed with its README's address and advice, which a program's own "
        "relay of it leaves out: which API is the failure",
        rewrite(
            "but this is no longer supported in openai>=1",
            re.compile(rf"^({_OPENAI_REMOVED})\b.+$"),
            r"\1",
        ),
    ),
    Rule(
        "requests-urllib3",
        "requests re-exports urllib3 as requests.packages.urllib3, so a name urllib3 2 removed is missed from either "
        "module by the importer's release: the name urllib3 lacks is the failure",
        rewrite("'requests.packages.urllib3", re.compile(r"'requests\.packages\.urllib3\b"), "'urllib3"),
    ),
    Rule(
        "urllib3-ssl",
        "urllib3 2 names itself 'v2.0' (2.0.0) or 'v2', quotes the ssl module's library by release and follows it "
        "with its issue's address; which library (OpenSSL or LibreSSL), not its build or date, is the failure",
        rewrite(
            "only supports OpenSSL",
            _SSL,
            r"urllib3 v2 only supports OpenSSL 1.1.1+, currently the 'ssl' module "
            r"is compiled with \1",
        ),
    ),
)
