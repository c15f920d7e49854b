#!/usr/bin/env python3
"""Generates numpy_vectors.json: what numpy's legacy generator draws.

Run from this directory with Debian's python3 and python3-numpy (1.24 was
used) to regenerate:
    python3 gen_numpy.py > numpy_vectors.json
(moved here from python/pyrand with its replayer: nprand is the one numpy
generator)
"""
import json

import numpy as np

out = {"numpy": np.__version__, "uint32": [], "choice": []}
for s in [0, 1, 1234, 2**32 - 1]:
    np.random.seed(s)
    out["uint32"].append({"seed": s, "values": [int(x) for x in np.random.randint(0, 2**32, size=700, dtype=np.uint64)]})
    for n in [1, 2, 3, 5, 8, 9, 100, 1000, 2**31 + 5]:
        np.random.seed(s)
        # rouge_score's bootstrap: np.random.choice(np.arange(n), size=n),
        # twice, then where the generator stands.
        m = min(n, 50)
        a = np.random.choice(np.arange(m), size=m) if n == m else np.random.randint(0, n, size=20)
        b = np.random.randint(0, n, size=20)
        out["choice"].append({"seed": s, "n": n, "m": m, "first": [int(x) for x in a], "second": [int(x) for x in b],
                              "pos": int(np.random.get_state()[2])})
print(json.dumps(out))
