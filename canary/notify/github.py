"""A small GitHub client: just the issue, comment and label calls the notifier makes.

    gh = GitHubClient.from_env("owner/name")      # GITHUB_TOKEN, GITHUB_API_URL
    for issue in gh.list_issues(labels="canary"):  # every page, through the Link header
        ...

Lists go through the REST list endpoints, every page (the search API lags and does not see HTML
comments, where canary's markers live). A create looks, before it is tried again, for what it was
creating (the exact body), so a retry never posts twice. Retries, backoff, the token's one host
and pagination are the transport's (:mod:`canary.notify.transport`).
"""

from __future__ import annotations

import os
import re
import urllib.parse
from collections.abc import Callable
from typing import Any

from canary.errors import ConfigError
from canary.notify.settings import API_URL_VAR, TOKEN_VAR, check_api_url, check_token
from canary.notify.transport import DEFAULT_API_URL, GitHubError, Transport
from canary.textio import printable


class GitHubClient(Transport):
    """Issues, comments and labels of one repository."""

    def __init__(self, repo: str, token: str | None, api_url: str = DEFAULT_API_URL, **transport: Any):
        """``transport``: :class:`~canary.notify.transport.Transport`'s settings (retry, timeout_s,
        per_page, sleep, log)."""
        if not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", repo or "") or any(
            part in (".", "..") for part in repo.split("/")
        ):
            raise ConfigError(f"--repo {printable(str(repo))[:200]!r} is not OWNER/NAME (for example acme/canary)")
        super().__init__(token, api_url, **transport)
        self.repo = repo

    @classmethod
    def from_env(cls, repo: str, **kw: Any) -> GitHubClient:
        """The client of ``repo`` with the token and API URL of the environment; ``kw``: the
        transport's settings (its backoff, ``retry``, is :class:`RetryPolicy`'s defaults unless given)."""
        return cls(
            repo,
            check_token(os.environ.get(TOKEN_VAR)),
            check_api_url(os.environ.get(API_URL_VAR) or DEFAULT_API_URL),
            **kw,
        )

    def for_repo(self, repo: str, log: Callable[[str], None] | None = None) -> GitHubClient:
        """A client of another repository on the same server, with the same token and settings."""
        kept = {"retry": self.retry, "timeout_s": self.timeout_s, "per_page": self.per_page, "sleep": self._sleep}
        return GitHubClient(repo, self.token, self.api_url, log=log, **kept)

    @property
    def _repo_path(self) -> str:
        return f"/repos/{self.repo}"

    def list_issues(self, labels: str, state: str = "open") -> list[dict[str, Any]]:
        """Issues (never pull requests) carrying ``labels``, every page."""
        items = self.paginate(f"{self._repo_path}/issues", {"labels": labels, "state": state})
        return [i for i in items if "pull_request" not in i]

    def create_issue(self, title: str, body: str, labels: list[str]) -> dict[str, Any]:
        def landed() -> dict[str, Any] | None:
            return next((i for i in self.list_issues(",".join(labels) or "", "open") if i.get("body") == body), None)

        issue, _ = self.request(
            "POST", f"{self._repo_path}/issues", {"title": title, "body": body, "labels": labels}, landed=landed
        )
        return issue

    def update_issue(self, number: int, **fields: Any) -> dict[str, Any]:
        issue, _ = self.request("PATCH", f"{self._repo_path}/issues/{number}", fields)
        return issue

    def close_issue(self, number: int, reason: str = "completed") -> dict[str, Any]:
        return self.update_issue(number, state="closed", state_reason=reason)

    def list_comments(self, number: int) -> list[dict[str, Any]]:
        return list(self.paginate(f"{self._repo_path}/issues/{number}/comments"))

    def create_comment(self, number: int, body: str) -> dict[str, Any]:
        def landed() -> dict[str, Any] | None:
            return next((c for c in reversed(self.list_comments(number)) if c.get("body") == body), None)

        comment, _ = self.request("POST", f"{self._repo_path}/issues/{number}/comments", {"body": body}, landed=landed)
        return comment

    def ensure_label(self, name: str, color: str, description: str) -> bool:
        """Create the label if the repository lacks it; True if it was created here."""
        try:
            self.request("GET", f"{self._repo_path}/labels/{urllib.parse.quote(name, safe='')}")
            return False
        except GitHubError as e:
            if e.status != 404:
                raise
        try:
            self.request(
                "POST", f"{self._repo_path}/labels", {"name": name, "color": color, "description": description}
            )
            return True
        except GitHubError as e:
            if e.status == 422:  # created meanwhile by someone else
                return False
            raise
