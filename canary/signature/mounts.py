"""FUSE mounts under training and data jobs whose daemon died or went away (gcsfuse, s3fs, rclone, a Drive mount), in
the words of the programs that meet them. Pure.

The kernel answers every access to a mount whose daemon exited with ENOTCONN, "Transport endpoint is not connected":
fusermount refusing a new mount over the dead one ("mount helper error: fusermount: failed to access mountpoint
/mnt/gdrive: Transport endpoint is not connected", after rclone's or plexdrive's log), s3fs refusing it in its own
words, ls and bash's shell-init unable to read it ("shell-init: error retrieving current directory: getcwd: cannot
access parent directories: Transport endpoint is not connected"). Which program met it, and the errno's words, are the
failure; the mountpoint is the job's. A directory deleted under a shell, or a mount refusing connections, is another
errno, kept. NFS names a file deleted while open by an id of its own, which a directory's removal then meets.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import rewrite

_ENOTCONN = "Transport endpoint is not connected"
# what ls meets on a mount (a dead daemon, one refusing connections, an NFS handle gone): not a file that is not there
_MOUNT_ERRNOS = "Transport endpoint is not connected|Connection refused|Stale (?:NFS )?file handle"


# NFS's name for a file deleted while open, which the server keeps until it is closed (".nfs00000000160c011a00063458"):
# a directory holding one cannot be removed ("[Errno 16] Device or resource busy: '.nfs...'"); its id is the file's
_SILLY = re.compile(r"(?<=')\.nfs[0-9a-f]{8,40}(?=')")
nfs_words = rewrite(".nfs", _SILLY, ".nfs<id>")


def _kind(said: str) -> str:
    """A dead mount's daemon is the machine's other processes; another errno (a directory deleted, a refusal) the
    environment the job was given."""
    return "infrastructure" if _ENOTCONN in said else "environment"


MOUNT_ERRORS: list[BareError] = [
    # fusermount refusing a new mount over a mountpoint a dead mount left (rclone's and plexdrive's "mount helper
    # error: " before it, or the path fusermount was run by)
    BareError(
        "fusermount-stale",
        ("fusermount", _ENOTCONN),
        re.compile(r"(?:^|: |/)fusermount3?: failed to access mountpoint \S{1,500}: " + _ENOTCONN),
        None,
        "infrastructure",
        message=lambda m: f"fusermount: failed to access mountpoint <path>: {_ENOTCONN}",
    ),
    # s3fs refusing to mount on its own dead mountpoint (its syslog line: "s3fs: unable to access MOUNTPOINT /x: ...")
    BareError(
        "s3fs-mountpoint",
        ("unable to access MOUNTPOINT",),
        re.compile(r"\bs3fs: unable to access MOUNTPOINT \S{1,500}: (?P<why>[A-Z][\w ]{2,60}\w)"),
        None,
        _kind,
        message=lambda m: f"s3fs: unable to access MOUNTPOINT <path>: {m['why']}",
    ),
    # ls unable to read a mount, and bash's shell-init the directory a shell stood in
    BareError(
        "mount-access",
        ("ls: cannot access ", "getcwd: cannot access parent directories: "),
        re.compile(
            r"^(?:ls: cannot access (?P<path>'[^']{1,500}'|\S{1,500}): (?="
            + _MOUNT_ERRNOS
            + r")|(?:shell-init|\w{1,20}): "
            r"error retrieving current directory: getcwd: cannot access parent directories: )"
            r"(?P<why>[A-Z][\w ]{2,60}\w)$"
        ),
        None,
        _kind,
        message=lambda m: (
            ("ls: cannot access <path>: " if m["path"] else "getcwd: cannot access parent directories: ") + m["why"]
        ),
    ),
]
