"""Reads every YAML file under a task tree with lm-eval's own loader and
writes one JSON line per file: {"path", "value"} (pycanon.py's canonical
form) or {"path", "error"}. scripts/pyyaml-scan.sh compares lmeval with it.

  scan.py TASKS_DIR OUT.jsonl
"""
import json
import os
import sys

import yaml

from pycanon import canon, lmeval_loader


def main():
    root, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    paths = []
    for d, _, names in os.walk(root):
        paths += [os.path.join(d, n) for n in names if n.endswith((".yaml", ".yml"))]
    paths.sort()
    loaders = {}
    with open(out, "w") as f:
        for p in paths:
            d = os.path.dirname(p)
            if d not in loaders:
                loaders[d] = lmeval_loader(d)
            rec = {"path": p}
            try:
                with open(p, "rb") as fh:
                    rec["value"] = canon(yaml.load(fh, Loader=loaders[d]))
            except Exception as e:
                rec["error"] = type(e).__name__ + ": " + str(e).splitlines()[0]
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(f"{len(paths)} files", file=sys.stderr)


if __name__ == "__main__":
    main()
