#!/usr/bin/env bash
# Embeddings that are used, and say how much (issue 69, fault 10):
# --embeddings without --align static is a usage error (score, sweep,
# balance; also from a --config file); a static run reports the share of the
# corpus's input and output word types with a vector and of the alignment
# mass spread by vectors, the same on 1-4 ranks, in the summary and
# on /corpus, with a warning under 50 %; a file that covers no word of a side
# is refused; a binary word2vec file is named as such.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

# Hand-counted (whitespace tokens, case folded as by default):
#   input types  the cat sat a hello big world x        8, with a vector: all but world, x 6
#   output types the dog sat one big cat hello there x  9, with a vector: all but there, x 7
#   x\y words spread over a non-empty y\x: cat (pair 1), a (pair 2), big and
#   world (pair 3: "there" has no vector, so both go evenly): 4, by vectors 2.
printf 'the cat sat\tthe dog sat\t0.9\na cat\tone big cat\t0.5\nHello big world\thello there\t0.1\nx\tx\t0.7\n' >c.tsv
cat >vectors.txt <<'EOF'
the 0.1 0.2 0.3
cat 0.5 0.1 0.2
dog 0.4 0.2 0.2
sat 0.1 0.9 0.1
one 0.3 0.3 0.1
big 0.2 0.1 0.8
hello 0.6 0.6 0.6
a 0.9 0.1 0.1
zebra 1 1 1
EOF

# --embeddings without --align static: refused on every command that takes it, before reading.
bounded 60 2 "add --align static" -- run_mpi 2 score --input c.tsv --embeddings vectors.txt --output u.h5
grep -q -- "--embeddings vectors.txt is read by --align static only" err.txt || fail "message lacks the option: $(cat err.txt)"
[ ! -e u.h5 ] || fail "output written with --embeddings and no --align static"
bounded 60 2 "add --align static" -- run_mpi 2 score --input c.tsv --align uniform --embeddings vectors.txt --output u.h5
bounded 60 2 "add --align static" -- run_mpi 2 sweep --input c.tsv --score-col 3 --thresholds 0.5 --embeddings vectors.txt --output u.h5
bounded 60 2 "add --align static" -- run_mpi 2 balance --input c.tsv --label-cols 3 --label-buckets 3=0.5 --min-share 0 \
  --by-label --embeddings vectors.txt --output u.h5
printf 'input = "c.tsv"\nembeddings = "vectors.txt"\n' >embeddings.toml
bounded 60 2 'align = "static" in a --config file' -- run_mpi 2 score --config embeddings.toml --output u.h5
[ ! -e u.h5 ] || fail "output written with a config's embeddings and no align"
echo "ok: --embeddings without --align static is a usage error"

# Coverage: hand counts, the same bits on 1, 2 and 3 ranks.
coverage() {
  timeout 60 "$PY" - "$1" <<'PY'
import sys, h5py
c = h5py.File(sys.argv[1], "r")["corpus"].attrs
names = ["vx_with_vector", "vy_with_vector", "spread_words", "spread_by_vectors",
         "vector_share_vx", "vector_share_vy", "vector_share_mass"]
print(" ".join(repr(c[n].item()) for n in names))
PY
}
expected="6 7 4 2 $("$PY" -c 'print(repr(6/8), repr(7/9), repr(2/4))')"
for n in 1 2 3 4; do
  succeeds 120 run_mpi "$n" score --input c.tsv --align static --embeddings vectors.txt --output s$n.h5
  got=$(coverage s$n.h5) || fail "no coverage attributes on /corpus of s$n.h5"
  [ "$got" = "$expected" ] || fail "coverage on $n ranks: got '$got', expected '$expected'"
  grep -q "vectors      6 of 8 input types (75.0 %), 7 of 9 output types (77.7 %) have a vector in vectors.txt" out.txt \
    || fail "summary on $n ranks lacks the types' coverage: $(cat out.txt)"
  grep -q 'by vectors   2 of 4 x\\y words (50.0 %) spread over y\\x by cosines, the rest evenly' out.txt \
    || fail "summary on $n ranks lacks the mass's coverage: $(cat out.txt)"
  ! grep -q "warning" err.txt || fail "a warning at 50 % and more: $(cat err.txt)"
  "$PY" "$HERE/../e2e/compare_h5.py" s1.h5 "s$n.h5" || fail "static alignment: 1 and $n ranks differ"
done
echo "ok: coverage 6/8, 7/9, 2/4 on 1, 2, 3 and 4 ranks, the same result on each"

# Under half: a warning per share, with what to check.
printf 'cat 1 0\ndog 0 1\n' >few.txt
bounded 120 0 "only 12.5 % of the input word types (1 of 8) have a vector in few.txt: is it cased" -- \
  run_mpi 2 score --input c.tsv --align static --embeddings few.txt --output few.h5
grep -q -- "only 22.2 % of the output word types (2 of 9) have a vector in few.txt" err.txt || fail "no output warning: $(cat err.txt)"
grep -q -- "only 25.0 % of the alignment mass static alignment spreads over y\\\\x (1 of 4 x\\\\y words)" err.txt \
  || fail "no mass warning: $(cat err.txt)"
grep -q -- "--no-lowercase" err.txt || fail "the warning does not name --no-lowercase: $(cat err.txt)"
echo "ok: coverage under 50 % is warned of"

# A file that covers no word of a side: refused before the alignment, no output.
printf 'zebra 1 0\nyak 0 1\n' >none.txt
bounded 60 2 "none of the 8 input and none of the 9 output word types of the corpus has a vector in none.txt" -- \
  run_mpi 3 score --input c.tsv --align static --embeddings none.txt --output none.h5
[ ! -e none.h5 ] || fail "output written with embeddings that cover no word"
printf 'dog 1 0\nthere 0 1\n' >output-only.txt
bounded 60 2 "none of the 8 input word types of the corpus has a vector in output-only.txt" -- \
  run_mpi 2 score --input c.tsv --align static --embeddings output-only.txt --output none.h5
echo "ok: embeddings that cover no word of a side are refused"

# A binary word2vec file: named as such, with how to convert it.
"$PY" - <<'PY'
import struct
words = {"the": (0.1, 0.2, 0.3), "cat": (0.5, 0.1, 0.2), "dog": (0.4, 0.2, 0.2)}
with open("vectors.bin", "wb") as f:
    f.write(b"%d 3\n" % len(words))
    for word, values in words.items():
        f.write(word.encode() + b" " + struct.pack("<3f", *values) + b"\n")
PY
bounded 60 2 "vectors.bin:2: not a line of text" -- \
  run_mpi 2 score --input c.tsv --align static --embeddings vectors.bin --output bin.h5
grep -q "a binary word2vec file" err.txt && grep -q "save_word2vec_format('vectors.bin.txt', binary=False)" err.txt \
  || fail "the binary file's message does not say how to convert it: $(cat err.txt)"
echo "ok: a binary word2vec file is named as such"
