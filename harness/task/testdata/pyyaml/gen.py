"""Writes vectors.json: how PyYAML (yaml.safe_load) and lm-eval's own task
loader read YAML on which YAML 1.1 and yaml.v3's YAML 1.2 differ.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 harness/task/testdata/pyyaml/gen.py
"""
import json
import os

import yaml

from pycanon import canon, lmeval_loader

CASES = [
    ("slash_escape", 'a: "x\\/y"\n'),
    ("slash_escape_plain_kept", 'a: x\\/y\nb: \'p\\/q\'\nc: "r\\/s"\n'),
    ("slash_escape_block_kept", 'a: |\n  re\\/gex\nb: "u\\/v"\n'),
    ("squote_escape_refused", 'a: "it\\\'s"\n'),
    ("bool_yes_no", "a: yes\nb: no\nc: Yes\nd: NO\n"),
    ("bool_on_off", "a: on\nb: Off\nc: ON\n"),
    ("bool_true_false", "a: true\nb: False\nc: TRUE\n"),
    ("bool_y_n_strings", "a: y\nb: n\nc: Y\nd: N\n"),
    ("bool_mixed_case_string", "a: yEs\nb: tRUE\n"),
    ("octal_0o_string", "a: 0o17\n"),
    ("octal_leading_zero", "a: 017\nb: -012\n"),
    ("leading_zero_not_octal", "a: 08\nb: 09\n"),
    ("binary_hex", "a: 0b101\nb: 0x1F\nc: 0x_ff\n"),
    ("underscore_int", "a: 1_000\nb: 1_0_0\n"),
    ("sexagesimal_int", "a: 1:30\nb: 190:20:30\nc: -1:00\n"),
    ("sexagesimal_float", "a: 1:30.5\n"),
    ("float_needs_dot", "a: 1e3\nb: 1.0e3\nc: 1.0e+3\nd: 1.5E-2\n"),
    ("float_forms", "a: 1.\nb: .5\nc: -0.25\nd: 1_000.5\n"),
    ("float_inf_nan", "a: .inf\nb: -.Inf\nc: +.INF\nd: .nan\ne: .NaN\n"),
    ("inf_strings", "a: inf\nb: nan\nc: -.nan\n"),
    ("null_forms", "a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: nULL\n"),
    ("merge_key", "base: &b\n  x: 1\n  y: 2\nd:\n  <<: *b\n  y: 3\n"),
    ("merge_list", "a: &a {x: 1}\nb: &b {x: 2, z: 3}\nc:\n  <<: [*a, *b]\n"),
    ("value_key_refused", "a: =\n"),
    ("date", "a: 2024-01-02\n"),
    ("datetime", "a: 2001-12-14t21:59:43.10-05:00\nb: 2001-12-14 21:59:43.10\nc: 2001-1-2T03:04:05Z\nd: 2001-12-14 2:59:43 +5\n"),
    ("quoted_stays_string", "a: 'yes'\nb: \"017\"\nc: '1:30'\nd: \"1e3\"\n"),
    ("bool_key", "yes: 1\nno: 2\n"),
    ("int_key", "1: a\n017: b\n"),
    ("doc_to_choice_map", "doc_to_choice: {A: yes, B: '1', C: 1:30}\n"),
    ("explicit_tags", "a: !!str yes\nb: !!int 017\nc: !!float 1\nd: !!bool on\n"),
    ("function_tag", "process_docs: !function utils.process_docs\n"),
    ("plus_sign_int", "a: +12\nb: +0\n"),
    ("sign_only", "a: -\nb: +\n"),
    ("version_float", "version: 1.0\nv2: 2\nv3: 0.1.2\n"),
]


def load(fn, text):
    try:
        return {"value": canon(fn(text))}
    except Exception as e:  # the error is part of the vector
        return {"error": type(e).__name__ + ": " + str(e).splitlines()[0]}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    loader = lmeval_loader(here)
    out = []
    for name, text in CASES:
        safe = load(yaml.safe_load, text)
        lm = load(lambda t: yaml.load(t, Loader=loader), text)
        out.append({"name": name, "yaml": text, "safe_load": safe, "lm_eval": lm})
    with open(os.path.join(here, "vectors.json"), "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
