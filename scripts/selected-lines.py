#!/usr/bin/python3
"""Prints the AVAIL lines a `tdcone select` run kept (flags 0), verbatim and
in input order, so they can serve as the next run's --seed-corpus with the
same format options. Usage: selected-lines.py SELECTION.h5 > seed.tsv
The AVAIL files are the ones the run recorded (plain or zstd)."""
import subprocess
import sys

import h5py
import numpy as np

with h5py.File(sys.argv[1], "r") as f:
    inputs = f.attrs["inputs"]
    inputs = (inputs.decode() if isinstance(inputs, bytes) else inputs).splitlines()
    kept = np.sort(f["selection/pair_id"][()][f["selection/flags"][()] == 0])

out = sys.stdout.buffer
line_no, k = 0, 0
for path in inputs:
    with open(path, "rb") as probe:
        zstd = probe.read(4) == b"\x28\xb5\x2f\xfd"
    source = subprocess.Popen(["zstd", "-dc", path], stdout=subprocess.PIPE) if zstd else None
    stream = source.stdout if source else open(path, "rb")
    for line in stream:
        while k < len(kept) and kept[k] < line_no:
            k += 1
        if k < len(kept) and kept[k] == line_no:
            out.write(line if line.endswith(b"\n") else line + b"\n")
        line_no += 1
    stream.close()
    if source and source.wait() != 0:
        sys.exit(f"selected-lines: cannot decompress {path}")
