"""The path globs a ferry's ``watched_paths`` hold, as regular expressions: checked when a ferry
loads (:func:`glob_error`), matched against a commit's paths by the history's regression window
(:func:`canary.history.windows.path_matches`). Pure."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=256)
def glob_regex(glob: str) -> re.Pattern[str]:
    """A path glob: ``**`` any number of directories, ``*`` and ``?`` within one path part,
    ``[...]`` a character class; a glob naming a directory matches everything under it."""
    glob = glob.rstrip("/")
    if glob.endswith("/**"):
        glob = glob[:-3]  # "dir/**": everything under dir, which the suffix below allows
    out, i = [], 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[" and "]" in glob[i + 1 :]:
            j = glob.index("]", i + 1)
            out.append("[" + glob[i + 1 : j].replace("!", "^", 1) + "]")
            i = j + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out) + "(?:/.*)?")


def glob_error(glob: str) -> str | None:
    """Why ``glob`` is no path glob (a character class such as ``[z-a]`` that matches nothing
    sensible), or None: checked when a ferry is loaded, so a bad one never reaches a history query."""
    try:
        glob_regex(glob.lstrip("/"))
    except re.error as e:
        return f"{glob!r} is not a valid glob ({e.msg})"
    return None
