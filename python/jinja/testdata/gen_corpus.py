#!/usr/bin/env python3
"""Generate corpus.jsonl: the expected renderings of lm-eval's Jinja templates.

usage: python3 gen_corpus.py            (run in this directory)

Needs only python3 and jinja2 (3.1.6 was used). For every template in
templates.jsonl it synthesises documents (ASCII and Unicode: non-breaking and
ideographic spaces at the ends, CJK, accents, quotes) whose fields have the
shapes the template uses (found by walking jinja2's AST), renders them with
the environment lm-eval uses (lm_eval/utils.py apply_template:
Environment(undefined=StrictUndefined, keep_trailing_newline=True) plus the
regex_replace filter), and writes one line per case:

    {"template": ..., "doc": {...}, "expected": "<output>" | {"error": true},
     "value": <ast.literal_eval(output)>   (only when that is a list),
     "env": "hf"   (only for chat templates, rendered in transformers'
                    environment instead of lm-eval's)}

Entries of templates.jsonl with "docs" are rendered with those documents
instead of synthesised ones (chat templates need message lists).

The Go test TestCorpus renders every line and requires >= 99.5% identical.
"""
import ast
import json
import random
import re

from jinja2 import Environment, StrictUndefined, TemplateError, meta, nodes
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment


def regex_replace(string, pattern, repl, count: int = 0):
    return re.sub(pattern, repl, string, count=count)


ENV = Environment(undefined=StrictUndefined, keep_trailing_newline=True)
ENV.filters["regex_replace"] = regex_replace


def raise_exception(message):
    raise TemplateError(message)


# transformers' chat-template environment (PreTrainedTokenizerBase
# ._compile_jinja_template): entries with "env": "hf" render in it.
HF_ENV = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
HF_ENV.globals["raise_exception"] = raise_exception


def hf_tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


HF_ENV.filters["tojson"] = hf_tojson

STR_METHODS = set(dir(str))
LIST_ONLY = {"append", "extend", "pop", "insert", "reverse", "sort", "copy", "remove", "clear"}
DICT_METHODS = {"items", "keys", "values", "get"}
LIST_FILTERS = {"join", "first", "last", "list", "map", "select", "reject", "selectattr", "rejectattr",
                "sort", "unique", "sum", "max", "min", "batch", "slice", "random"}

ASCII = ["A", "B", "C", "D", "1", "2", "3", "the cat sat on the mat", "Paris", "yes", "no",
         "It's a test.", "He said \"hi\"", "  leading and trailing  ", "line one\nline two",
         "3.5", "42", "The answer is 7 #### 7", "x (y) z", "Answer: B", "end."]
UNICODE = ["\u00a0café au lait\u00a0", "東京は日本の首都です。", "naïve résumé", "\u3000全角スペース\u3000",
           "Ünïcödé ✓ done", "\u2003em space\u2003", "Ελληνικά κείμενο", "😀 emoji", "日本語 #### 答え",
           "Привет, мир", "\u200bzero width", "tab\there", "ß straße"]


def path_of(n):
    if isinstance(n, nodes.Name):
        return [n.name]
    if isinstance(n, nodes.Getattr):
        p = path_of(n.node)
        return p + [("attr", n.attr)] if p is not None else None
    if isinstance(n, nodes.Getitem) and isinstance(n.arg, nodes.Const):
        p = path_of(n.node)
        return p + [("item", n.arg.value)] if p is not None else None
    return None


class Shapes:
    def __init__(self):
        self.tree = {}

    def mark(self, path, kind):
        if not path:
            return
        d = self.tree.setdefault(path[0], {"kind": None, "sub": {}})
        for step in path[1:]:
            if d["kind"] in (None, "str") or d["kind"] == "int":
                d["kind"] = "dict" if isinstance(step[1], str) else "list"
            d = d["sub"].setdefault(step[1], {"kind": None, "sub": {}})
        if d["kind"] is None or kind in ("list", "dict"):
            d["kind"] = kind


def infer(template):
    tree = ENV.parse(template)
    sh = Shapes()
    declared = set()
    for n in tree.find_all((nodes.Assign, nodes.For)):
        for t in n.target.find_all(nodes.Name):
            declared.add(t.name)
    for n in tree.find_all(nodes.Getattr):
        p = path_of(n.node)
        if p is None:
            continue
        if n.attr in STR_METHODS and n.attr not in ("index", "count"):
            sh.mark(p, "str")
        elif n.attr in LIST_ONLY:
            sh.mark(p, "list")
        elif n.attr in DICT_METHODS:
            sh.mark(p, "dict")
        elif n.attr in ("index", "count"):
            sh.mark(p, "list")
        else:
            sh.mark(p + [("attr", n.attr)], None)
    for n in tree.find_all(nodes.Getitem):
        p = path_of(n.node)
        if p is None:
            continue
        if isinstance(n.arg, nodes.Slice):
            sh.mark(p, "str")
        elif isinstance(n.arg, nodes.Const):
            sh.mark(p + [("item", n.arg.value)], None)
        else:
            sh.mark(p, "list")
    for n in tree.find_all(nodes.Filter):
        p = path_of(n.node) if n.node is not None else None
        if p is None:
            continue
        attr = [k.value.value for k in n.kwargs if k.key == "attribute" and isinstance(k.value, nodes.Const)]
        if n.name in ("map", "selectattr", "rejectattr", "sum", "join") and attr:
            sh.mark(p + [("item", 0), ("attr", attr[0])], None)
        elif n.name in LIST_FILTERS:
            sh.mark(p, "list")
        elif n.name in ("int", "float"):
            sh.mark(p, "numstr")
    for n in tree.find_all(nodes.BinExpr):
        for side in (n.left, n.right):
            p = path_of(side)
            other = n.right if side is n.left else n.left
            if p is not None and isinstance(other, nodes.Const) and isinstance(other.value, int):
                sh.mark(p, "int")
    for n in tree.find_all(nodes.Name):
        if n.ctx == "load" and n.name not in declared and n.name not in ("range", "dict", "namespace", "loop", "true", "false", "none", "True", "False", "None"):
            sh.mark([n.name], None)
    consts = sorted({c.value for c in tree.find_all(nodes.Const) if isinstance(c.value, str) and 0 < len(c.value) < 12})
    return sh.tree, consts


# Shapes for the variable names of the one-line "gap" templates.
HINTS = {
    "n": lambda rng: rng.choice([0, 1, 2, 3, 7, -4, 10]),
    "x": lambda rng: rng.choice([0.1, 2.5, -1.25, 1e-05, 3.0, 0.5, 1.5, 2.675, 12345.678, 1e16]),
    "meta": lambda rng: rng.choice([{"a": 1, "b": "two"}, {"a": [1.5, None], "z": True}, {}]),
    "choices": lambda rng: rng.sample(["A", "b", "C", "it's", "東京", "\u00a0x\u00a0", "d"], rng.choice([0, 2, 3, 4])),
}


def make(spec, rng, pool, key):
    kind = spec["kind"]
    sub = spec["sub"]
    if key in HINTS and not sub and kind in (None, "str", "list", "dict", "int", "numstr"):
        if rng.random() < 0.8:
            return HINTS[key](rng)
    if kind == "dict" or (kind is None and sub and all(isinstance(k, str) for k in sub)):
        return {k: make(v, rng, pool, k) for k, v in sub.items()}
    if kind == "list" or (kind is None and sub):
        n = max([k + 1 for k in sub if isinstance(k, int) and k >= 0] + [rng.choice([2, 3, 4, 5])])
        elem = {"kind": None, "sub": {}}
        for k, v in sub.items():
            if isinstance(k, int):
                elem = v
        shared = dict(elem)
        return [make(shared, rng, pool, key) for _ in range(n)]
    if kind == "int":
        return rng.choice([0, 1, 2, 3, 4])
    if kind == "numstr":
        return rng.choice(["1", "2", "3", "4", 1, 2, "3.0", "x"])
    r = rng.random()
    if r < 0.03:
        return None
    if r < 0.06:
        return rng.choice([0, 1, 2, 2.5, 1e-05, True])
    return rng.choice(pool)


def render(template, doc, env=ENV):
    try:
        return env.from_string(template).render(**doc), None
    except Exception as e:  # noqa: BLE001 - any failure is an expected error
        return None, e


def cases(template):
    tree, consts = infer(template)
    out = []
    for flavor, base in (("ascii", ASCII), ("unicode", UNICODE)):
        pool = base + consts * 2
        ok = err = 0
        seen = set()
        for seed in range(60):
            rng = random.Random(f"{template}|{flavor}|{seed}")
            doc = {name: make(spec, rng, pool, name) for name, spec in tree.items()}
            text, e = render(template, doc)
            if e is not None:
                if err < 1:
                    err += 1
                    out.append({"template": template, "doc": doc, "expected": {"error": True}})
                continue
            if text in seen:
                continue
            seen.add(text)
            case = {"template": template, "doc": doc, "expected": text}
            try:
                v = ast.literal_eval(text)
                if isinstance(v, (list, tuple)):
                    case["value"] = list(v)
            except Exception:  # noqa: BLE001
                pass
            out.append(case)
            ok += 1
            if ok >= 3:
                break
    return out


def main():
    n = 0
    with open("corpus.jsonl", "w", encoding="utf-8") as f:
        for line in open("templates.jsonl", encoding="utf-8"):
            entry = json.loads(line)
            t = entry["template"]
            if "docs" in entry:
                env = HF_ENV if entry.get("env") == "hf" else ENV
                for doc in entry["docs"]:
                    text, e = render(t, doc, env)
                    c = {"template": t, "doc": doc, "expected": {"error": True} if e else text}
                    if entry.get("env"):
                        c["env"] = entry["env"]
                    f.write(json.dumps(c, ensure_ascii=False) + "\n")
                    n += 1
                continue
            try:
                cs = cases(t)
            except Exception as e:  # template does not parse in jinja2
                cs = [{"template": t, "doc": {}, "expected": {"error": True}}]
            for c in cs:
                f.write(json.dumps(c, ensure_ascii=False) + "\n")
                n += 1
    print(f"wrote {n} cases")
    # undeclared.jsonl: jinja2.meta.find_undeclared_variables of every
    # template that parses in lm-eval's environment (TestVariables).
    with open("undeclared.jsonl", "w", encoding="utf-8") as f:
        for line in open("templates.jsonl", encoding="utf-8"):
            entry = json.loads(line)
            if entry.get("env"):
                continue
            try:
                names = meta.find_undeclared_variables(ENV.parse(entry["template"]))
            except Exception:  # noqa: BLE001 - does not parse
                continue
            f.write(json.dumps({"template": entry["template"], "names": sorted(names)}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
