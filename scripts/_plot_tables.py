"""The pictures of scripts/plot.py of a table of subsets, a row each: the
sweep's thresholds, the shards, the label combinations, the length buckets and
a balance (plot.py's docstring says what each shows). With replicates
(/intervals) the first four draw each row's interval and call a row best only
when it is clearly best (_plot_intervals.py); each returns what it drew for
plot.py --describe."""
import math

import matplotlib.patches
import numpy as np

from _plot_common import (best_of, bucket_names, empty_as_nan, fit_rows, label_names, legend_below, legend_outside,
                          notes_right, rows_top_down, shard_names, size_caveat, strings, subset_series, text)
from _plot_intervals import error_bars, of_table, row_kinds


def sweep_points(ax, t, values, stats, style, p_best):
    """One panel of the sweep: the rows' values as a line (with intervals: their means, the band from lo to hi
    around them), each point's value written above it (and its p_best in the ranked metric's panel)."""
    label, color, marker = style
    if stats is None:
        shown = values
        ok = np.isfinite(shown)
        ax.plot(t[ok], shown[ok], marker + "-", color=color, label=label)
    else:
        shown, lo, hi = stats
        ok = np.isfinite(shown)
        ax.plot(t[ok], shown[ok], marker + "-", color=color, label=label + "\n(mean of the replicates)")
        ax.fill_between(t[ok], lo[ok], hi[ok], color=color, alpha=0.2, linewidth=0, label="95% interval")
    for i in np.flatnonzero(ok):
        note = f"{shown[i]:.4f}" + (f"\np_best {p_best[i]:.2f}" if p_best is not None else "")
        ax.annotate(note, (t[i], shown[i]), xytext=(0, 6), textcoords="offset points", ha="center", fontsize=7)
    return shown


def plot_sweep(f, fig, args):
    s = f["sweep"]
    t = s["threshold"][()]
    n_pairs = s["n_pairs"][()]
    td, rel = empty_as_nan(s, n_pairs)
    n_sampled = s["n_sampled"][()] if "n_sampled" in s else n_pairs
    rows = 3 if rel is not None else 2
    axes = fig.subplots(rows, 1, sharex=True, gridspec_kw={"height_ratios": [3] * (rows - 1) + [2]})
    names = [f"t={x:g}" for x in t]
    intervals = of_table(f, "sweep", names)
    if intervals is None:
        best, rule = best_of(td, rel)
        caveat = size_caveat(n_sampled, "subsets S_t")
        if caveat:
            best = None
        notes = [caveat] if caveat else []
    else:
        best, verdict = intervals.verdict()
        notes = [verdict]
    series = [("TD-CONE of S_t", td, "tab:blue", "o", "tdcone")]
    if rel is not None:
        series.append(("TD-CONE_REL(reference | S_t)", rel, "tab:red", "s", "tdcone_rel"))
    skipped = [t[i] for i in range(len(t)) if not all(math.isfinite(v[i]) for _, v, _, _, _ in series)]
    shown = {}
    for ax, (label, values, color, marker, key) in zip(axes, series):
        stats = intervals.get(key) if intervals else None
        ranked = intervals is not None and key == intervals.ranked_by
        shown[key] = sweep_points(ax, t, values, stats, (label, color, marker), intervals.p_best if ranked else None)
        for x in t[~np.isfinite(values)]:
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
        value = shown["tdcone_rel" if rel is not None else "tdcone"][best]
        if intervals is None:
            mark = f"best: t = {t[best]:g}\n({rule}, {value:.4f})"
        else:
            mark = (f"clearly best: t = {t[best]:g}\n(mean {intervals.ranked_name} {value:.4f};\n"
                    "its 95% interval lies\nbelow every other's)")
        for i, ax in enumerate(axes):
            ax.axvline(t[best], color="tab:green", linewidth=1.5, alpha=0.8, label=mark if i == 0 else None)
        legend_outside(axes[0])
    title = f"Threshold sweep: {len(t)} thresholds"
    if intervals is not None:
        title += f", {intervals.intervals.sampling()} each"
    if skipped:
        title += f"; {len(skipped)} with an empty subset (NaN) skipped: t = " + ", ".join(f"{x:g}" for x in skipped)
    axes[0].set_title(title, fontsize=10)
    if intervals is None:
        return {"notes": notes}
    return {"notes": notes, **intervals.describe(best, notes)}


def row_note(value, p_best=None, digits=5):
    if not math.isfinite(value):
        return "empty (NaN)"
    return f"{value:.{digits}f}" + (f"  p_best {p_best:.2f}" if p_best is not None else "")


def zoom(ax, spans):
    """The x axis zoomed to every finite value of `spans` (arrays or numbers), with a margin."""
    finite = np.concatenate([np.atleast_1d(np.asarray(v, dtype=float)) for v in spans])
    finite = finite[np.isfinite(finite)]
    if len(finite):
        lo, hi = float(finite.min()), float(finite.max())
        pad = (hi - lo) * 0.08 or abs(hi) * 0.01 or 0.01
        ax.set_xlim(lo - pad, hi + pad)


def plot_shards(f, fig, args):
    s = f["shards"]
    k = s["shard"][()]
    names = shard_names(s, k)
    n_pairs, td, rel, corpus, series = subset_series(f, s)
    fit_rows(fig, len(k), 2.4)
    axes = fig.subplots(1, len(series), squeeze=False, sharey=True)[0]
    intervals = of_table(f, "shards", names)
    if intervals is None:
        best, rule = best_of(td, rel)
        caveat = size_caveat(s["n_sampled"][()] if "n_sampled" in s else n_pairs, "shards")
        if caveat:
            best = None
        notes = [caveat] if caveat else []
    else:
        best, verdict = intervals.verdict()
        rule, notes = "its 95% interval below every other's", [verdict]
    y = np.arange(len(k))
    for ax, (label, values, color, key) in zip(axes, series):
        stats = intervals.get(key) if intervals else None
        if stats is None:
            shown, spans = values, [values]
            ok = np.isfinite(values)
            # Points on an axis zoomed to the values (bars from 0 would hide differences of 1%).
            ax.plot(values[ok], y[ok], "o", color=color, markersize=7, label=label + " of the shard")
            notes_right(ax, y, [row_note(v) for v in values], ["black" if math.isfinite(v) else "gray" for v in values])
        else:
            shown, lo, hi = stats
            spans = [lo, hi, shown]
            error_bars(ax, shown, lo, hi, y, True, color, label=f"{label} of the shard:\nmean, 95% interval", fmt="o",
                       markersize=7)
            p_best = intervals.p_best if key == intervals.ranked_by and intervals.p_best is not None else None
            notes_right(ax, y, [row_note(v, None if p_best is None else p_best[i]) for i, v in enumerate(shown)],
                        ["black" if math.isfinite(v) else "gray" for v in shown])
        spans += corpus_mark(ax, key, corpus, intervals if stats is not None else None, True, 5)[1]
        if best is not None:
            ax.plot([shown[best]], [y[best]], "*", color="gold", markeredgecolor="black", markersize=15,
                    label=f"best: {names[best]} ({rule})")
        zoom(ax, spans)
        ax.set_xlabel(label + "  (no unit; axis zoomed, not from 0)")
        legend_below(ax)
        ax.grid(axis="x", alpha=0.3)
    rows_top_down(axes[0], [f"{name}  ({int(n):,} pairs)" for name, n in zip(names, n_pairs)])
    empty = int((~np.isfinite(td)).sum())
    by_file = " by input file" if "file" in s else ""
    title = f"{len(k)} shards{by_file}" + (f", {empty} empty (NaN)" if empty else "")
    if intervals is not None:
        title += f"; {intervals.intervals.sampling()} a shard"
    axes[0].set_title(title, fontsize=10)
    if intervals is None:
        return {"notes": notes}
    return {"notes": notes, **intervals.describe(best, notes)}


def label_verdicts(intervals, labels, names):
    """The clearly best label row of each kind of row (the labels it fixes: 'formal|*' is compared with
    'casual|*', not with 'formal|calm'), as tdcone ranks them for p_best: (best rows, one line a kind)."""
    kinds = row_kinds(labels)
    best, lines = [], []
    for kind in dict.fromkeys(kinds):
        rows = [i for i, k in enumerate(kinds) if k == kind]
        if len(rows) < 2:
            continue
        row, line = intervals.verdict(rows)
        fixed = [name for name, part in zip(names, kind) if part == "v"] if len(names) == len(kind) else []
        lines.append(f"{intervals.ranked_name} by {'|'.join(fixed) or kind}: {line}")
        if row is not None:
            best.append(row)
    return best, lines


def corpus_mark(ax, key, corpus, intervals, legend, digits):
    """The corpus value as a dashed vertical line: with intervals the corpus sampled as the rows were (its mean,
    its 95% interval shaded: comparable with the rows), else its value over all pairs. Returns (the value, the
    x values to keep in view) or (None, [])."""
    if intervals is not None and key in intervals.corpus:
        mean, lo, hi = intervals.corpus[key]
        ax.axvline(mean, color="black", linestyle="--", linewidth=1 if legend else 1.2,
                   label=f"whole corpus sampled alike {mean:.{digits}f}" if legend else None)
        ax.axvspan(lo, hi, color="black", alpha=0.08, label="its 95% interval" if legend else None)
        return mean, [lo, hi]
    if key in corpus and math.isfinite(corpus[key]):
        value = float(corpus[key])
        ax.axvline(value, color="black", linestyle="--", linewidth=1 if legend else 1.2,
                   label=f"whole corpus {value:.{digits}f}" if legend else None)
        return value, [value]
    return None, []


def plot_labels(f, fig, args):
    t = f["labels"]
    labels = strings(t["label"])
    names = label_names(f)
    n_pairs, td, rel, corpus, series = subset_series(f, t)
    intervals = of_table(f, "labels", labels)
    best, notes = label_verdicts(intervals, labels, names) if intervals else ([], [])
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
            stats = intervals.get(key) if intervals else None
            v = values[rows] if stats is None else stats[0][rows]
            ok = np.isfinite(v)
            p_best = [None] * len(rows)
            if stats is None:
                ax.barh(y[ok], v[ok], color=color, alpha=0.75, height=0.6)
            else:  # points on a zoomed axis: bars from 0 would hide intervals of 1%
                error_bars(ax, v, stats[1][rows], stats[2][rows], y, True, color, fmt="o", markersize=7)
                if key == intervals.ranked_by and intervals.p_best is not None:
                    p_best = intervals.p_best[rows]
            notes_right(ax, y, [(f"{value:.4f}  ({int(n):,} pairs" + ("" if p is None else f", p_best {p:.2f}") + ")")
                                if math.isfinite(value) else f"no pairs ({int(n):,})"
                                for value, n, p in zip(v, n_pairs[rows], p_best)],
                        ["black" if math.isfinite(value) else "gray" for value in v])
            # The corpus named in the title: a legend would cover bars.
            c, spans = corpus_mark(ax, key, corpus, intervals if stats is not None else None, False, 4)
            title = f"{label} by {panel}" + (f" (dashed: corpus {c:.4f})" if c is not None else "")
            for i in best:
                if i in rows:
                    at = list(rows).index(i)
                    ax.plot([v[at]], [at], "*", color="gold", markeredgecolor="black", markersize=15)
            if stats is None:
                ax.set_xlim(0, max(np.nanmax(v) if ok.any() else 1.0, *spans) * 1.05)
            else:
                zoom(ax, [stats[1][rows], stats[2][rows], v] + spans)
            rows_top_down(ax, [labels[i] for i in rows])
            if col > 0:
                ax.set_yticklabels([])  # the same rows as the first column's
            ax.grid(axis="x", alpha=0.3)
            ax.set_title(title, fontsize=10)
            if row == len(panels) - 1:
                sampled = stats is not None and key in intervals.corpus
                ax.set_xlabel(label + ("  (no unit)" if stats is None else "  (mean, 95% interval; zoomed)"
                                       if not sampled else "  (zoomed; dashed: corpus sampled alike)"))
    if intervals is None:
        return {}
    return {"notes": notes, **intervals.describe(best, notes)}


def plot_lengths(f, fig, args):
    table = f["lengths"]
    n_pairs = table["n_pairs"][()]
    td, rel = empty_as_nan(table, n_pairs)
    names = bucket_names(table["max_src_len"][()])
    corpus = f["corpus"].attrs if "corpus" in f else {}
    intervals = of_table(f, "lengths", names)
    x = np.arange(len(names))
    middle = None
    if intervals is not None and intervals.get("tdcone_rel") is not None:  # TD-CONE_REL ranks the buckets
        fig.set_size_inches(fig.get_size_inches()[0], 9.5)
        top, middle, bottom = (fig.add_subplot(3, 1, i) for i in (1, 2, 3))
    else:
        top, bottom = fig.add_subplot(2, 1, 1), fig.add_subplot(2, 1, 2)
    best, verdict = intervals.verdict() if intervals else (None, None)
    notes = [verdict] if verdict else []
    stats = intervals.get("tdcone") if intervals else None
    shown = td if stats is None else stats[0]
    top.bar(x, np.nan_to_num(shown), color="tab:blue", alpha=0.8,
            label="TD-CONE of the bucket" if stats is None else "TD-CONE of the bucket:\nmean, 95% interval")
    if stats is not None:
        error_bars(top, *stats, x, False, "black")
    for i in range(len(names)):
        top.annotate(f"{int(n_pairs[i]):,} pairs" if n_pairs[i] else "empty", (x[i], 0), xytext=(0, 3),
                     textcoords="offset points", ha="center", fontsize=8, color="white" if n_pairs[i] else "black")
    if stats is not None and "tdcone" in intervals.corpus:
        mean, lo, hi = intervals.corpus["tdcone"]
        top.axhline(mean, color="tab:red", linestyle="--", label=f"corpus sampled alike {mean:.4f}")
        top.axhspan(lo, hi, color="tab:red", alpha=0.1, label="its 95% interval")
    elif "tdcone" in corpus and math.isfinite(corpus["tdcone"]):
        top.axhline(float(corpus["tdcone"]), color="tab:red", linestyle="--", label=f"corpus {float(corpus['tdcone']):.4f}")
    top.set_ylabel("TD-CONE")
    top.set_title("TD-CONE by input length" + (f", {intervals.intervals.sampling()} a bucket" if intervals else ""),
                  fontsize=10)
    if middle is not None:
        mean, lo, hi = intervals.get("tdcone_rel")
        error_bars(middle, mean, lo, hi, x, False, "tab:red", fmt="s", markersize=7,
                   label="TD-CONE_REL of the bucket:\nmean, 95% interval")
        if "tdcone_rel" in intervals.corpus:
            c, c_lo, c_hi = intervals.corpus["tdcone_rel"]
            middle.axhline(c, color="black", linestyle="--", linewidth=1, label=f"corpus sampled alike {c:.4f}")
            middle.axhspan(c_lo, c_hi, color="black", alpha=0.08, label="its 95% interval")
        middle.set_ylabel("TD-CONE_REL")
        middle.set_title("TD-CONE_REL(reference | bucket) by input length (axis zoomed, not from 0)", fontsize=10)
        middle.margins(y=0.25)
        middle.set_xlim(top.get_xlim())  # the buckets under the bars above
    ranked = middle if intervals is not None and intervals.ranked_by == "tdcone_rel" and middle is not None else top
    if intervals is not None and intervals.p_best is not None:
        r_mean, _, r_hi = intervals.get(intervals.ranked_by) or (shown, shown, shown)
        for i in np.flatnonzero(np.isfinite(r_hi)):
            ranked.annotate(f"p_best {intervals.p_best[i]:.2f}", (x[i], r_hi[i]), xytext=(0, 4),
                            textcoords="offset points", ha="center", fontsize=8)
        ranked.margins(y=0.25)
    if best is not None:
        for ax, key in ((top, "tdcone"), (middle, "tdcone_rel")):
            if ax is not None:
                ax.plot([x[best]], [intervals.get(key)[0][best]], "*", color="gold", markeredgecolor="black",
                        markersize=15, label=f"clearly best: {names[best]}")
    width = 0.4
    for offset, column, color, label in ((-width / 2, "bleu", "tab:green", "BLEU"),
                                         (width / 2, "unigram_precision", "tab:olive", "unigram precision")):
        values = table[column][()].astype(float)
        column_stats = intervals.get(column) if intervals else None
        if column_stats is not None:
            values = column_stats[0]
        bottom.bar(x + offset, np.nan_to_num(values), width=width, color=color, alpha=0.8, label=label)
        if column_stats is not None:
            error_bars(bottom, *column_stats, x + offset, False, "black")
        if column_stats is not None and column in intervals.corpus:
            mean = intervals.corpus[column][0]
            bottom.axhline(mean, color=color, linestyle="--", label=f"corpus {label} sampled alike {mean:.4f}")
        elif column in corpus and math.isfinite(corpus[column]):
            bottom.axhline(float(corpus[column]), color=color, linestyle="--", label=f"corpus {label} {float(corpus[column]):.4f}")
    bottom.set_ylabel("output against input")
    bottom.set_title("BLEU (no brevity penalty) and unigram precision by input length"
                     + (" (means, 95% intervals)" if intervals else ""), fontsize=10)
    for ax in (top, middle, bottom):
        if ax is None:
            continue
        ax.set_xticks(x)
        ax.set_xticklabels(names)
        ax.set_xlabel("input tokens (--length-buckets)")
        legend_outside(ax)
    if intervals is None:
        return {}
    return {"notes": notes, **intervals.describe(best, notes)}


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
