"""The curve picture of scripts/plot.py (score or sweep --at-sizes: /curves):
TD-CONE, and TD-CONE_REL with a reference, of each table row against the
number of pairs it was computed from, a line per row with its 95 % band over
the replicates, on a logarithmic size axis. TD-CONE depends on size: rows are
only compared where their curves are at one size."""
import sys

import matplotlib.ticker
import numpy as np

from _plot_common import bucket_names, shard_names, strings
from _plot_intervals import NAMES, plain

COLUMNS = ("table", "row", "size", "n_sampled", "metric", "mean", "lo", "hi")


def row_names(f, table, rows):
    """Each row's name as the table's own picture names it: shard files (or 'shard i'), label combinations,
    't=0.3' for a threshold, length ranges; 'corpus'; else '<table> <row>'."""
    group = f.get(table)
    try:
        if table == "corpus":
            return {row: "corpus" for row in rows}
        if table == "shards" and group is not None:
            names = shard_names(group, group["shard"][()])
        elif table == "labels" and group is not None:
            names = strings(group["label"])
        elif table == "sweep" and group is not None:
            names = [f"t={x:g}" for x in group["threshold"][()]]
        elif table == "lengths" and group is not None:
            names = bucket_names(group["max_src_len"][()])
        else:
            names = []
    except KeyError:  # a table without its naming column: numbered
        names = []
    return {row: names[row] if row < len(names) else f"{table} {row}" for row in rows}


def read_curves(f):
    """The columns of /curves, which plot.py has checked against the schema (every column, one length)."""
    group = f["curves"]
    return {c: (strings(group[c]) if c in ("table", "metric") else group[c][()]) for c in COLUMNS}, group.attrs


def plot_curve(f, fig, args):
    c, attrs = read_curves(f)
    tables, metrics = np.array(c["table"], dtype=object), np.array(c["metric"], dtype=object)
    row = c["row"].astype(np.int64)
    keys = list(dict.fromkeys(zip(c["table"], row.tolist())))  # the lines, in the file's order
    shown = [m for m in ("tdcone", "tdcone_rel") if m in set(c["metric"])]
    if not keys or not shown:
        sys.exit(f"plot: {args.hdf5}: /curves holds no TD-CONE or TD-CONE_REL rows to draw")
    several = len({table for table, _ in keys}) > 1
    names = {}
    for table in dict.fromkeys(t for t, _ in keys):
        for r, name in row_names(f, table, [r for t, r in keys if t == table]).items():
            names[(table, r)] = name if not several or table == "corpus" else f"{table}: {name}"
    colors = [f"C{i % 10}" for i in range(len(keys))]
    axes = fig.subplots(1, len(shown), squeeze=False)[0]
    described, capped_any = {}, False
    for ax, metric in zip(axes, shown):
        lines = described.setdefault(NAMES[metric], {})
        for key, color in zip(keys, colors):
            pick = np.flatnonzero((tables == key[0]) & (row == key[1]) & (metrics == metric))
            pick = pick[np.argsort(c["size"][pick], kind="stable")]
            sampled, asked = c["n_sampled"][pick].astype(float), c["size"][pick]
            mean, lo, hi = (c[name][pick].astype(float) for name in ("mean", "lo", "hi"))
            # Sizes above the subset's pairs all score the whole subset: drawn once, at its size.
            keep = np.isfinite(mean) & np.concatenate([[True], np.diff(sampled) > 0])
            x, mean, lo, hi, capped = sampled[keep], mean[keep], lo[keep], hi[keep], (sampled < asked)[keep]
            lines[names[key]] = {"sizes": [int(v) for v in x], "means": [plain(v) for v in mean],
                                 "intervals": [[plain(a), plain(b)] for a, b in zip(lo, hi)]}
            if not len(x):
                continue
            ax.plot(x, mean, "o-", color=color, markersize=4, label=names[key])
            ax.fill_between(x, lo, hi, color=color, alpha=0.15, linewidth=0)
            if capped.any():
                capped_any = True
                ax.plot(x[capped], mean[capped], "o", color=color, markerfacecolor="white", markersize=7)
        ax.set_xscale("log")
        asked = np.unique(c["size"])
        if len(asked) <= 12:  # the sizes asked for as ticks, in full: '1,000', not '10^3'
            ax.set_xticks(asked.astype(float))
            ax.set_xticklabels([f"{int(v):,}" for v in asked], fontsize=8)
        else:
            ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:,.0f}"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel("pairs a sample (log scale; --at-sizes)")
        ax.set_ylabel(NAMES[metric] + "  (no unit)")
        ax.grid(alpha=0.3)
        ax.set_title(f"{NAMES[metric]} against sample size: mean, 95% band", fontsize=10)
    handles, labels = axes[-1].get_legend_handles_labels()
    if capped_any:
        handles.append(axes[-1].plot([], [], "o", color="gray", markerfacecolor="white")[0])
        labels.append("open: the whole subset\n(fewer pairs than asked)")
    axes[-1].legend(handles, labels, fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    replicates = attrs.get("replicates")
    note = f"{len(keys)} row" + ("" if len(keys) == 1 else "s")
    if replicates is not None:
        note += f", {int(replicates)} replicates a size"
    return {"notes": [note], "rows": [names[k] for k in keys], "panels": [NAMES[m] for m in shown],
            "curves": described}
