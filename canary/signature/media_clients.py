"""Clients of media and social platforms when the platform changes under them, in their releases' words. Pure.

youtube-dl prints an extractor's failure as its own ``ERROR:`` line ("ERROR: Unable to extract uploader id; please
report this issue on https://yt-dl.org/bug . Make sure you are using the latest version; ...") and, with
``--verbose``, the traceback of it after, which a post may cut before its last line; yt-dlp raises the same words,
with its own tracker's advice, as ``RegexNotFoundError``. What could not be extracted, and which program, are the
failure; the advice is not. pytube names the video its refusal is about ("oPj8U65R24g is age restricted, and can't
be accessed without logging in"), which is the job's. instaloader prints Instagram's refusal of a JSON query with the
query's address ("JSON Query to graphql/query: 401 Unauthorized - "fail" status, message "Please wait a few minutes
before you try again." when accessing https://...?query_hash=..."): which endpoint, and the status and message, are
the failure; the profile and the query's parameters are the job's. The recognisers take their place in
:data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

# the two programs' trackers, as their advice names them
_TRACKERS = (("https://yt-dl.org/bug", "youtube-dl"), ("https://github.com/yt-dlp/yt-dlp/issues", "yt-dlp"))
# what could not be extracted, and the tracker the advice after it names
_WORDS = r"Unable to (?:extract|download) [\w ().-]{1,100}?"
_REPORT = re.compile(rf"^(?P<msg>{_WORDS}); please report this issue on (?P<at>\S{{1,200}})")


def _program(at: str) -> str:
    return next((name for url, name in _TRACKERS if at.startswith(url)), "")


MEDIA_CLIENT_ERRORS = [
    # (the extractor's name may come first: "ERROR: [youtube] tFITtz06oyY: Unable to extract ...")
    # (its words and the tracker's advice, which ``media_words`` reads as what and which program)
    BareError(
        "youtube-dl-error",
        ("; please report this issue on ",),
        re.compile(
            rf"^ERROR: (?:\[[\w:]{{1,40}}\] [\w-]{{1,40}}: )?(?P<msg>{_WORDS}; please report this issue on "
            r"(?:https://yt-dl\.org/bug|https://github\.com/yt-dlp/yt-dlp/issues)\S{0,100})"
        ),
        "RegexNotFoundError",
    ),
    environment_check(
        "instaloader-query-refused",
        ("JSON Query to ",),
        r"(?:^|: )JSON Query to (?P<path>[\w/.-]{1,200}?)(?:\?\S{0,500})?: (?P<status>\d{3} [A-Z][\w ]{1,40}?) - "
        r"\"fail\" status, message \"(?P<msg>[^\"]{1,300}?)\.?\"",
        None,
        message=lambda m: f"instaloader: JSON Query to {m['path']}: {m['status']}: {m['msg']}",
    ),
]


# pytube's refusals, each opening with the video's id
_PYTUBE_CLASSES = {
    "AgeRestrictedError",
    "VideoUnavailable",
    "VideoPrivate",
    "MembersOnly",
    "RecordingUnavailable",
    "LiveStreamError",
    "VideoRegionBlocked",
}
_VIDEO_ID = re.compile(r"^[\w-]{11} (?=is )")


def media_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc and exc.rsplit(".", 1)[-1] in _PYTUBE_CLASSES:
        message = _VIDEO_ID.sub("<video> ", message)
    elif "; please report this issue on " in message and (m := _REPORT.match(message)) and _program(m["at"]):
        message = f"{m['msg']} ({_program(m['at'])})"
    return exc, message, frames
