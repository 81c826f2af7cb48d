"""Building scientific Python's native parts from source where no wheel fits the machine (a new Python, an uncommon
architecture, a board): Meson and numpy.distutils without a Fortran compiler, h5py's build without the HDF5 library it
loads, gfortran 10's argument checks, a build tool a source distribution needs first, a library autoconf's configure
could not find. Pure. They take their place among :data:`canary.signature.builds.BUILD_CHECKS`; each is the build's
check, with no class.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment

# the Fortran compilers Meson tries, in each release's and each platform's order
_FORTRAN = re.compile(r"'(?:gfortran|flang|flang-new|nvfortran|pgfortran|ifort|ifx|g95|lfortran)'")


def _meson(m: re.Match[str]) -> str:
    """Meson finding none of the compilers it tried: which language, not the list (it grows with each release)."""
    if _FORTRAN.search(m["tried"]):
        return "meson: no Fortran compiler found"
    return f"meson: unknown compiler(s): {m['tried'].split(']', 1)[0].strip('[')}"


SCIENTIFIC_BUILDS: list[BareError] = [
    # Meson building SciPy or another package with Fortran sources ("../../meson.build:57:0: ERROR: Unknown
    # compiler(s): [['gfortran'], ['flang'], ['nvfortran'], ['pgfortran'], ['ifort'], ['ifx'], ['g95']]"), and
    # numpy.distutils' ("error: library dfftpack has Fortran sources but no Fortran compiler found"): the machine's
    # missing compiler, whichever library of the package needed it first
    _environment(
        "no-fortran",
        ("Unknown compiler(s): [", "has Fortran sources but no Fortran compiler found"),
        r"ERROR: Unknown compiler\(s\): \[(?P<tried>\[.{1,300})\]|"
        r"error: library [\w.-]{1,100} has (?P<sources>Fortran sources but no Fortran compiler found)",
        None,
        message=lambda m: "numpy.distutils: a library has " + m["sources"] if m["sources"] else _meson(m),
    ),
    # Meson's compiler that cannot build a test program ("meson.build:1:0: ERROR: Compiler cl can not compile
    # programs.": MSVC without its environment set up): which compiler
    _environment(
        "meson-compiler",
        ("can not compile programs",),
        r"ERROR: Compiler (?P<cc>\S{1,100}) can not compile programs",
        None,
        message=lambda m: f"meson: compiler {m['cc']} can not compile programs",
    ),
    # gfortran 10 and later refusing calls whose arguments disagree, which earlier releases let by ("Error: Rank
    # mismatch between actual argument at (1) and actual argument at (2) (scalar and rank-1)", "Type mismatch ...
    # (REAL(4)/COMPLEX(4))"; -fallow-argument-mismatch lets them by again): a compile error, which mismatch
    BareError(
        "gfortran-argument-mismatch",
        ("mismatch between actual argument at (1) and actual argument at (2)",),
        re.compile(
            r"^Error: (?P<msg>(?:Rank|Type) mismatch between actual argument at \(1\) and actual argument at \(2\) "
            r"\((?:[^()]|\([^()]{0,20}\)){1,60}\))"
        ),
        None,
        "compile_error",
        message=lambda m: f"gfortran: {m['msg']}",
    ),
    # a source distribution's setup naming the build tool it needs before it can do anything ("scikit-build is required
    # to build from source." above "Please run:", ITK 5.0's under MONAI's pins, where no wheel fits the Python): which
    # tool, whichever step of pip's ran the setup
    _environment(
        "build-tool-required",
        ("is required to build from source",),
        r"^(?P<tool>[A-Za-z][\w.-]{0,60}) is required to build from source\b",
        None,
        message=lambda m: f"{m['tool']} is required to build from source",
    ),
    # autoconf's configure finding no library a package's C part links (healpy's "configure: error: could not find the
    # cfitsio library", run by its setup where no wheel fits): which library
    _environment(
        "configure-library",
        ("could not find the ",),
        r"^(?:configure: )?error: could not find the (?P<lib>[\w.+-]{1,60}) library\b",
        None,
        message=lambda m: f"configure: could not find the {m['lib']} library",
    ),
    # h5py's setup loading the HDF5 library to read its version, on a machine without it ("Loading library to get
    # version: libhdf5.so" above "error: libhdf5.so: cannot open shared object file: No such file or directory", a
    # board where pip found no wheel): which library
    _environment(
        "h5py-hdf5",
        ("libhdf5",),
        r"\berror: (?P<lib>libhdf5\w{0,10}\.so)[\d.]{0,12}: cannot open shared object file",
        None,
        message=lambda m: f"h5py: {m['lib']}: cannot open shared object file",
    ),
]
