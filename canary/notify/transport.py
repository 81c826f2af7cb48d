"""GitHub's REST API as JSON calls: the transport under :class:`canary.notify.github.GitHubClient`.

    t = Transport(token, "https://api.github.com")
    issues, headers = t.request("GET", "/repos/acme/canary/issues", query={"labels": "canary"})
    for issue in t.paginate("/repos/acme/canary/issues"):  # every page, through the Link header
        ...

Lists follow ``Link: <...>; rel="next"`` to the last page. Transient failures (5xx, 429, and 403
rate limits, an answer that is not JSON) are retried with exponential backoff by tenacity, waiting
what ``Retry-After`` (or ``x-ratelimit-reset``) asks when the answer says it; the backoff is the
client's ``retry`` setting (:class:`RetryPolicy`). A create that failed with a 5xx may have been
done anyway: ``request(landed=...)`` looks for what it was creating before creating again, so a
retry never posts twice. An API host that does not resolve, refuses the connection or has no route
is not retried: that is a machine without network or a wrong ``GITHUB_API_URL``, not a blip, and
the caller keeps the notification for the next notify rather than waiting a minute of backoff
(``GitHubError.unreachable``). The token goes only to the configured API host (a redirect or a
Link header elsewhere is refused), and never appears in an error message or a log line.
"""

from __future__ import annotations

import errno
import http.client
import json
import random
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any

from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, stop_any

from canary.text.redact import redact
from canary.textio import printable

DEFAULT_API_URL = "https://api.github.com"
USER_AGENT = "canary-notify"
API_VERSION = "2022-11-28"
SECONDARY_PAUSE_S = 60.0  # GitHub: after a secondary rate limit without Retry-After, wait a minute
MESSAGE_MAX = 500  # characters of an API error message kept (GitHub's own are one line)


def _short(message: str, limit: int = MESSAGE_MAX, total: int | None = None) -> str:
    """One line of at most ``limit`` characters (and a note of how long it was)."""
    total = len(message) if total is None else total
    message = " ".join(printable(message[: limit * 4]).split())
    if len(message) <= limit and total <= limit * 4:
        return message
    return message[:limit] + f"… ({total} characters in all)"


class GitHubError(Exception):
    """A GitHub call that failed for good (after any retries)."""

    def __init__(
        self,
        method: str,
        path: str,
        status: int | None,
        message: str,
        retry_after: float | None = None,
        transient: bool = False,
        secondary: bool = False,
        unreachable: bool = False,
    ):
        self.method, self.path, self.status = method, path, status
        self.retry_after = retry_after
        self.transient = transient
        self.unreachable = unreachable  # no answer possible: the host does not resolve, refuses, or has no route
        self.secondary = secondary  # a secondary rate limit: GitHub asks for a minute's pause at least
        where = f"{method} {path}"
        super().__init__(f"{where}: HTTP {status}: {message}" if status else f"{where}: {message}")

    @property
    def gives_up(self) -> bool:
        """GitHub refused the call for good (404, 401, 422, a 403 that is no rate limit: a 4xx
        that is not transient): sending it again as it is would only be refused again."""
        return self.status is not None and 400 <= self.status < 500 and not self.transient


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try, a setting of the client (:class:`Transport`'s ``retry``): the defaults are
    what every command uses. ``scale`` multiplies every wait; a client made with a tiny one
    exercises its backoff without the clock."""

    attempts: int = 6
    base_s: float = 1.0  # first backoff; doubles each time, with jitter
    max_wait_s: float = 120.0  # the longest wait; asked to wait longer (Retry-After), give up instead
    scale: float = 1.0


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
        return (
            "rate limit" in message.lower()
            or (headers is not None and headers.get("x-ratelimit-remaining") == "0")
            or bool(headers is not None and headers.get("Retry-After"))
        )
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
            raise _RefusedRedirect(
                f"refused a redirect from {_origin(req.full_url)[1]} to another host "
                f"({_origin(newurl)[1] or newurl[:80]}): the token goes only to the API host"
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_OPENER = urllib.request.build_opener(_SameOriginRedirects)


def _next_link(link_header: str | None) -> str | None:
    for part in (link_header or "").split(","):
        m = re.match(r"\s*<([^>]+)>\s*;(.*)", part)
        if m and re.search(r'rel="?next"?', m.group(2)):
            return m.group(1)
    return None


class Transport:
    """Authenticated JSON calls to one API host, with retries and pagination."""

    def __init__(
        self,
        token: str | None,
        api_url: str = DEFAULT_API_URL,
        retry: RetryPolicy | None = None,
        timeout_s: float = 30.0,
        per_page: int = 100,
        sleep: Callable[[float], None] = time.sleep,
        log: Callable[[str], None] | None = None,
    ):
        self.token = token
        self.api_url = api_url.rstrip("/")
        self.retry = retry or RetryPolicy()
        self.timeout_s = timeout_s
        self.per_page = per_page
        self._sleep = sleep
        self._log = log or (lambda msg: None)
        self.waits: list[float] = []  # every backoff wait taken (after scaling), for the record

    def _url(self, path: str, query: dict[str, Any] | None = None) -> str:
        url = path if path.startswith(("http://", "https://")) else f"{self.api_url}{path}"
        if query:
            url += ("&" if "?" in url else "?") + urllib.parse.urlencode(query)
        return url

    def _check_origin(self, method: str, url: str) -> None:
        """The token goes to the configured API host and nowhere else (a Link header or a
        caller's URL that names another host is refused, before anything is sent)."""
        if _origin(url) != _origin(self.api_url) or not urllib.parse.urlsplit(url).path.startswith(
            urllib.parse.urlsplit(self.api_url).path
        ):
            shown = urllib.parse.urlsplit(url)
            raise GitHubError(
                method,
                f"{shown.scheme}://{shown.netloc}{shown.path}"[:200],
                None,
                f"refused: not the API at {self.api_url} (the token is sent only there)",
            )

    def _once(self, method: str, url: str, body: Any) -> tuple[Any, Any]:
        try:
            self._check_origin(method, url)
            shown = urllib.parse.urlsplit(url)
        except ValueError as e:  # urllib's word for a URL it cannot use: "http://[::1"
            raise GitHubError(
                method,
                printable(url)[:200],
                None,
                f"GitHub unreachable: {_short(str(e))} in {printable(self.api_url)[:200]}",
                unreachable=True,
            ) from None
        data = None if body is None else json.dumps(body).encode()
        where = shown.path + (f"?{shown.query}" if shown.query else "")
        try:
            req = urllib.request.Request(url, data=data, method=method, headers=self._headers(data is not None))
            with _OPENER.open(req, timeout=self.timeout_s) as resp:
                raw = resp.read()
                headers_in = resp.headers
        except urllib.error.HTTPError as e:
            raise self._answered(method, where, e) from None
        except _RefusedRedirect as e:
            raise GitHubError(method, where, None, str(e.reason)) from None
        except ValueError as e:  # urllib's word for a URL it cannot use: a port past 65535, "[::1"
            raise GitHubError(
                method, where, None, f"GitHub unreachable: {_short(str(e))} in {self.api_url[:200]}", unreachable=True
            ) from None
        except (urllib.error.URLError, TimeoutError, ConnectionError, OSError, http.client.HTTPException) as e:
            raise self._no_answer(method, where, shown, e) from None
        if not raw:
            return None, headers_in
        try:
            return json.loads(raw), headers_in
        except (ValueError, RecursionError):
            kind = headers_in.get("Content-Type", "unknown type") if headers_in else "unknown type"
            raise GitHubError(
                method,
                where,
                None,
                f"the answer is not JSON ({_short(kind, 80)}, {len(raw)} bytes)",
                _retry_after(headers_in),  # a server that says when to come back is heeded here too
                transient=True,
            ) from None

    def _headers(self, with_body: bool) -> dict[str, str]:
        headers = {
            "Accept": "application/vnd.github+json",
            "User-Agent": USER_AGENT,
            "X-GitHub-Api-Version": API_VERSION,
        }
        if with_body:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def _answered(self, method: str, where: str, e: urllib.error.HTTPError) -> GitHubError:
        """An HTTP error answer as a GitHubError: its message (redacted, cut), when to retry, and
        whether it is worth retrying at all."""
        raw = e.read() or b""
        try:
            message = str(json.loads(raw).get("message", ""))
        except (ValueError, AttributeError, RecursionError):
            message = raw.decode(errors="replace")
        message = _short(redact(message[: MESSAGE_MAX * 4], [self.token or ""]), total=len(message))
        return GitHubError(
            method,
            where,
            e.code,
            message or e.reason,
            _retry_after(e.headers),
            _is_transient(e.code, e.headers, message),
            "secondary rate limit" in message.lower(),
        )

    def _no_answer(self, method: str, where: str, shown, e: BaseException) -> GitHubError:
        """No answer (refused, reset, timed out, a name that does not resolve) as a GitHubError."""
        reason = getattr(e, "reason", e)
        try:
            host = f"{shown.hostname}" + (f":{shown.port}" if shown.port else "")
        except ValueError:
            host = shown.netloc
        gone = _unreachable(reason, host)
        return GitHubError(
            method,
            where,
            None,
            _short(redact(gone or str(reason), [self.token or ""])),
            transient=gone is None,
            unreachable=gone is not None,
        )

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        asked = getattr(exc, "retry_after", None)
        if asked is not None:
            wait = asked
        else:
            wait = self.retry.base_s * 2 ** (state.attempt_number - 1)
            wait = min(wait + random.uniform(0, wait / 2), self.retry.max_wait_s)
            if getattr(exc, "secondary", False):
                wait = max(wait, SECONDARY_PAUSE_S)
        return wait * self.retry.scale

    def _before_sleep(self, state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome else None
        wait = state.upcoming_sleep
        self.waits.append(wait)
        self._log(f"GitHub: {exc}; retrying in {wait:.3g}s (attempt {state.attempt_number + 1}/{self.retry.attempts})")

    def _asked_too_long(self, state: RetryCallState) -> bool:
        exc = state.outcome.exception() if state.outcome else None
        asked = getattr(exc, "retry_after", None)
        return asked is not None and asked > self.retry.max_wait_s

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        query: dict[str, Any] | None = None,
        landed: Callable[[], Any] | None = None,
    ) -> tuple[Any, Any]:
        """One call with retries: returns (decoded JSON, response headers); raises GitHubError.

        A create that failed with a 5xx or a lost connection may have been done all the same;
        ``landed`` looks for its result, and when it finds one the call is not made again."""
        url = self._url(path, query)
        uncertain = False

        def attempt() -> tuple[Any, Any]:
            nonlocal uncertain
            if uncertain and landed is not None:
                found = landed()
                if found is not None:
                    return found, None
            try:
                return self._once(method, url, body)
            except GitHubError as e:
                uncertain = e.status is None or e.status >= 500
                raise

        retrying = Retrying(
            retry=retry_if_exception(lambda e: isinstance(e, GitHubError) and e.transient),
            stop=stop_any(stop_after_attempt(self.retry.attempts), self._asked_too_long),
            wait=self._wait,
            sleep=self._sleep,
            before_sleep=self._before_sleep,
            reraise=True,
        )
        return retrying(attempt)

    def paginate(self, path: str, query: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
        url: str | None = self._url(path, {**(query or {}), "per_page": self.per_page})
        while url:
            items, headers = self.request("GET", url)
            if items is not None and not (isinstance(items, list) and all(isinstance(i, dict) for i in items)):
                where = urllib.parse.urlsplit(url).path
                raise GitHubError(
                    "GET", where, None, f"the answer is a JSON {type(items).__name__}, not a list of objects"
                )
            yield from items or []
            url = _next_link(headers.get("Link") if headers else None)
