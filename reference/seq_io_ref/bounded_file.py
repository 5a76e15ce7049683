"""A path (or standard input) + a byte limit → the file's text, read without ever holding more than limit + 1 bytes,
or one plain sentence saying why it cannot be read.

WHY: a validator that reads whatever it is pointed at can be made to read forever (`/dev/zero`), to block (a FIFO
nobody writes to) or to fill memory (a 100 GB file). So only a regular file is read, it is opened without blocking
and checked again once open (it cannot be swapped for a FIFO in between), and reading stops one byte past the limit,
which is enough to know it is too large. Shared by the command-line readers (`iospec validate`); the limit is the
caller's (for contract documents, `seq_io_ref.wire.MAX_DOCUMENT_BYTES`).
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO


class UnreadableFile(Exception):
    """The file cannot be read as asked; the message is one sentence naming the reason."""


class TooLarge(Exception):
    """The file holds more than the limit; `size` is a lower bound of its size in bytes."""

    def __init__(self, size: int) -> None:
        super().__init__(f"more than {size - 1:,} bytes")
        self.size = size


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_bounded_bytes(path: str, limit: int) -> bytes:
    """At most `limit` bytes of a regular file; UnreadableFile or TooLarge otherwise."""
    try:
        before = os.stat(path)
        if not stat.S_ISREG(before.st_mode):
            raise UnreadableFile(f"it is {_kind(before.st_mode)}, not a regular file")
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise UnreadableFile(error.strerror or str(error)) from None
    with os.fdopen(descriptor, "rb") as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise UnreadableFile(f"it is {_kind(mode)}, not a regular file")
        return read_bounded_stream(handle, limit)


def read_bounded_stream(stream: BinaryIO, limit: int) -> bytes:
    """At most `limit` bytes of an open stream (standard input); TooLarge when there is more."""
    try:
        data = stream.read(limit + 1)
    except OSError as error:
        raise UnreadableFile(error.strerror or str(error)) from None
    if len(data) > limit:
        raise TooLarge(len(data))
    return data


def decode_utf8(data: bytes) -> str:
    """The text of UTF-8 bytes; UnreadableFile naming the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UnreadableFile(f"it is not UTF-8 text ({error.reason} at byte {error.start})") from None
