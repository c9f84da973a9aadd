"""How scripts/plot.py and scripts/tdcone_frame.py write their output files, as
tdcone writes its own: never through a symbolic link, never over an existing
file unless asked (--force), and never a cut-off file under the final name.

The bytes go to a new temporary file in the output's folder (created with
O_CREAT | O_EXCL | O_NOFOLLOW, the permissions of any new file), which takes
the final name only once complete: by a hard link, which fails if anything
appeared there meanwhile, or, with --force, by a rename, which replaces a
regular file and never follows a link. Plain Python: no module beyond the
standard library.
"""
import contextlib
import os
import stat
import sys
import tempfile


def output_problem(path, force):
    """Why `path` may not be written ("" when it may): a symbolic link (never followed or replaced, --force or
    not), anything but a regular file, or an existing file without `force`."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return ""
    except OSError as error:
        return f"cannot check {path}: {error.strerror or error}"
    if stat.S_ISLNK(found.st_mode):
        return (f"{path} is a symbolic link, which is never followed or replaced"
                f"{' (not even with --force)' if force else ''}: remove it, or choose another file")
    if not stat.S_ISREG(found.st_mode):
        return f"{path} exists and is not a regular file: choose another file"
    if not force:
        return f"{path} exists: use --force to replace it, or choose another file"
    return ""


@contextlib.contextmanager
def new_output(path, force, name):
    """A binary file object to write `path` through (see the module's text). When the block ends without an
    error, the file takes the name `path`; on an error it is removed and the error goes on. A refused `path`
    ends the program with one line starting with `name`."""
    problem = output_problem(path, force)
    if problem:
        sys.exit(f"{name}: {problem}")
    folder = os.path.dirname(path) or "."
    try:
        # mkstemp opens with O_CREAT | O_EXCL | O_NOFOLLOW: a new file, in the output's folder.
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=os.path.basename(path) + ".partial-")
    except OSError as error:
        sys.exit(f"{name}: cannot create a file beside {path}: {error.strerror or error}")
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(descriptor, 0o666 & ~mask)  # mkstemp's 0600 would become the output's
        with os.fdopen(descriptor, "wb") as file:
            descriptor = None
            yield file
        problem = output_problem(path, force)
        if problem:
            sys.exit(f"{name}: {problem}")
        if force:
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)
            except FileExistsError:
                sys.exit(f"{name}: {path} appeared while it was written: it is left as it is")
            os.unlink(temporary)
        temporary = None
    finally:
        if descriptor is not None:
            os.close(descriptor)
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
