"""Arrow tables and the Parquet readers over them refusing what a data pipeline hands them: pyarrow's conversions from
pandas, its limits on one array, Spark's and datasets' checks of a file's schema. Pure.

pyarrow names a table's column by index and both lengths where columns differ in length ("Column 2 named label expected
length 10 but got length 9"), words a Python object it expected to be bytes by release ("Expected bytes, got a 'int'
object", later "Expected a string or bytes object, got a 'int' object"), names the value it could not convert ("Could
not convert 'Total' with type str: tried to convert to int64"), the bytes an array would have held ("array cannot
contain more than 2147483646 bytes, have 2218271688") and advises a cast after an offset overflow by release. Spark
names the file whose column it could not convert and, since 3.2, the column and both types (the data's); datasets prints
both schemas of a table it could not cast. Which column, conversion or limit is the failure; the values, sizes, files
and schemas are the data's.
"""

from __future__ import annotations

import re

from canary.signature import pythons
from canary.signature.rewordings import Parts

_LENGTHS = re.compile(r"^Column \d{1,9} (named \S{1,200} expected length) \d{1,15} (but got length) \d{1,15}$")
_EXPECTED_BYTES = re.compile(r"^Expected (?:a string or )?bytes(?: object)?, got a '(\w{1,60})' object$")
_CONVERT = re.compile(r"^Could not convert .{0,500}? (with type \w{1,60}: tried to convert to \w{1,60})$")
_CAPACITY = re.compile(r"^(array cannot contain more than) .{1,40}?, have \d{1,20}\b.*$")
_OFFSET = re.compile(r"^(offset overflow while concatenating arrays)\b.*$")
_SPARK_PARQUET = re.compile(r"^(Parquet column cannot be converted) in file \S{1,1000}?(?:\. Column: .{1,500})?$")
_CAST = re.compile(r"^Couldn't cast\b.{0,20000}?(?:(because column names don't match)|$)")


def arrow_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``arrow-tables`` rule: pyarrow's columns of unequal length by the column's name, a conversion by the types
    and not the value, an array's limit without its size, an offset overflow without its advice; Spark's Parquet
    conversion without the file; datasets' cast without the schemas. (pyarrow raises with a tuple, "(\"Could not convert
    ...\", 'Conversion failed for column x with type object')": its first string is read as exception-args reads it.)"""
    if message.startswith(('("', "('")):
        exc, message, frames = pythons.exception_args(exc, message, frames)
    if message.startswith("Column "):
        message = _LENGTHS.sub(r"Column <n> \1 <n> \2 <n>", message)
    elif message.startswith("Expected ") and (m := _EXPECTED_BYTES.match(message)):
        message = f"Expected bytes, got a '{m[1]}' object"
    elif message.startswith("Could not convert ") and (m := _CONVERT.match(message)):
        message = f"Could not convert <value> {m[1]}"
    elif message.startswith("array cannot contain more than"):
        message = _CAPACITY.sub(r"\1 <bytes>", message)
    elif message.startswith("offset overflow"):
        message = _OFFSET.sub(r"\1", message)
    elif message.startswith("Parquet column cannot be converted") and (m := _SPARK_PARQUET.match(message)):
        message = m[1]
    elif message.startswith("Couldn't cast") and (m := _CAST.match(message)):
        message = "Couldn't cast the table to the dataset's features" + (f" {m[1]}" if m[1] else "")
    return exc, message, frames
