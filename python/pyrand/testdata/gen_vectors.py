#!/usr/bin/env python3
"""Generates vectors.json: what CPython's random.Random draws for given seeds.

Run from this directory with python3 (3.11 was used) to regenerate:
    python3 gen_vectors.py > vectors.json
"""
import json
import random

seeds = [0, 1, 42, 1234, -1234, 2**32 - 1, 2**32, 2**40 + 12345, 2**63 - 1]
out = {"uint32": [], "random": [], "getrandbits": [], "randbelow": [],
       "sample": [], "shuffle": [], "choice": [], "sequence": []}

for s in seeds:
    r = random.Random(s)
    out["uint32"].append({"seed": s, "values": [r.getrandbits(32) for _ in range(700)]})
    r = random.Random(s)
    out["random"].append({"seed": s, "values": [r.random() for _ in range(20)]})
    r = random.Random(s)
    ks = [1, 5, 31, 32, 33, 47, 63, 64]
    out["getrandbits"].append({"seed": s, "ks": ks, "values": [str(r.getrandbits(k)) for k in ks]})
    r = random.Random(s)
    ns = [1, 2, 3, 7, 10, 100, 1000, 12345, 2**31 + 11, 2**40 + 3]
    out["randbelow"].append({"seed": s, "ns": ns, "values": [r._randbelow(x) for x in ns]})

# sample: both branches (pool for small populations, set for large ones)
for s in [1234, 7, 99]:
    for n, k in [(5, 0), (5, 2), (10, 3), (21, 21), (22, 3), (25, 6), (100, 5), (100, 6),
                 (1000, 11), (5000, 26), (100000, 50), (40, 40)]:
        r = random.Random(s)
        out["sample"].append({"seed": s, "n": n, "k": k, "values": r.sample(range(n), k)})

for s in [1234, 5]:
    for n in [1, 2, 10, 57]:
        r = random.Random(s)
        x = list(range(n))
        r.shuffle(x)
        out["shuffle"].append({"seed": s, "n": n, "values": x})
    r = random.Random(s)
    out["choice"].append({"seed": s, "n": 13, "values": [r.choice(range(13)) for _ in range(30)]})

# lm-eval's pattern: one generator, sample() called repeatedly (n+1 per document).
r = random.Random(1234)
out["sequence"] = {"seed": 1234, "n": 50, "k": 6,
                   "values": [r.sample(range(50), 6) for _ in range(20)]}

json.dump(out, __import__("sys").stdout)
