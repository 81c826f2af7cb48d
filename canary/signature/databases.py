"""Database clients under Python jobs, in their drivers' words: pyodbc's SQLSTATE tuple, SQLAlchemy's wrapper of a
driver's error, Oracle's client library not found or built for another architecture (cx_Oracle's and python-oracledb's
DPI-1047, worded two ways by release), PROJ's database under pyproj, Flask's context error Flask-SQLAlchemy 3 meets,
PyMongo's checks of the server's wire version and of dnspython, Django's floors of the server and of mysqlclient,
and the same errors posted without their class.
Pure. The rule takes its place in
:data:`canary.signature.stacks.STACK_RULES`, the recognisers in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

# pyodbc raises its Error with the SQLSTATE and the driver manager's words as two arguments ("('01000', "[01000]
# [unixODBC][Driver Manager]Can't open lib 'ODBC Driver 17 for SQL Server' : file not found (0)
# (SQLDriverConnect)")"): the words, which repeat the state, are the message
_SQLSTATE = re.compile(r"""^\('(?P<state>[0-9A-Z]{5})', "(?P<msg>\[(?P=state)\] .{1,1000})"\)$""")


def sqlstate_message(message: str) -> str | None:
    """pyodbc's words of an error raised with its SQLSTATE (read by the ``exception-args`` rule), or None."""
    m = _SQLSTATE.match(message)
    return m["msg"] if m else None


# SQLAlchemy names the driver's class before the driver's words and links its page after them ("(psycopg2.
# OperationalError) SCRAM authentication requires libpq version 10 or above (Background on this error at:
# https://sqlalche.me/e/14/e3q8)"), which the driver raising it alone does not
_SQLALCHEMY = re.compile(r"^\((?:[\w.]{1,100}\.)?[A-Z]\w{1,60}\) (?=\S)")
_BACKGROUND = re.compile(r"\s?\(Background on this error at: \S{1,200}\)")
# ODBC names a driver's library by its path ("Can't open lib '/opt/microsoft/msodbcsql17/lib64/libmsodbcsql-17.7.so.1.1'
# : file not found")
_ODBC_LIB = re.compile(r"(Can't open lib ')[^']{0,500}[\\/]")
# Oracle's client library not loaded, DPI-1047, in cx_Oracle 7's words ("64-bit Oracle Client library cannot be
# loaded: ...") and later ones ("Cannot locate a 64-bit Oracle Client library: ..."), the library by its path and why:
# not found, or built for another architecture; a version mask may have taken the number
_DPI_1047 = re.compile(
    r"^DPI-(?:1047|<version>): (?:Cannot locate an? )?(?P<bits>\d\d)-bit Oracle Client library(?: cannot be loaded)?: "
    r"\"(?:[^\"]{0,500}[\\/])?(?P<lib>[^\"/\\:]{1,200}?)(?::| is) (?P<why>.{1,200}?)\"(?:\..*)?$"
)


# pyproj naming the CRS the program asked for before PROJ's own error ("Invalid projection: epsg:4326: (Internal Proj
# Error: proj_create: no database context specified)"): PROJ's database, or what it could not do, is the failure
# Flask's error of a call outside its context, which Flask-SQLAlchemy 3 meets where 2.x did not, with advice since 2.2
# ("Working outside of application context. This typically means that you attempted to use functionality ..."): its
# first sentence
_FLASK_CONTEXT = re.compile(r"^(Working outside of (?:application|request) context)\.\s.*$")
# PyMongo's check of the server's wire protocol names the server and the version it reported ("Server at
# localhost:27017 reports wire version 4, but this version of PyMongo requires at least 6 (MongoDB 3.6)"): the driver's
# minimum is the failure, the server and how old it is are the machine's
_WIRE = re.compile(r"^Server at \S{1,300} reports wire version \d{1,3}, (?=but this version of PyMongo requires)")
# Django's checks of the database server and of its MySQL driver, each naming the machine's release ("PostgreSQL 12 or
# later is required (found 11.19).", "MySQL 8 or later is required (found 5.7.44).", "mysqlclient 1.4.0 or newer is
# required; you have 0.10.1."): the release Django requires is the failure, the one found is the machine's
_DJANGO_FLOOR = re.compile(
    r"^((?:PostgreSQL|MySQL|MariaDB|Oracle(?: Database)?) \d[\d.]{0,10} or later is required|"
    r"mysqlclient \d[\d.]{0,10} or newer is required)(?: \(found [^)]{1,40}\)|; you have [\w.]{1,40})?\.?$"
)
_PROJ = re.compile(r"^Invalid projection: [\w:.+= -]{1,200}?: (?=\(Internal Proj Error: )")


# DuckDB relaying the Python exception a module it needs raised ("Invalid Input Error: Required module
# 'pandas.core.arrays.arrow.dtype' failed to import, due to the following Python exception: ModuleNotFoundError: No
# module named 'pandas.core.arrays.arrow.dtype'"): that exception, as Python raised it
_DUCKDB_RELAYED = re.compile(r"^.{0,300}? due to the following Python exception: (?P<cls>[A-Z]\w{1,60}): (?P<msg>.+)$")


def database_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``databases`` rule: a driver's error without SQLAlchemy's wrapper, ODBC's library without its path, Oracle's
    DPI-1047 by the library it could not load and why, not the release's wording or where it looked; PROJ's error
    without the CRS asked for; Flask's context error without its advice; Django's floors without the release found;
    SQLAlchemy's refusal of an object as a statement without the object."""
    if message.startswith("("):
        message = _BACKGROUND.sub("", _SQLALCHEMY.sub("", message))
    if "Can't open lib '" in message:
        message = _ODBC_LIB.sub(r"\1", message)
    if message.startswith("Server at ") and "PyMongo" in message:
        message = _WIRE.sub("Server at <host> reports an older wire version, ", message)
    if message.startswith("Working outside of "):
        message = _FLASK_CONTEXT.sub(r"\1", message)
    if " is required" in message and (m := _DJANGO_FLOOR.match(message)):
        message = m[1]
    if "due to the following Python exception: " in message and (m := _DUCKDB_RELAYED.match(message)):
        return m["cls"], m["msg"], frames
    # SQLAlchemy 2.0's refusal of a plain string (or any object) as a statement, by the refusal, not the statement;
    # a log cut after its cause ("'str' object has no attribute '_execute_on_connection'") says the same
    if message.startswith("Not an executable object: ") or message.endswith(" attribute '_execute_on_connection'"):
        return "ObjectNotExecutableError", "Not an executable object", frames
    if message.startswith("Invalid projection: "):
        message = _PROJ.sub("Invalid projection: ", message)
    if message.startswith("DPI-") and (m := _DPI_1047.match(message)):
        why = "wrong architecture" if "architecture" in m["why"] else "not found"
        message = f"DPI-1047: {m['bits']}-bit Oracle Client library: {m['lib']}: {why}"
    return exc, message, frames


DATABASE_ERRORS: list[BareError] = [
    # PyMongo's SRV URI without dnspython posted without its class (a Lambda's errorMessage in JSON, quotes escaped)
    BareError(
        "pymongo-srv-dnspython",
        ("module must be installed to use mongodb+srv",),
        re.compile(r'(?<=dnspython\\" )module must be installed to use mongodb\+srv'),
        "ConfigurationError",
        message=lambda m: 'The "dnspython" module must be installed to use mongodb+srv',
    ),
    # Django's floor of the database server posted without its class, or inside an Ansible task's JSON after an escaped
    # newline ("...raise NotSupportedError(\\ndjango.db.utils.NotSupportedError: MySQL 8 or later is required (found
    # 5.7.44)."): the NotSupportedError it raises
    BareError(
        "django-database-floor",
        (" or later is required",),
        re.compile(
            r"(?:^|(?<=[\s`:])|(?<=\\n))(?:django\.db\.utils\.NotSupportedError: )?(?P<msg>(?:PostgreSQL|MySQL|MariaDB|"
            r"Oracle(?: Database)?) \d[\d.]{0,10} or later is required)\b"
        ),
        "NotSupportedError",
    ),
    # pyodbc's error posted without its class, the tuple alone: pyodbc's Error
    BareError(
        "pyodbc-sqlstate",
        ("[Driver Manager]",),
        re.compile(r"""(?P<msg>\('[0-9A-Z]{5}', "\[[0-9A-Z]{5}\] \[[^\]]{1,60}\]\[Driver Manager\].{1,1000}"\))"""),
        "Error",
    ),
    # Oracle's DPI-1047 posted without its class, or after SQLAlchemy's wrapper: the driver's DatabaseError
    BareError(
        "oracle-dpi-1047",
        ("DPI-1047: ",),
        re.compile(r"(?:^|\) )(?P<msg>DPI-1047: .{1,1000}?)(?: See https?://\S{1,300} for help.*)?$"),
        "DatabaseError",
    ),
    # elasticsearch-py 8's ApiError printed by its str(), the status, the server's error type and reason, alone or in a
    # sentence ("BadRequestError(400, 'media_type_header_exception', 'Invalid media-type value on headers
    # [Content-Type, Accept]')"; a sentence may add the server's detail after them): the class and those three
    BareError(
        "elasticsearch-api-error",
        ("Error(4", "Error(5"),
        re.compile(
            r"(?:^|[\s(])(?P<cls>[A-Z]\w{2,40}Error)\((?P<st>[45]\d\d), '(?P<type>\w{1,100})', '(?P<why>[^']{1,300})'"
        ),
        lambda m: m["cls"],
        message=lambda m: f"{m['cls']}({m['st']}, '{m['type']}', '{m['why']}')",
    ),
]
