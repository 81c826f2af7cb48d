"""Google Cloud's API errors as its client libraries print them: one refusal of the service, whichever client (and
release) reported it. Pure.

The service answers a request it refuses with an HTTP status and a JSON body (``{"error": {"code": 400, "errors":
[{"domain": "global", "reason": "required", "message": ...}], "message": ...}}``), and each client prints that its own
way: google-cloud-python's ``google.api_core.exceptions.BadRequest: 400 GET <url>: <message>`` (a class per status,
``GoogleAPICallError`` for the rest; later releases put the body itself after the URL), google-api-ruby-client's
``Google::Apis::RateLimitError: rateLimitExceeded: <message> status_code: 429 ...`` and google-cloud-ruby's
``Google::Cloud::ResourceExhaustedError: rateLimitExceeded: <message>``, Go's googleapi ``Error 429: <message>,
rateLimitExceeded``, Java's ``GoogleJsonResponseException: 400 Bad Request`` above the body, node's inspected error
object ``{ Error: <message>`` (its ``code: 400`` below the stack), gsutil's ``ServiceException: 401 <message>``, and a
PHP client the body alone.

:data:`CLOUD_API_ERRORS` reads those lines (among :data:`canary.signature.bare.BARE_ERRORS`, before Python's own
exception line), each as ``Google API <status>: <message>`` (the status where the client prints it or its class or
the service's reason implies it); :func:`cloud_api` (the ``cloud-api`` rule) words a Python client's line read by
another reader so too, takes the message out of a body, and masks the run's caller, object and URLs;
:func:`gcs_rate_limit` (``gcs-rate-limit``) folds Cloud Storage's three wordings of its per-object mutation limit. The
fingerprint knows the service's message alone (:func:`identity_message`, the ``cloud-class`` rule): the client's class
and how it prints the status are the client's.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError

MARK = "Google API"
# the client classes named after a status (google.api_core's, Ruby's), and the service's reasons, by the status
_STATUS_OF = {
    "BadRequest": "400",
    "Unauthorized": "401",
    "Forbidden": "403",
    "NotFound": "404",
    "Conflict": "409",
    "PreconditionFailed": "412",
    "TooManyRequests": "429",
    "InternalServerError": "500",
    "ServiceUnavailable": "503",
    "AuthorizationError": "401",
    "RateLimitError": "429",
    "InvalidArgumentError": "400",
    "UnauthenticatedError": "401",
    "PermissionDeniedError": "403",
    "NotFoundError": "404",
    "AlreadyExistsError": "409",
    "ResourceExhaustedError": "429",
    "required": "400",
    "invalid": "400",
    "forbidden": "403",
    "notFound": "404",
    "conflict": "409",
    "rateLimitExceeded": "429",
    "userRateLimitExceeded": "429",
}


# gcloud names the status of the API's refusal by its gRPC code ("ERROR: (gcloud.compute.tpus.list) PERMISSION_DENIED:
# ..."), Terraform's provider by the code's number ("Error code 3, message: ..."): the HTTP status each is
_GRPC_STATUS = {
    "INVALID_ARGUMENT": "400",
    "FAILED_PRECONDITION": "400",
    "OUT_OF_RANGE": "400",
    "UNAUTHENTICATED": "401",
    "PERMISSION_DENIED": "403",
    "NOT_FOUND": "404",
    "ALREADY_EXISTS": "409",
    "ABORTED": "409",
    "RESOURCE_EXHAUSTED": "429",
    "INTERNAL": "500",
    "UNKNOWN": "500",
    "UNAVAILABLE": "503",
    "DEADLINE_EXCEEDED": "504",
}
_GRPC_NUMBER = {"3": "400", "5": "404", "6": "409", "7": "403", "8": "429", "9": "400", "13": "500", "14": "503"}


def said(status: str | None, text: str) -> str:
    """The service's refusal as the ``cloud-api`` rule words it: ``Google API 429: <message>``."""
    return f"{MARK} {status}: {text}" if status else f"{MARK}: {text}"


_SAID = re.compile(rf"^{MARK}(?: (?P<code>[1-5]\d\d))?: (?P<text>.*)$", re.S)


def is_cloud(message: str) -> bool:
    """Whether a (folded) message is the service's refusal as the ``cloud-api`` rule words it."""
    return message.startswith(MARK) and _SAID.match(message) is not None


def identity_message(message: str) -> str:
    """What the fingerprint knows of a message (``cloud-class``): the service's words without the status, which one
    client prints and another implies by its class, and which the service changed for one limit (410, later 429)."""
    m = _SAID.match(message) if message.startswith(MARK) else None
    return said(None, m["text"]) if m else message


def status_class(message: str) -> str | None:
    """A group's class for the service's refusal: ``Google API 429`` (its status, where known)."""
    m = _SAID.match(message)
    return None if m is None else f"{MARK} {m['code']}" if m["code"] else MARK


# ----------------------------------------------------------------------------- the clients' lines

_METHODS = "GET|POST|PUT|PATCH|DELETE|HEAD"
# google-cloud-python: "<status> <method> <url>: <message or body>" after its class (a URL of one of Google's APIs)
PYTHON_FORM = re.compile(
    rf"^(?P<code>[1-5]\d\d) (?:{_METHODS}) https?://[\w.-]{{0,100}}googleapis\.com/\S{{0,2000}}?: (?P<text>.*)$",
    re.S,
)
# a Python client's message (or its line, "TooManyRequests: 429 POST ..."): a cloud API refused the request (the kind
# is infrastructure)
CLIENT_TEXT = re.compile(rf"^(?:[\w.]{{1,200}}: )?[1-5]\d\d (?:{_METHODS}) https?://[\w.-]{{0,100}}googleapis\.com/")
# (inside a sentence or a code span too: "it's throwing *google.api_core.exceptions.BadRequest: 400 GET ...")
_PYTHON = re.compile(
    r"(?:^|(?<=[\s*`'\"(]))(?:google\.(?:api_core|cloud)\.exceptions\.)?(?P<cls>[A-Z]\w{1,60}): "
    rf"(?P<msg>[1-5]\d\d (?:{_METHODS}) https?://[\w.-]{{0,100}}googleapis\.com/\S{{0,2000}}?: .{{0,2000}})$"
)
_JSON_MESSAGE = re.compile(r'"message"\s?:\s?"((?:[^"\\]|\\.){1,2000})"')
_JSON_CODE = re.compile(r'"code"\s?:\s?([1-5]\d\d)\b')


def _ruby(m: re.Match[str]) -> str:
    # (the reason before the class: ClientError is any 4xx)
    return said(m["code"] or _STATUS_OF.get(m["reason"] or "") or _STATUS_OF.get(m["cls"]), m["msg"])


def _json(m: re.Match[str]) -> str:
    code = _JSON_CODE.search(m.string)
    return said(code[1] if code else None, m["msg"] or m["item"])


CLOUD_API_ERRORS: list[BareError] = [
    BareError(
        "cloud-python",
        ("googleapis.com/",),
        _PYTHON,
        lambda m: m["cls"],
        "infrastructure",
        message=lambda m: m["msg"],
        context=12,  # (a later release's body, on the lines after its URL)
    ),
    BareError(
        "cloud-ruby",
        ("Google::",),
        re.compile(
            r"(?:^|(?<=[\s<*`'\"(]))Google::(?:Apis|Cloud)(?:::\w{1,40}){0,2}::(?P<cls>[A-Z]\w{1,60}Error): "
            r"(?:(?P<reason>[a-z][A-Za-z]{2,40}): )?(?P<msg>.{1,2000}?)(?: status_code: (?P<code>\d{3})\b.*)?$"
        ),
        lambda m: m["cls"],
        "infrastructure",
        message=_ruby,
    ),
    # (the reason ends it: a code span's backtick, a quote, or the line's end; googleapi's own words may have none, its
    # details on the lines below)
    BareError(
        "cloud-go",
        ("Error 4", "Error 5"),
        re.compile(
            r"(?:googleapi: )?\bError (?P<code>[1-5]\d\d): (?P<msg>.{1,1000}?), "
            r"(?P<reason>[a-z][A-Za-z]{2,40})(?=[`'\")\]]|$)"
            r"|\bgoogleapi: Error (?P<bare_code>[1-5]\d\d): (?P<bare>.{1,1000})$"
        ),
        None,
        "infrastructure",
        message=lambda m: said(m["code"] or m["bare_code"], m["msg"] or m["bare"]),
    ),
    BareError(
        "cloud-java",
        ("GoogleJsonResponseException: ",),
        re.compile(r"\bGoogleJsonResponseException: (?P<code>[1-5]\d\d)(?: [A-Z][\w ]{1,60})?$"),
        "GoogleJsonResponseException",
        "infrastructure",
        message=lambda m: said(m["code"], ""),
        context=16,  # (the body it prints below)
    ),
    # (node's inspection of an error with properties: @google-cloud/common's ApiError; not a system call's
    # "ENOENT: ...")
    BareError(
        "cloud-node",
        ("{ Error: ",),
        re.compile(r"^\{ Error: (?P<msg>(?!E[A-Z]{2,}: ).{1,2000})$"),
        "Error",
        "infrastructure",
        message=lambda m: said(None, m["msg"]),
    ),
    BareError(
        "cloud-gsutil",
        ("ServiceException: ",),
        re.compile(r"(?:^|(?<=[\s\"'`:]))ServiceException: (?P<code>[1-5]\d\d) (?P<msg>.{1,2000})$"),
        "ServiceException",
        "infrastructure",
        message=lambda m: said(m["code"], m["msg"]),
    ),
    # gcloud's line for a refusal ("ERROR: (gcloud.compute.tpus.list) PERMISSION_DENIED: Read access to project 'x' was
    # denied"), Terraform's provider's ("Error code 3, message: Cloud TPU was unable to complete the operation. ...")
    BareError(
        "cloud-gcloud",
        ("ERROR: (gcloud.", "Error code "),
        re.compile(
            r"ERROR: \(gcloud\.[\w.-]{1,100}\) (?P<status>[A-Z_]{5,20}): (?P<msg>.{1,1000}?)`?$"
            r"|\bError code (?P<code>\d{1,2}), message: (?P<text>.{1,1000})$"
            # (GKE's API through gcloud: "ERROR: (gcloud.container.node-pools.create) ResponseError: code=429,
            # message=Reservation does not have enough resources for the request: ...")
            r"|ERROR: \(gcloud\.[\w.-]{1,100}\) ResponseError: "
            r"code=(?P<http>[1-5]\d\d), message=(?P<rmsg>.{1,1000}?)`?$"
            # (IAP's tunnel refused: "ERROR: (gcloud.compute.start-iap-tunnel) Error while connecting [4033: 'not
            # authorized']")
            r"|ERROR: \(gcloud\.[\w.-]{1,100}\) (?:.{0,200}?: )?Error while connecting \[(?P<iap>\d{4}): "
            r"'(?P<iapmsg>[^']{1,200})'\]"
        ),
        None,
        # (a runtime version the service no longer supports is the job's environment, not the service's refusal)
        lambda text: "environment" if "runtime version" in text and "not supported" in text else "infrastructure",
        message=lambda m: (
            said(None, f"IAP tunnel: error {m['iap']}: {m['iapmsg']}")
            if m["iap"]
            else said(
                m["http"] or _GRPC_STATUS.get(m["status"] or "") or _GRPC_NUMBER.get(m["code"] or ""),
                m["msg"] or m["text"] or m["rmsg"],
            )
        ),
    ),
    # a resource gcloud could not fetch, on its line or the next ("ERROR: (gcloud.compute.ssh) Could not fetch resource:
    # The resource 'projects/p/zones/z/instances/x' was not found", "ERROR: (gcloud.compute.instances.create) Could not
    # fetch resource:" above " - The resource '.../acceleratorTypes/nvidia-tesla-p4' was not found")
    BareError(
        "cloud-gcloud-fetch",
        ("ould not fetch resource:",),
        re.compile(r"ERROR: \(gcloud\.[\w.-]{1,100}\) [Cc]ould not fetch resource:\s?(?P<msg>.{0,1000}?)`?$"),
        None,
        "infrastructure",
        message=lambda m: said("404", m["msg"].lstrip(" -")),
        context=1,
    ),
    # Compute Engine's refusal as GKE relays it ("Google Compute Engine: Invalid value for field ..."), in a node
    # pool's error or gcloud's dump of its operation, and googleapiclient's repr of an HttpError ("<HttpError 400 when
    # requesting https://www.googleapis.com/compute/v1/... returned "Invalid value for field ...">")
    BareError(
        "cloud-gce",
        ("Google Compute Engine: ", "<HttpError ", "`Invalid value for field '"),
        re.compile(
            r"(?:Google Compute Engine: |<HttpError (?P<code>[1-5]\d\d) when requesting \S{1,2000} returned \")"
            r"(?P<msg>[^\"`\n]{1,1000}?)[\"`]?>?\.?$"
            # (or its words alone in a sentence's code span: "an error in the console `Invalid value for field ...")
            r"|`(?P<span>Invalid value for field '[^`\n]{1,1000}?)`?\.?$"
        ),
        lambda m: "HttpError" if m["code"] else None,
        "infrastructure",
        message=lambda m: said(m["code"], m["msg"] or m["span"]),
    ),
    # gsutil's summary after the errors it met ("CommandException: 1 file/object could not be transferred."): the
    # error above it names the failure; the summary only where none does
    BareError(
        "gsutil-summary",
        ("could not be transferred",),
        re.compile(r"^CommandException: (?P<msg>\d{1,9} files?/objects? could not be transferred\.?)$"),
        "CommandException",
        weak=True,
    ),
    # the service's sentence alone, or in its XML error's details (curl, a browser): who lacks which permission
    BareError(
        "cloud-caller",
        (" does not have ",),
        re.compile(
            # (or an account a CI log masked: "*** does not have storage.objects.get access to ...")
            r"(?:^|(?<=[\s>\"'`]))(?P<msg>(?:Anonymous caller|Caller|\S{1,200}@\S{1,200}|\*{3}) does not have "
            r"[\w.]{1,100} access to\b.{0,1000})$"
        ),
        None,
        "infrastructure",
        message=lambda m: said(None, m["msg"]),
        weak=True,
        continues=True,
    ),
    # the body on one line, or its message's line in a body printed over many (a client's own line above it names the
    # failure; the body alone only where none does)
    BareError(
        "cloud-json",
        ('"message"',),
        re.compile(
            r'^\{\s?"error"\s?:\s?\{.{0,2000}?"message"\s?:\s?"(?P<msg>(?:[^"\\]|\\.){1,2000}?)".*$'
            # (the last of an error item's: domain, reason, message; not an exception's own line, which torch
            # elastic's error file holds as its "message")
            r'|^"message"\s?:\s?"(?![A-Z]\w{0,60}(?:Error|Exception): )(?P<item>(?:[^"\\]|\\.){1,2000})",?$'
        ),
        None,
        "infrastructure",
        message=_json,
        weak=True,
        continues=True,
    ),
]


# ----------------------------------------------------------------------------- the rules

_URL = re.compile(r"\bhttps?://\S{1,2000}")
# who lacks a permission: an account (masked), not "Anonymous caller" or "Caller" (no credentials, or the client's)
_ACCOUNT = re.compile(r"^(?:\S{1,200}@\S{1,200}|\*{3})(?= does not have )")
# on what: "access to qiaseq-dna/data.", "... to the Google Cloud Storage object. Permission '...' denied on resource
# (or it may not exist)." (gsutil of 2019 and of 2024)
_ACCESS = re.compile(r"\b(does not have [\w.]{1,100} access) to\b.*$", re.S)
_OBJECT = re.compile(r"(?<=\bobject )\S{0,1000}/\S{0,1000}?(?=\.?(?:\s|$))")


# which project is the run's ("Read access to project 'annotator-1286' was denied"); the service's advice to try again
# and the id of its error ("Please try again, or contact support if the problem persists. [EID: 0x...]") are not
_PROJECT = re.compile(r"\b(to project|on resource project) (?:'[^']{1,200}'|<[\w-]{1,100}>|[\w.-]{1,200})")
_TRY_AGAIN = re.compile(r"(?<=\.) Please\b.{0,300}$|\s?\[EID: [^\]]{0,100}\]?$")


# Compute Engine names a field by its path in the request and the value it was given ("Invalid value for field
# 'resource.properties.scheduling.preemptible': 'false'."): which field, and why, are the refusal
_FIELD = re.compile(r"\bInvalid value for field '(?:[\w]{1,100}\.){0,10}(\w{1,100})': '[^']{0,200}'\.? ?")


# a resource the API did not find, by its path ("The resource 'projects/p/zones/z/acceleratorTypes/nvidia-tesla-p4'
# was not found", "Resource 'projects/p/locations/l/nodes/n' was not found"): which kind of resource is the refusal,
# the project, zone and name the run's; gcloud adds who ran it ("This command is authenticated as x which is ...")
_RESOURCE = re.compile(
    r"\b(?:The )?[Rr]esource '(?:projects/[^'/]{1,200}/)?(?:[^'/]{1,200}/[^'/]{1,200}/)*?(\w{1,60})/[^'/]{1,300}' "
    r"was not found\b.*$"
)


_FETCHED = re.compile(r"^\s{0,4}-\s")  # (the line below gcloud's "Could not fetch resource:")


def _masked(text: str) -> str:
    text = _FETCHED.sub("", text)
    text = _RESOURCE.sub(r"The resource (\1) was not found", _FIELD.sub(r"Invalid value for field '\1': ", text))
    text = _TRY_AGAIN.sub("", _PROJECT.sub(r"\1 <project>", text.strip()))
    text = _ACCESS.sub(r"\1 to <resource>", _ACCOUNT.sub("<account>", text))
    return _URL.sub("<url>", _OBJECT.sub("<object>", text)).strip()


def _text(status: str | None, text: str) -> tuple[str | None, str]:
    """The message in a body printed after the status (its first "message"), and the status it names."""
    if "{" in text and (m := _JSON_MESSAGE.search(text)):
        code = _JSON_CODE.search(text)
        return status or (code[1] if code else None), m[1].replace('\\"', '"')
    return status, text


def cloud_api(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    """The ``cloud-api`` rule: the service's refusal as ``Google API <status>: <message>`` from any client's form."""
    if message.startswith(MARK) and (m := _SAID.match(message)):
        status, text = m["code"], m["text"]
    elif exc and (m := PYTHON_FORM.match(message)):
        status, text = m["code"], m["text"]
    else:
        return exc, message, frames
    status, text = _text(status, text)
    return exc, said(status, _masked(text)), frames


# Cloud Storage's limit on one object's writes, in three generations of its words: "The total number of changes to
# the object <o> exceeds the rate limit. Please reduce the rate of create, update, and delete requests." (2018,
# answering a resumable upload 410), "The rate of change requests to the object <o> exceeds the rate limit. ..."
# (2022, 429), "The object <o> exceeded the rate limit for object mutation operations (create, update, and delete)."
_MUTATION = re.compile(
    r"^(?:The total number of changes to the object|The rate of change requests to the object|The object) <object> "
    r"(?:exceeds|exceeded) the rate limit\b.*$",
    re.S,
)
MUTATION_LIMIT = "The object <object> exceeded the rate limit for object mutation operations"


def gcs_rate_limit(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    """The ``gcs-rate-limit`` rule: the per-object mutation limit in its latest words, as the 429 it is."""
    m = _SAID.match(message) if message.startswith(MARK) else None
    if m and _MUTATION.match(m["text"]):
        return exc, said("429", MUTATION_LIMIT), frames
    return exc, message, frames
