"""What the pictures of scripts/plot.py share: the names of a result's rows
(shards, label combinations, length buckets), the run's options, and how rows,
notes and legends are laid out. Imported by plot.py once its modules are
found (_tdcone_py.setup)."""
import os

import h5py
import matplotlib.transforms
import numpy as np


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


def strings(dataset):
    """A string column (fixed-length UTF-8) as a list of str."""
    return [text(v) for v in dataset.asstr()[()]]


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


def size_caveat(sizes, what):
    """Without replicates: when the non-empty rows' sizes (pairs scored) differ more than 2x, why no row is
    called best (TD-CONE and TD-CONE_REL depend on how many pairs they come from), as tdcone's summary says
    it; else None."""
    sizes = np.asarray(sizes, dtype=np.uint64)
    sizes = sizes[sizes > 0]
    if len(sizes) == 0 or int(sizes.max()) <= 2 * int(sizes.min()):
        return None
    small, large = int(sizes.min()), int(sizes.max())
    return (f"no best marked: the {what} hold {small:,} to {large:,} pairs ({large / small:.1f}x) and the values "
            "depend on size; compare at one size: " + "--sample auto --replicates 20".replace(" ", "\u00a0"))
