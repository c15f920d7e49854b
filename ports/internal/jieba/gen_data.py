#!/usr/bin/env python3
"""Writes data/ from jieba 0.42.1 (Debian's python3-jieba, the same release as
PyPI's jieba 0.42.1): its dictionary (dict.txt: word and frequency, in its order,
split in two gzip files under 1 MiB), the HMM's emission probabilities
(finalseg/prob_emit.py, exact as float.hex()), and Python's math.log of every
frequency the dictionary has and of its total, so the Go port sums exactly the
floats jieba sums.

usage (from the repository root):
  /usr/bin/python3 ports/internal/jieba/gen_data.py /usr/lib/python3/dist-packages/jieba ports/internal/jieba/data
"""
import gzip
import math
import os
import sys

src, out = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(src))
from jieba.finalseg.prob_emit import P as EMIT  # noqa: E402

lines, freqs, total = [], set(), 0
with open(os.path.join(src, "dict.txt"), "rb") as f:
    for line in f:
        line = line.strip().decode("utf-8")
        word, freq = line.split(" ")[:2]
        lines.append(word + " " + freq)
        freqs.add(int(freq))
        total += int(freq)
half = len(lines) // 2
for i, part in enumerate([lines[:half], lines[half:]]):
    with gzip.GzipFile(os.path.join(out, f"dict{i}.txt.gz"), "wb", 9, mtime=0) as g:
        g.write(("\n".join(part) + "\n").encode("utf-8"))
with gzip.GzipFile(os.path.join(out, "emit.txt.gz"), "wb", 9, mtime=0) as g:
    for state in "BMES":
        for ch, v in EMIT[state].items():
            g.write(f"{state}{ch}\t{v.hex()}\n".encode("utf-8"))
with gzip.GzipFile(os.path.join(out, "logs.txt.gz"), "wb", 9, mtime=0) as g:
    g.write(f"total {total} {math.log(total).hex()}\n".encode())
    for fr in sorted(freqs):
        if fr > 0:
            g.write(f"{fr} {math.log(fr).hex()}\n".encode())
