"""Atomic file output (private): a file is either written whole or not touched at all.

The text goes to a temporary file in the destination's directory, is flushed to disk, and then replaces the
destination with :func:`os.replace`, which is atomic on POSIX and Windows within one file system. Whatever
goes wrong before that, including Ctrl-C, the temporary file is removed and an existing destination keeps its
old content.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable
import tempfile
from pathlib import Path

from .errors import IO_ERRNOS, ExportError, OutputIOError

__all__ = ["check_writable", "write_atomic"]


def check_writable(path: str | os.PathLike[str]) -> Path:
    """Check that ``path`` can be written as a file, before any long computation.

    Parameters
    ----------
    path : str or path-like
        Destination file; its directory must exist.

    Returns
    -------
    pathlib.Path
        ``path`` as a Path.

    Raises
    ------
    ExportError
        If the directory does not exist or is not a directory (a file or device: ``/dev/null/x.json``), ``path``
        is a directory, or the directory is not writable; the message names the path.
    """
    p = Path(path)
    directory = p.parent  # Path(".") for a bare file name
    if not directory.is_dir():
        raise ExportError(f"cannot write {str(p)!r}: {_missing_directory(directory)}")
    if p.is_dir():
        raise ExportError(f"cannot write {str(p)!r}: it is a directory")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ExportError(f"cannot write {str(p)!r}: directory {str(directory)!r} is not writable")
    if p.exists() and not os.access(p, os.W_OK):
        raise ExportError(f"cannot write {str(p)!r}: the file is read-only")
    if not p.exists() or p.is_file():  # replaced through a file beside it: try one (root passes os.access)
        try:
            fd, probe = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=directory)
        except OSError as err:
            raise ExportError(_no_new_file(p, directory, err)) from None
        os.close(fd)
        os.unlink(probe)
    return p


def _write_error(p: Path, err: OSError) -> ExportError:
    """The error of a failed write of ``p``: :class:`OutputIOError` for a failure of the environment (disk full,
    I/O error: :data:`symbolic_ti.errors.IO_ERRNOS`), else :class:`ExportError` (the path's fault)."""
    cls = OutputIOError if err.errno in IO_ERRNOS else ExportError
    return cls(f"cannot write {str(p)!r}: {err.strerror or err}")


def _no_new_file(p: Path, directory: Path, err: OSError) -> str:
    """Why ``p`` cannot be written: its directory takes no new file (``/proc``), which the atomic write needs."""
    why = "" if err.errno == errno.ENOENT else f" ({err.strerror or err})"  # /proc: ENOENT for a directory that exists
    return (f"cannot write {str(p)!r}: directory {str(directory)!r} does not accept new files{why}; the file is "
            f"written beside its destination, then renamed")


def _missing_directory(directory: Path) -> str:
    """Why ``directory`` (not a directory) cannot hold a file: it, or the nearest existing folder above it, is
    a file or a device (``/dev/null/x.json``), or it does not exist."""
    for d in (directory, *directory.parents):
        if d.exists() or d.is_symlink():
            if d.is_dir():
                break
            return f"{str(d)!r} is not a directory"
    return f"directory {str(directory)!r} does not exist"


def _new_file_mode(existing: Path) -> int:
    """Permissions for the result: those of the file it replaces, else ``0o666`` less the umask."""
    try:
        return existing.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomic(path: str | os.PathLike[str], text: str | bytes | Iterable[str | bytes],
                 encoding: str = "utf-8") -> None:
    """Write ``text`` (or bytes, e.g. a PNG) to ``path`` atomically: all of it, or nothing changes.

    Parameters
    ----------
    path : str or path-like
        Destination file. An existing file is replaced only once the new content is completely on disk. A
        symbolic link is followed (the link stays, its target is replaced); a device or FIFO such as
        ``/dev/null`` is written into directly, since it cannot be replaced.
    text : str, bytes, or an iterable of str or bytes
        Content to write; bytes are written as they are. An iterable (e.g. a generator of JSON chunks) is
        written chunk by chunk to the temporary file as it is produced (streaming: the whole content is never
        held in memory), still atomically.
    encoding : str
        Text encoding, UTF-8 by default.

    Raises
    ------
    ExportError
        If the directory does not exist or is not writable, ``path`` is a directory, or writing fails (permission);
        the message names the path. :class:`~symbolic_ti.errors.OutputIOError` (a subclass) where the operating
        system fails the write (disk full, I/O error). On any exception, including KeyboardInterrupt, the
        temporary file is removed and an existing ``path`` keeps its content.
    """
    chunks: Iterable[str | bytes] = [text] if isinstance(text, (str, bytes)) else text
    p = Path(path)
    if p.is_symlink():
        p = Path(os.path.realpath(p))  # write through the link, keep the link
    if p.exists() and not p.is_file() and not p.is_dir():  # a device or FIFO: cannot be replaced, write into it
        try:
            with open(p, "wb") as fh:
                for c in chunks:
                    fh.write(c if isinstance(c, bytes) else c.encode(encoding))
        except OSError as err:
            raise _write_error(p, err) from None
        return
    p = check_writable(p)
    mode = _new_file_mode(p)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    except OSError as err:  # a full disk is the environment's fault (exit 74), a directory like /proc the path's
        raise (_write_error(p, err) if err.errno in IO_ERRNOS else ExportError(_no_new_file(p, p.parent, err))) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            for c in chunks:
                fh.write(c if isinstance(c, bytes) else c.encode(encoding))
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, p)
    except BaseException as err:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(err, OSError):
            raise _write_error(p, err) from None
        raise
