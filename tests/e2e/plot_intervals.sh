#!/usr/bin/env bash
# scripts/plot.py with replicates (score and sweep --sample auto --replicates
# R: /intervals, p_best): the sweep, shards, labels and lengths pictures draw
# each row's 95% interval of TD-CONE and TD-CONE_REL exactly as /intervals
# holds it (read here on its own), with p_best beside the rows; they mark a
# best row only when its interval lies wholly below every other's and no row
# was sampled whole (the rule worked out here, and tdcone's own summary, must
# agree), else say "no clear best" with the rows most often best. Hand-made
# intervals give a clear best, one that merely touches, and a clear best
# blocked by a short sample. Without /intervals no best is marked across
# sizes more than 2x apart, and equal shards still get their star. A
# hand-made /curves draws a curve per row (auto picks it). Every picture is
# legible, and no Python file under scripts/ passes 500 lines.
source "$(dirname "$0")/lib.sh"
PLOT="$HERE/../../scripts/plot.py"
"$PY" -c "import matplotlib, h5py" 2>/dev/null || { echo "skipped: needs python3-matplotlib, python3-h5py"; exit 77; }
export PYTHONPATH="$HERE"  # plot_check.py
cd "$WORK"
"$TDCONE" synth --pairs 3000 --labels --output c.tsv >/dev/null 2>&1 || fail "synth"
"$TDCONE" synth --pairs 600 --seed 7 --output ref.tsv >/dev/null 2>&1 || fail "synth ref"
"$TDCONE" score --input c.tsv --score-col 3 --shards 3 --label-cols 6 --by-label --length-buckets 12,20 \
  --reference ref.tsv --sample auto --replicates 10 --output r.h5 >r.txt 2>/dev/null || fail "score --replicates"
"$TDCONE" sweep --input c.tsv --score-col 3 --thresholds 0.3,0.6,0.9 --reference ref.tsv --sample auto \
  --replicates 10 --output s.h5 >s.txt 2>/dev/null || fail "sweep --replicates"
# Without a reference the thresholds' TD-CONE lie far apart: tdcone calls t=0.9 clearly best.
"$TDCONE" sweep --input c.tsv --score-col 3 --thresholds 0.1,0.5,0.9 --sample auto --replicates 20 --output s2.h5 \
  >s2.txt 2>/dev/null || fail "sweep --replicates without a reference"
grep -q "clearly best: t=0.9 " s2.txt || fail "the sweep without a reference no longer has a clear best: $(cat s2.txt)"

# Each kind from the command line, with --describe: a picture, and one line of JSON saying what it drew.
for run in "r.h5 shards" "r.h5 labels" "r.h5 lengths" "s.h5 sweep" "s2.h5 sweep"; do
  set -- $run
  "$PY" "$PLOT" "$1" --kind "$2" --describe --output "$2-${1%.h5}.png" >out.txt 2>err.txt || { cat err.txt; fail "plot.py $run"; }
  grep -q "^plot: wrote $2-${1%.h5}.png ($2)" out.txt || fail "plot.py $run: $(cat out.txt)"
  [ "$(head -c 8 "$2-${1%.h5}.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$run: no PNG"
  sed -n 2p out.txt >"$2-${1%.h5}.json"
  "$PY" -c "import json, sys; d = json.load(open(sys.argv[1])); assert d['kind'] == sys.argv[2] and d['rows'], d" \
    "$2-${1%.h5}.json" "$2" || fail "plot.py $run --describe: $(cat out.txt)"
done
echo "ok: sweep, shards, labels and lengths with replicates drawn; --describe says what"

"$PY" - <<'PY' || fail "the intervals drawn, p_best and the verdicts"
import json, re
import h5py, numpy as np
from plot_check import bands, close, error_bars, expected_best, figure, file_intervals, legible, page_notes, stars


def tdcone_verdicts(summary):
    """tdcone's own verdict lines, in the order of its tables: ('clear', row name) or ('none', [names by p_best])."""
    out = []
    for line in open(summary):
        line = line.strip()
        if line.startswith("clearly best: "):
            out.append(("clear", line[len("clearly best: "):].split(" (its")[0]))
        elif line.startswith("no clear best (the intervals overlap): "):
            rows = line[len("no clear best (the intervals overlap): "):]
            out.append(("none", re.findall(r"(?:^|, )(.+?) \(p_best", rows)))
        elif line.startswith("no verdict: "):
            out.append(("none", None))
    return out


def plot_verdict(description):
    line = description["verdict"][-1]
    if "clearly best: " in line:
        return ("clear", description["best"][0])
    assert "no clear best" in line, line
    return ("none", re.findall(r"(?:: |, )([^,:]+?) \((?:p_best )?[0-9.]+\)", line))


def check_verdict(name, fig, description, expected, axes, y_of):
    """The mark and the note agree with the rule: a star on every panel at the best row, else none and a note."""
    notes = page_notes(fig)
    drawn = [s for ax in axes for s in stars(ax)]
    if expected is None:
        assert description["best"] == [] and not drawn, f"{name}: a best marked ({description['best']}, {drawn})"
        assert "no clear best" in notes, f"{name}: no 'no clear best' note: {notes!r}"
    else:
        best = description["rows"][expected]
        assert description["best"] == [best], f"{name}: best {description['best']}, expected {best}"
        assert len(drawn) == len(axes), f"{name}: {len(drawn)} stars on {len(axes)} panels"
        assert all(abs(y_of(star) - expected) < 1e-9 for star in drawn), f"{name}: a star off row {expected}: {drawn}"
        assert f"clearly best: {best} " in notes and "no clear best" not in notes, f"{name}: {notes!r}"


metrics = {"TD-CONE": "tdcone", "TD-CONE_REL": "tdcone_rel"}
summary = dict(zip(("shards", "labels", "lengths"), tdcone_verdicts("r.txt")))
assert len(summary) == 3, open("r.txt").read()

# Shards: a panel per metric, error bars at each row's y exactly from lo to hi of /intervals; p_best right.
fig, kind, d = figure("r.h5", "shards")
legible("shards", fig)
rows = len(h5py.File("r.h5")["shards/shard"][()])
assert d["ranked_by"] == "TD-CONE_REL" and len(fig.axes) == 2
for ax, (name, metric) in zip(fig.axes, metrics.items()):
    mean, lo, hi = file_intervals("r.h5", "shards", metric, rows)
    spans = error_bars(ax, horizontal=True)
    assert sorted(spans) == list(range(rows)), f"shards {name}: error bars at {sorted(spans)}"
    assert close([spans[r] for r in range(rows)], np.c_[lo, hi]), f"shards {name}: {spans} != {lo}, {hi}"
    assert close(d["intervals"][name], np.c_[lo, hi]) and close(d["means"][name], mean)
p_best = h5py.File("r.h5")["shards/p_best"][()]
shown = [t.get_text() for t in fig.axes[1].texts if "p_best" in t.get_text()]
assert shown == [f"{m:.5f}  p_best {p:.2f}" for m, p in zip(file_intervals("r.h5", "shards", "tdcone_rel", rows)[0],
                                                             p_best)], shown
check_verdict("shards", fig, d, expected_best("r.h5", "shards", "tdcone_rel", rows), fig.axes, lambda s: s[1])
assert plot_verdict(d) == summary["shards"], (plot_verdict(d), summary["shards"])

# Labels (one label: one kind of row): points with error bars per metric, p_best written on the ranked panel.
fig, kind, d = figure("r.h5", "labels")
legible("labels", fig)
labels = [v.decode() for v in h5py.File("r.h5")["labels/label"][()]]
assert d["rows"] == labels and len(fig.axes) == 2
for ax, (name, metric) in zip(fig.axes, metrics.items()):
    mean, lo, hi = file_intervals("r.h5", "labels", metric, len(labels))
    spans = error_bars(ax, horizontal=True)
    assert close([spans[r] for r in range(len(labels))], np.c_[lo, hi]), f"labels {name}: {spans}"
assert sum("p_best" in t.get_text() for t in fig.axes[1].texts) == len(labels)
check_verdict("labels", fig, d, expected_best("r.h5", "labels", "tdcone_rel", len(labels)), fig.axes, lambda s: s[1])
assert plot_verdict(d) == summary["labels"], (plot_verdict(d), summary["labels"])

# Lengths: TD-CONE bars with error bars, a TD-CONE_REL panel, p_best above the ranked metric's bars.
fig, kind, d = figure("r.h5", "lengths")
legible("lengths", fig)
buckets = len(h5py.File("r.h5")["lengths/n_pairs"][()])
assert len(fig.axes) == 3, "no TD-CONE_REL panel"
for ax, (name, metric) in zip(fig.axes, metrics.items()):
    mean, lo, hi = file_intervals("r.h5", "lengths", metric, buckets)
    spans = error_bars(ax, horizontal=False)
    assert close([spans[r] for r in range(buckets)], np.c_[lo, hi]), f"lengths {name}: {spans}"
assert sum(t.get_text().startswith("p_best ") for t in fig.axes[1].texts) == buckets
check_verdict("lengths", fig, d, expected_best("r.h5", "lengths", "tdcone_rel", buckets), fig.axes[:2],
              lambda s: s[0])
assert plot_verdict(d) == summary["lengths"], (plot_verdict(d), summary["lengths"])

# The sweeps: a band from lo to hi at each threshold; s2 has its clear best, marked by a line in every panel.
for path, panels in (("s.h5", 2), ("s2.h5", 1)):
    fig, kind, d = figure(path)
    legible(path, fig)
    t = h5py.File(path)["sweep/threshold"][()]
    with h5py.File(path) as f:
        ranked = f["intervals"].attrs["ranked_by"]
        ranked = ranked.decode() if isinstance(ranked, bytes) else ranked
    for ax, (name, metric) in zip(fig.axes[:panels], metrics.items()):
        mean, lo, hi = file_intervals(path, "sweep", metric, len(t))
        spans = bands(ax)
        assert close([spans[round(float(x), 9)] for x in t], np.c_[lo, hi]), f"{path} {name}: band {spans}"
        notes = [a.get_text() for a in ax.texts]
        assert (sum("p_best" in n for n in notes) == len(t)) == (metric == ranked), f"{path} {name}: {notes}"
    expected = expected_best(path, "sweep", ranked, len(t))
    marks = [line for ax in fig.axes for line in ax.lines if line.get_color() == "tab:green"]
    assert (len(marks) == len(fig.axes)) == (expected is not None) and all(
        line.get_xdata()[0] == t[expected] for line in marks), f"{path}: best lines {marks}, expected {expected}"
    assert d["best"] == ([] if expected is None else [f"t={t[expected]:g}"]), d["best"]
    assert plot_verdict(d) == tdcone_verdicts(path.replace(".h5", ".txt"))[0], (plot_verdict(d), path)
assert d["best"] == ["t=0.9"]
print("ok: intervals drawn as /intervals holds them, p_best beside each row, the verdicts those of the rule and of "
      "tdcone's summary")
PY

# Hand-made intervals on a copy of the score: shard 1 clearly lowest; then touching shard 0's
# interval (hi == lo: not below); then clear but shard 2 sampled whole; lengths and labels clear.
"$PY" - <<'PY' || fail "the hand-made verdicts"
import shutil
import h5py, numpy as np
from plot_check import expected_best, figure, legible, page_notes, stars, strings


def edit(path, table, metric, spans, sampled=None):
    shutil.copy("r.h5", path)
    with h5py.File(path, "a") as f:
        g = f["intervals"]
        tables, metrics, rows = strings(g["table"]), strings(g["metric"]), g["row"][()]
        mean, lo, hi = g["mean"][()], g["lo"][()], g["hi"][()]
        for i, (t, m, r) in enumerate(zip(tables, metrics, rows)):
            if t == table and m == metric:
                lo[i], hi[i] = spans[r]
                mean[i] = (lo[i] + hi[i]) / 2
        g["mean"][...], g["lo"][...], g["hi"][...] = mean, lo, hi
        if sampled is not None:
            n = f[table]["n_sampled"][()]
            n[sampled] = f["replicates"].attrs["sample"] - 1
            f[table]["n_sampled"][...] = n


def verdict(path, kind, rows):
    fig, _, d = figure(path, kind)
    legible(path, fig)
    note = page_notes(fig)
    return d["best"], sum(len(stars(ax)) for ax in fig.axes), note


edit("clear.h5", "shards", "tdcone_rel", {0: (0.95, 0.99), 1: (0.90, 0.94), 2: (0.96, 0.99)})
best, n_stars, note = verdict("clear.h5", "shards", 3)
assert expected_best("clear.h5", "shards", "tdcone_rel", 3) == 1
assert best == ["shard 1"] and n_stars == 2 and "clearly best: shard 1 (its 95% interval of TD-CONE_REL" in note, \
    (best, n_stars, note)

edit("touch.h5", "shards", "tdcone_rel", {0: (0.94, 0.99), 1: (0.90, 0.94), 2: (0.96, 0.99)})
best, n_stars, note = verdict("touch.h5", "shards", 3)
assert expected_best("touch.h5", "shards", "tdcone_rel", 3) is None
assert best == [] and n_stars == 0 and "no clear best: " in note and "clearly best: " not in note, (best, n_stars, note)

edit("short.h5", "shards", "tdcone_rel", {0: (0.95, 0.99), 1: (0.90, 0.94), 2: (0.96, 0.99)}, sampled=2)
best, n_stars, note = verdict("short.h5", "shards", 3)
assert expected_best("short.h5", "shards", "tdcone_rel", 3) is None
assert best == [] and n_stars == 0 and "no clear best" in note and "shard 2 sampled whole" in note, (best, note)

edit("lengths-clear.h5", "lengths", "tdcone_rel", {0: (0.90, 0.91), 1: (0.95, 0.99), 2: (0.92, 0.99)})
best, n_stars, note = verdict("lengths-clear.h5", "lengths", 3)
assert best == ["<= 12"] and n_stars == 2 and "clearly best: <= 12 " in note, (best, n_stars, note)

edit("labels-clear.h5", "labels", "tdcone_rel", {0: (0.95, 0.99), 1: (0.90, 0.93)})
best, n_stars, note = verdict("labels-clear.h5", "labels", 2)
assert best == ["calm"] and n_stars == 2 and "clearly best: calm " in note, (best, n_stars, note)
print("ok: a clear best marked only when its interval lies below every other's and every row had a full sample")
PY

# Without /intervals: shards of about 600, 1500 and 900 pairs get no star but a note; equal shards keep
# theirs; a sweep over subsets of about 150 to 1100 pairs marks no threshold.
head -600 c.tsv >a.tsv; sed -n 601,2100p c.tsv >b.tsv; sed -n 2101,3000p c.tsv >c3.tsv
"$TDCONE" score --input a.tsv b.tsv c3.tsv --shard-by file --shards 3 --reference ref.tsv --output sizes.h5 \
  >/dev/null 2>&1 || fail "score by file"
"$TDCONE" score --input c.tsv --score-col 3 --shards 3 --reference ref.tsv --output equal.h5 >/dev/null 2>&1 \
  || fail "score --shards 3"
"$TDCONE" sweep --input c.tsv --score-col 3 --thresholds 0.3,0.6,0.9 --reference ref.tsv --output plain.h5 \
  >/dev/null 2>&1 || fail "sweep"
"$PY" - <<'PY' || fail "best marks without intervals"
import h5py
from matplotlib.container import ErrorbarContainer
from plot_check import figure, legible, page_notes, stars

fig, kind, d = figure("sizes.h5")
legible("sizes", fig)
note = page_notes(fig)
n = h5py.File("sizes.h5")["shards/n_pairs"][()]
assert n.max() > 2 * n.min(), n
assert kind == "shards" and not [s for ax in fig.axes for s in stars(ax)], "a best shard across sizes 2.5x apart"
assert f"hold {n.min():,} to {n.max():,} pairs ({n.max() / n.min():.1f}x)" in note, note
assert "--sample auto --replicates 20" in note, note
assert not any(isinstance(c, ErrorbarContainer) for ax in fig.axes for c in ax.containers), "error bars without intervals"
fig, kind, d = figure("equal.h5")
assert sum(len(stars(ax)) for ax in fig.axes) == 2 and "no best marked" not in page_notes(fig), \
    "equal shards lost their best"
fig, kind, d = figure("plain.h5")
legible("plain sweep", fig)
assert kind == "sweep" and not [l for ax in fig.axes for l in ax.lines if l.get_color() == "tab:green"], \
    "a best threshold across sizes 7x apart"
assert "no best marked" in page_notes(fig) and "--sample auto" in page_notes(fig), page_notes(fig)
assert not any(ax.collections for ax in fig.axes[:2]), "a band without intervals"
print("ok: without intervals no best across sizes more than 2x apart, a note instead; equal shards keep their star")
PY

# /curves (score or sweep --at-sizes), hand-made: the corpus, 3 shards and 2 labels at 5 sizes with TD-CONE and
# TD-CONE_REL; a sweep's thresholds with TD-CONE alone. A size above a subset's pairs scores it whole: drawn
# once, at the subset's size, as an open mark.
"$PY" - <<'PY' || fail "hand-made /curves"
import shutil
import h5py, numpy as np

SIZES = [10, 100, 500, 1000, 3000]


def add_curves(source, path, tables, metrics):
    shutil.copy(source, path)
    with h5py.File(path, "a") as f:
        rows = []
        for table in tables:
            pairs = [int(f.attrs["n_scored"])] if table == "corpus" else [int(n) for n in f[table]["n_pairs"][()]]
            for r, n in enumerate(pairs):
                for size in SIZES:
                    for k, metric in enumerate(metrics):
                        m = 0.3 + 0.3 / np.log10(min(size, n) + 1) + 0.01 * r + 0.5 * k
                        rows.append((table, r, size, min(size, n), metric, m, 0.01, m - 0.02, m + 0.02))
        g = f.create_group("curves")
        columns = list(zip(*rows))
        g["table"], g["metric"] = np.array(columns[0], dtype="S7"), np.array(columns[4], dtype="S10")
        for name, column in zip(("row", "size", "n_sampled"), columns[1:4]):
            g[name] = np.array(column, np.uint64)
        for name, column in zip(("mean", "sd", "lo", "hi"), columns[5:]):
            g[name] = np.array(column, float)
        g.attrs["replicates"], g.attrs["seed"] = np.uint64(20), np.uint64(1)


add_curves("r.h5", "curves.h5", ("corpus", "shards", "labels"), ("tdcone", "tdcone_rel"))
add_curves("s.h5", "curves-sweep.h5", ("sweep",), ("tdcone",))
with h5py.File("broken-curves.h5", "w") as f:
    for key, value in h5py.File("r.h5").attrs.items():
        f.attrs[key] = value
    f.create_group("curves")["mean"] = np.zeros(3)
PY
"$PY" "$PLOT" curves.h5 --describe --output curve.png >out.txt 2>err.txt || { cat err.txt; fail "plot.py curves.h5"; }
grep -q "^plot: wrote curve.png (curve); also in the file: labels, lengths, shards" out.txt || fail "auto: $(cat out.txt)"
"$PY" - <<'PY' || fail "the curve pictures"
import json
import h5py, numpy as np
from matplotlib.collections import PolyCollection
from plot_check import figure, legible

described = json.loads(open("out.txt").read().splitlines()[1])
fig, kind, d = figure("curves.h5")
legible("curve", fig)
assert kind == "curve" and d == described, (kind, d, described)
rows = ["corpus", "shards: shard 0", "shards: shard 1", "shards: shard 2", "labels: aroused", "labels: calm"]
assert d["rows"] == rows and d["panels"] == ["TD-CONE", "TD-CONE_REL"], d
pairs = h5py.File("curves.h5")["shards/n_pairs"][()]
for ax, panel in zip(fig.axes, d["panels"]):
    assert ax.get_xscale() == "log", panel
    lines = [line for line in ax.lines if line.get_label() in rows]
    assert [line.get_label() for line in lines] == rows, [line.get_label() for line in lines]
    assert sum(isinstance(c, PolyCollection) for c in ax.collections) == len(rows), "not a band a row"
    shard0 = lines[1].get_xdata()
    # 10, 100, 500, 1000 asked; 3000 scored the whole shard (its n_pairs), drawn once at that size.
    assert list(shard0) == [10, 100, 500, 1000, int(pairs[0])], shard0
    # calm's 605 pairs: 1000 and 3000 both score it whole, drawn once, as an open mark.
    calm = h5py.File("curves.h5")["labels/n_pairs"][()][1]
    assert list(lines[5].get_xdata()) == [10, 100, 500, calm], lines[5].get_xdata()
    assert [tuple(line.get_xdata()) for line in ax.lines if line.get_markerfacecolor() == "white"
            and line.get_color() == lines[5].get_color()] == [(calm,)], "calm's whole subset not drawn open, once"
    curve = d["curves"][panel]["shards: shard 0"]
    assert curve["sizes"] == list(shard0) and all(abs(hi - lo - 0.04) < 1e-9 for lo, hi in curve["intervals"])
fig, kind, d = figure("curves-sweep.h5")
legible("sweep curve", fig)
t = h5py.File("curves-sweep.h5")["sweep/threshold"][()]
assert kind == "curve" and d["panels"] == ["TD-CONE"] and len(fig.axes) == 1, d
assert d["rows"] == [f"t={x:g}" for x in t], d["rows"]
print("ok: curves: a line and a band per row, named as elsewhere, on a log size axis; TD-CONE_REL when present")
PY
expect_failure 1 "broken-curves.h5: /curves has no 'table' column, which plot needs" -- \
  "$PY" "$PLOT" broken-curves.h5 --output x.png
expect_failure 1 "r.h5 has no /curves (score or sweep --at-sizes) to plot" -- "$PY" "$PLOT" r.h5 --kind curve --output x.png
echo "ok: curve pictures from hand-made /curves; a damaged /curves or none is a clear error"

long=$(wc -l "$HERE"/../../scripts/*.py | awk '$2 != "total" && $1 > 500')
[ -z "$long" ] || fail "Python files under scripts/ past 500 lines: $long"
echo "ok: no Python file under scripts/ passes 500 lines"
