#!/usr/bin/env bash
# Every code block of README.md as a reader sees it (rendered by cmark, the
# CommonMark reference): no command may render as a paragraph, and each
# runnable command runs, in README order, on small stand-ins for the files it
# names. Left to others: the set-up commands (CI runs them), the recipes
# (readme_recipes.sh), the SLURM block (slurm_jobs.sh), usage synopses,
# `$ ...` transcripts and lines with `...` placeholders.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$HERE/../.." && pwd)
command -v cmark >/dev/null || { echo "SKIP: cmark is not installed (scripts/install-deps.sh installs it)"; exit 77; }
cd "$WORK"

# The files the blocks name: Twitter-shaped corpora (with labels where the
# block uses them), one-sided sentence files, parallel plays, JSONL, a tiny
# embeddings file, and results for the export, info and plot examples.
synth() { "$TDCONE" synth --quiet "$@" 2>/dev/null || fail "synth $*"; }
synth --pairs 3000 --output corpus.tsv
synth --pairs 2000 --seed 2 --output pairs.tsv
cp corpus.tsv train.tsv
cp corpus.tsv plays.tsv
synth --pairs 400 --first-pair 3000 --output dev.tsv
mkdir twitter quora twitter-url crawl plays
synth --pairs 1500 --seed 3 --output twitter/part-1.tsv.zst
synth --pairs 1500 --seed 4 --output twitter/part-2.tsv.zst
synth --pairs 2000 --seed 5 --output - | cut -f1,2,4 > quora/train-candidates.tsv
synth --pairs 300 --seed 5 --first-pair 2000 --output - | cut -f1,2,4 > quora/validation.tsv
cp twitter/part-1.tsv.zst twitter-url/candidates-1.tsv.zst
cp twitter/part-2.tsv.zst twitter-url/candidates-2.tsv.zst
synth --pairs 300 --first-pair 3000 --seed 3 --output twitter-url/validation-1k.tsv
synth --pairs 3000 --labels --output styles.tsv
# The Twitter URL layout: src, tgt, "(n,6)", url; a few lines with no judgement.
awk -F'\t' 'BEGIN { OFS = "\t" } NR % 97 == 0 { print $1, $2, "", "https://t.co/" $4; next }
  { n = int($3 * 7); if (n > 6) n = 6; print $1, $2, "(" n ",6)", "https://t.co/" $4 }' corpus.tsv > Twitter_URL_Corpus_test.txt
cut -f2 dev.tsv > in-domain.txt
head -n 2000 Twitter_URL_Corpus_test.txt > tw-train.tsv
tail -n +2001 Twitter_URL_Corpus_test.txt | awk -F'\t' '$3 ~ /^\([456],6\)$/' > tw-gold.tsv
awk -F'\t' '$3 ~ /^\([456],6\)$/' tw-train.tsv > tw-para.tsv
head -n 1500 corpus.tsv | cut -f1 | zstd -q > crawl/a.txt.zst
tail -n 1500 corpus.tsv | cut -f1 | zstd -q > crawl/b.txt.zst
for play in hamlet lear; do
  zstd -dc twitter/part-1.tsv.zst | cut -f1 > "plays/${play}_modern.txt"
  zstd -dc twitter/part-1.tsv.zst | cut -f2 | gzip > "plays/${play}_original.txt.gz"
done
"$PY" - <<'PY' || fail "JSONL stand-ins"
import json
rows = [l.rstrip("\n").split("\t") for l in open("corpus.tsv", encoding="utf-8")]
rows = [r for r in rows if len(r) >= 2]
with open("a.jsonl", "w", encoding="utf-8") as a, open("b.jsonl", "w", encoding="utf-8") as b:
    for i, r in enumerate(rows):
        (a if i < len(rows) // 2 else b).write(json.dumps({"modern": r[0], "original": r[1]}) + "\n")
PY
zstd -q --rm b.jsonl
# Vectors for the corpus's 300 most common words (a file that covers no word stops the run).
cut -f1,2 corpus.tsv | tr '\t ' '\n\n' | tr 'A-Z' 'a-z' | grep -v '^$' | sort | uniq -c | sort -rn |
  awk 'NR <= 300 {printf "%s %.1f %.1f 0.3\n", $2, (NR % 5) / 10 + 0.1, (NR % 3) / 10 + 0.1}' | zstd -q > glove.6B.300d.txt.zst
"$TDCONE" score --input corpus.tsv --score-col 3 --quiet --output out.h5 >/dev/null 2>&1 || fail "out.h5"
"$TDCONE" score --input corpus.tsv --score-col 3 --shards 4 --quiet --output score.h5 >/dev/null 2>&1 || fail "score.h5"
"$TDCONE" sweep --input corpus.tsv --score-col 3 --thresholds 0.4,0.6 --quiet --output sweep.h5 >/dev/null 2>&1 ||
  fail "sweep.h5"
"$TDCONE" score --input corpus.tsv --length-buckets 5,10,20,40 --quiet --output len.h5 >/dev/null 2>&1 || fail "len.h5"

# `tdcone`, `mpirun` and Debian's python3 (h5py, pandas) first on PATH, the
# repository's configs/ and scripts/ beside the files, as for a user.
mkdir bin
ln -s "$TDCONE" bin/tdcone
ln -s "$PY" bin/python3
ln -s "$ROOT/configs" configs
ln -s "$ROOT/scripts" scripts
export PATH="$WORK/bin:$PATH" OMPI_MCA_rmaps_base_oversubscribe=1  # `mpirun -n 8` on 2 cores

cmark "$ROOT/README.md" > readme.html
"$PY" - readme.html "$ROOT/README.md" <<'PY' || fail "the README's code blocks"
import html, os, re, shlex, subprocess, sys
from html.parser import HTMLParser

class Blocks(HTMLParser):
    """The <pre><code> blocks and the paragraphs of the rendered README."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks, self.paragraphs, self.where = [], [], None
    def handle_starttag(self, tag, attrs):
        if tag == "code" and self.where == "pre": self.where = "code"; self.blocks.append("")
        elif tag == "pre": self.where = "pre"
        elif tag == "p" and self.where is None: self.where = "p"; self.paragraphs.append("")
        elif tag == "code" and self.where == "p" and not self.paragraphs[-1]: self.paragraphs[-1] = "`"  # inline code
    def handle_endtag(self, tag):
        if tag in ("pre", "p"): self.where = None
    def handle_data(self, data):
        if self.where == "code": self.blocks[-1] += data
        elif self.where == "p": self.paragraphs[-1] += data

parser = Blocks()
parser.feed(open(sys.argv[1], encoding="utf-8").read())
readme = open(sys.argv[2], encoding="utf-8").read()

# A command a reader would copy must be in a code block, not run into a paragraph.
command_words = ("tdcone ", "mpirun ", "srun ", "sbatch ", "scripts/", "python3 ", "import ", "bash ")
for p in parser.paragraphs:
    assert not p.lstrip().startswith(command_words), f"a command renders as a paragraph: {p[:80]!r}"

recipes = re.search(r"<!-- recipes -->\n(.*?)<!-- /recipes -->", readme, re.S).group(1)
recipes = "".join(l[4:] + "\n" for l in recipes.splitlines())

def commands(block):
    """The block's commands, continuation lines joined."""
    out, current = [], ""
    for line in block.splitlines():
        current += line + "\n"
        if not line.rstrip().endswith("\\"):
            out.append(current.strip()); current = ""
    return [c for c in out if c]

ran, skipped = 0, []
for block in parser.blocks:
    first = block.strip().splitlines()[0] if block.strip() else ""
    if block == recipes:
        skipped.append("recipes (readme_recipes.sh)"); continue
    if "FILE..." in block or "[options]" in block:
        skipped.append("usage synopsis"); continue
    if first.startswith("$ "):
        skipped.append("transcript: " + first[:50]); continue
    if "sbatch " in block or "scrontab" in block:
        skipped.append("SLURM (slurm_jobs.sh)"); continue
    if first.startswith("import sys"):
        r = subprocess.run(["python3", "-c", block], capture_output=True, text=True)
        assert r.returncode == 0, f"the Python block failed:\n{block}\n{r.stderr}"
        ran += 1; continue
    for cmd in commands(block):
        if cmd.startswith("#"): continue
        if cmd in ("bash scripts/demo.sh", "bash scripts/test.sh"):
            skipped.append("set-up (CI runs it): " + cmd); continue
        if " ... " in cmd:
            skipped.append("placeholder: " + cmd[:50]); continue
        if not re.match(r"(tdcone|mpirun|srun|python3|scripts/\S+\.py) ", cmd):
            continue  # not a command (the layout)
        cmd = cmd.replace("srun --mpi=pmix", "mpirun -n 2")  # SLURM's launcher, outside SLURM
        # Each example writes its own result: a name another example used is replaced.
        for out in re.findall(r"--output (\S+)", cmd):
            if os.path.exists(out) and out != "-": os.remove(out)
        r = subprocess.run(["bash", "-euo", "pipefail", "-c", cmd], capture_output=True, text=True)
        assert r.returncode == 0, f"README command failed ({r.returncode}):\n{cmd}\n{r.stderr[-2000:]}"
        for out in re.findall(r"(?:--output|>) (\S+)", cmd):
            if out != "-":
                assert os.path.getsize(out) > 0, f"{cmd}: {out} is empty"
        ran += 1
print(f"ran {ran} README commands; skipped: " + "; ".join(skipped))
# Every block this test knows of is still in the README (else it would pass by running less).
assert ran >= 25, f"only {ran} commands ran: blocks lost or misread"
PY
echo "ok: every README code block renders as code, and its commands run"
