"""How canary talks to GitHub's REST API below the calls themselves: the token and API URL checked
before use (bad input names the variable, never its value), API errors cut to one line, which
failures are retried and how long to wait (``Retry-After``, ``x-ratelimit-reset``, secondary rate
limits), which mean the host cannot be reached at all, redirects kept to the API's own origin, and
the ``Link`` header's next page. Used by :class:`canary.notify.github.GitHubClient`."""

from __future__ import annotations

import errno
import os
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any


from canary.errors import ConfigError
from canary.textio import printable

DEFAULT_API_URL = "https://api.github.com"
USER_AGENT = "canary-notify"
API_VERSION = "2022-11-28"
SECONDARY_PAUSE_S = 60.0  # GitHub: after a secondary rate limit without Retry-After, wait a minute
MESSAGE_MAX = 500  # characters of an API error message kept (GitHub's own are one line)
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
    if scheme not in ("http", "https") or not url[len(scheme):].startswith("://") or not url.isprintable() \
            or len(url) <= len(scheme) + 3:
        what = f"the scheme {scheme!r} is not http or https" if scheme not in ("", "http", "https") else \
            "it is not http(s)://HOST[:PORT][/PATH]"
        raise ConfigError(f"{var}={printable(url)[:200]!r} is not an API URL: {what} (for example "
                          "https://api.github.com)")
    return url


def _short(message: str, limit: int = MESSAGE_MAX, total: int | None = None) -> str:
    """One line of at most ``limit`` characters (and a note of how long it was)."""
    total = len(message) if total is None else total
    message = " ".join(printable(message[:limit * 4]).split())
    if len(message) <= limit and total <= limit * 4:
        return message
    return message[:limit] + f"… ({total} characters in all)"


class GitHubError(Exception):
    """A GitHub call that failed for good (after any retries)."""

    def __init__(self, method: str, path: str, status: int | None, message: str,
                 retry_after: float | None = None, transient: bool = False, secondary: bool = False,
                 unreachable: bool = False):
        self.method, self.path, self.status = method, path, status
        self.retry_after = retry_after
        self.transient = transient
        self.unreachable = unreachable  # no answer possible: the host does not resolve, refuses, or has no route
        self.secondary = secondary  # a secondary rate limit: GitHub asks for a minute's pause at least
        where = f"{method} {path}"
        super().__init__(f"{where}: HTTP {status}: {message}" if status else f"{where}: {message}")


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try. ``scale`` multiplies every wait (``CANARY_GITHUB_BACKOFF_SCALE``): tests
    make it tiny so backoff is exercised without the clock."""

    attempts: int = 6
    base_s: float = 1.0  # first backoff; doubles each time, with jitter
    max_wait_s: float = 120.0  # the longest wait; asked to wait longer (Retry-After), give up instead
    scale: float = 1.0

    @classmethod
    def from_env(cls) -> "RetryPolicy":
        raw = os.environ.get("CANARY_GITHUB_BACKOFF_SCALE")
        if raw is None:
            return cls()
        try:
            scale = float(raw)
        except ValueError:
            raise ConfigError(f"CANARY_GITHUB_BACKOFF_SCALE={raw!r} is not a number") from None
        if not 0 <= scale < float("inf"):  # nan and inf too: a wait must be a number of seconds
            raise ConfigError(f"CANARY_GITHUB_BACKOFF_SCALE={raw!r} must be a finite number, 0 or more")
        return cls(scale=scale)


def _retry_after(headers: Any, now: float | None = None) -> float | None:
    """Seconds GitHub asks us to wait: ``Retry-After`` (seconds or an HTTP date), else the primary
    rate limit's reset time when no requests remain."""
    ra = headers.get("Retry-After") if headers else None
    if ra:
        ra = ra.strip()
        if re.fullmatch(r"\d+(\.\d+)?", ra):
            return float(ra)
        try:
            return max(0.0, parsedate_to_datetime(ra).timestamp() - (now or time.time()))
        except (TypeError, ValueError):
            return None
    if headers and headers.get("x-ratelimit-remaining") == "0" and headers.get("x-ratelimit-reset"):
        try:
            return max(0.0, float(headers["x-ratelimit-reset"]) - (now or time.time()))
        except ValueError:
            return None
    return None


def _is_transient(status: int, headers: Any, message: str) -> bool:
    if status >= 500 or status == 429:
        return True
    if status == 403:  # a rate limit (primary or secondary) is transient; a permission is not
        return "rate limit" in message.lower() or (headers is not None and headers.get("x-ratelimit-remaining") == "0") \
            or bool(headers is not None and headers.get("Retry-After"))
    return False


_NO_ROUTE = (errno.ECONNREFUSED, errno.ENETUNREACH, errno.EHOSTUNREACH)


def _unreachable(reason: Any, host: str) -> str | None:
    """Why ``host`` cannot be reached at all (a failure a retry would only repeat), or None for a
    failure worth retrying (a timeout, a reset connection)."""
    if isinstance(reason, socket.gaierror):
        return f"GitHub unreachable: cannot resolve {host} ({reason.strerror or reason})"
    if isinstance(reason, OSError) and reason.errno in _NO_ROUTE:
        return f"GitHub unreachable: {host}: {reason.strerror or reason}"
    return None


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urllib.parse.urlsplit(url)
    try:
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    except ValueError:  # a port that is not a number
        port = -1
    return parts.scheme.lower(), (parts.hostname or "").lower(), port


class _RefusedRedirect(urllib.error.URLError):
    pass


class _SameOriginRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only within the API's own origin: urllib would otherwise carry the
    Authorization header (the token) to whatever host a Location names."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if _origin(newurl) != _origin(req.full_url):
            raise _RefusedRedirect(f"refused a redirect from {_origin(req.full_url)[1]} to another host "
                                        f"({_origin(newurl)[1] or newurl[:80]}): the token goes only to the API host")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_OPENER = urllib.request.build_opener(_SameOriginRedirects)


def _next_link(link_header: str | None) -> str | None:
    for part in (link_header or "").split(","):
        m = re.match(r'\s*<([^>]+)>\s*;(.*)', part)
        if m and re.search(r'rel="?next"?', m.group(2)):
            return m.group(1)
    return None
