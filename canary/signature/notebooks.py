"""Jupyter's pieces refusing a notebook or an extension after a release, in their own words. Pure.

nbformat validates a notebook against its schema and logs what it refused, whichever program read it (Jupyter's server,
nbconvert under Snakemake, papermill, a test's logger: "Notebook JSON is invalid: Additional properties are not allowed
('id' was unexpected)", a cell's field a release of the schema does not know), above the cell it printed; it raises the
same refusal as NotebookValidationError. jupyter_server names an extension it could not load and the module Python did
not find ("The module 'jupyter_nbextensions_configurator' could not be found (No module named 'notebook.base'). Are you
sure the extension is installed?"), a classic notebook's extension under Notebook 7. JupyterLab's widget manager names a
widgets module's release it does not serve and the one it does; nbconvert's server extension an export it could not
make. Which field, module or release is the failure; which cell, which program and which extension are the job's. The
recognisers take their place in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check

NOTEBOOK_ERRORS: list[BareError] = [
    BareError(
        "nbformat-invalid",
        ("Notebook JSON is invalid: ",),
        re.compile(r"(?:^|\s|:)Notebook JSON is invalid: (?P<msg>.{1,300}?)\.?$"),
        "NotebookValidationError",
        message=lambda m: f"Notebook JSON is invalid: {m['msg']}",
    ),
    # JupyterLab's widget manager asked for a widgets package's release the lab does not serve ("Error: Module
    # @jupyter-widgets/controls, version ^1.5.0 is not registered, however, 2.0.0 is", ipywidgets 7's state under 8's
    # lab, in a browser's console above its frames): which module and which releases
    environment_check(
        "jupyter-widgets-version",
        ("is not registered, however,",),
        r"Module (?P<mod>@?[\w./-]{1,100}), version (?P<need>\S{1,40}) is not registered, however,\s{1,20}"
        r"(?P<have>\S{1,40}) is",
        None,
        message=lambda m: (
            f"JupyterLab: Module {m['mod']}, version {m['need']} is not registered, however, {m['have']} is"
        ),
    ),
    BareError(
        "jupyter-extension-module",
        ("could not be found (No module named ",),
        re.compile(r"The module '[\w.]{1,200}' could not be found \((?P<msg>No module named '[\w.]{1,200}')\)"),
        "ModuleNotFoundError",
    ),
    # nbconvert's server extension relaying an export it could not make ("nbconvert failed: xelatex not found on PATH,
    # if you have not installed xelatex you may need to do so. ...", "nbconvert failed: PDF creating failed, captured
    # latex output:" above TeX's own): a program the machine lacks, or TeX's run
    BareError(
        "nbconvert-failed",
        ("nbconvert failed: ",),
        re.compile(
            r"(?:^|[\s\">])nbconvert failed: (?P<msg>(?P<prog>\w{1,20}) not found on PATH|[\w ]{1,100}?)"
            r"(?:,|\.?\s*\"?$)"
        ),
        None,
        lambda text: "environment" if "not found on PATH" in text else "runtime_crash",
        message=lambda m: f"nbconvert failed: {m['msg']}",
    ),
]
