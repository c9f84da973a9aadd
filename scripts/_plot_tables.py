"""The pictures of scripts/plot.py of a table of subsets, a row each: the
sweep's thresholds, the shards, the label combinations, the length buckets and
a balance (plot.py's docstring says what each shows)."""
import math

import matplotlib.patches
import numpy as np

from _plot_common import (best_of, bucket_names, empty_as_nan, fit_rows, label_names, legend_below, legend_outside,
                          notes_right, rows_top_down, shard_names, size_caveat, strings, subset_series, text)


def plot_sweep(f, fig, args):
    s = f["sweep"]
    t = s["threshold"][()]
    n_pairs = s["n_pairs"][()]
    td, rel = empty_as_nan(s, n_pairs)
    n_sampled = s["n_sampled"][()] if "n_sampled" in s else n_pairs
    rows = 3 if rel is not None else 2
    axes = fig.subplots(rows, 1, sharex=True, gridspec_kw={"height_ratios": [3] * (rows - 1) + [2]})
    best, rule = best_of(td, rel)
    caveat = size_caveat(n_sampled, "subsets S_t")
    if caveat:
        best = None
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
    return {"notes": [caveat] if caveat else []}


def plot_shards(f, fig, args):
    s = f["shards"]
    k = s["shard"][()]
    names = shard_names(s, k)
    n_pairs, td, rel, corpus, series = subset_series(f, s)
    fit_rows(fig, len(k), 2.4)
    axes = fig.subplots(1, len(series), squeeze=False, sharey=True)[0]
    best, rule = best_of(td, rel)
    caveat = size_caveat(s["n_sampled"][()] if "n_sampled" in s else n_pairs, "shards")
    if caveat:
        best = None
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
    return {"notes": [caveat] if caveat else []}


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
