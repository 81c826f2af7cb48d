"""Google Cloud's API errors as its client libraries print them (canary/signature/cloud_apis.py, #38): one refusal of
the service is one fingerprint whichever client (Python, Ruby, Go, Java, node, gsutil, a bare body) printed it, its
class still named as the log shows it; Cloud Storage's three wordings of one rate limit are one; look-alikes (another
limit, another permission, another reason) stay apart and unlinked."""

import tomllib
from pathlib import Path

import pytest

from canary.signature import RULES, extract
from canary.signature.cloud_apis import MUTATION_LIMIT, identity_message
from canary.signature.similar import THRESHOLD, similarity

REAL = Path(__file__).parent / "logs" / "real"
INDEX = tomllib.loads((REAL / "INDEX.toml").read_text())
EXPECT = {e["file"]: e["expect"] for e in INDEX["log"]}


def sig(name: str):
    return extract((REAL / name).read_text(encoding="utf-8"))


def named(s) -> str:
    return s.exception or f"kind:{s.kind}"


GROUPS = {
    "b73-gcs-requester-pays-no-user-project": "Bucket is requester pays bucket but no user project provided",
    "b73-gcs-object-mutation-rate-limit": MUTATION_LIMIT,
    "b73-gcs-bucket-create-delete-rate-limit": "The project exceeded the rate limit for creating and deleting buckets",
    "b73-gsutil-anonymous-401-objects-get": "Anonymous caller does not have storage.objects.get access to <resource>",
}


@pytest.mark.parametrize("name", GROUPS)
def test_one_refusal_is_one_fingerprint_whichever_client_printed_it(name):
    group = next(g for g in INDEX["same"] if g["name"] == name)
    sigs = {n: sig(n) for n in group["logs"]}
    assert len({s.fingerprint for s in sigs.values()}) == 1, sigs
    for n, s in sigs.items():
        assert named(s) == EXPECT[n], n  # the class the log shows (folded for the fingerprint only)
        assert s.kind == "infrastructure", n
        assert identity_message(s.message) == f"Google API: {GROUPS[name]}", n
        assert s.frames == [] or s.exception, n


def test_the_status_is_kept_where_printed_and_the_class_where_named():
    python, node, ruby = sig("google-cloud-python-4674.log"), sig("grid-2588.log"), sig("google-cloud-ruby-2088.log")
    assert python.message == "Google API 400: Bucket is requester pays bucket but no user project provided"
    assert node.message == "Google API: Bucket is requester pays bucket but no user project provided"
    # (google-cloud-ruby's class named after gRPC's code is the service's 429, not TensorFlow's status)
    assert ruby.exception == "ResourceExhaustedError" and ruby.message.startswith("Google API 429: ")
    assert python.group == sig("issues-2338.log").group != node.group


LOOKALIKES = [
    ("laravel-google-cloud-storage-44.log", "laravel-google-cloud-storage-14.log"),
    ("curator-665.log", "python-docs-samples-4033.log"),
    ("google-cloud-ruby-18854.log", "google-cloud-ruby-2088.log"),
    ("issues-2338.log", "java-storage-nio-858.log"),
    ("pops-15.log", "pops-15-2.log"),
    ("qiaseq-dna-32.log", "fenwicks-4.log"),
]


@pytest.mark.parametrize("pair", LOOKALIKES, ids=lambda p: "-vs-".join(n[:-4] for n in p))
def test_look_alikes_stay_apart_and_unlinked(pair):
    assert any(set(pair) == set(d["logs"]) for d in INDEX["different"])  # as declared
    a, b = sig(pair[0]), sig(pair[1])
    assert a and b
    assert a.fingerprint != b.fingerprint
    assert similarity(a, b) < THRESHOLD


def test_gsutils_summary_does_not_win_over_the_error_above_it():
    for name in ("qiaseq-dna-32.log", "pops-15-2.log"):
        s = sig(name)
        assert s.exception == "ServiceException" and s.message.startswith("Google API 401: Anonymous caller"), name
    alone = extract("$ gsutil cp gs://b/o .\nCommandException: 1 file/object could not be transferred.\n")
    assert alone.exception == "CommandException" and alone.message == "1 file/object could not be transferred"


def _one(text: str):
    s = extract(text)
    assert s is not None, text
    return s


REFUSED = "The project exceeded the rate limit for creating and deleting buckets."
CLIENTS = {
    "python": f"google.api_core.exceptions.TooManyRequests: 429 POST https://storage.googleapis.com/storage/v1/b?"
    f"project=my-proj-42: {REFUSED}",
    "python-body": "TooManyRequests: 429 POST https://storage.googleapis.com/storage/v1/b?project=p: {\n"
    f'  "error": {{\n    "code": 429,\n    "message": "{REFUSED}",\n    "errors": []\n  }}\n}}',
    "ruby-apis": f"Google::Apis::RateLimitError: rateLimitExceeded: {REFUSED} status_code: 429 header: #<HTTP::X>",
    "ruby-cloud": f"Google::Cloud::ResourceExhaustedError: rateLimitExceeded: {REFUSED}",
    "go": f"storage_test.go:40: googleapi: Error 429: {REFUSED}, rateLimitExceeded",
    "java": "com.google.api.client.googleapis.json.GoogleJsonResponseException: 429 Too Many Requests\n{\n"
    f'  "code" : 429,\n  "message" : "{REFUSED}"\n}}',
    "json": f'{{"error": {{"code": 429, "message": "{REFUSED}", "errors": [{{"reason": "rateLimitExceeded"}}]}}}}',
    "node": f"{{ Error: {REFUSED}\n    at Util.parseHttpRespBody (/x/node_modules/@google-cloud/common/util.js:1:2)\n"
    "  code: 429 }",
}


def test_each_clients_line_is_one_fingerprint():
    sigs = {client: _one(text) for client, text in CLIENTS.items()}
    assert len({s.fingerprint for s in sigs.values()}) == 1, {c: (s.exception, s.message) for c, s in sigs.items()}
    assert {c: s.exception for c, s in sigs.items()} == {
        "python": "TooManyRequests",
        "python-body": "TooManyRequests",
        "ruby-apis": "RateLimitError",
        "ruby-cloud": "ResourceExhaustedError",
        "go": None,
        "java": "GoogleJsonResponseException",
        "json": None,
        "node": "Error",
    }
    assert all(s.kind == "infrastructure" for s in sigs.values())
    assert sigs["go"].message == "Google API 429: " + REFUSED.rstrip(".")


def test_the_mutation_limits_three_wordings_are_one_and_the_runs_names_are_masked():
    worded = [
        "GoogleAPICallError: 410 PUT https://www.googleapis.com/upload/storage/v1/b/bk/o?uploadType=resumable&upload_id"
        "=ABC123: The total number of changes to the object bk/a/b.png exceeds the rate limit. Please reduce the rate "
        "of create, update, and delete requests.",
        "Google::Apis::RateLimitError: rateLimitExceeded: The rate of change requests to the object other/c.txt "
        "exceeds the rate limit. Please reduce the rate of create, update, and delete requests.",
        "TooManyRequests: 429 POST https://storage.googleapis.com/upload/storage/v1/b/x/o?uploadType=multipart: The "
        "object x/batch/requests_0.jsonl exceeded the rate limit for object mutation operations (create, update, and "
        "delete).",
    ]
    sigs = [_one(w) for w in worded]
    assert {s.message for s in sigs} == {f"Google API 429: {MUTATION_LIMIT}"}
    assert len({s.fingerprint for s in sigs}) == 1
    bucket = _one(f"TooManyRequests: 429 POST https://storage.googleapis.com/storage/v1/b?project=p: {REFUSED}")
    assert bucket.fingerprint != sigs[0].fingerprint and similarity(bucket, sigs[0]) < THRESHOLD


def test_who_lacks_which_permission_is_kept_and_on_what_is_masked():
    anonymous = _one("ServiceException: 401 Anonymous caller does not have storage.objects.get access to a/b.")
    account = _one(
        "Google::Apis::ClientError: forbidden: me@x.iam.gserviceaccount.com does not have "
        "storage.objects.get access to the Google Cloud Storage object."
    )
    other = _one("Google::Apis::ClientError: forbidden: you@y.com does not have storage.objects.get access to c/d.")
    listing = _one("ServiceException: 401 Anonymous caller does not have storage.objects.list access to bucket b.")
    assert account.message == "Google API 403: <account> does not have storage.objects.get access to <resource>"
    assert account.fingerprint == other.fingerprint != anonymous.fingerprint
    assert anonymous.fingerprint != listing.fingerprint and similarity(anonymous, listing) == 0.0


def test_lines_that_only_look_alike_are_not_read_as_the_service():
    # (a node error object of a system call, another service's URL, torch elastic's error file)
    assert _one("{ Error: ENOENT: no such file or directory, open '/x'\n    at f (/a.js:1:2)").kind != "infrastructure"
    other = _one("requests.exceptions.HTTPError: 429 POST https://api.example.com/v1/x: Too Many Requests")
    assert other.kind != "infrastructure" and not other.message.startswith("Google API")
    elastic = '{\n  "message": {\n    "message": "RendezvousConnectionError: The connection failed.",\n  }\n}'
    assert extract(elastic) is None or not extract(elastic).message.startswith("Google API")


def test_the_rules_are_stated_once_with_their_reasons():
    names = [r.name for r in RULES]
    for name in ("cloud-api", "gcs-rate-limit", "cloud-class"):
        assert names.count(name) == 1
    assert names.index("cloud-api") < names.index("gcs-rate-limit") < names.index("full-stop")


def test_the_services_sentence_alone_names_who_lacks_which_permission():
    # Cloud Storage's refusal with no client's class (curl's XML, a browser's JSON): one with gsutil's, as declared
    xml = {sig(f"{n}.log").fingerprint for n in ("glow-60", "hive-15", "ethereum-emissions-6")}
    assert len(xml) == 1 and sig("hive-15.log").kind == "infrastructure"
    assert sig("zarr-python-1684.log").fingerprint not in xml
    assert similarity(sig("zarr-python-1684.log"), sig("hive-15.log")) < THRESHOLD
    # IAM's refusal of a service account's token, its body alone and through googleapi
    assert sig("auth-340.log").fingerprint == sig("stratus-red-team-299.log").fingerprint
    assert sig("auth-340.log").fingerprint != sig("fenwicks-4.log").fingerprint
    # the sentence inside prose without its words ("does not have") is not the service's
    assert extract("the bot does not have a token yet, retrying") is None
