"""What the notifier reads from its environment, checked at start-up, before any training:
``GITHUB_TOKEN`` must be sendable as an HTTP header, ``GITHUB_API_URL`` must be http(s). A bad
one is bad input (exit 2) in one line that names the variable and never shows a token's value."""

from __future__ import annotations

import re

from canary.errors import ConfigError
from canary.textio import printable

TOKEN_VAR = "GITHUB_TOKEN"
API_URL_VAR = "GITHUB_API_URL"
_TOKEN_CHARS = re.compile(r"[!-~]{1,4096}")  # printable ASCII, no space: what an HTTP header can carry


def check_token(token: str | None, var: str = TOKEN_VAR) -> str | None:
    """The token, when it can be sent as a header; bad input otherwise, in one line that names
    the variable and never shows its value (not even in part)."""
    if token is None or token == "":
        return None
    if not _TOKEN_CHARS.fullmatch(token):
        if not token.strip():
            why = "it is only whitespace"
        elif token != token.strip():
            why = "it has whitespace around it (a trailing newline?)"
        elif not token.isascii():
            why = "it holds characters that are not ASCII"
        else:
            why = "it holds spaces or control characters"
        raise ConfigError(f"{var} is not a usable token: {why}; set it to the token alone")
    return token


def check_api_url(url: str, var: str = API_URL_VAR) -> str:
    """An API URL is http(s)://host[:port][/path]; anything else (file:, ftp:, javascript:, no
    scheme) is bad input, so that urllib never reads a local file or another protocol for it."""
    scheme = url.split(":", 1)[0].lower() if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", url) else ""
    if (
        scheme not in ("http", "https")
        or not url[len(scheme) :].startswith("://")
        or not url.isprintable()
        or len(url) <= len(scheme) + 3
    ):
        what = (
            f"the scheme {scheme!r} is not http or https"
            if scheme not in ("", "http", "https")
            else "it is not http(s)://HOST[:PORT][/PATH]"
        )
        raise ConfigError(
            f"{var}={printable(url)[:200]!r} is not an API URL: {what} (for example https://api.github.com)"
        )
    return url
