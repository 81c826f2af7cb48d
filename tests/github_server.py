"""A GitHub REST server for tests, on 127.0.0.1: issues, comments and labels of repositories.

It answers with GitHub's JSON shapes and status codes (201 on create, 404 unknown, 401 without the
token, 422 on a duplicate label), paginates lists with ``per_page``/``page`` and a ``Link`` header
(rel="next"/"last"/"prev"/"first"), lists issues newest first and comments oldest first, includes
pull requests in the issues list as GitHub does, and can be told to fail: ``fail(status, times,
...)`` queues 500s, 429s with ``Retry-After`` or 403 secondary rate limits; ``down = True`` makes
every call a 503 (an outage); ``raw`` queues hostile answers (:class:`RawReply`); ``hold`` keeps
matching calls unanswered until released (a client to signal mid-call). ``requests`` records every call made.

What it makes up (an outage, a 5xx, a hostile answer) carries ``Retry-After: 0`` unless a fault names
its own: the client retries at once, for real, without waiting on the clock, whatever process it
runs in. ``retry_after = None`` says nothing, and the client's own backoff applies.
"""

from __future__ import annotations

import json
import re
import threading
import urllib.parse
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Fault:
    status: int
    retry_after: str | None = None
    message: str = "Server Error"
    method: str | None = None  # only calls with this method
    path_re: str | None = None  # only calls whose path matches
    headers: dict[str, str] = field(default_factory=dict)
    after: bool = False  # do the request, then answer with the fault (a 5xx that still did the work)


@dataclass
class RawReply:
    """A hostile answer, sent as is: a torn JSON body, an HTML page with status 200, the wrong shape."""

    status: int
    body: bytes
    content_type: str = "application/json; charset=utf-8"
    times: int = 1
    headers: dict[str, str] = field(default_factory=dict)
    path_re: str | None = None
    method: str | None = None


class GitHubState:
    def __init__(self, token: str, owner_repo: str = "acme/canary", user: str = "canary-bot"):
        self.token = token
        self.repos: dict[str, dict[str, Any]] = {}
        self.user = user
        self.lock = threading.RLock()
        self.faults: deque[Fault] = deque()
        self.down = False
        self.retry_after: str | None = "0"  # asked of a client after a failure made up here (None: nothing)
        self.requests: list[tuple[str, str]] = []  # (method, path?query)
        self.on_create_issue: Callable[[dict[str, Any]], None] | None = None  # after it is created
        self.before_create_issue: Callable[[dict[str, Any]], None] | None = None  # before it is visible
        self.link_host: str | None = None  # hostile: page links name this origin instead of ours
        self.redirect_to: str | None = None  # hostile: every call is answered 307 to this URL
        self.raw: deque[RawReply] = deque()  # hostile: answers that are not what GitHub sends
        # hold(): a matching call waits, unanswered, until release is set (received is set when it came)
        self.hold_re: str | None = None
        self.received = threading.Event()
        self.release = threading.Event()
        self._comment_id = 1000
        self.repo(owner_repo)

    def repo(self, name: str) -> dict[str, Any]:
        with self.lock:
            return self.repos.setdefault(name, {"issues": {}, "labels": {"bug": _label("bug", "d73a4a")}, "next": 1})

    # -------------------------------------------------------------- helpers for tests

    def add_issue(
        self, repo: str, title: str, body: str, labels: list[str], state: str = "open", pull_request: bool = False
    ) -> dict[str, Any]:
        with self.lock:
            r = self.repo(repo)
            n = r["next"]
            r["next"] += 1
            issue = {
                "id": 100000 + n,
                "number": n,
                "title": title,
                "body": body,
                "state": state,
                "state_reason": None,
                "labels": [r["labels"].get(x) or _label(x) for x in labels],
                "comments": 0,
                "html_url": f"https://github.test/{repo}/issues/{n}",
                "url": f"/repos/{repo}/issues/{n}",
                "user": {"login": self.user},
                "_comments": [],
            }
            if pull_request:
                issue["pull_request"] = {"url": f"/repos/{repo}/pulls/{n}"}
            r["issues"][n] = issue
            return issue

    def issues(self, repo: str = "acme/canary", state: str | None = None) -> list[dict[str, Any]]:
        with self.lock:
            return [
                i
                for i in self.repo(repo)["issues"].values()
                if "pull_request" not in i and (state is None or i["state"] == state)
            ]

    def comments(self, number: int, repo: str = "acme/canary") -> list[dict[str, Any]]:
        with self.lock:
            return list(self.repo(repo)["issues"][number]["_comments"])

    def fail(self, status: int, times: int = 1, **kw: Any) -> None:
        for _ in range(times):
            self.faults.append(Fault(status, **kw))

    def hold(self, method_path_re: str) -> None:
        """The next calls whose ``METHOD /path`` matches are held unanswered until ``release`` is set;
        ``received`` says one came (signal a client then: it is waiting on GitHub)."""
        self.received.clear()
        self.release.clear()
        self.hold_re = method_path_re

    def writes(self) -> list[tuple[str, str]]:
        return [r for r in self.requests if r[0] != "GET"]


def _label(name: str, color: str = "ededed", description: str = "") -> dict[str, Any]:
    return {"id": abs(hash(name)) % 10**8, "name": name, "color": color, "description": description, "default": False}


def _public(issue: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in issue.items() if not k.startswith("_")}
    out["comments"] = len(issue["_comments"])
    return out


class _Handler(BaseHTTPRequestHandler):
    server_version = "GitHub.com"
    state: GitHubState  # set on the subclass

    def log_message(self, fmt: str, *args: Any) -> None:  # quiet
        pass

    # -------------------------------------------------------------- plumbing

    _override: Fault | None = None

    def _send(self, status: int, body: Any = None, headers: dict[str, str] | None = None) -> None:
        if self._override is not None:
            fault, self._override = self._override, None
            return self._error(fault.status, fault.message, self._fault_headers(fault))
        raw = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(raw)))
        self.send_header("X-GitHub-Media-Type", "github.v3; format=json")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(raw)

    def _error(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        self._send(
            status,
            {"message": message, "documentation_url": "https://docs.github.com/rest", "status": str(status)},
            headers,
        )

    def _retry_at_once(self, status: int) -> dict[str, str]:
        """``Retry-After`` for a failure made up here: never on a 4xx (a 403 with it is a rate limit)."""
        if self.state.retry_after is None or 400 <= status < 500:
            return {}
        return {"Retry-After": self.state.retry_after}

    def _fault_headers(self, fault: Fault) -> dict[str, str]:
        headers = {**self._retry_at_once(fault.status), **fault.headers}
        if fault.retry_after is not None:
            headers["Retry-After"] = fault.retry_after
        return headers

    def _body(self) -> Any:
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        return json.loads(raw) if raw else {}

    def _page(self, items: list[Any], path: str, query: dict[str, list[str]]) -> None:
        per_page = max(1, min(100, int(query.get("per_page", ["30"])[0])))
        page = max(1, int(query.get("page", ["1"])[0]))
        last = max(1, -(-len(items) // per_page))
        chunk = items[(page - 1) * per_page : page * per_page]
        host = self.state.link_host or f"http://{self.server.server_address[0]}:{self.server.server_address[1]}"

        def url(p: int) -> str:
            q = {k: v[0] for k, v in query.items()}
            q.update(per_page=str(per_page), page=str(p))
            return f"{host}{path}?{urllib.parse.urlencode(q)}"

        links = []
        if page < last:
            links += [f'<{url(page + 1)}>; rel="next"', f'<{url(last)}>; rel="last"']
        if page > 1:
            links += [f'<{url(page - 1)}>; rel="prev"', f'<{url(1)}>; rel="first"']
        self._send(200, chunk, {"Link": ", ".join(links)} if links else None)

    def _dispatch(self, method: str) -> None:
        st = self.state
        split = urllib.parse.urlsplit(self.path)
        path, query = split.path, urllib.parse.parse_qs(split.query)
        if st.hold_re is not None and re.search(st.hold_re, f"{method} {path}"):
            st.received.set()
            st.release.wait(300)  # a safety net, not a clock: the test sets release
        with st.lock:
            st.requests.append((method, self.path))
            fault = None
            for f in list(st.faults):
                if (f.method in (None, method)) and (f.path_re is None or re.search(f.path_re, path)):
                    fault = f
                    st.faults.remove(f)
                    break
            down = st.down
            raw = next(
                (r for r in st.raw if r.method in (None, method) and (r.path_re is None or re.search(r.path_re, path))),
                None,
            )
            if raw is not None:
                raw.times -= 1
                if raw.times <= 0:
                    st.raw.remove(raw)
        body = self._body() if method in ("POST", "PATCH") else None
        if raw is not None:
            self.send_response(raw.status)
            self.send_header("Content-Type", raw.content_type)
            self.send_header("Content-Length", str(len(raw.body)))
            for k, v in {**self._retry_at_once(raw.status), **raw.headers}.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(raw.body)
            return
        if down:
            return self._error(503, "Service Unavailable", self._retry_at_once(503))
        if st.redirect_to:
            self.send_response(307)
            self.send_header("Location", st.redirect_to + self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if fault is not None and fault.after:
            self._override = fault  # the route does the work; _send answers with the fault
        elif fault is not None:
            return self._error(fault.status, fault.message, self._fault_headers(fault))
        if self.headers.get("Authorization") not in (f"Bearer {st.token}", f"token {st.token}"):
            return self._error(401, "Bad credentials")
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)(/.*)", path)
        if not m or m.group(1) not in st.repos:
            return self._error(404, "Not Found")
        repo, rest = m.group(1), m.group(2)
        r = st.repo(repo)
        try:
            self._route(method, repo, r, rest, query, body)
        except KeyError:
            self._error(404, "Not Found")

    def _route(
        self, method: str, repo: str, r: dict[str, Any], rest: str, query: dict[str, list[str]], body: Any
    ) -> None:
        st = self.state
        if rest == "/issues" and method == "GET":
            state = query.get("state", ["open"])[0]
            want = [x for x in query.get("labels", [""])[0].split(",") if x]
            with st.lock:
                items = [
                    _public(i)
                    for i in sorted(r["issues"].values(), key=lambda i: -i["number"])
                    if (state == "all" or i["state"] == state)
                    and all(any(lb["name"] == w for lb in i["labels"]) for w in want)
                ]
            return self._page(items, f"/repos/{repo}/issues", query)
        if rest == "/issues" and method == "POST":
            if not body.get("title"):
                return self._send(
                    422,
                    {
                        "message": "Validation Failed",
                        "errors": [{"resource": "Issue", "field": "title", "code": "missing_field"}],
                    },
                )
            if len(body.get("body") or "") > 65536:
                return self._send(
                    422,
                    {
                        "message": "Validation Failed",
                        "errors": [
                            {
                                "resource": "Issue",
                                "field": "body",
                                "code": "custom",
                                "message": "body is too long (maximum is 65536 characters)",
                            }
                        ],
                    },
                )
            if st.before_create_issue:
                st.before_create_issue(body)
            with st.lock:
                for name in body.get("labels", []):
                    r["labels"].setdefault(name, _label(name))
                issue = st.add_issue(repo, body["title"], body.get("body") or "", body.get("labels", []))
            if st.on_create_issue:
                st.on_create_issue(issue)
            return self._send(201, _public(issue), {"Location": issue["url"]})
        m = re.fullmatch(r"/issues/(\d+)", rest)
        if m and method == "GET":
            with st.lock:
                return self._send(200, _public(r["issues"][int(m.group(1))]))
        if m and method == "PATCH":
            with st.lock:
                issue = r["issues"][int(m.group(1))]
                if body.get("state") not in (None, "open", "closed"):
                    return self._send(422, {"message": "Validation Failed"})
                if body.get("state_reason") not in (None, "completed", "not_planned", "reopened", "duplicate"):
                    return self._send(422, {"message": "Validation Failed"})
                for k in ("title", "body", "state", "state_reason"):
                    if k in body:
                        issue[k] = body[k]
                return self._send(200, _public(issue))
        m = re.fullmatch(r"/issues/(\d+)/comments", rest)
        if m and method == "GET":
            with st.lock:
                items = list(r["issues"][int(m.group(1))]["_comments"])
            return self._page(items, f"/repos/{repo}/issues/{m.group(1)}/comments", query)
        if m and method == "POST":
            if len(body.get("body") or "") > 65536:
                return self._send(
                    422,
                    {
                        "message": "Validation Failed",
                        "errors": [
                            {
                                "resource": "IssueComment",
                                "field": "body",
                                "code": "custom",
                                "message": "body is too long (maximum is 65536 characters)",
                            }
                        ],
                    },
                )
            with st.lock:
                issue = r["issues"][int(m.group(1))]
                st._comment_id += 1
                c = {
                    "id": st._comment_id,
                    "body": body.get("body", ""),
                    "user": {"login": st.user},
                    "html_url": f"{issue['html_url']}#issuecomment-{st._comment_id}",
                    "issue_url": issue["url"],
                }
                issue["_comments"].append(c)
            return self._send(201, c)
        m = re.fullmatch(r"/labels/([^/]+)", rest)
        if m and method == "GET":
            name = urllib.parse.unquote(m.group(1))
            with st.lock:
                return self._send(200, r["labels"][name])
        if rest == "/labels" and method == "POST":
            with st.lock:
                if body["name"] in r["labels"]:
                    return self._send(
                        422,
                        {
                            "message": "Validation Failed",
                            "errors": [{"resource": "Label", "code": "already_exists", "field": "name"}],
                        },
                    )
                r["labels"][body["name"]] = _label(
                    body["name"], body.get("color", "ededed"), body.get("description", "")
                )
                return self._send(201, r["labels"][body["name"]])
        self._error(404, "Not Found")

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_PATCH(self) -> None:
        self._dispatch("PATCH")


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client that hung up (killed): not news
            super().handle_error(request, client_address)


class GitHubServer:
    """``with GitHubServer(token) as gh: gh.url, gh.state``"""

    def __init__(self, token: str = "ghp_" + "T" * 36, repo: str = "acme/canary"):
        self.state = GitHubState(token, repo)
        handler = type("Handler", (_Handler,), {"state": self.state})
        self.httpd = _Server(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        # shutdown() waits for the loop's next poll: a short one keeps each test's teardown short
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)

    def __enter__(self) -> GitHubServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


# ------------------------------------------------------------------ pytest fixtures (import them)

import pytest  # noqa: E402

TOKEN = "ghp_" + "T" * 36
REPO = "acme/canary"
TINY = 0.001  # a test's client scales its backoff waits by this: retried for real, without the clock


@pytest.fixture
def github():
    with GitHubServer(TOKEN, REPO) as server:
        yield server


@pytest.fixture
def client(github):
    from canary.notify.github import GitHubClient
    from canary.notify.transport import RetryPolicy

    return GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(scale=TINY))


def cli_env(server: GitHubServer | None, tmp_path: Any, **extra: str) -> dict[str, str]:
    """The environment of a ``canary`` command that talks to ``server`` (None: to no one), with its
    history and spools kept under ``tmp_path``."""
    return {
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_API_URL": server.url if server else "",
        "CANARY_NOTIFY_SPOOL": str(tmp_path / "spool"),
        "GITHUB_REPOSITORY": "",
        "CANARY_HISTORY": str(tmp_path / "history.sqlite3"),
        "CANARY_SPOOL_DIR": str(tmp_path / "hspool"),
        **extra,
    }


@pytest.fixture
def spool_dir(tmp_path, monkeypatch):
    d = tmp_path / "spool"
    monkeypatch.setenv("CANARY_NOTIFY_SPOOL", str(d))
    return d
