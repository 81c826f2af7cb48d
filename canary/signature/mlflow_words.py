"""MLflow's tracking client and server in the words a post keeps of them, without the class they are raised with:
a server's refusal by its error code, the client's REST call that failed by the status it got, and a run refused in a
deleted experiment. Pure. They take their place after :data:`canary.signature.services.SERVICE_ERRORS` in
:data:`canary.signature.bare.BARE_ERRORS`; their run ids, hosts and experiment ids are the run's.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError

MLFLOW_ERRORS: list[BareError] = [
    # a tracking server's refusal, which the client raises as MlflowException (RestException) with the error code
    # first ("INVALID_PARAMETER_VALUE: The run 39a47c2a... must be in the 'active' state. Current state is deleted.")
    BareError(
        "mlflow-error-code",
        ("INVALID_PARAMETER_VALUE: ", "RESOURCE_DOES_NOT_EXIST: ", "RESOURCE_ALREADY_EXISTS: "),
        re.compile(
            r"^(?P<msg>(?:INVALID_PARAMETER_VALUE|RESOURCE_DOES_NOT_EXIST|RESOURCE_ALREADY_EXISTS): \S.{0,1000}?)\.?$"
        ),
        "MlflowException",
    ),
    # the client's REST call answered with an error status, logged before it retries ("ERROR mlflow.utils.rest_utils:
    # API request to https://x/api/2.0/mlflow/runs/log-parameter failed with code 500 != 200, retrying up to 0 more
    # times. API response body: ..."): which endpoint and status; the host and the body are the server's
    BareError(
        "mlflow-rest",
        ("failed with code ",),
        re.compile(
            r"\bAPI request to \S{0,300}?(?P<api>/api/2\.0/[\w/-]{1,100}) failed with code (?P<code>\d{3}) != 200\b"
        ),
        "MlflowException",
        message=lambda m: f"API request to {m['api']} failed with code {m['code']}",
    ),
    # a run started in an experiment that was deleted ("Could not create run under non-active experiment with ID 0."):
    # which experiment is the run's
    BareError(
        "mlflow-non-active-experiment",
        ("Could not create run under non-active experiment",),
        re.compile(r"(?P<msg>Could not create run under non-active experiment)"),
        "MlflowException",
    ),
]
