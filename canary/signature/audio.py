"""Audio libraries a data pipeline loads (torchaudio, soundfile), in their releases' words. Pure.

torchaudio 2.x's dispatcher names the file and the format it found no backend for ("Couldn't find appropriate backend
to handle uri assets/x.mp3 and format None."), a program's progress bar before it and its "Skipping ..." after it;
soundfile names the file it could not open ("Error opening 'recorded.wav': Format not recognised."), raised as a
RuntimeError up to 0.10 and as its subclass LibsndfileError since 0.11 (one class to the fingerprint:
:func:`canary.signature.folds.class_key`). That no backend reads it, or which format is refused, is the failure; the
file is the program's.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

_NO_BACKEND = "Couldn't find appropriate backend to handle uri"
_URI = re.compile(r"^(Couldn't find appropriate backend to handle uri) \S{1,500}? and format (\S{1,40}?)\.?(?:\s.*)?$")
_OPENING = re.compile(r"^Error opening (?:'[^']{0,500}'|<[^:]{1,200}>|\S{1,500}): ")


def audio_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``audio`` rule: torchaudio's dispatcher and soundfile's refusal by no file."""
    if message.startswith(_NO_BACKEND):
        message = _URI.sub(r"\1 <uri> and format \2", message)
    elif message.startswith("Error opening ") and exc in ("RuntimeError", "LibsndfileError"):
        message = _OPENING.sub("Error opening <file>: ", message)
    return exc, message, frames


AUDIO_ERRORS: list[BareError] = [
    # torchaudio's dispatcher's words a program logs and goes on after, without the class (after a progress bar)
    BareError(
        "torchaudio-no-backend",
        (_NO_BACKEND,),
        re.compile(
            r"(?P<msg>Couldn't find appropriate backend to handle uri \S{1,500}? and format \S{1,40}?)\.?(?:\s|$)"
        ),
        "RuntimeError",
    ),
    # ALSA in a container without a sound card: alsa-lib's last line about the card it could not find ("ALSA lib
    # pcm.c:2642:(snd_pcm_open_noupdate) Unknown PCM default"); a player's own words after it ("fatal error: the alsa
    # output_device "default" can not be found.") say no more, an abort or a Python exception after it says its own
    BareError(
        "alsa-unknown-pcm",
        ("Unknown PCM ",),
        re.compile(r"^(?:ALSA lib )?pcm\.c:\d{1,5}:\(snd_pcm_open_noupdate\) Unknown PCM (?P<pcm>[\w.:=,-]{1,100})$"),
        None,
        "environment",
        message=lambda m: f"ALSA: Unknown PCM {m['pcm']}",
    ),
]
