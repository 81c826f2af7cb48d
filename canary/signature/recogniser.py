"""What recognises a failure that prints a line, not a Python traceback. Pure."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

Exception_ = str | None | Callable[[re.Match[str]], str | None]

# glibc's words for ENOENT in the locales a build machine is met in (gcc's own words stay English where its catalogue
# is not installed: "fatal error: portaudio.h: Bestand of map bestaat niet")
ENOENT_WORDS = (
    "Bestand of map bestaat niet|Datei oder Verzeichnis nicht gefunden|Aucun fichier ou dossier de ce type|"
    "No existe el archivo o el directorio|Arquivo ou diretório inexistente|File o directory non esistente|"
    "Нет такого файла или каталога|没有那个文件或目录"
)


@dataclass(frozen=True)
class BareError:
    """A failure that prints a line, not a traceback. ``exception`` names its class; ``kind``
    is a kind or a callable of the message; ``message`` picks the identifying part of the line.
    A line is tried only when it holds one of ``hints`` (plain substrings), so a long log costs
    one substring scan per line and recogniser. A ``weak`` one (a warning) names the failure
    only when nothing else in the log does. One not ``at_info`` is not read in a record logged at
    INFO or DEBUG level (what a program says it tried and went on from). One that ``continues`` (a
    response body's line) goes on the message of an error above it, where one is being read. ``below`` gives the
    message what the lines around it add (c10's frames under its logged error name the call that met it; a resolver's
    first reason above its conclusion names the package)."""

    name: str
    hints: tuple[str, ...]
    pattern: re.Pattern[str]
    exception: Exception_  # None: a tool's failure, no Python class
    kind: str | Callable[[str], str] = "runtime_crash"
    message: Callable[[re.Match[str]], str] = lambda m: m.group("msg")
    context: int = 0  # following lines that belong to the message (a status message goes on)
    weak: bool = False
    at_info: bool = True
    continues: bool = False
    below: Callable[[list[str], int, str], str] | None = None

    def match(self, line: str) -> re.Match[str] | None:
        if not any(h in line for h in self.hints):
            return None
        return self.pattern.search(line)

    def exception_of(self, m: re.Match[str]) -> str | None:
        return self.exception(m) if callable(self.exception) else self.exception

    def kind_of(self, text: str) -> str:
        return self.kind(text) if callable(self.kind) else self.kind


def match_below(pattern: re.Pattern[str], lines: list[str], start: int, stop: int) -> re.Match[str] | None:
    """The first match of ``pattern`` in ``lines[start:stop]`` (what a recogniser's ``below`` reads), or None."""
    return next((m for line in lines[start:stop] if (m := pattern.search(line))), None)


def environment_check(
    name: str, hints: tuple[str, ...], pattern: str, exception: Exception_ = "RuntimeError", **options
) -> BareError:
    """A toolchain or environment mismatch printed as a log line or a warning (not raised): the class
    is the one jax raises the same check with, the kind ``environment``; ``options``: BareError's
    ``message``, ``weak``, ``context``, ``at_info``."""
    return BareError(f"env-{name}", hints, re.compile(pattern), exception, "environment", **options)


def infrastructure_check(name: str, hints: tuple[str, ...], pattern: str, message: str) -> BareError:
    """A failure of the network, a service or the machine's other processes printed as a line with no class (ssh refused
    the key, apt's index half-synced): the kind ``infrastructure``, one fixed message."""
    return BareError(name, hints, re.compile(pattern), None, "infrastructure", message=lambda m: message)
