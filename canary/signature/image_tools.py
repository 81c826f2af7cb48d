"""The image programs Python's OCR and imaging bindings run, in their own words. Pure.

ImageMagick refuses what its security policy forbids (Debian and Ubuntu ship a policy that forbids PDF) in two
releases' words, through Wand's ``PolicyError`` or its own command's line: since 6.9.10, "attempt to perform an
operation not allowed by the security policy `PDF' @ error/constitute.c/IsCoderAuthorized/408", before it "not
authorized `/x/file.pdf' @ error/constitute.c/ReadImage/412". Which coder, or that the file was refused, is the
failure; the file, the source line and what a crash handler printed after it are not (a post's Markdown may eat the
backtick). Tesseract cannot open its language data where ``TESSDATA_PREFIX`` points, printed by pytesseract as its
``TesseractError``'s status and message ("(1, 'Error opening data file /usr/share/tessdata/eng.traineddata Please make
sure the TESSDATA_PREFIX environment variable is set ...')"): which language's file, not where it looked. Wand lists
where it looked for MagickWand when it found none ("cannot find library; tried paths: [...]"): the machine's. Pillow's
grab on X names the error and the request's numbers ("X get_image failed: error 8 (73, 0, 863)"): the error is it. The
recogniser takes its place in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import environment_check
from canary.signature.rewordings import Parts

_POLICY = re.compile(
    r"^(attempt to perform an operation not allowed by the security policy) `?(\w{1,20})' @ error/\S{1,100}.*$"
)
_NOT_AUTHORIZED_WORDS = r"not authorized `[^']{1,500}' @ error/[\w.]{1,60}/(?P<where>\w{1,60})/\d{1,6}\b"
_NOT_AUTHORIZED = re.compile(rf"^{_NOT_AUTHORIZED_WORDS}.*$")
_X_GET_IMAGE = re.compile(r"^(X get_image failed: error \d{1,4}) \([\d, ]{1,60}\)$")
_TESSDATA = re.compile(r"Error opening data file .{0,500}?([\w-]{1,40}\.traineddata)\b")


def image_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("attempt to perform an operation not allowed by the security policy "):
        message = _POLICY.sub(r"\1 '\2'", message)
    elif message.startswith("not authorized `"):
        message = _NOT_AUTHORIZED.sub(r"not authorized '<file>' (\g<where>)", message)
    elif message.startswith("X get_image failed: error "):
        message = _X_GET_IMAGE.sub(r"\1", message)  # (the request's numbers, as Pillow's grab on X printed them)
    elif message.startswith("cannot find library; tried paths: ["):
        message = "cannot find library; tried paths: [<paths>]"  # (Wand's search for MagickWand, where it looked)
    elif (exc or "").endswith("TesseractError") and (m := _TESSDATA.search(message)):
        message = f"Error opening data file {m[1]}: Tesseract couldn't load any languages"
    return exc, message, frames


IMAGE_TOOL_ERRORS = [
    # ImageMagick's command refusing a file its policy forbids, with its name before it or not ("convert-im6.q16: not
    # authorized `x.pdf' @ error/constitute.c/ReadImage/412.")
    environment_check(
        "imagemagick-policy",
        ("not authorized `",),
        rf"^(?:[\w.-]{{1,40}}: )?{_NOT_AUTHORIZED_WORDS}",
        None,
        message=lambda m: f"not authorized '<file>' ({m['where']})",
    ),
]
