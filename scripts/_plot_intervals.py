"""Replicate intervals in the pictures of scripts/plot.py (score and sweep with
--sample N|auto --replicates R): each row's mean and 95 % interval from
/intervals, its p_best from its table, and the verdict: a row is called best
only when its interval of the ranked metric lies wholly below every other
row's and every row had a full sample, the rule of tdcone's own summary
(src/results/replicate_tables.cpp); else "no clear best" with the rows most
often best."""
import math

import numpy as np

from _plot_common import strings, text

NAMES = {"tdcone": "TD-CONE", "tdcone_rel": "TD-CONE_REL", "bleu": "BLEU", "unigram_precision": "unigram precision"}


class Intervals:
    """A result's /intervals, with /replicates' sample and replicates (None when absent)."""

    def __init__(self, f):
        group = f["intervals"]
        self.tables = strings(group["table"])
        self.metrics = strings(group["metric"])
        self.rows = group["row"][()].astype(np.int64)
        self.columns = {name: group[name][()].astype(float) for name in ("mean", "lo", "hi")}
        self.ranked_by = text(group.attrs.get("ranked_by", "tdcone"))
        replicates = f["replicates"].attrs if "replicates" in f else {}
        self.sample = int(replicates["sample"]) if "sample" in replicates else None
        self.replicates = int(replicates["replicates"]) if "replicates" in replicates else None

    def has(self, table):
        return table in self.tables

    def of(self, table, metric, rows):
        """(mean, lo, hi) of `metric` ("tdcone") for rows 0..rows-1 of `table` ("shards"), NaN where absent;
        None when /intervals has no such metric for the table."""
        picked = [i for i, (t, m) in enumerate(zip(self.tables, self.metrics)) if t == table and m == metric]
        if not picked:
            return None
        out = tuple(np.full(rows, np.nan) for _ in range(3))
        for i in picked:
            if 0 <= self.rows[i] < rows:
                for column, name in zip(out, ("mean", "lo", "hi")):
                    column[self.rows[i]] = self.columns[name][i]
        return out

    def sampling(self):
        """How the intervals came about, for a title: '10 replicates of 94 pairs'."""
        if self.replicates is None or self.sample is None:
            return "replicates"
        return f"{self.replicates} replicates of {self.sample:,} pair" + ("" if self.sample == 1 else "s")


def read(f, table):
    """The file's intervals when it has /intervals rows of `table`, else None (the picture stays as before)."""
    if "intervals" not in f:
        return None
    intervals = Intervals(f)
    return intervals if intervals.has(table) else None


def clear_best(mean, lo, hi):
    """The row whose interval lies wholly below every other row's (its hi under their lo), or None: the lowest
    mean is the candidate; rows without a mean (NaN: empty) take no part; fewer than two rows, no verdict."""
    mean, lo, hi = (np.asarray(a, dtype=float) for a in (mean, lo, hi))
    rows = np.flatnonzero(np.isfinite(mean))
    if len(rows) < 2:
        return None
    best = int(rows[np.argmin(mean[rows])])
    if all(hi[best] < lo[row] for row in rows if row != best):
        return best
    return None


def most_often_best(names, p_best, top=3):
    """'t=0.83 (p_best 0.55), t=1.0 (0.40)': the rows best in some replicate, most often first (at most `top`)."""
    p_best = np.asarray(p_best, dtype=float)
    order = [i for i in np.argsort(-np.nan_to_num(p_best, nan=-1), kind="stable") if p_best[i] > 0][:top]
    return ", ".join(f"{names[i]} ({'p_best ' if k == 0 else ''}{p_best[i]:.2f})" for k, i in enumerate(order))


def verdict(names, ranked, p_best, n_sampled, sample, metric):
    """(index of the clearly best row or None, one line saying so or why not). `ranked`: (mean, lo, hi) of the
    ranked metric; `n_sampled`: each row's pairs a replicate (None when the table has no such column): a row
    sampled whole, with fewer pairs than `sample`, blocks a verdict (no fair comparison); empty rows do not."""
    whole = []
    if n_sampled is not None and sample is not None:
        whole = [names[i] for i, n in enumerate(n_sampled) if 0 < int(n) < sample]
    best = None if whole else clear_best(*ranked)
    if best is not None:
        return best, f"clearly best: {names[best]} (its 95% interval of {metric} lies below every other's)"
    line = "no clear best"
    if p_best is not None:
        line += ": " + (most_often_best(names, p_best) or "no row has a value")
    if whole:
        line += f" ({', '.join(whole)} sampled whole: fewer pairs than a sample)"
    return None, line


def row_kinds(labels):
    """The kind of each /labels row, as tdcone ranks them (label_row_kinds): the labels it fixes, '*' where it
    leaves one free ('formal|*' and 'casual|*' are one kind, 'formal|calm' another)."""
    return ["".join("*" if part == "*" else "v" for part in label.split("|")) for label in labels]


def plain(value):
    """A number for JSON: NaN (an empty row) as None."""
    return float(value) if math.isfinite(value) else None


class TableIntervals:
    """What a table picture needs of the intervals: for each metric drawn, (mean, lo, hi) per row; p_best and
    n_sampled of the table; the verdict. Built by `of_table`, None without /intervals for the table."""

    def __init__(self, intervals, f, table, names):
        self.intervals = intervals
        self.table = table
        group = f[table]
        self.rows = len(names)
        self.names = names
        self.p_best = group["p_best"][()].astype(float) if "p_best" in group else None
        self.n_sampled = group["n_sampled"][()] if "n_sampled" in group else None
        self.ranked_by = intervals.ranked_by
        self.ranked_name = NAMES.get(self.ranked_by, self.ranked_by)
        self.stats = {}
        self.drawn = []  # the metrics whose intervals the picture asked for (get)
        for metric in NAMES:
            found = intervals.of(table, metric, self.rows)
            if found is not None:
                self.stats[metric] = found
        self.corpus = {}  # the whole corpus sampled alike: (mean, lo, hi) of each metric, when score sampled it
        for metric in NAMES:
            found = intervals.of("corpus", metric, 1)
            if found is not None and math.isfinite(found[0][0]):
                self.corpus[metric] = tuple(float(a[0]) for a in found)

    def get(self, metric):
        """(mean, lo, hi) of `metric` per row, to draw (None: not in /intervals); remembered as drawn."""
        if metric in self.stats:
            self.drawn.append(metric)
        return self.stats.get(metric)

    def verdict(self, rows=None):
        """(best row or None, the line) among `rows` (indices into the table; default all)."""
        rows = np.arange(self.rows) if rows is None else np.asarray(rows)
        ranked = self.stats.get(self.ranked_by)
        if ranked is None:
            return None, f"no intervals of {self.ranked_name}"
        best, line = verdict([self.names[i] for i in rows], tuple(a[rows] for a in ranked),
                             None if self.p_best is None else self.p_best[rows],
                             None if self.n_sampled is None else self.n_sampled[rows], self.intervals.sample,
                             self.ranked_name)
        return (None if best is None else int(rows[best])), line

    def describe(self, best, lines):
        """What plot.py --describe prints: the rows, the intervals and means drawn (per metric), p_best, the rows
        marked best (`best`: a row or a list of rows) and the verdict lines."""
        drawn = {NAMES[m]: self.stats[m] for m in dict.fromkeys(self.drawn)}
        best = [] if best is None else [best] if isinstance(best, (int, np.integer)) else list(best)
        return {"table": self.table, "rows": self.names, "ranked_by": self.ranked_name,
                "replicates": self.intervals.replicates, "sample": self.intervals.sample,
                "intervals": {name: [[plain(a), plain(b)] for a, b in zip(s[1], s[2])] for name, s in drawn.items()},
                "means": {name: [plain(v) for v in s[0]] for name, s in drawn.items()},
                "p_best": None if self.p_best is None else [plain(p) for p in self.p_best],
                "best": [self.names[i] for i in best], "verdict": lines}


def of_table(f, table, names):
    intervals = read(f, table)
    return TableIntervals(intervals, f, table, names) if intervals else None


def error_bars(ax, mean, lo, hi, positions, horizontal, color, label=None, fmt="none", **kw):
    """lo-hi bars around each finite mean, at `positions` (y for horizontal bars, x else)."""
    ok = np.isfinite(mean) & np.isfinite(lo) & np.isfinite(hi)
    if not ok.any():
        return None
    err = [np.maximum(mean[ok] - lo[ok], 0), np.maximum(hi[ok] - mean[ok], 0)]
    if horizontal:
        return ax.errorbar(mean[ok], positions[ok], xerr=err, fmt=fmt, color=color, ecolor=color, capsize=3,
                           label=label, **kw)
    return ax.errorbar(positions[ok], mean[ok], yerr=err, fmt=fmt, color=color, ecolor=color, capsize=3,
                       label=label, **kw)
