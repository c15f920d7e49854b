#!/usr/bin/env python3
"""Collect the Jinja templates of lm-eval task YAML files.

usage: extract_templates.py DIR... >> templates.jsonl

Prints one JSON line {"template": ..., "source": ...} per distinct
doc_to_text / doc_to_target / doc_to_choice / description / gen_prefix
string that contains Jinja syntax. Needs python3 and PyYAML.
"""
import json
import os
import sys

import yaml


class Loader(yaml.SafeLoader):
    pass


Loader.add_multi_constructor("!", lambda loader, suffix, node: None)

KEYS = ("doc_to_text", "doc_to_target", "doc_to_choice", "description", "gen_prefix")


def walk(cfg, path, seen):
    if isinstance(cfg, dict):
        for k, v in cfg.items():
            if k in KEYS and isinstance(v, str) and ("{{" in v or "{%" in v):
                if v not in seen:
                    seen.add(v)
                    print(json.dumps({"template": v, "source": path}, ensure_ascii=False))
            else:
                walk(v, path, seen)
    elif isinstance(cfg, list):
        for v in cfg:
            walk(v, path, seen)


def main():
    seen = set()
    for root in sys.argv[1:]:
        for d, _, files in sorted(os.walk(root)):
            for f in sorted(files):
                if f.endswith((".yaml", ".yml")) or f.startswith("_") and "yaml" in f:
                    p = os.path.join(d, f)
                    try:
                        cfg = yaml.load(open(p, encoding="utf-8"), Loader=Loader)
                    except yaml.YAMLError:
                        continue
                    walk(cfg, os.path.relpath(p, root), seen)


if __name__ == "__main__":
    main()
