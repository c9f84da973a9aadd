#!/usr/bin/python3
"""Compare two tdcone HDF5 results: same groups, datasets and attributes,
every value identical, floats to the bit (docs/spec.md §9: order-free accumulation,
so any rank count and any --memory budget give the same numbers).
Attributes that describe the run itself (n_ranks, created, config, phase
times, memory) or its input files (the group /inputs, or an older result's
attributes: paths, sizes, line counts, fingerprints; the same corpus as plain
and compressed files, or as TSV and JSONL, scores the same) are skipped."""
import sys

import h5py
import numpy as np

RUN_ATTRIBUTES = {"n_ranks", "created", "config", "inputs", "input_sizes", "input_lines", "input_fingerprints",
                  "peak_rss_bytes", "peak_rss_bytes_per_rank", "memory_budget_bytes"}


RUN_GROUPS = {"inputs"}


def is_run_attribute(key):
    return key in RUN_ATTRIBUTES or key.startswith("seconds_")


def is_run_object(name):
    return name.split("/")[0] in RUN_GROUPS


def identical(a, b):
    """Same shape, type and bytes: floats to the bit (-0.0 is not 0.0, NaN is NaN)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind in "biuf":
        return a.tobytes() == b.tobytes()
    return bool(np.all(a == b))


def main(left_path, right_path):
    problems = []
    with h5py.File(left_path, "r") as left, h5py.File(right_path, "r") as right:
        def visit(name, obj):
            if is_run_object(name):
                return
            if name not in right:
                problems.append(f"{name}: missing in {right_path}")
                return
            other = right[name]
            for key, value in obj.attrs.items():
                if is_run_attribute(key):
                    continue
                if key not in other.attrs or not identical(value, other.attrs[key]):
                    problems.append(f"{name}@{key}: {value!r} != {other.attrs.get(key)!r}")
            if isinstance(obj, h5py.Dataset):
                if obj.shape != other.shape or not identical(obj[()], other[()]):
                    problems.append(f"{name}: values differ")
        visit("/", left["/"])
        left.visititems(visit)
        right.visititems(lambda name, obj: name in left or is_run_object(name) or problems.append(f"{name}: missing in {left_path}"))
    for p in problems:
        print("DIFF", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
