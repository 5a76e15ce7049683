"""A path (or standard input) + a byte limit → the file's text, read without ever holding more than limit + 1 bytes,
or one plain sentence saying why it cannot be read.

WHY: a reader that reads whatever it is pointed at can be made to read forever (`/dev/zero`), to block (a FIFO
nobody writes to) or to fill memory (a 100 GB file). So only a regular file is read, it is opened without blocking
and checked again once open (it cannot be swapped for a FIFO in between), and reading stops one byte past the limit,
which is enough to know it is too large. Shared by every command-line reader: `iospec validate` (limit
`seq_io.reference.wire.MAX_DOCUMENT_BYTES`) and the vector files of `iospec lint` and `iospec run` (`strict_yaml`).
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO


class UnreadableFile(Exception):
    """The file cannot be read as asked; the message is one sentence naming the reason. `kind` names what the path
    is when it is not a regular file ("a FIFO (named pipe)", "a directory", ...), else it is None."""

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind


class TooLarge(Exception):
    """The file holds more than the limit; `size` is a lower bound of its size in bytes."""

    def __init__(self, size: int) -> None:
        super().__init__(f"more than {size - 1:,} bytes")
        self.size = size


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
_CHUNK = 1 << 20


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _not_regular(mode: int) -> UnreadableFile:
    return UnreadableFile(f"it is {_kind(mode)}, not a regular file", _kind(mode))


def read_bounded_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most `limit` bytes of a regular file; UnreadableFile or TooLarge otherwise. Never more than `limit` + 1
    bytes are read, in chunks of at most 1 MiB."""
    try:
        before = os.stat(path)
        if not stat.S_ISREG(before.st_mode):
            raise _not_regular(before.st_mode)
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise UnreadableFile(error.strerror or str(error)) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(mode)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(descriptor, min(_CHUNK, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise UnreadableFile(error.strerror or str(error)) from None
    finally:
        os.close(descriptor)
    if size > limit:
        raise TooLarge(size)
    return b"".join(chunks)


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
