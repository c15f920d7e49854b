#!/usr/bin/env python3
"""numpy's legacy draws for nprand's tests: /usr/bin/python3 python/nprand/testdata/gen.py > python/nprand/testdata/vectors.json"""
import json

import numpy as np

out = []
for seed in [0, 1, 1234, 2**32 - 1]:
    np.random.seed(seed)
    np.random.seed(seed)
    draws = []
    for n in [1, 2, 3, 7, 8, 10, 1000, 12345]:
        draws.append({"n": n, "choice": [int(x) for x in np.random.choice(np.arange(n), size=min(n, 50))]})
    out.append({"seed": seed, "draws": draws})
print(json.dumps(out))
