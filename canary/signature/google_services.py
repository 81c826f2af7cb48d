"""Google's services refusing what a job asks of them, in their clients' words. Pure.

gdown cannot fetch a Drive file whose link is not public or has been fetched too often: before 4.7 it says "Access
denied with the following error:" above Drive's sentence ("Cannot retrieve the public link of the file. You may need to
change the permission to 'Anyone with the link', or have had many accesses."), since 5.0 "Failed to retrieve file url:"
above the same sentence; which file is the job's. The Google Ads API refuses a version it has sunset ("Version v9 is
deprecated. Requests to this version will be blocked.") inside a GoogleAdsFailure, whichever client (Python, Node, Apps
Script) printed it; the Python client refuses a version it does not ship ('Specified Google Ads API version "v10" does
not exist. Valid API versions are: "v9", "v8", "v7"'). Which version, and which ones the release ships, are the job's
pin and its release's: the refusal is the failure. google-api-python-client names the API and version it found no
discovery document for (2.0 reads them from the documents it ships): which API is the job's. The recognisers take their
place in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import environment_check
from canary.signature.rewordings import Parts

_GDOWN_HEADS = re.compile(r"^(?P<head>Access denied with the following error|Failed to retrieve file url):\s*$")


def _gdown_head(lines: list[str], i: int, said: str) -> str:
    """Drive's sentence with gdown's words above it, which tell its releases apart."""
    for line in reversed(lines[max(0, i - 3) : i]):
        if m := _GDOWN_HEADS.match(line.strip()):
            return f"gdown: {m['head']}: {said}"
    return f"gdown: {said}"


GOOGLE_SERVICE_ERRORS = [
    environment_check(
        "gdown-public-link",
        ("Cannot retrieve the public link of the file",),
        r"^\s*(?P<msg>Cannot retrieve the public link of the file)\.",
        None,
        below=_gdown_head,
    ),
    environment_check(
        "google-ads-version-sunset",
        ("is deprecated. Requests to this version will be blocked",),
        r"\bVersion v\d{1,3} is deprecated\. Requests to this version will be blocked\.",
        None,
        message=lambda m: "Google Ads API: the version asked for is deprecated; requests to it will be blocked",
    ),
]


# the Python client's refusal of a version it does not ship, and the ones it does
_ADS_VERSION = re.compile(r'^Specified Google Ads API version "v\d{1,3}" does not exist\..*$')
# google-api-python-client's discovery finding no document for the API asked for ("name: calendar  version: v3"; 2.0
# reads them from the documents it ships, not the network)
_UNKNOWN_API = re.compile(r"^name: [\w.-]{1,100} {1,2}version: [\w.-]{1,40}$")


def google_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("Specified Google Ads API version "):
        message = _ADS_VERSION.sub("Specified Google Ads API version does not exist", message)
    elif (exc or "").endswith("UnknownApiNameOrVersion") and _UNKNOWN_API.match(message):
        message = "no discovery document for the API and version asked for"
    return exc, message, frames
