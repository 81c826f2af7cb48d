"""Requests a job makes over the network that fail on the way. Pure.

urllib3's pool gives up on a host and says why in the error it was caused by:
"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /x/resolve/main/config.json
(Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable
to get local issuer certificate (_ssl.c:1010)')))".
requests raises it as the class of its cause (``SSLError``, ``ProxyError``) or as ``ConnectionError``, a client as its
own (``MlflowException``), huggingface_hub wraps it in a tuple with a request id and warns it before each retry
("'(MaxRetryError(...), '(Request ID: ...)')' thrown while requesting HEAD https://..."). Which file, which request,
which retry are the job's; the host and the cause (the certificate check that failed, the proxy's status, the
resolver's errno) are the failure, an infrastructure one, under the class it was raised as, or, printed, the cause's.
A chain the machine cannot trust (a proxy's own root, a store without the issuer) fails every host alike, and so does an
OpenSSL 3 refusing legacy renegotiation: its host is not kept. pip words the pool's failure as "an OSError", which is
the pool's cause's class too.
W&B's client entering its retry loop names its cause the same way.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError

_POOL = re.compile(
    r"HTTPS?ConnectionPool\(host=\\?['\"](?P<host>[^'\"\\]{1,200})\\?['\"], port=[^)]{1,12}\): Max retries exceeded "
    r"with url: \S{0,1000} \(Caused by (?P<cause>[A-Z]\w{1,60})\((?P<inner>.{0,2000})"
)
# (what says so in an exception's chain: the kind is infrastructure, whatever class carries it)
POOL_TEXT = re.compile(r"Max retries exceeded with url: .{0,1000}?\(Caused by [A-Z]\w{1,60}\(")
_WHY = (
    # the certificate check OpenSSL failed (1.1 writes "self signed", 3.x "self-signed"); where in _ssl.c is the build's
    re.compile(r"(?P<why>\[SSL: ?[A-Z_]{3,60}\] [^'\"()\\]{1,300}?)\s?(?:\(_ssl\.c:[^)]{1,12}\)|['\"\\]|$)"),
    # the proxy's refusal of the tunnel, by its status
    re.compile(r"(?P<why>Tunnel connection failed: [^'\"()\\]{1,100})"),
    # the resolver's or the socket's errno and its words
    re.compile(r"(?P<why>\[Errno (?:-?\d{1,5}|<n>)\] [^'\"()\\]{1,200})"),
    # a timeout, without the object that timed out
    re.compile(r"(?P<why>(?:Read|Connect|Connection) timed out)"),
)


def _described(m: re.Match[str]) -> str:
    """A pool's failure (a match of ``_POOL``) in words: the host, and why."""
    inner = m["inner"]
    why = next((w["why"].rstrip(" .") for rx in _WHY if (w := rx.search(inner))), None)
    if why is None:  # (a cause of no words these know: its first quoted words)
        # (to its own closing quote: "Can't connect to HTTPS URL because the SSL module is not available.")
        quoted = re.search(r"(?P<q>['\"])(?!<)((?:(?!(?P=q))[^\\]){1,200})", inner)
        why = quoted[2].rstrip(" .") if quoted else m["cause"]
    why = why.replace("self signed", "self-signed")
    # (a chain the machine cannot trust, a proxy's own root or a store without the issuer, fails every host alike)
    return why if why.endswith(_ANY_HOST) else f"{m['host']}: {why}"


_ANY_HOST = (
    "self-signed certificate in certificate chain",
    "unable to get local issuer certificate",
    "unsafe legacy renegotiation disabled",  # (OpenSSL 3 refusing every server that still renegotiates the old way)
)


def pool_failure(text: str) -> tuple[str, str] | None:
    """The class and the words of a pool that gave up on a host, where ``text`` holds its message: the cause's class,
    and the host with why."""
    m = _POOL.search(text)
    return (m["cause"], _described(m)) if m else None


def pool(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    """The ``connection-pool`` rule: a raised request error read by its host and cause, under the class it was raised
    as (requests' ``ConnectionError``, a client's own, as ``MlflowException``); urllib3's ``MaxRetryError`` is the
    pool's, named by its cause as where it is only printed."""
    exc, message, frames = fetch_words(exc, message, frames)
    if "Max retries exceeded" not in message:
        return exc, message, frames
    failed = pool_failure(message)
    if failed is None:
        return exc, message, frames
    # (pip's "Could not install packages due to an OSError: HTTPSConnectionPool(...)" names the pool's base class)
    return (failed[0] if exc in (None, "MaxRetryError", "OSError") else exc), failed[1], frames


# urllib's and keras' wrappers of a failed fetch ("<urlopen error [SSL: ...] ... (_ssl.c:1129)>", keras' "URL fetch
# failure on https://x/mnist.npz: None -- [SSL: ...]") and requests' CA bundle not found at a path: the check that
# failed
_URLOPEN = re.compile(r"^<urlopen error (.{1,2000}?)(?:>(?: .{0,500})?)?$")  # (up to its ">": what a tool said after)
_FETCH_FAILURE = re.compile(r"^URL fetch failure on \S{1,1000}: (?:None|\d{3}) -- ")
_SSL_WHY = re.compile(r"\s?\(_ssl\.c:(?:<line>|\d{1,6})\)")
_CA_BUNDLE = re.compile(r"^(Could not find a suitable TLS CA certificate bundle, invalid path): .{1,1000}$")


# a socket's errno numbered by the platform (a reset is 104 on Linux, 54 on macOS, 131 on Solaris, 10054 on Windows; a
# refusal 111, 61, 146, 10061): its words are the failure
_SOCKET_ERRNO = re.compile(r"\[Errno (?:104|54|131|10054|111|61|146|10061)\] (?=Connection (?:reset by peer|refused))")


def fetch_words(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    """The ``fetch-words`` rule: a fetch's failure by the check that failed, not the URL, path or build of OpenSSL; a
    socket's errno by its words, not the platform's number."""
    if message.startswith("<urlopen error "):
        message = _URLOPEN.sub(r"\1", message)
    elif message.startswith("URL fetch failure on "):
        message = _FETCH_FAILURE.sub("URL fetch failure: ", message)
    elif message.startswith("Could not find a suitable TLS CA"):
        message = _CA_BUNDLE.sub(r"\1", message)
    if "[SSL" in message:
        message = _SSL_WHY.sub("", message).replace("self signed", "self-signed")
    if "[Errno " in message and "Connection " in message:
        message = _SOCKET_ERRNO.sub("[Errno <n>] ", message)
    return exc, message, frames


# pip's retry after a connection broke, by its cause ("WARNING: Retrying (Retry(total=4, ...)) after connection broken
# by 'SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] ... self signed certificate in
# certificate chain (_ssl.c:1123)'))': /simple/torch/", "... by 'ProxyError('Cannot connect to proxy.', OSError('Tunnel
# connection failed: 407 Proxy Authentication Required'))'"): a retry may succeed, so only where nothing else names it
_PIP_RETRY = re.compile(
    r"(?:\bRetrying )?\(Retry\(total=\d{1,3}, .{0,200}?\)\)? after connection broken by "
    r"'(?P<cause>[A-Z]\w{1,60})\((?P<inner>.{0,2000})"
)


def _retried(m: re.Match[str]) -> str:
    why = next((w["why"].rstrip(" .") for rx in _WHY if (w := rx.search(m["inner"]))), m["cause"])
    return f"pip: connection broken: {why.replace('self signed', 'self-signed')}"


NETWORK_ERRORS: list[BareError] = [
    # paramiko's transport logging the negotiation it gave up on before its traceback ("ERROR:paramiko.transport:
    # Exception: Incompatible ssh peer (no acceptable kex algorithm)"), read where a copy ends inside the traceback:
    # the SSHException it raises, by what the two sides share none of
    BareError(
        "ssh-negotiation",
        ("Incompatible ssh peer (no acceptable ",),
        re.compile(r"(?:^|(?<=[\s:|]))(?P<msg>Incompatible ssh peer \(no acceptable [\w ]{1,60}\))"),
        "SSHException",
    ),
    BareError(
        "pip-retry",
        ("after connection broken by",),
        _PIP_RETRY,
        lambda m: m["cause"],
        "infrastructure",
        message=_retried,
        weak=True,
    ),
    # a pool's failure printed, not raised (huggingface_hub's warning before its retry, a program's message)
    BareError(
        "connection-pool",
        ("Max retries exceeded with url",),
        _POOL,
        lambda m: m["cause"],
        "infrastructure",
        message=_described,
    ),
    # NLTK's downloader failing to fetch a package, its urllib error wrapped over lines after the "[nltk_data]" prefix
    # ("Error loading punkt: <urlopen error [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get
    # local issuer certificate (_ssl.c:1000)>"): urllib's error, by the check that failed, not the package
    BareError(
        "nltk-download",
        ("Error loading ",),
        re.compile(r"^Error loading [\w.-]{1,100}: (?P<msg><urlopen error\b.{0,2000})"),
        "URLError",
        context=6,
    ),
    # requests' CA bundle not found, printed by a program that caught it ("Request failed: Could not find a suitable TLS
    # CA certificate bundle, invalid path: /app/lib/certifi/weak.pem"): requests' OSError
    BareError(
        "ca-bundle",
        ("Could not find a suitable TLS CA certificate bundle",),
        re.compile(r"(?P<msg>Could not find a suitable TLS CA certificate bundle, invalid path: \S{1,1000})"),
        "OSError",
    ),
    # W&B's client retrying a request ("wandb: Network error (ConnectionError), entering retry loop."), by its cause;
    # a retry may succeed, so only where nothing else (a file it then failed to upload) names the failure
    BareError(
        "wandb-retry",
        ("entering retry loop",),
        re.compile(r"\bNetwork error \((?P<cls>[A-Z]\w{1,60})\), entering retry loop"),
        lambda m: m["cls"],
        "infrastructure",
        message=lambda m: f"wandb: Network error ({m['cls']}), entering retry loop",
        weak=True,
    ),
]
