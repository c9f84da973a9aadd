#!/usr/bin/env python3
"""Pictures of tdcone results, for people who would rather look than read.

    scripts/plot.py RESULT.h5 --output FILE.png [--kind KIND] [--log-count] [--force]

draws what the file holds (--kind auto, the default, picks the most specific
group present: curve, balance, labels, selection, sweep, lengths, shards,
then pairs):

  curve      TD-CONE against sample size (score or sweep --at-sizes: /curves),
             a line per table row (shards by their files, label combinations,
             thresholds t=..., length buckets, the corpus) with its 95% band
             over the replicates, on a logarithmic size axis (the pairs each
             sample held: a subset smaller than a size asked is drawn once,
             at its own size, as an open mark); TD-CONE_REL in a second
             panel with a reference
  balance    a label-balanced subset (tdcone balance: /combinations, /balance):
             a row per label combination, its pairs before and after as bars
             (written right), the target as a mark, under-represented ones
             hatched; the labels' names, the mode, the lines kept and the std
             of the combination shares before -> after in the title
  labels     TD-CONE of each label combination (score --by-label: /labels) as
             bars, value and pair count written right, joint combinations
             (titled by the labels' names) and marginal rows (a `*` in the
             label) in two panels, the corpus TD-CONE dashed; TD-CONE_REL
             beside it when the run had a reference

  pairs      histogram of the pair TD-CONE (/pairs/tdcone; bad lines and NaN
             left out and counted), the corpus TD-CONE and the 10/50/90th
             percentiles marked; --log-count for a logarithmic count axis
  selection  the cross-entropy H_n of REPR against n, the number of lines
             selected (/selection), H_0 and stop_rank marked (with --stop:
             the lines kept)
  sweep      TD-CONE, TD-CONE_REL (with --reference) and the subset sizes
             against the threshold (/sweep: of the score, or of --sweep-by);
             the best threshold marked:
             the lowest TD-CONE_REL with a reference, else the lowest TD-CONE,
             unless the subsets' sizes differ more than 2x (TD-CONE depends on
             size: a note says so and how to compare at one size)
  lengths    per bucket of input lengths (score --length-buckets: /lengths):
             TD-CONE above, BLEU and unigram precision below, each bucket's
             pairs written on its bar, the corpus values dashed
  shards     a row per shard (/shards), named by its input file (score
             --shard-by file) else `shard i`, with its pairs: TD-CONE and
             TD-CONE_REL on zoomed axes, the values written right, the corpus
             value and the best shard (same rules as the sweep) marked
  diversity  histograms of the pairs' BLEU against their input and of their
             length ratio (/pairs bleu, len_ratio; NaN and inf left out and
             counted), the corpus BLEU and the median ratio marked
  duplicates (score --dedup; only when asked: --kind duplicates) the sizes of
             the source groups (src_group_size: how many pairs share one
             input side, each group counted once) and of the groups of
             copies of a pair (dup_of), counts on a logarithmic axis (sizes
             too when they span more than 60); the duplicates, the largest
             source group and the --dedup key in the titles

With replicates (score or sweep --sample N|auto --replicates R: /intervals),
sweep, shards, labels and lengths draw each row's mean over the replicates
with its 95% interval (2.5-97.5 %: error bars, a band around the sweep's
line; TD-CONE_REL gets its own zoomed panel in lengths), the corpus sampled
alike (dashed, its interval shaded) and each row's p_best (the share of
replicates in which it was lowest) beside it. A row is marked best only when
it is clearly best: its interval of the ranked metric (/intervals ranked_by:
TD-CONE_REL with a reference, else TD-CONE) lies wholly below every other
row's and every row had a full sample (n_sampled = the sample); label rows
are compared within their kind (joint combinations, `x|*`, `*|y`), as
p_best is. Else a note under the file's name says "no clear best" with the
rows most often best: "no clear best: t=0.83 (p_best 0.55), t=1.0 (0.40)".

A score run with --shards holds pairs and shards: auto draws the shards,
--kind pairs the histogram. auto never picks diversity or duplicates: ask for them. The old form `plot.py RESULT.h5 FILE.png` works too.
--describe prints what was drawn as one line of JSON after the picture's
name (for tests and scripts): the kind, the notes, and with replicates the
rows, their intervals and means per metric, p_best and the best row.

Uses Debian's python3-matplotlib, python3-h5py and python3-numpy
(scripts/install-deps.sh); run by a python3 without them, it starts again
under /usr/bin/python3 (scripts/_tdcone_py.py). Files written with
--compression zstd need HDF5_PLUGIN_PATH (this checkout's build/plugins is
found).
"""
import argparse
import json
import math
import os
import sys
import textwrap

import _tdcone_output
import _tdcone_py

_tdcone_py.setup("plot", ("h5py", "numpy", "matplotlib"), program=__name__ == "__main__")

import h5py  # noqa: E402
import matplotlib  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from _plot_common import legend_outside, run_config, text  # noqa: E402
from _plot_curves import plot_curve  # noqa: E402
from _plot_tables import plot_balance, plot_labels, plot_lengths, plot_shards, plot_sweep  # noqa: E402

KINDS = ("curve", "balance", "labels", "selection", "sweep", "lengths", "shards", "pairs", "diversity", "duplicates")
# (most specific first; diversity and duplicates after pairs: a score file still draws its pair histogram unless asked)
# The group and dataset that make each kind drawable (a score --by-label file also has /pairs).
TABLES = {"curve": ("curves", _tdcone_py.column("curves", "mean")),
          "balance": ("combinations", _tdcone_py.column("combinations", "combination")),
          "labels": ("labels", _tdcone_py.column("labels", "tdcone")),
          "selection": ("selection", _tdcone_py.column("selection", "cross_entropy")),
          "diversity": ("pairs", _tdcone_py.column("pairs", "bleu")),
          "duplicates": ("pairs", _tdcone_py.column("pairs", "src_group_size"))}
BAD_LINE, JUNK, IN_SEED = (_tdcone_py.FLAGS[name] for name in ("bad_line", "junk", "in_seed"))


def kinds_in(f):
    """The kinds of picture the file can give, most specific first."""
    found = []
    for kind in KINDS:
        name, column = TABLES.get(kind, (kind, "tdcone"))
        group = f.get(name)
        if isinstance(group, h5py.Group) and column in group:
            found.append(kind)
    return found


def plot_pairs(f, fig, args):
    pairs = f["pairs"]
    t = pairs["tdcone"][()]
    flags = pairs["flags"][()] if "flags" in pairs else np.zeros(len(t), np.uint8)
    good = np.isfinite(t) & ((flags & BAD_LINE) == 0)
    values = t[good]
    left_out = len(t) - len(values)
    ax = fig.add_subplot(1, 1, 1)
    if len(values) == 0:
        sys.exit(f"plot: {args.hdf5}: no pair has a TD-CONE (all {len(t)} are bad or NaN)")
    ax.hist(values, bins=args.bins, color="tab:blue", alpha=0.75, label=f"{len(values):,} pairs")
    if args.log_count:
        ax.set_yscale("log")
    corpus = f["corpus"].attrs if "corpus" in f else {}
    if "tdcone" in corpus and math.isfinite(corpus["tdcone"]):
        c = float(corpus["tdcone"])
        ax.axvline(c, color="tab:red", linewidth=2, label=f"corpus TD-CONE {c:.4f}")
    styles = {10: ":", 50: "--", 90: "-."}
    for q, value in zip((10, 50, 90), np.percentile(values, [10, 50, 90])):
        ax.axvline(value, color="black", linestyle=styles[q], linewidth=1.2, label=f"{q}th percentile {value:.4f}")
        ax.annotate(f"p{q}", (value, 1.0), xycoords=("data", "axes fraction"), xytext=(2, -12),
                    textcoords="offset points", fontsize=8)
    ax.set_xlabel("pair TD-CONE  (H(Y|X) / ln(|V_y|+1) of the pair alone; no unit)")
    ax.set_ylabel("pairs" + (" (log scale)" if args.log_count else ""))
    legend_outside(ax)
    note = f"{left_out:,} bad or NaN left out" if left_out else "no pair left out"
    ax.set_title(f"Pair TD-CONE: {len(values):,} of {len(t):,} pairs ({note})", fontsize=10)


def plot_diversity(f, fig, args):
    pairs = f["pairs"]
    flags = pairs["flags"][()]
    scored = (flags & BAD_LINE) == 0
    corpus = f["corpus"].attrs if "corpus" in f else {}
    left, right = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    bleu = pairs["bleu"][()][scored]
    shown = bleu[np.isfinite(bleu)]
    left.hist(shown, bins=args.bins, range=(0, 1), color="tab:green", alpha=0.75, label=f"{len(shown):,} pairs")
    if "bleu" in corpus and math.isfinite(corpus["bleu"]):
        left.axvline(float(corpus["bleu"]), color="tab:red", linewidth=2, label=f"corpus BLEU {float(corpus['bleu']):.4f}")
    left.set_xlabel("pair BLEU of the output against its input (no brevity penalty)")
    left.set_ylabel("pairs" + (" (log scale)" if args.log_count else ""))
    left.set_title(f"BLEU: {len(bleu) - len(shown):,} empty outputs (NaN) left out", fontsize=10)
    ratio = pairs["len_ratio"][()][scored]
    finite = ratio[np.isfinite(ratio)]
    one_empty = int(np.isinf(ratio).sum())
    top = max(2.0, float(np.percentile(finite, 99))) if len(finite) else 2.0
    right.hist(np.minimum(finite, top), bins=args.bins, range=(1, top), color="tab:purple", alpha=0.75,
               label=f"{len(finite):,} pairs")
    if len(finite):
        median = float(np.median(finite))
        right.axvline(median, color="black", linestyle="--", linewidth=1.2, label=f"median {median:.2f}")
    right.set_xlabel(f"length ratio: longer side's tokens / shorter's (the last bin: {top:.1f} and more)")
    right.set_ylabel("pairs" + (" (log scale)" if args.log_count else ""))
    right.set_title(f"Length ratio: {one_empty:,} with one side empty (inf), "
                    f"{len(ratio) - len(finite) - one_empty:,} with both (NaN) left out", fontsize=10)
    for ax in (left, right):
        if args.log_count:
            ax.set_yscale("log")
        ax.legend(fontsize=8, loc="upper right")


def group_size_histogram(ax, sizes, what, color, legend):
    """Groups by their size: a bar per size when there are up to 60 sizes from the smallest to the largest, else
    bins of whole sizes on a logarithmic axis."""
    low, top = int(sizes.min()), int(sizes.max())
    if top - low < 60:
        edges = np.arange(low, top + 2) - 0.5
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    else:
        edges = np.unique(np.round(np.geomspace(low, top + 1, 40)).astype(int))
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:,.0f}"))
    ax.hist(sizes, bins=edges, color=color, alpha=0.8, label=f"{len(sizes):,} {legend}; the largest: {top:,}")
    ax.set_yscale("log")
    ax.set_ylabel(f"{what} (log scale)")
    ax.legend(fontsize=8, loc="best")


def plot_duplicates(f, fig, args):
    pairs = f["pairs"]
    pair_id = pairs["pair_id"][()]
    good = (pairs["flags"][()] & BAD_LINE) == 0
    group, size, dup_of = pairs["src_group"][()], pairs["src_group_size"][()], pairs["dup_of"][()]
    if not good.any():
        sys.exit(f"plot: {args.hdf5}: every line is a bad line: no groups")
    mode = run_config(f).get("dedup", "?")
    firsts = good & (group == pair_id)  # a source group counted once, at its first pair
    ax = fig.add_subplot(1, 2, 1)
    group_size_histogram(ax, size[firsts], "source groups", "tab:blue", "source groups (distinct input sides)")
    ax.set_xlabel("pairs with the same input side (src_group_size)")
    largest = int(np.flatnonzero(firsts)[np.argmax(size[firsts])])
    ax.set_title(f"One input side, n candidates: largest {int(size[largest]):,} (src_group {int(pair_id[largest])})",
                 fontsize=10)
    copies = np.unique(dup_of[good], return_counts=True)[1]
    ax = fig.add_subplot(1, 2, 2)
    n_duplicates = int(f["corpus"].attrs.get("n_duplicates", (copies - 1).sum()))
    if (copies > 1).any():
        group_size_histogram(ax, copies[copies > 1], "pairs with copies", "tab:orange", "pairs with copies")
    else:
        ax.text(0.5, 0.5, f"no pair has a copy ({len(copies):,} distinct pairs)", ha="center", va="center",
                transform=ax.transAxes)
    ax.set_title(f"Copies of a pair (--dedup {mode}): {n_duplicates:,} later copies flagged duplicate", fontsize=10)
    ax.set_xlabel("copies of one pair, the first included (pairs with the same dup_of)")


def plot_selection(f, fig, args):
    s = f["selection"]
    h = s["cross_entropy"][()]
    flags = s["flags"][()]
    ranked = np.isfinite(h)
    h = h[ranked]
    n = np.arange(1, len(h) + 1)
    h0 = float(s.attrs["h_initial"])
    stop = int(s.attrs.get("stop_rank", 0))
    ax = fig.add_subplot(1, 1, 1)
    # A stop far to the left of a long curve is only visible on a logarithmic n axis.
    log_x = args.log_x or (args.log_x is None and len(h) > 0 and 0 < stop < 0.1 * len(h))
    ax.plot(n, h, color="tab:blue", linewidth=1.2, label="H_n (cross-entropy of REPR)")
    ax.axhline(h0, color="gray", linestyle="--", linewidth=1, label=f"H_0 = {h0:.4f} nats (SEED only)")
    if not log_x:
        ax.plot([0], [h0], "o", color="gray")
    stopped = run_config(f).get("stop") == "true"  # --stop: only the lines up to stop_rank selected
    if stop > 0:
        hs = float(h[stop - 1])
        kept = f"\n--stop: the first {stop:,} lines kept" if stopped else ""
        ax.axvline(stop, color="tab:red", linewidth=1.2, label=f"stop_rank = {stop:,} (H = {hs:.4f} nats){kept}")
        ax.plot([stop], [hs], "v", color="tab:red", markersize=9)
    if log_x:
        ax.set_xscale("log")
    ax.set_xlabel("n, lines selected" + (" (log scale)" if log_x else ""))
    ax.set_ylabel("H_n  (nats)")
    ax.grid(alpha=0.3)
    legend_outside(ax)
    in_seed = int(((flags & IN_SEED) != 0).sum())
    junk = int(((flags & (BAD_LINE | JUNK)) != 0).sum())
    parts = [f"{len(h):,} lines ranked"] + ([f"the first {stop:,} kept (--stop)"] if stopped else [])
    if in_seed:
        parts.append(f"{in_seed:,} already in the seed")
    if junk:
        parts.append(f"{junk:,} junk or bad")
    ax.set_title("Cynical selection: " + ", ".join(parts), fontsize=10)


PLOTS = {"curve": plot_curve, "balance": plot_balance, "labels": plot_labels, "pairs": plot_pairs, "selection": plot_selection,
         "diversity": plot_diversity, "lengths": plot_lengths,
         "sweep": plot_sweep, "shards": plot_shards, "duplicates": plot_duplicates}
SIZES = {"curve": (12, 5.5), "balance": (10, 5), "labels": (11, 6), "pairs": (10, 5), "selection": (10, 5), "sweep": (10, 8),
         "shards": (11, 6), "diversity": (13, 5), "lengths": (11, 7), "duplicates": (12, 5)}


def arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hdf5", help="a tdcone result (score, sweep or select output)")
    parser.add_argument("png", nargs="?", help=argparse.SUPPRESS)  # the old positional form
    parser.add_argument("-o", "--output", help="picture to write (.png; .svg and .pdf work too)")
    parser.add_argument("--kind", default="auto", choices=("auto",) + KINDS, help="what to draw (default: auto)")
    parser.add_argument("--log-count", action="store_true", help="pairs, diversity: logarithmic count axis")
    parser.add_argument("--log-x", dest="log_x", action="store_true", default=None,
                        help="selection: logarithmic n axis (default: when stop_rank is in the first 10%%)")
    parser.add_argument("--linear-x", dest="log_x", action="store_false", help="selection: linear n axis")
    parser.add_argument("--bins", type=int, default=60, help="pairs, diversity: histogram bins (default 60)")
    parser.add_argument("--force", action="store_true", help="replace an existing picture (never a symbolic link)")
    parser.add_argument("--describe", action="store_true",
                        help="also print what was drawn (rows, intervals, p_best, the best row, notes) as JSON")
    args = parser.parse_args(argv)
    if args.output and args.png:
        parser.error("give the picture once: --output FILE.png")
    args.output = args.output or args.png
    if not args.output:
        parser.error("--output FILE.png is required")
    folder = os.path.dirname(args.output)
    if folder and not os.path.isdir(folder):
        parser.error(f"--output {args.output}: no directory {folder} (create it first)")
    problem = _tdcone_output.output_problem(args.output, args.force)
    if problem:  # before the drawing; checked again when the picture is written
        parser.error(f"--output {problem}")
    return args


def figure(args):
    """The picture `args` (from arguments()) asks for, not saved: (figure, its kind, the other kinds in the file).
    Tests inspect its texts (plots_legible.sh)."""
    try:
        f = h5py.File(args.hdf5, "r")
    except OSError as error:
        sys.exit(f"plot: cannot read {args.hdf5}: {error}")
    with f:
        try:
            _tdcone_py.check_result(f, args.hdf5, "plot")  # its version, before what it holds
            found = kinds_in(f)
            if not found:
                sys.exit(f"plot: {args.hdf5} holds nothing to plot: no /pairs, /selection, /sweep or /shards table, "
                         f"nor /labels, /combinations or /curves (it has: {', '.join(f.keys()) or 'no groups'})")
            kind = found[0] if args.kind == "auto" else args.kind
            if kind not in found:
                table = {"duplicates": "duplicate columns (score --dedup)",
                         "curve": "/curves (score or sweep --at-sizes)"}.get(kind, f"/{kind}")
                sys.exit(f"plot: {args.hdf5} has no {table} to plot (it has: {', '.join(found)})")
            _tdcone_py.check_result(f, args.hdf5, "plot", TABLES.get(kind, (kind,))[0])
        except ValueError as error:
            sys.exit(str(error))
        fig = plt.figure(figsize=SIZES[kind])
        description = PLOTS[kind](f, fig, args) or {}
        command = text(f.attrs.get("command", "tdcone"))
        lines = f.attrs.get("n_lines")
        # Notes on the whole picture (a verdict, why no best is marked) under the file's name, where the
        # figure's full width holds them.
        width = int(fig.get_size_inches()[0] * 11)  # characters of 10 points a line
        notes = [textwrap.fill(note, width) for note in description.get("notes", [])]
        fig.suptitle("\n".join([f"tdcone {command}: {os.path.basename(args.hdf5)}"
                                + (f", {int(lines):,} input lines" if lines is not None else "")] + notes),
                     fontsize=11 if not notes else 10)
        fig.tight_layout()
        fig.tdcone_description = {"kind": kind, **description}
    return fig, kind, [k for k in found if k != kind]


def main(argv=None):
    args = arguments(argv)
    fig, kind, others = figure(args)
    # The format from the name, as savefig(name) would take it (png without one).
    extension = os.path.splitext(args.output)[1][1:].lower() or None
    try:
        with _tdcone_output.new_output(args.output, args.force, "plot") as file:
            fig.savefig(file, dpi=110, format=extension)
    except OSError as error:
        sys.exit(f"plot: cannot write {args.output}: {error.strerror or error}")
    print(f"plot: wrote {args.output} ({kind})" + (f"; also in the file: {', '.join(others)} (--kind)" if others else ""))
    if args.describe:
        print(json.dumps(fig.tdcone_description, allow_nan=False))


if __name__ == "__main__":
    main()
