#!/usr/bin/python3
"""A topical corpus for selection quality: lines of 4-15 words from one of T
topics (300 Zipf-ranked words each) mixed with common words.
Usage: topical_corpus.py OUT LINES TOPICS SEED"""
import random
import sys

out, lines, topics, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
weights = [1 / (k + 1) for k in range(300)]
with open(out, "w") as f:
    for _ in range(lines):
        topic = rng.randrange(topics)
        words = []
        for _ in range(rng.randint(4, 15)):
            if rng.random() < 0.3:
                words.append(f"the{rng.choices(range(20), weights[:20])[0]}")
            else:
                words.append(f"t{topic}w{rng.choices(range(300), weights)[0]}")
        f.write(" ".join(words) + "\n")
