"""The geospatial stack's own checks under data jobs: PROJ's database (``proj.db``) missing, or written by another PROJ
release than the library loading it, as PROJ logs them through GDAL ("ERROR 1: PROJ: proj_create_from_database: Cannot
find proj.db", "Warning 1: PROJ: proj_identify: /x/proj.db contains DATABASE.LAYOUT.VERSION.MINOR = 0 whereas a number
>= 2 is expected. It comes from another PROJ installation."), through pyproj or bare; GDAL's gdal-config missing
where rasterio or Fiona is built from source, and cartopy's minimum PROJ (none found is 0.0.0, whichever minimum);
geopy 2's refusal of Nominatim's default user agent, which names geopy's release. Pure. They take their place in
:data:`canary.signature.installs.INSTALL_CHECKS`: an installation's mismatch, printed as a line with no class, that
explains the errors a program meets after it.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment
from canary.signature.rewordings import Parts

# (a library's exception that quotes PROJ, "rasterio.errors.CRSError: The EPSG code is unknown. PROJ: ...", is its own)
_NOT_RAISED = r"^(?![A-Za-z_][\w.]{0,200}(?:Error|Exception): ).{0,500}?"
# which PROJ function met it, GDAL's prefix and the database's path are the caller's and the machine's; the layout
# the file has and the one the library needs are which two installations met (0 against 2, 4 against 5)
GEOSPATIAL_CHECKS: list[BareError] = [
    # (a paste wrapped inside the word leaves "OUT.VERSION.MINOR = 2 whereas ..." at the start of a line)
    _environment(
        "proj-db-layout",
        ("whereas a number >= ",),
        _NOT_RAISED + r"(?:proj\.db contains DATABASE\.LAY|^)OUT\.VERSION\.MINOR = (?P<have>\d{1,3}) whereas a "
        r"number >= (?P<need>\d{1,3}) is expected",
        None,
        message=lambda m: (
            f"PROJ: proj.db contains DATABASE.LAYOUT.VERSION.MINOR = {m['have']} whereas a number >= {m['need']} "
            "is expected (another PROJ installation's database)"
        ),
    ),
    # no database where PROJ looks (PROJ_LIB or PROJ_DATA unset, a frozen app without its data), whichever function
    # looked; its data directory not opened at all is another failure
    _environment(
        "proj-db-missing",
        ("Cannot find proj.db", "proj failed"),
        _NOT_RAISED + r"(?:^|: )(?:(?P<find>Cannot find proj\.db)\b|Open of \S{1,300}[\\/]proj failed$)",
        None,
        message=lambda m: "PROJ: Cannot find proj.db" if m["find"] else "PROJ: Open of its data directory failed",
    ),
    # cartopy's setup finding a PROJ older than it needs, or none ("Proj version 0.0.0 is installed, but cartopy
    # requires at least version 4.9.0."): the machine's PROJ against cartopy's minimum
    _environment(
        "cartopy-proj",
        ("but cartopy requires at least version",),
        r"Proj version (?P<have>[\d.]{1,12}) is installed, but cartopy requires at least version "
        r"(?P<need>\d[\d.]{0,11}\d)",
        None,
        message=lambda m: (
            "cartopy: no Proj found (version 0.0.0)"  # (none at all: which minimum the release asks is not it)
            if m["have"] == "0.0.0"
            else f"cartopy: Proj version {m['have']} is installed, but cartopy requires at least {m['need']}"
        ),
    ),
    # rasterio's or Fiona's build from source without GDAL's gdal-config ("A GDAL API version must be specified. Provide
    # a path to gdal-config using a GDAL_CONFIG environment variable or use a GDAL_VERSION environment variable."): the
    # machine's GDAL, whichever package's setup asked
    _environment(
        "gdal-config-missing",
        ("A GDAL API version must be specified",),
        r"(?P<msg>A GDAL API version must be specified\. Provide a path to gdal-config.{0,300}?)\.?$",
        None,
        # (its line whole, with setup.py's "ERROR: " or not, as read where it ends a log: a tool's check, no class)
        message=lambda m: f"ERROR: {m['msg']}",
    ),
]


# geopy 2's refusal of Nominatim's default user agent names the release in it ('... `user_agent` "geopy/2.0.0" is
# strongly discouraged ...')
_GEOPY_AGENT = re.compile(r'(default or sample `user_agent` )"geopy/[\w.]{1,20}"')


def geopy_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    if '"geopy/' in message:
        message = _GEOPY_AGENT.sub(r'\1"geopy/<version>"', message)
    return exc, message, frames
