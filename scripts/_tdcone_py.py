"""What scripts/plot.py and scripts/tdcone_frame.py share before they import
h5py & co.: the HDF5 filter plugin of this checkout, and their modules found
or asked for in one clear line.

A python3 first on PATH (pyenv, conda, a venv) often lacks h5py while
Debian's /usr/bin/python3 has it (scripts/install-deps.sh): run as a program,
a script then starts again under /usr/bin/python3; imported, or where that
one lacks the modules too, it stops with one line saying what to install.
"""
import importlib
import os
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
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, sys.argv[0]] + sys.argv[1:])
    install = (f"apt-get install {' '.join(DEBIAN.get(m, 'python3-' + m) for m in missing)}"
               f" or pip install {' '.join(missing)}")
    fix = f"run it with {SYSTEM_PYTHON} (it has them), or {install}" if system_has else install
    sys.exit(f"{name}: {sys.executable} has no module {', '.join(missing)}: {fix}")
