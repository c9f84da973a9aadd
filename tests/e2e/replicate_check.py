#!/usr/bin/python3
"""Replicates against an independent resampling (docs/spec.md §5 replicates).

For a choice of subsets and replicates of a score and a sweep result, picks
the pairs of replicate r from the documented hash alone (xxhash here, not
tdcone's code), scores exactly those lines in a separate tdcone run, and
checks that the run's TD-CONE and TD-CONE_REL equal the replicate's row of
/replicates to 1e-12 relative, and that n_sampled is the sample's size.
Usage: replicate_check.py TDCONE CORPUS REFERENCE SCORE_H5 SWEEP_H5 WORK
(CORPUS: one TSV, its score in column 3 and one label in column 6, as the
runs read it; SCORE_H5 from --shards --by-label --length-buckets 12,20.)"""
import os
import subprocess
import sys

import h5py
import numpy as np
import xxhash

BAD_LINE, NO_LABEL = 1, 16
GOLDEN = 0x9E3779B97F4A7C15


def replicate_seed(seed, r):
    return (seed + r * GOLDEN) % 2**64


def sample(members, size, seed, r):
    """The `size` members with the smallest (XXH3-64 of the pair_id's 8 little-endian bytes, pair_id)."""
    s = replicate_seed(seed, r)
    keyed = sorted((xxhash.xxh3_64_intdigest(int(p).to_bytes(8, "little"), seed=s), int(p)) for p in members)
    return sorted(p for _, p in keyed[:size])


def separate_run(tdcone, lines, pair_ids, reference, work, name):
    path = os.path.join(work, name + ".tsv")
    with open(path, "wb") as out:
        out.write(b"".join(lines[p] + b"\n" for p in pair_ids))
    result = os.path.join(work, name + ".h5")
    subprocess.run([tdcone, "score", "--input", path, "--score-col", "3", "--reference", reference, "--output", result,
                    "--force", "--progress-every", "0"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with h5py.File(result, "r") as f:
        return float(f["corpus"].attrs["tdcone"]), float(f["corpus"].attrs["tdcone_rel"]), int(f["corpus"].attrs["n_pairs"])


def replicate_row(f, table, row, r):
    rep = f["replicates"]
    where = np.flatnonzero((rep["table"][()].astype(str) == table) & (rep["row"][()] == row) & (rep["replicate"][()] == r))
    assert len(where) == 1, (table, row, r, where)
    k = where[0]
    return float(rep["tdcone"][k]), float(rep["tdcone_rel"][k]), int(rep["n_sampled"][k])


def main(tdcone, corpus, reference, score_h5, sweep_h5, work):
    with open(corpus, "rb") as f:
        lines = f.read().split(b"\n")
    problems, checked = [], 0

    def check(f, table, row, r, members):
        nonlocal checked
        seed, size = int(f["replicates"].attrs["seed"]), int(f["replicates"].attrs["sample"])
        chosen = sample(members, size, seed, r)
        expected = separate_run(tdcone, lines, chosen, reference, work, f"{table}-{row}-{r}")
        got = replicate_row(f, table, row, r)
        for what, e, g in zip(("tdcone", "tdcone_rel"), expected[:2], got[:2]):
            if abs(e - g) > 1e-12 * abs(e):
                problems.append(f"{table} row {row} replicate {r}: {what} {g!r} in the result, {e!r} alone")
        if got[2] != len(chosen) or expected[2] != len(chosen):
            problems.append(f"{table} row {row} replicate {r}: n_sampled {got[2]}, the hash picks {len(chosen)}")
        checked += 1

    with h5py.File(score_h5, "r") as f:
        pairs = f["pairs"]
        pair_id, flags = pairs["pair_id"][()], pairs["flags"][()]
        scored = (flags & BAD_LINE) == 0
        shard, src_len = pairs["shard"][()], pairs["src_len"][()]
        label = np.array([(line.split(b"\t") + [b""] * 6)[5].strip().decode() for line in lines[:len(pair_id)]])
        check(f, "corpus", 0, 0, pair_id[scored])
        check(f, "corpus", 0, 2, pair_id[scored])
        check(f, "shards", 1, 1, pair_id[scored & (shard == 1)])
        names = f["labels"]["label"][()].astype(str)
        labelled = scored & ((flags & NO_LABEL) == 0)
        check(f, "labels", 0, 2, pair_id[labelled & (label == names[0])])
        check(f, "lengths", 2, 0, pair_id[scored & (src_len > 20)])
        check(f, "lengths", 0, 1, pair_id[scored & (src_len <= 12)])
    with h5py.File(sweep_h5, "r") as f:
        pairs = f["pairs"]
        pair_id, flags, score = pairs["pair_id"][()], pairs["flags"][()], pairs["score"][()]
        thresholds = f["sweep"]["threshold"][()]
        scored = (flags & BAD_LINE) == 0
        for row, r in ((1, 0), (2, 2), (0, 1)):
            check(f, "sweep", row, r, pair_id[scored & (score >= thresholds[row])])
    for problem in problems:
        print("replicate_check:", problem, file=sys.stderr)
    print(f"replicate_check: {checked} replicates, {len(problems)} differ from a separate run on their pairs")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:7]))
