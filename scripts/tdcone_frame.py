#!/usr/bin/env python3
"""tdcone results as pandas DataFrames, in one line.

    import sys; sys.path.insert(0, "scripts")   # or PYTHONPATH=scripts
    from tdcone_frame import read_frame

    pairs = read_frame("score.h5")                      # /pairs: pair_id, tdcone, rank, flags, ...
    sel = read_frame("sel.h5", "selection", text=True)  # /selection and each line's text
    pairs.attrs["command"], pairs.attrs["/corpus"]["tdcone"], sel.attrs["/selection"]["stop_rank"]

read_frame(path, group="pairs", text=False) returns one row per row of the
HDF5 group (/pairs, /selection, /sweep, /shards, /labels, ...), one column
per dataset, in the file's order. Strings are Python `str` whether the file
stores them as fixed-length bytes or variable-length UTF-8. `df.attrs` holds
the root attributes (command, config, n_lines, ...) and, under
"/NAME", each group's attributes (e.g. "/corpus", "/selection");
read_frame(path, "inputs") is the run's input files (path, size, lines, fingerprint).
FLAGS names the bits of the `flags` columns (FLAGS["bad_line"] == 1; all of
them, like every name of the file, in scripts/tdcone_schema.json):
pairs[(pairs.flags & FLAGS["bad_line"]) == 0] are the lines scored.

text=True adds the input text of each row: `src` and `tgt` (pairs) or `text`
(selection), exactly as `tdcone export PATH --group G --to jsonl --text`
writes them (a bad line's are None, and a `raw` column holds its line) (the reader settings and input files recorded in the run; a
moved or changed input is refused). The tdcone binary is $TDCONE, else
`tdcone` on PATH, else this checkout's build/tdcone. The join is by pair_id.

As a command: tdcone_frame.py RESULT.h5 [--group G] [--text] [--head N]
[--csv FILE [--force]] prints the frame's shape, attributes and first rows (or writes
it as CSV). Uses Debian's python3-h5py, python3-numpy and python3-pandas
(scripts/install-deps.sh); run as a program by a python3 without them, it
starts again under /usr/bin/python3 (scripts/_tdcone_py.py).
"""
import argparse
import io
import json
import os
import shutil
import subprocess
import sys

import _tdcone_output
import _tdcone_py

_tdcone_py.setup("tdcone_frame", ("h5py", "numpy", "pandas"), program=__name__ == "__main__")
_HERE = os.path.dirname(os.path.abspath(__file__))

import h5py  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

__all__ = ["read_frame", "tdcone_binary", "FLAGS"]

FLAGS = _tdcone_py.FLAGS

TEXT_COLUMNS = ("src", "tgt", "text", "raw")  # raw: a bad line's bytes (its src/tgt/text are None)


def _value(value):
    """An attribute as plain Python: bytes -> str, numpy scalars -> int/float, arrays -> lists."""
    if isinstance(value, (bytes, np.bytes_)):
        return bytes(value).decode("utf-8", errors="replace")
    if isinstance(value, np.ndarray):
        return [_value(v) for v in value.tolist()] if value.dtype.kind in "SOU" else value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _column(dataset):
    """A dataset as a 1-D array; strings (fixed-length or variable-length) as an object array of str."""
    data = dataset[()]
    if data.dtype.kind == "S":
        return np.array([bytes(v).decode("utf-8", errors="replace") for v in data], dtype=object)
    if data.dtype.kind == "O":
        return np.array([v.decode("utf-8", errors="replace") if isinstance(v, bytes) else str(v) for v in data],
                        dtype=object)
    return data


def tdcone_binary():
    """The tdcone executable: $TDCONE, else `tdcone` on PATH, else this checkout's build/tdcone."""
    for candidate in (os.environ.get("TDCONE"), shutil.which("tdcone"), os.path.join(_HERE, "..", "build", "tdcone")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.normpath(candidate)
    raise FileNotFoundError("tdcone_frame: no tdcone binary (set TDCONE, put tdcone on PATH, or build this checkout)")


def _texts(path, group, expected_ids):
    """The src/tgt/text columns of `tdcone export --to jsonl --text`, in the order of `expected_ids`."""
    command = [tdcone_binary(), "export", path, "--group", group, "--to", "jsonl", "--text"]
    run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if run.returncode != 0:
        raise RuntimeError(f"tdcone_frame: {' '.join(command)} failed ({run.returncode}): "
                           f"{run.stderr.decode(errors='replace').strip()}")
    ids, records = [], []
    for number, line in enumerate(run.stdout.decode("utf-8").split("\n")):
        if not line:
            continue
        record = json.loads(line)
        if "pair_id" not in record:
            raise RuntimeError(f"tdcone_frame: line {number + 1} of the export has no pair_id")
        ids.append(int(record["pair_id"]))
        records.append({key: record[key] for key in TEXT_COLUMNS if key in record})
    keys = [key for key in TEXT_COLUMNS if any(key in r for r in records)]
    columns = {key: [r.get(key) for r in records] for key in keys}
    if not columns:
        raise RuntimeError(f"tdcone_frame: the export of /{group} has no {'/'.join(TEXT_COLUMNS)} column")
    ids = np.asarray(ids, dtype=np.uint64)
    if len(ids) != len(expected_ids):
        raise RuntimeError(f"tdcone_frame: the export has {len(ids)} rows, /{group} has {len(expected_ids)}")
    if not np.array_equal(ids, expected_ids):  # another order: join by pair_id
        order = pd.Index(ids).get_indexer(expected_ids)
        if (order < 0).any() or len(np.unique(ids)) != len(ids):
            raise RuntimeError(f"tdcone_frame: the export's pair_ids are not those of /{group}")
        columns = {key: [values[i] for i in order] for key, values in columns.items()}
    return {key: pd.Series(values, dtype=object) for key, values in columns.items()}


def read_frame(path, group="pairs", text=False):
    """The rows of HDF5 group `group` of a tdcone result as a DataFrame (see the module's documentation).

    path: a tdcone result file. group: "pairs", "selection", "sweep", "shards", ... (a leading "/" is fine).
    text: also the input text of each row (src/tgt for pairs, text for a selection) through
    `tdcone export --to jsonl --text`. Raises KeyError for a group the file lacks, ValueError for a file
    that is not a tdcone result this checkout reads (a newer major tdcone_version, none, or a table that
    lacks a column tdcone writes).
    """
    group = group.strip("/")
    with h5py.File(path, "r") as f:
        _tdcone_py.check_result(f, path, "tdcone_frame", group)
        if group not in f or not isinstance(f[group], h5py.Group):
            have = [name for name in f if isinstance(f[name], h5py.Group)]
            raise KeyError(f"tdcone_frame: {path} has no /{group} (it has: {', '.join('/' + n for n in have)})")
        g = f[group]
        columns = {}
        for name, dataset in g.items():
            if isinstance(dataset, h5py.Dataset) and dataset.ndim == 1:
                columns[name] = _column(dataset)
        lengths = {len(v) for v in columns.values()}
        if len(lengths) > 1:
            raise ValueError(f"tdcone_frame: the columns of /{group} differ in length: "
                             + ", ".join(f"{k} {len(v)}" for k, v in columns.items()))
        frame = pd.DataFrame(columns)
        attrs = {key: _value(value) for key, value in f.attrs.items()}
        for name, item in f.items():
            if isinstance(item, h5py.Group) and len(item.attrs):
                attrs["/" + name] = {key: _value(value) for key, value in item.attrs.items()}
    frame.attrs.update(attrs)
    if text:
        if "pair_id" not in frame:
            raise ValueError(f"tdcone_frame: /{group} has no pair_id: no input text to join")
        for key, values in _texts(path, group, frame["pair_id"].to_numpy(dtype=np.uint64)).items():
            frame[key] = values.values
    return frame


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hdf5", help="a tdcone result file")
    parser.add_argument("--group", default="pairs", help="the group to read (default: pairs)")
    parser.add_argument("--text", action="store_true", help="join the input text (tdcone export --to jsonl --text)")
    parser.add_argument("--head", type=int, default=10, help="rows to print (default 10)")
    parser.add_argument("--csv", help="write the whole frame as CSV to this new file ('-': standard output)")
    parser.add_argument("--force", action="store_true", help="--csv: replace an existing file (never a symbolic link)")
    args = parser.parse_args(argv)
    problem = args.csv and args.csv != "-" and _tdcone_output.output_problem(args.csv, args.force)
    if problem:  # before the reading; checked again when the file is written
        parser.error(f"--csv {problem}")
    try:
        frame = read_frame(args.hdf5, args.group, text=args.text)
    except (KeyError, ValueError, RuntimeError, FileNotFoundError, OSError) as error:
        sys.exit(str(error.args[0]) if error.args else str(error))
    if args.csv:
        if args.csv == "-":
            frame.to_csv(sys.stdout, index=False)
            return
        try:
            with _tdcone_output.new_output(args.csv, args.force, "tdcone_frame") as file:
                text = io.TextIOWrapper(file, encoding="utf-8", newline="")
                frame.to_csv(text, index=False)
                text.detach()  # flushed; the file is closed by new_output
        except OSError as error:
            sys.exit(f"tdcone_frame: cannot write {args.csv}: {error.strerror or error}")
        return
    print(f"{args.hdf5} /{args.group}: {len(frame)} rows x {len(frame.columns)} columns")
    for key, value in frame.attrs.items():
        if key != "config":
            print(f"  {key}: {value}")
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print(frame.head(args.head).to_string())


if __name__ == "__main__":
    main()
