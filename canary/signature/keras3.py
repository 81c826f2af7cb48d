"""Keras 3 and tf.keras refusing what an older or newer Keras wrote. Pure.

Keras 3 refuses a path that is not a ``.keras`` or ``.h5`` file by naming it ("File format not supported:
filepath=best_model.pkl. Keras 3 only supports V3 `.keras` files and legacy H5 format files (`.h5` extension). Note
that the legacy SavedModel format is not supported by `load_model()` in Keras 3. ..."): the path and the advice are the
run's, the refusal is the failure. It refuses keywords Keras 2 took with their values ("Unrecognized keyword arguments
passed to Embedding: {'input_length': 200}"): which layer and which keywords are the failure, the values the program's.
Keras 2 reading a file saved by Keras 3 names the class it could not deserialize and then the whole saved config
("... cannot be imported. Full object config: {'module': 'keras.src.models.functional', ...}"): the model's. Keras 3's
checks of a path to save to end on the path they refused ("The filepath provided must end in `.keras` (Keras model
format). Received: filepath=./weights.h5"): the run's.
"""

from __future__ import annotations

import re

from canary.signature.rewordings import Parts

_FORMAT = re.compile(r"^(File format not supported: filepath=).{0,2000}$")
_KEYWORDS = re.compile(r"^(Unrecognized keyword arguments? passed to \w{1,100}: )\{(.{1,2000})\}.{0,300}$")
_KEY = re.compile(r"'(\w{1,100})':")
_RECEIVED_PATH = re.compile(r"(?<=[.)]) Received: filepath=\S{0,2000}$")
_CONFIG = re.compile(r"(?<=cannot be imported)\. Full object config: .{0,5000}$")


def keras_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``keras`` rule: a format refused by no path, keywords refused by their names, a class Keras could not
    deserialize without the config it came in, a path to save to refused without the path."""
    if message.startswith("File format not supported: filepath="):
        message = _FORMAT.sub(r"\1<path>", message)
    elif message.startswith("Unrecognized keyword argument") and (m := _KEYWORDS.match(message)):
        message = m[1] + ", ".join(_KEY.findall(m[2]))
    elif "Full object config: " in message:
        message = _CONFIG.sub("", message)
    elif " Received: filepath=" in message:
        message = _RECEIVED_PATH.sub("", message)
    return exc, message, frames
