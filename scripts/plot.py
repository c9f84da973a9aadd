#!/usr/bin/env python3
"""Pictures of tdcone results, for people who would rather look than read.

    scripts/plot.py RESULT.h5 --output FILE.png [--kind KIND] [--log-count] [--force]

draws what the file holds (--kind auto, the default, picks the most specific
group present: balance, labels, selection, sweep, shards, then pairs):

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
             the lowest TD-CONE_REL with a reference, else the lowest TD-CONE
  lengths    per bucket of input lengths (score --length-buckets: /lengths):
             TD-CONE above, BLEU and unigram precision below, each bucket's
             pairs written on its bar, the corpus values dashed
  shards     a row per shard (/shards), named by its input file (score
             --shard-by file) else `shard i`, with its pairs: TD-CONE and
             TD-CONE_REL on zoomed axes, the values written right, the corpus
             value and the best shard (same rule as the sweep) marked
  diversity  histograms of the pairs' BLEU against their input and of their
             length ratio (/pairs bleu, len_ratio; NaN and inf left out and
             counted), the corpus BLEU and the median ratio marked
  duplicates (score --dedup; only when asked: --kind duplicates) the sizes of
             the source groups (src_group_size: how many pairs share one
             input side, each group counted once) and of the groups of
             copies of a pair (dup_of), counts on a logarithmic axis (sizes
             too when they span more than 60); the duplicates, the largest
             source group and the --dedup key in the titles

A score run with --shards holds pairs and shards: auto draws the shards,
--kind pairs the histogram. auto never picks diversity or duplicates: ask for them. The old form `plot.py RESULT.h5 FILE.png` works too.

Uses Debian's python3-matplotlib, python3-h5py and python3-numpy
(scripts/install-deps.sh); run by a python3 without them, it starts again
under /usr/bin/python3 (scripts/_tdcone_py.py). Files written with
--compression zstd need HDF5_PLUGIN_PATH (this checkout's build/plugins is
found).
"""
import argparse
import math
import os
import sys

import _tdcone_output
import _tdcone_py

_tdcone_py.setup("plot", ("h5py", "numpy", "matplotlib"), program=__name__ == "__main__")

import h5py  # noqa: E402
import matplotlib  # noqa: E402
import matplotlib.patches  # noqa: E402
import matplotlib.ticker  # noqa: E402
import matplotlib.transforms  # noqa: E402
import numpy as np  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

KINDS = ("balance", "labels", "selection", "sweep", "lengths", "shards", "pairs", "diversity", "duplicates")
# (most specific first; diversity and duplicates after pairs: a score file still draws its pair histogram unless asked)
# The group and dataset that make each kind drawable (a score --by-label file also has /pairs).
TABLES = {"balance": ("combinations", _tdcone_py.column("combinations", "combination")),
          "labels": ("labels", _tdcone_py.column("labels", "tdcone")),
          "selection": ("selection", _tdcone_py.column("selection", "cross_entropy")),
          "diversity": ("pairs", _tdcone_py.column("pairs", "bleu")),
          "duplicates": ("pairs", _tdcone_py.column("pairs", "src_group_size"))}
BAD_LINE, JUNK, IN_SEED = (_tdcone_py.FLAGS[name] for name in ("bad_line", "junk", "in_seed"))


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def run_config(f):
    """The run's options, from the root attribute config (TOML, one `key = value` a line), as text."""
    options = {}
    for line in text(f.attrs.get("config", "")).splitlines():
        key, equals, value = line.partition(" = ")
        if equals:
            options[key.strip()] = value.strip().strip("'\"")
    return options


def label_names(f):
    """The names of the labels, in order: the `labels` attribute (/balance: 'formality|arousal'), else
    the run's --label-names, --label-fields or colN of --label-cols (tdcone's defaults); [] unknown."""
    for group in ("labels", "combinations", "balance"):
        if isinstance(f.get(group), h5py.Group) and "labels" in f[group].attrs:
            return text(f[group].attrs["labels"]).split("|")
    options = run_config(f)
    for key in ("label-names", "label-fields"):
        if options.get(key):
            return options[key].split(",")
    return ["col" + column for column in options.get("label-cols", "").split(",") if column]


def kinds_in(f):
    """The kinds of picture the file can give, most specific first."""
    found = []
    for kind in KINDS:
        name, column = TABLES.get(kind, (kind, "tdcone"))
        group = f.get(name)
        if isinstance(group, h5py.Group) and column in group:
            found.append(kind)
    return found


def legend_outside(ax, **kw):
    """The legend right of the axes, where it hides no point, line or label."""
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, **kw)


def legend_below(ax, **kw):
    """The legend under the x axis label: the right of the axes holds the rows' notes (notes_right)."""
    below_label = matplotlib.transforms.offset_copy(ax.transAxes, fig=ax.figure, y=-30, units="points")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, 0), bbox_transform=below_label, frameon=False, **kw)


def empty_as_nan(table, n_pairs):
    """TD-CONE and TD-CONE_REL (None without a reference) of a table's rows; an
    empty subset has none (NaN; older tdcone versions stored 0 and 1.0)."""
    td = table["tdcone"][()].astype(float)
    rel = table["tdcone_rel"][()].astype(float) if "tdcone_rel" in table else None
    td[n_pairs == 0] = np.nan
    if rel is not None:
        rel[n_pairs == 0] = np.nan
    return td, rel


def best_of(values, rel):
    """Index of the best row: the lowest TD-CONE_REL with a reference, else the lowest TD-CONE (NaN never)."""
    column = rel if rel is not None else values
    finite = np.isfinite(column)
    if not finite.any():
        return None, ""
    index = int(np.flatnonzero(finite)[np.argmin(column[finite])])
    return index, ("lowest TD-CONE_REL" if rel is not None else "lowest TD-CONE")


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


def bucket_names(bounds):
    """'<= 5', '6-10', ..., '> 40' for max_src_len 5, 10, ..., 40 and the overflow bucket (u64 max)."""
    names, low = [], 0
    for i, bound in enumerate(bounds):
        if bound == np.iinfo(np.uint64).max:
            names.append(f"> {int(bounds[i - 1])}" if i else "all")
        else:
            names.append(f"<= {int(bound)}" if i == 0 else f"{low}-{int(bound)}")
            low = int(bound) + 1
    return names


def plot_lengths(f, fig, args):
    table = f["lengths"]
    n_pairs = table["n_pairs"][()]
    td, _ = empty_as_nan(table, n_pairs)
    names = bucket_names(table["max_src_len"][()])
    corpus = f["corpus"].attrs if "corpus" in f else {}
    x = np.arange(len(names))
    top, bottom = fig.add_subplot(2, 1, 1), fig.add_subplot(2, 1, 2)
    top.bar(x, np.nan_to_num(td), color="tab:blue", alpha=0.8, label="TD-CONE of the bucket")
    for i in range(len(names)):
        top.annotate(f"{int(n_pairs[i]):,} pairs" if n_pairs[i] else "empty", (x[i], 0), xytext=(0, 3),
                     textcoords="offset points", ha="center", fontsize=8, color="white" if n_pairs[i] else "black")
    if "tdcone" in corpus and math.isfinite(corpus["tdcone"]):
        top.axhline(float(corpus["tdcone"]), color="tab:red", linestyle="--", label=f"corpus {float(corpus['tdcone']):.4f}")
    top.set_ylabel("TD-CONE")
    top.set_title("TD-CONE by input length", fontsize=10)
    width = 0.4
    for offset, column, color, label in ((-width / 2, "bleu", "tab:green", "BLEU"),
                                         (width / 2, "unigram_precision", "tab:olive", "unigram precision")):
        values = table[column][()].astype(float)
        bottom.bar(x + offset, np.nan_to_num(values), width=width, color=color, alpha=0.8, label=label)
        if column in corpus and math.isfinite(corpus[column]):
            bottom.axhline(float(corpus[column]), color=color, linestyle="--", label=f"corpus {label} {float(corpus[column]):.4f}")
    bottom.set_ylabel("output against input")
    bottom.set_title("BLEU (no brevity penalty) and unigram precision by input length", fontsize=10)
    for ax in (top, bottom):
        ax.set_xticks(x)
        ax.set_xticklabels(names)
        ax.set_xlabel("input tokens (--length-buckets)")
        legend_outside(ax)


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


def plot_sweep(f, fig, args):
    s = f["sweep"]
    t = s["threshold"][()]
    n_pairs = s["n_pairs"][()]
    td, rel = empty_as_nan(s, n_pairs)
    n_sampled = s["n_sampled"][()] if "n_sampled" in s else n_pairs
    rows = 3 if rel is not None else 2
    axes = fig.subplots(rows, 1, sharex=True, gridspec_kw={"height_ratios": [3] * (rows - 1) + [2]})
    best, rule = best_of(td, rel)
    series = [("TD-CONE of S_t", td, "tab:blue", "o")]
    if rel is not None:
        series.append(("TD-CONE_REL(reference | S_t)", rel, "tab:red", "s"))
    skipped = [t[i] for i in range(len(t)) if not all(math.isfinite(v[i]) for _, v, _, _ in series)]
    for ax, (label, values, color, marker) in zip(axes, series):
        ok = np.isfinite(values)
        ax.plot(t[ok], values[ok], marker + "-", color=color, label=label)
        for x, y in zip(t[ok], values[ok]):
            ax.annotate(f"{y:.4f}", (x, y), xytext=(0, 6), textcoords="offset points", ha="center", fontsize=7)
        for x in t[~ok]:
            ax.annotate("empty\n(NaN)", (x, 0.05), xycoords=("data", "axes fraction"), ha="center", fontsize=8,
                        color="gray")
        ax.set_ylabel(label.split(" ")[0] + "  (no unit)")
        ax.margins(y=0.2)
        ax.grid(alpha=0.3)
        legend_outside(ax)
    width = 0.6 * (np.min(np.diff(np.unique(t))) if len(np.unique(t)) > 1 else 0.1)
    sizes = axes[-1]
    swept = f"{text(s.attrs.get('sweep_by', 'score'))} {text(s.attrs.get('direction', '>='))} t"  # older results: score
    sizes.bar(t, n_pairs, width=width, color="gray", alpha=0.5, label=f"|S_t| (pairs with {swept})")
    if (n_sampled != n_pairs).any():
        sizes.bar(t, n_sampled, width=width * 0.6, color="tab:green", alpha=0.7, label="sampled (--sample)")
    for x, y in zip(t, n_pairs):
        sizes.annotate(f"{int(y):,}", (x, y), xytext=(0, 2), textcoords="offset points", ha="center", fontsize=7)
    sizes.set_ylabel("pairs")
    sizes.set_ylim(0, max(1, n_pairs.max()) * 1.25)
    sizes.set_xlabel(f"{text(s.attrs.get('sweep_by', 'score'))} threshold t  (S_t = pairs with {swept})")
    legend_outside(sizes)
    if best is not None:
        value = (rel if rel is not None else td)[best]
        for i, ax in enumerate(axes):
            ax.axvline(t[best], color="tab:green", linewidth=1.5, alpha=0.8,
                       label=f"best: t = {t[best]:g}\n({rule}, {value:.4f})" if i == 0 else None)
        legend_outside(axes[0])
    title = f"Threshold sweep: {len(t)} thresholds"
    if skipped:
        title += f"; {len(skipped)} with an empty subset (NaN) skipped: t = " + ", ".join(f"{x:g}" for x in skipped)
    axes[0].set_title(title, fontsize=10)


def subset_series(f, table):
    """A table of subsets (/shards, /labels): n_pairs, TD-CONE and TD-CONE_REL
    (NaN when empty; None without a reference), /corpus's attributes, and the
    series to draw: (name, values, colour, /corpus key)."""
    n_pairs = table["n_pairs"][()]
    td, rel = empty_as_nan(table, n_pairs)
    corpus = f["corpus"].attrs if "corpus" in f else {}
    series = [("TD-CONE", td, "tab:blue", "tdcone")]
    if rel is not None:
        series.append(("TD-CONE_REL", rel, "tab:red", "tdcone_rel"))
    return n_pairs, td, rel, corpus, series


def fit_rows(fig, rows, extra):
    """The figure's height: `rows` rows of 9-point names (shards, label combinations, top down) and
    `extra` inches of titles, axis labels and legends; 16 rows or 60 stay legible."""
    fig.set_size_inches(fig.get_size_inches()[0], max(4.0, 0.27 * rows + extra))


def notes_right(ax, y, notes, colors=None):
    """Each row's note (its value, its counts) in a column right of the axes: never over a bar, a point,
    the corpus line or another note (tight_layout makes room for it)."""
    for yi, note, color in zip(y, notes, colors or ["black"] * len(notes)):
        ax.annotate(note, (1.0, yi), xycoords=("axes fraction", "data"), xytext=(4, 0), textcoords="offset points",
                    va="center", fontsize=8, color=color, annotation_clip=False)


def rows_top_down(ax, names):
    """The rows' names as y tick labels, the file's order top down."""
    ax.set_yticks(np.arange(len(names)))
    ax.set_yticklabels(names, fontsize=9)
    ax.set_ylim(len(names) - 0.5, -0.5)


def short_name(path, width=30):
    """A file's name without its directory; a long one keeps its start and end (the language, the side)."""
    name = os.path.basename(path.rstrip("/")) or path
    if len(name) <= width:
        return name
    keep = (width - 1) // 2
    return name[:keep] + "\u2026" + name[-(width - 1 - keep):]


def shard_name(files, i):
    """A shard's name: its input file (the column `file` of --shard-by file: paths joined by ', ' when the
    shard holds several), the first and how many more; else 'shard i'."""
    paths = [p for p in files.split(", ") if p]
    if not paths:
        return f"shard {int(i)}"
    return short_name(paths[0]) + (f" +{len(paths) - 1} more" if len(paths) > 1 else "")


def shard_names(s, k):
    files = strings(s["file"]) if "file" in s else [""] * len(k)
    return [shard_name(paths, i) for paths, i in zip(files, k)]


def plot_shards(f, fig, args):
    s = f["shards"]
    k = s["shard"][()]
    names = shard_names(s, k)
    n_pairs, td, rel, corpus, series = subset_series(f, s)
    fit_rows(fig, len(k), 2.4)
    axes = fig.subplots(1, len(series), squeeze=False, sharey=True)[0]
    best, rule = best_of(td, rel)
    y = np.arange(len(k))
    for ax, (label, values, color, key) in zip(axes, series):
        ok = np.isfinite(values)
        # Points on an axis zoomed to the values (bars from 0 would hide differences of 1%).
        ax.plot(values[ok], y[ok], "o", color=color, markersize=7, label=label + " of the shard")
        notes_right(ax, y, [f"{v:.5f}" if math.isfinite(v) else "empty (NaN)" for v in values],
                    ["black" if math.isfinite(v) else "gray" for v in values])
        if key in corpus and math.isfinite(corpus[key]):
            ax.axvline(float(corpus[key]), color="black", linestyle="--", linewidth=1,
                       label=f"whole corpus {float(corpus[key]):.5f}")
        if best is not None:
            ax.plot([values[best]], [y[best]], "*", color="gold", markeredgecolor="black", markersize=15,
                    label=f"best: {names[best]} ({rule})")
        finite = values[ok]
        if len(finite):
            lo, hi = float(finite.min()), float(finite.max())
            if key in corpus and math.isfinite(corpus[key]):
                lo, hi = min(lo, float(corpus[key])), max(hi, float(corpus[key]))
            pad = (hi - lo) * 0.08 or abs(hi) * 0.01 or 0.01
            ax.set_xlim(lo - pad, hi + pad)
        ax.set_xlabel(label + "  (no unit; axis zoomed, not from 0)")
        legend_below(ax)
        ax.grid(axis="x", alpha=0.3)
    rows_top_down(axes[0], [f"{name}  ({int(n):,} pairs)" for name, n in zip(names, n_pairs)])
    empty = int((~np.isfinite(td)).sum())
    by_file = " by input file" if "file" in s else ""
    axes[0].set_title(f"{len(k)} shards{by_file}" + (f", {empty} empty (NaN)" if empty else ""), fontsize=10)


def strings(dataset):
    """A string column (fixed-length UTF-8) as a list of str."""
    return [text(v) for v in dataset.asstr()[()]]


def plot_labels(f, fig, args):
    t = f["labels"]
    labels = strings(t["label"])
    names = label_names(f)
    n_pairs, td, rel, corpus, series = subset_series(f, t)
    marginal = np.array(["*" in label for label in labels], dtype=bool)
    joint = "|".join(names) if names else "label combination"
    panels = [(name, np.flatnonzero(rows)) for name, rows in
              ((joint, ~marginal), ("one label (* = any)", marginal)) if rows.any()]
    fit_rows(fig, len(labels), 0.9 * len(panels) + 0.6)
    axes = fig.subplots(len(panels), len(series), squeeze=False,
                        gridspec_kw={"height_ratios": [len(rows) + 1.5 for _, rows in panels]})
    for row, (panel, rows) in enumerate(panels):
        y = np.arange(len(rows))
        for col, (label, values, color, key) in enumerate(series):
            ax = axes[row][col]
            v = values[rows]
            ok = np.isfinite(v)
            ax.barh(y[ok], v[ok], color=color, alpha=0.75, height=0.6)
            top = np.nanmax(v) if ok.any() else 1.0
            notes_right(ax, y, [f"{value:.4f}  ({int(n):,} pairs)" if math.isfinite(value) else f"no pairs ({int(n):,})"
                                for value, n in zip(v, n_pairs[rows])],
                        ["black" if math.isfinite(value) else "gray" for value in v])
            title = f"{label} by {panel}"
            if key in corpus and math.isfinite(corpus[key]):  # named in the title: a legend would cover bars
                c = float(corpus[key])
                ax.axvline(c, color="black", linestyle="--", linewidth=1.2)
                title += f" (dashed: corpus {c:.4f})"
                top = max(top, c)
            ax.set_xlim(0, top * 1.05)
            rows_top_down(ax, [labels[i] for i in rows])
            if col > 0:
                ax.set_yticklabels([])  # the same rows as the first column's
            ax.grid(axis="x", alpha=0.3)
            ax.set_title(title, fontsize=10)
            if row == len(panels) - 1:
                ax.set_xlabel(label + "  (no unit)")


def plot_balance(f, fig, args):
    c = f["combinations"]
    names = strings(c["combination"])
    before, after, target = c["before"][()], c["after"][()], c["target"][()].astype(float)
    under = c["under_represented"][()].astype(bool) if "under_represented" in c else np.zeros(len(names), bool)
    attrs = f["balance"].attrs if "balance" in f else {}
    fit_rows(fig, len(names), 2.0)
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(len(names))
    height = 0.38
    hatch = ["//" if u else "" for u in under]
    ax.barh(y - height / 2, before, height, color="lightgray", edgecolor="black", hatch=hatch, label="before")
    ax.barh(y + height / 2, after, height, color="tab:blue", edgecolor="black", hatch=hatch, label="after")
    ax.plot(target, y + height / 2, "|", color="tab:red", markersize=13, markeredgewidth=2.5, label="target")
    notes_right(ax, y, [f"{int(b):,} \u2192 {int(a):,}" for b, a in zip(before, after)])
    handles, _ = ax.get_legend_handles_labels()
    if under.any():
        handles.append(matplotlib.patches.Patch(facecolor="white", edgecolor="black", hatch="//",
                                                label="under-represented"))
    rows_top_down(ax, names)
    ax.set_xlabel("pairs (before \u2192 after, right)")
    ax.set_xlim(0, max(1.0, float(np.nanmax(np.concatenate([before, after, target])))) * 1.02)
    ax.grid(axis="x", alpha=0.3)
    legend_below(ax, handles=handles, ncol=len(handles))
    labels = label_names(f)
    title = "Balance" + (f" of {'|'.join(labels)}" if labels else "")
    if "mode" in attrs:
        title += f" ({text(attrs['mode'])})"
    if "n_kept" in attrs and "n_labelled" in attrs:
        title += f": {int(attrs['n_kept']):,} of {int(attrs['n_labelled']):,} labelled lines kept"
    if "share_std_before" in attrs and "share_std_after" in attrs:
        title += (f"\nstd of combination shares {float(attrs['share_std_before']):.4f}"
                  f" \u2192 {float(attrs['share_std_after']):.4f}")
    ax.set_title(title, fontsize=10)


PLOTS = {"balance": plot_balance, "labels": plot_labels, "pairs": plot_pairs, "selection": plot_selection,
         "diversity": plot_diversity, "lengths": plot_lengths,
         "sweep": plot_sweep, "shards": plot_shards, "duplicates": plot_duplicates}
SIZES = {"balance": (10, 5), "labels": (11, 6), "pairs": (10, 5), "selection": (10, 5), "sweep": (10, 8),
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
                         f"nor /labels or /combinations (it has: {', '.join(f.keys()) or 'no groups'})")
            kind = found[0] if args.kind == "auto" else args.kind
            if kind not in found:
                table = "duplicate columns (score --dedup)" if kind == "duplicates" else f"/{kind}"
                sys.exit(f"plot: {args.hdf5} has no {table} to plot (it has: {', '.join(found)})")
            _tdcone_py.check_result(f, args.hdf5, "plot", TABLES.get(kind, (kind,))[0])
        except ValueError as error:
            sys.exit(str(error))
        fig = plt.figure(figsize=SIZES[kind])
        PLOTS[kind](f, fig, args)
        command = text(f.attrs.get("command", "tdcone"))
        lines = f.attrs.get("n_lines")
        fig.suptitle(f"tdcone {command}: {os.path.basename(args.hdf5)}"
                     + (f", {int(lines):,} input lines" if lines is not None else ""), fontsize=11)
        fig.tight_layout()
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


if __name__ == "__main__":
    main()
