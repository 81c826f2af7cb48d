"""The REST client against a real HTTP server on 127.0.0.1: pagination, retries, errors."""

import socket

import pytest
from github_server import REPO, TINY, TOKEN, RawReply, client, github  # noqa: F401 (fixtures)

from canary.errors import ConfigError
from canary.notify.github import GitHubClient
from canary.notify.transport import GitHubError, RetryPolicy, _next_link, _retry_after

SECONDARY = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."


def test_lists_every_page_through_the_link_header_and_skips_pull_requests(github):
    for i in range(1, 251):
        github.state.add_issue(
            REPO, f"issue {i}", f"body {i}", ["canary"] if i % 5 else ["other"], pull_request=(i == 7)
        )
    gh = GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(scale=TINY), per_page=30)
    issues = gh.list_issues("canary")
    numbers = sorted(i["number"] for i in issues)
    assert numbers == [i for i in range(1, 251) if i % 5 and i != 7]
    pages = [p for m, p in github.state.requests if m == "GET" and "/issues?" in p]
    assert len(pages) == -(-200 // 30)  # 200 labelled issues (one a PR), 30 a page
    assert all("search" not in p for _, p in github.state.requests)


def test_comments_are_listed_across_pages(github):
    issue = github.state.add_issue(REPO, "t", "b", ["canary"])
    gh = GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(scale=TINY), per_page=7)
    for i in range(23):
        gh.create_comment(issue["number"], f"c{i}")
    assert [c["body"] for c in gh.list_comments(issue["number"])] == [f"c{i}" for i in range(23)]


def test_5xx_is_retried_until_it_succeeds(github, client):
    github.state.fail(500, times=2)
    github.state.fail(502, times=1)
    created = client.create_issue("t", "b", ["canary"])
    assert created["number"] == 1
    assert len(github.state.issues()) == 1
    assert len(client.waits) == 3


def test_429_honours_retry_after(github, client):
    github.state.fail(429, retry_after="7", message="Too Many Requests")
    client.list_issues("canary")
    assert client.waits == [pytest.approx(7 * TINY)]


def test_403_secondary_rate_limit_is_retried_after_the_asked_wait(github, client):
    github.state.fail(403, retry_after="3", message=SECONDARY)
    github.state.fail(403, message=SECONDARY)  # no Retry-After: a minute, as GitHub asks
    client.create_comment(github.state.add_issue(REPO, "t", "b", ["canary"])["number"], "hello")
    assert client.waits == [pytest.approx(3 * TINY), pytest.approx(60 * TINY)]
    assert len(github.state.comments(1)) == 1


def test_primary_rate_limit_waits_until_the_reset(github, client):
    import time

    reset = int(time.time()) + 40
    github.state.fail(
        403, message="API rate limit exceeded", headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)}
    )
    client.list_issues("canary")
    assert 30 * TINY <= client.waits[0] <= 41 * TINY


def test_a_permission_error_is_not_retried(github, client):
    github.state.fail(403, message="Resource not accessible by integration")
    with pytest.raises(GitHubError) as e:
        client.create_issue("t", "b", [])
    assert e.value.status == 403 and not e.value.transient
    assert client.waits == []


def test_bad_credentials_fail_at_once_and_never_show_the_token(github):
    gh = GitHubClient(REPO, "ghp_" + "W" * 36, github.url, retry=RetryPolicy(scale=TINY))
    with pytest.raises(GitHubError) as e:
        gh.list_issues("canary")
    assert e.value.status == 401
    assert "W" * 36 not in str(e.value)


def test_retries_stop_after_the_policy_and_raise(github):
    github.state.down = True
    gh = GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(attempts=3, scale=TINY))
    with pytest.raises(GitHubError) as e:
        gh.list_issues("canary")
    assert e.value.status == 503
    assert len(github.state.requests) == 3


def test_a_retry_after_beyond_the_longest_wait_gives_up_instead_of_sleeping(github):
    github.state.fail(429, retry_after="3600")
    gh = GitHubClient(REPO, TOKEN, github.url, retry=RetryPolicy(max_wait_s=60, scale=TINY))
    with pytest.raises(GitHubError):
        gh.list_issues("canary")
    assert gh.waits == []


def _refused_port() -> int:
    with socket.socket() as s:  # bound, never listening: a connection to it is refused
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize(
    "url, why",
    [
        ("http://nonexistent.invalid", "cannot resolve nonexistent.invalid"),  # .invalid never resolves (RFC 6761)
        (None, "Connection refused"),
    ],
)
def test_a_host_that_does_not_resolve_or_refuses_is_unreachable_and_not_retried(url, why):
    slept: list[float] = []
    url = url or f"http://127.0.0.1:{_refused_port()}"
    gh = GitHubClient(REPO, TOKEN, url, retry=RetryPolicy(), timeout_s=2, sleep=slept.append)  # real backoff
    with pytest.raises(GitHubError) as e:
        gh.list_issues("canary")
    assert e.value.unreachable and not e.value.transient and e.value.status is None
    assert "GitHub unreachable" in str(e.value) and why in str(e.value)
    assert slept == [] and gh.waits == []
    assert TOKEN not in str(e.value)


def test_a_server_that_accepts_and_never_answers_is_retried():
    with socket.socket() as s:  # the kernel completes the handshake; nobody ever reads the request
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        gh = GitHubClient(
            REPO,
            TOKEN,
            f"http://127.0.0.1:{s.getsockname()[1]}",
            retry=RetryPolicy(attempts=2, scale=TINY),
            timeout_s=0.2,
        )
        with pytest.raises(GitHubError) as e:
            gh.list_issues("canary")
    assert e.value.transient and not e.value.unreachable and e.value.status is None
    assert len(gh.waits) == 1


def test_labels_are_created_once(github, client):
    assert client.ensure_label("canary", "fbca04", "canary failures") is True
    assert client.ensure_label("canary", "fbca04", "canary failures") is False
    assert client.ensure_label("bug", "d73a4a", "") is False  # GitHub's default label exists


def test_close_sets_state_and_reason(github, client):
    n = client.create_issue("t", "b", ["canary"])["number"]
    closed = client.close_issue(n, "not_planned")
    assert closed["state"] == "closed" and closed["state_reason"] == "not_planned"
    assert client.list_issues("canary") == []


def test_from_env_reads_token_and_api_url(github, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("GITHUB_API_URL", github.url + "/")
    gh = GitHubClient.from_env(REPO)
    assert gh.api_url == github.url and gh.retry == RetryPolicy()
    assert GitHubClient.from_env(REPO, retry=RetryPolicy(scale=TINY)).retry.scale == TINY
    assert gh.list_issues("canary") == []


@pytest.mark.parametrize("repo", ["acme", "acme/canary/x", "", "acme/ca nary"])
def test_a_bad_repo_is_bad_input(repo):
    with pytest.raises(ConfigError, match="OWNER/NAME"):
        GitHubClient(repo, TOKEN)


def test_without_a_retry_after_the_client_backs_off_by_itself(github, client):
    github.state.retry_after = None  # the outage says nothing of when to come back
    github.state.fail(500, times=2)
    client.list_issues("canary")
    first, second = client.waits
    assert 1 * TINY <= first <= 1.5 * TINY and 2 * TINY <= second <= 3 * TINY  # doubling, with jitter


def test_a_server_that_says_when_to_come_back_is_heeded_even_when_its_answer_is_not_json(github, client):
    github.state.raw.append(RawReply(200, b"<html>later</html>", "text/html", headers={"Retry-After": "5"}))
    client.list_issues("canary")
    assert client.waits == [pytest.approx(5 * TINY)]


def test_link_and_retry_after_parsing():
    link = '<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=5>; rel="last"'
    assert _next_link(link) == "https://api.github.com/x?page=2"
    assert _next_link('<https://api.github.com/x?page=1>; rel="prev"') is None
    assert _retry_after({"Retry-After": "12"}) == 12
    assert _retry_after({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}, now=1445412470.0) == 10.0
    assert _retry_after({}) is None


def test_a_create_that_failed_with_a_5xx_but_landed_is_not_made_twice(github, client):
    n = client.create_issue("t", "b", ["canary"])["number"]
    github.state.fail(502, method="POST", after=True)
    comment = client.create_comment(n, "hello, once")
    assert [c["body"] for c in github.state.comments(n)] == ["hello, once"]
    assert comment["body"] == "hello, once"

    github.state.fail(500, method="POST", after=True)
    issue = client.create_issue("another", "unique body", ["canary"])
    assert [i["title"] for i in github.state.issues()] == ["t", "another"]
    assert issue["title"] == "another"


def test_a_create_that_failed_without_landing_is_made_again(github, client):
    n = client.create_issue("t", "b", ["canary"])["number"]
    github.state.fail(503, method="POST")
    client.create_comment(n, "hello")
    assert [c["body"] for c in github.state.comments(n)] == ["hello"]
