"""Helpers of tests/e2e/plot_intervals.sh and plots_legible.sh: scripts/plot.py's figures built
unsaved, and what they draw read back from their artists (error bars, bands,
stars, texts), beside what the result file says, read here on its own."""
import itertools
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))

import h5py  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.container import ErrorbarContainer  # noqa: E402

import plot  # noqa: E402


def figure(path, kind=None):
    """(figure, its kind, what plot.py --describe would print) for `path`, drawn but not saved."""
    argv = [path, "--output", "unused.png"] + (["--kind", kind] if kind else [])
    fig, drawn, _ = plot.figure(plot.arguments(argv))
    fig.canvas.draw()
    return fig, drawn, fig.tdcone_description


def texts(fig):
    """Every visible text: titles, axis labels, notes, legends, tick labels inside the view."""
    items = list(fig.texts)
    for ax in fig.axes:
        items += [ax.title, ax.xaxis.label, ax.yaxis.label] + list(ax.texts)
        if ax.get_legend():
            items += ax.get_legend().get_texts()
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            items += [label for loc, label in zip(axis.get_majorticklocs(), axis.get_majorticklabels())
                      if lo - 1e-9 <= loc <= hi + 1e-9]
    return [t for t in items if t.get_visible() and t.get_text().strip()]


def legible(name, fig):
    """Fails unless every text is inside the picture and no two overlap; returns the texts, " / "-joined."""
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts(fig)]
    for text, box in boxes:
        assert box.x0 >= page.x0 - 1 and box.x1 <= page.x1 + 1 and box.y0 >= page.y0 - 1 and box.y1 <= page.y1 + 1, \
            f"{name}: {text!r} cut off at the edge"
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        width = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
        height = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
        assert width <= 1 or height <= 1, f"{name}: {a!r} and {b!r} overlap"
    return " / ".join(text for text, _ in boxes)


def page_notes(fig):
    """The texts on the figure itself (the title over the panels and its notes), one line, spaces plain."""
    return " ".join(t.get_text() for t in fig.texts).replace("\n", " ").replace("\u00a0", " ")


def strings(dataset):
    return [v.decode() if isinstance(v, bytes) else str(v) for v in dataset[()]]


def file_intervals(path, table, metric, rows):
    """(mean, lo, hi) of each row of `table` for `metric`, from the file's /intervals."""
    with h5py.File(path, "r") as f:
        g = f["intervals"]
        out = [np.full(rows, np.nan) for _ in range(3)]
        for t, m, r, mean, lo, hi in zip(strings(g["table"]), strings(g["metric"]), g["row"][()], g["mean"][()],
                                         g["lo"][()], g["hi"][()]):
            if t == table and m == metric:
                out[0][r], out[1][r], out[2][r] = mean, lo, hi
    return out


def error_bars(ax, horizontal):
    """{position: (lo, hi)} of the error bars drawn in `ax`: the row's y (horizontal bars) or x."""
    spans = {}
    for container in ax.containers:
        if not isinstance(container, ErrorbarContainer):
            continue
        for collection in container.lines[2]:
            for segment in collection.get_segments():
                along, across = (segment[:, 0], segment[:, 1]) if horizontal else (segment[:, 1], segment[:, 0])
                spans[round(float(across[0]), 6)] = (float(along.min()), float(along.max()))
    return spans


def bands(ax):
    """{x: (lowest, highest)} of the bands (fill_between) drawn in `ax`."""
    spans = {}
    for collection in ax.collections:
        if isinstance(collection, PolyCollection):
            for path in collection.get_paths():
                for x, y in path.vertices:
                    lo, hi = spans.get(round(float(x), 9), (np.inf, -np.inf))
                    spans[round(float(x), 9)] = (min(lo, y), max(hi, y))
    return spans


def stars(ax):
    """The positions of the stars (a best row) drawn in `ax`."""
    return [tuple(np.ravel(line.get_xydata())) for line in ax.lines if line.get_marker() == "*"]


def expected_best(path, table, metric, rows, group=None):
    """The clearly best row by the rule, worked out here from the file alone: the lowest mean, its hi below every
    other row's lo, every non-empty row of `group` (default: all rows) with n_sampled equal to the sample."""
    group = list(range(rows)) if group is None else list(group)
    mean, lo, hi = file_intervals(path, table, metric, rows)
    with h5py.File(path, "r") as f:
        sample = int(f["replicates"].attrs["sample"])
        sampled = f[table]["n_sampled"][()] if "n_sampled" in f[table] else None
    if sampled is not None and any(0 < sampled[r] < sample for r in group):
        return None
    live = [r for r in group if np.isfinite(mean[r])]
    if len(live) < 2:
        return None
    best = min(live, key=lambda r: mean[r])
    return best if all(hi[best] < lo[r] for r in live if r != best) else None


def close(a, b):
    return np.allclose(np.asarray(a, float), np.asarray(b, float), rtol=1e-9, atol=1e-12, equal_nan=True)
