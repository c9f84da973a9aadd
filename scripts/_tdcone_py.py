"""What scripts/plot.py and scripts/tdcone_frame.py share before they import
h5py & co.: the HDF5 filter plugin of this checkout, and their modules found
or asked for in one clear line; the names of the result file, from the
generated scripts/tdcone_schema.json (SCHEMA, TABLES, FLAGS); and the check of
a result before they read it (check_result: its tdcone_version and the tables
they read).

A python3 first on PATH (pyenv, conda, a venv) often lacks h5py while
Debian's /usr/bin/python3 has it (scripts/install-deps.sh): run as a program,
a script then starts again under /usr/bin/python3; imported, or where that
one lacks the modules too, it stops with one line saying what to install.
"""
import importlib
import json
import os
import re
import signal
import subprocess
import sys

SYSTEM_PYTHON = "/usr/bin/python3"
# Set in the restarted process (so it never restarts again); set it to never restart.
NO_REEXEC = "TDCONE_NO_REEXEC"
DEBIAN = {"h5py": "python3-h5py", "numpy": "python3-numpy", "pandas": "python3-pandas",
          "matplotlib": "python3-matplotlib"}

_BUILD_PLUGINS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "plugins"))
# Files written with --compression zstd need the project's HDF5 filter plugin, known before h5py loads.
if "HDF5_PLUGIN_PATH" not in os.environ and os.path.isdir(_BUILD_PLUGINS):
    os.environ["HDF5_PLUGIN_PATH"] = _BUILD_PLUGINS


def _missing(modules):
    missing = []
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(module)
    return missing


def _system_python_has(modules):
    # Asked even when sys.executable is it: a venv's python3 is a link to it, with other modules.
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        return False
    check = "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m)"
    return subprocess.run([SYSTEM_PYTHON, "-c", check, *modules], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def setup(name, modules, program):
    """Makes sure `modules` import. `name` prefixes the message; `program`: the
    script runs as a program (__name__ == "__main__"): it may restart under
    /usr/bin/python3, and a closed pipe (| head) ends it quietly, as any Unix tool."""
    if program:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    missing = _missing(modules)
    if not missing:
        return
    system_has = _system_python_has(modules)
    if program and system_has and NO_REEXEC not in os.environ:
        os.environ[NO_REEXEC] = "1"
        os.execl(SYSTEM_PYTHON, SYSTEM_PYTHON, sys.argv[0], *sys.argv[1:])
    install = (f"apt-get install {' '.join(DEBIAN.get(m, 'python3-' + m) for m in missing)}"
               f" or pip install {' '.join(missing)}")
    fix = f"run it with {SYSTEM_PYTHON} (it has them), or {install}" if system_has else install
    sys.exit(f"{name}: {sys.executable} has no module {', '.join(missing)}: {fix}")


_CMAKE_LISTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "CMakeLists.txt")
# The rule of version_major in src/results/checks.cpp: MAJOR.MINOR[.PATCH...], then optionally -/+ and anything.
_VERSION = re.compile(r"([0-9]{1,9})\.[0-9]+(\.[0-9]+)*([-+].*)?")
# The names of the result file (groups, columns, attributes, flag bits), generated from the C++ schema
# (src/schema): build/tdcone_schema_json > scripts/tdcone_schema.json regenerates it.
_SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tdcone_schema.json")
try:
    with open(_SCHEMA_PATH, encoding="utf-8") as _schema_file:
        SCHEMA = json.load(_schema_file)
except (OSError, ValueError) as _error:
    sys.exit(f"{os.path.basename(sys.argv[0]) or 'python'}: cannot read the result schema {_SCHEMA_PATH}: {_error}")
# The columns tdcone always writes into each checked table, and who writes it: what check_result_table asks.
TABLES = {group["group"].strip("/"): (tuple(column["name"] for column in group["columns"]
                                            if column["presence"] == "required"), group["writer"])
          for group in SCHEMA["groups"] if group["checked"]}
# The stored type of every column of each checked table, by name.
COLUMN_TYPES = {group["group"].strip("/"): {column["name"]: column["type"] for column in group["columns"]}
                for group in SCHEMA["groups"] if group["checked"]}
# The tables of one row a line: n_lines rows (check_result_table).
_ONE_ROW_A_LINE = ("pairs", "balance", "selection")
# The numpy kinds each schema type may be stored as (f64: any number, as check_result_table reads it).
_KINDS = {"u8": "u", "u16": "u", "u32": "u", "u64": "u", "f64": "fiu", "string": "SOU"}
# The bits of every `flags` column, by name: FLAGS["bad_line"] == 1.
FLAGS = {flag["name"]: flag["value"] for flag in SCHEMA["flags"]}


def column(group, name):
    """`name`, a column of table `group` ("pairs") in the schema; KeyError if tdcone writes no such column."""
    for table in SCHEMA["groups"]:
        if table["group"] == "/" + group and any(c["name"] == name for c in table["columns"]):
            return name
    raise KeyError(f"the result schema has no column /{group}/{name}")


def build_version():
    """This checkout's version: the CMake project version, which tdcone writes as tdcone_version."""
    try:
        with open(_CMAKE_LISTS, encoding="utf-8") as lists:
            found = re.search(r"project\(tdcone\s+VERSION\s+([^\s)]+)", lists.read())
    except OSError as error:  # the script was copied out of its checkout
        raise ValueError(f"cannot tell this checkout's version: {error}") from None
    if not found:
        raise ValueError(f"no project(tdcone VERSION ...) in {os.path.normpath(_CMAKE_LISTS)}")
    return found.group(1)


def version_problem(version):
    """Why a result whose tdcone_version is `version` (None: none) is not read, or None: the rule of
    result_version_problem in src/results/checks.cpp."""
    if version is None:
        return "is an HDF5 file but not a tdcone result (no tdcone_version attribute on /)"
    if isinstance(version, bytes):
        version = version.decode("utf-8", errors="replace")
    match = _VERSION.fullmatch(str(version))
    if not match:
        return (f"has a tdcone_version attribute that is not a version ('{version}', not MAJOR.MINOR.PATCH): "
                "damaged, or not written by tdcone")
    ours = build_version()
    major, our_major = int(match.group(1)), int(_VERSION.fullmatch(ours).group(1))
    if major > our_major:
        return (f"was written by tdcone {version}, a newer major version than this tdcone {ours} reads "
                f"({our_major}.x and older): read it with tdcone {major}.x or newer")
    return None


def check_result(f, path, need, group=None):
    """Raises ValueError, one line naming `path` and what is wrong, unless the open h5py file `f` is a tdcone
    result this checkout reads and its table `group` ("pairs"; a table tdcone writes, which the file has) has
    every column tdcone writes into it, each column in its type and all of one length (n_lines in /pairs,
    /balance and /selection), as check_result_table. `need`: who reads it, for the message ("plot",
    "tdcone_frame")."""
    try:
        problem = version_problem(f.attrs.get("tdcone_version"))
    except ValueError as error:  # no version to compare with
        raise ValueError(f"{need}: cannot check {path}: {error}") from None
    if problem:
        raise ValueError(f"{need}: {path} {problem}")
    if group not in TABLES or group not in f:
        return
    columns, writer = TABLES[group]
    for column in columns:
        if column not in f[group]:
            raise ValueError(f"{need}: {path}: /{group} has no '{column}' column, which {need} needs ({writer} "
                             f"writes {', '.join(columns)}): a damaged, cut or hand-made file? rerun {writer}")
    # Each column in its type, all of one length (n_lines in a table of one row a line), before any is read.
    lines = f.attrs.get("n_lines") if group in _ONE_ROW_A_LINE else None
    lengths = {}
    for name, dataset in f[group].items():
        if not hasattr(dataset, "dtype"):
            continue
        expected = COLUMN_TYPES[group].get(name)
        if expected in _KINDS and dataset.dtype.kind not in _KINDS[expected]:
            raise ValueError(f"{need}: {path}: /{group}/{name} is stored as {dataset.dtype}, not {expected} as tdcone "
                             f"writes it: a damaged, cut or hand-made file? rerun {writer}")
        rows = dataset.shape[0] if dataset.shape else 1
        if lines is not None and rows != int(lines):
            raise ValueError(f"{need}: {path}: /{group}/{name} has {rows} rows, not one for each of the n_lines "
                             f"{int(lines)} lines the run read: a damaged, cut or hand-made file? rerun {writer}")
        lengths[name] = rows
    if len(set(lengths.values())) > 1:
        listing = ", ".join(f"{name} {rows}" for name, rows in lengths.items())
        raise ValueError(f"{need}: {path}: the columns of /{group} differ in length ({listing}): a damaged, cut or "
                         f"hand-made file? rerun {writer}")
