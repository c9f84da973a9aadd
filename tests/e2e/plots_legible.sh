#!/usr/bin/env bash
# scripts/plot.py's pictures say what they show and stay legible with many
# rows: 16 shards by file are named by their files (else 'shard i'); label
# combinations (18 joint, 11 marginal, with TD-CONE_REL) and a balance name
# their labels, a single label is titled by its name; a selection with --stop
# says how many lines it kept; 11 length buckets are named by their ranges. In every picture no two texts overlap and none
# is cut off. The figures are built by plot.figure() and inspected unsaved.
source "$(dirname "$0")/lib.sh"
"$PY" -c "import matplotlib" 2>/dev/null || { echo "skipped: needs python3-matplotlib"; exit 77; }
cd "$WORK"
"$TDCONE" synth --pairs 3000 --labels --output corpus.tsv >/dev/null 2>&1
"$TDCONE" synth --pairs 200 --seed 3 --first-pair 900000 --junk-fraction 0 --output repr.tsv >/dev/null 2>&1
head -300 corpus.tsv | cut -f2 >in-domain.txt
labels=(--label-cols 5,6 --label-names formality,arousal --label-buckets formality=0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8)
"$TDCONE" score --input corpus.tsv --score-col 3 --shards 16 --reference repr.tsv --output shards.h5 >/dev/null 2>&1 \
  || fail "score --shards 16"
# 18 files in 16 shards by file (file i in shard i mod 16: shards 0 and 1 hold two), one with a long name.
mkdir corpora
files=(corpora/europarl-v7.bg-en.tsv corpora/europarl-v7.cs-en.tsv corpora/news-commentary-v16.de-en.tokenized.tsv)
for lang in da de el es et fi fr hu it lt lv nl pl pt ro; do files+=("corpora/europarl-v7.$lang-en.tsv"); done
split -n l/18 corpus.tsv part-
i=0
for part in part-*; do mv "$part" "${files[$i]}"; i=$((i + 1)); done
"$TDCONE" score --input "${files[@]}" --shards 16 --shard-by file --output shards-by-file.h5 >/dev/null 2>&1 \
  || fail "score --shards 16 --shard-by file"
"$TDCONE" score --input corpus.tsv --reference repr.tsv "${labels[@]}" --by-label --output labels.h5 >/dev/null 2>&1 \
  || fail "score --by-label"
"$TDCONE" score --input corpus.tsv --label-cols 6 --label-names arousal --by-label --output one-label.h5 >/dev/null 2>&1 \
  || fail "score --by-label, one label"
"$TDCONE" balance --input corpus.tsv "${labels[@]}" --output balance.h5 >/dev/null 2>&1 || fail "balance"
"$TDCONE" select --representative in-domain.txt --available corpus.tsv --side tgt --stop --output select.h5 \
  >/dev/null 2>&1 || fail "select --stop"
"$TDCONE" score --input corpus.tsv --length-buckets 3,5,8,10,12,15,20,25,30,40 --output lengths.h5 >/dev/null 2>&1 \
  || fail "score --length-buckets"

"$PY" - "$HERE/../../scripts" "$HERE" <<'PY' || fail "the pictures"
import sys
sys.path[:0] = sys.argv[1:3]
import h5py
import plot
from plot_check import legible


def figure(path):
    fig, kind, _ = plot.figure(plot.arguments([path, "--output", "unused.png"]))
    fig.canvas.draw()
    return fig, kind


def titles(fig):
    return [ax.get_title() for ax in fig.axes]


fig, kind = figure("shards-by-file.h5")
assert kind == "shards"
legible("shards by file", fig)
names = [label.get_text() for label in fig.axes[0].get_yticklabels()]
n_pairs = h5py.File("shards-by-file.h5")["shards/n_pairs"][()]
files = [f"europarl-v7.{lang}-en.tsv" for lang in "bg cs da de el es et fi fr hu it lt lv nl pl".split()]
expected = [files[0] + " +1 more", files[1] + " +1 more", "news-commentar\u2026n.tokenized.tsv"] + files[2:]
assert names == [f"{e}  ({n:,} pairs)" for e, n in zip(expected, n_pairs)], names
assert "16 shards by input file" in titles(fig)[0], titles(fig)

fig, _ = figure("shards.h5")
legible("shards", fig)
names = [label.get_text() for label in fig.axes[0].get_yticklabels()]
assert names[3].startswith("shard 3  (") and len(names) == 16, names

fig, kind = figure("labels.h5")
assert kind == "labels" and len(fig.axes) == 4  # joint and marginal rows, TD-CONE and TD-CONE_REL
everything = legible("labels", fig)
assert len(fig.axes[0].get_yticklabels()) == 18, "not 18 joint combinations"
assert titles(fig)[0].startswith("TD-CONE by formality|arousal"), titles(fig)
assert "joint combinations" not in everything

fig, _ = figure("one-label.h5")
everything = legible("one label", fig)
assert titles(fig) == ["TD-CONE by arousal (dashed: corpus %.4f)" % h5py.File("one-label.h5")["corpus"].attrs["tdcone"]], \
    titles(fig)
assert "joint combinations" not in everything

fig, kind = figure("balance.h5")
assert kind == "balance"
legible("balance", fig)
with h5py.File("balance.h5") as f:
    kept, labelled = int(f["balance"].attrs["n_kept"]), int(f["balance"].attrs["n_labelled"])
assert titles(fig)[0].startswith(f"Balance of formality|arousal (joint): {kept:,} of {labelled:,} labelled lines kept"), \
    titles(fig)

fig, _ = figure("select.h5")
everything = legible("selection", fig)
stop = int(h5py.File("select.h5")["selection"].attrs["stop_rank"])
assert 1 < stop < 3000, stop
assert f"the first {stop:,} kept (--stop)" in titles(fig)[0], titles(fig)
assert f"--stop: the first {stop:,} lines kept" in everything, everything
fig, kind = figure("lengths.h5")
assert kind == "lengths"
legible("lengths", fig)
assert [label.get_text() for label in fig.axes[0].get_xticklabels()][:2] + \
    [label.get_text() for label in fig.axes[0].get_xticklabels()][-1:] == ["<= 3", "4-5", "> 40"]

fig, _, _ = plot.figure(plot.arguments(["lengths.h5", "--kind", "diversity", "--output", "unused.png"]))
fig.canvas.draw()
legible("diversity", fig)
print("ok: shards named by file (else 'shard i'), labels and balance name their labels, --stop's kept lines, "
      "11 length buckets, the diversity histograms; no text overlaps or is cut off")
PY
