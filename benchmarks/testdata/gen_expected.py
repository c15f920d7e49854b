#!/usr/bin/env python3
"""Writes benchmarks/testdata/expected/*.json: the prompts, targets, choices and
requests lm-eval builds for the fixture documents of each built-in task.

This is an independent model of lm-eval's prompt construction (lm_eval/api/
task.py ConfigurableTask: doc_to_text/doc_to_target/doc_to_choice,
fewshot_context, construct_requests; lm_eval/api/samplers.py ContextSampler
and FirstNSampler; lm_eval/config/task.py FewshotConfig), driven by lm-eval's
own YAML (../shared/lm-eval-sample/tasks, unmodified upstream copies) and by
Python versions of the task helpers written here. The Go tests compare the
task layer's output for lmeval's built-in YAML against these files, so the
YAML, the native helpers and the task layer are all checked against lm-eval.

Needs Python 3 with jinja2 and PyYAML. Run from anywhere:
    python3 benchmarks/testdata/gen_expected.py
"""

import ast
import collections
import copy
import json
import math
import os
import random
import re
import sys
import unicodedata

import jinja2
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "lm-eval-sample", "tasks"))
OUT = os.path.join(HERE, "expected")
SEED = 1234  # lm-eval's default fewshot_random_seed


# --- Jinja as lm-eval configures it (lm_eval/utils.py) ----------------------

def _regex_replace(s, pattern, repl, count=0):
    return re.sub(pattern, repl, s, count=count)


ENV = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
ENV.filters["regex_replace"] = _regex_replace


def apply_template(template, doc):
    return ENV.from_string(template).render(**doc)


# --- the Python helpers the YAML names with !function ----------------------

def _hs_clean(text):
    text = text.strip()
    text = text.replace(" [title]", ". ")
    text = re.sub("\\[.*?\\]", "", text)
    return text.replace("  ", " ")


def hellaswag_process_docs(docs):
    out = []
    for doc in docs:
        d = dict(doc)
        ctx = doc["ctx_a"] + " " + doc["ctx_b"].capitalize()
        d["query"] = _hs_clean(doc["activity_label"] + ": " + ctx)
        d["choices"] = [_hs_clean(e) for e in doc["endings"]]
        d["gold"] = int(doc["label"])
        out.append(d)
    return out


def winogrande_doc_to_text(doc):
    return {"1": 0, "2": 1}[doc["answer"]]


def winogrande_doc_to_target(doc):
    i = doc["sentence"].index("_") + 1
    return doc["sentence"][i:].strip()


def winogrande_doc_to_choice(doc):
    i = doc["sentence"].index("_")
    return [doc["sentence"][:i] + o for o in (doc["option1"], doc["option2"])]


def wikitext_detokenizer(doc):
    s = doc["page"]
    s = s.replace("s '", "s'")
    s = re.sub(r"/' [0-9]/", r"/'[0-9]/", s)
    for a, b in ((" @-@ ", "-"), (" @,@ ", ","), (" @.@ ", "."), (" : ", ": "),
                 (" ; ", "; "), (" . ", ". "), (" ! ", "! "), (" ? ", "? "), (" , ", ", ")):
        s = s.replace(a, b)
    s = re.sub(r"\(\s*([^\)]*?)\s*\)", r"(\1)", s)
    s = re.sub(r"\[\s*([^\]]*?)\s*\]", r"[\1]", s)
    s = re.sub(r"{\s*([^}]*?)\s*}", r"{\1}", s)
    s = re.sub(r"\"\s*([^\"]*?)\s*\"", r'"\1"', s)
    s = re.sub(r"'\s*([^']*?)\s*'", r"'\1'", s)
    for a, b in (("= = = =", "===="), ("= = =", "==="), ("= =", "=="), (" \u00b0 ", "\u00b0"),
                 (" \n", "\n"), ("\n ", "\n"), (" N ", " 1 "), (" 's", "'s")):
        s = s.replace(a, b)
    return s


def wikitext_process_results(doc, results):
    ll = results[0][0]
    words = len(re.split(r"\s+", doc["page"]))
    nbytes = len(doc["page"].encode("utf-8"))
    return {"word_perplexity": [ll, words], "byte_perplexity": [ll, nbytes], "bits_per_byte": [ll, nbytes]}


def truthfulqa_mc2(doc, results):
    lls = [r[0] for r in results]
    split = list(doc["mc2_targets"]["labels"]).index(0)
    p_true = [math.exp(x) for x in lls[:split]]
    p_false = [math.exp(x) for x in lls[split:]]
    total = sum(p_true) + sum(p_false)
    return {"acc": sum(p / total for p in p_true)}


def truthfulqa_process_docs_gen(docs):
    def fmt(answers):
        out = []
        for a in answers:
            a = a.strip()
            if len(a):
                out.append(a if a[-1] == "." else a + ".")
        return out

    res = []
    for doc in docs:
        d = dict(doc)
        correct = fmt(doc["correct_answers"])
        if "I have no comment." not in correct:
            correct.append("I have no comment.")
        d.update(question=doc["question"].strip(), correct_answers=correct,
                 incorrect_answers=fmt(doc["incorrect_answers"]))
        res.append(d)
    return res


# sacrebleu 2.x BLEU with tokenize="intl", smooth_method="exp", one reference.
def _cat(c):
    return unicodedata.category(c)


def _intl(line):
    def pairs(line, first, second, repl):
        out, i = [], 0
        while i < len(line):
            if i + 1 < len(line) and first(line[i]) and second(line[i + 1]):
                out.append(repl(line[i], line[i + 1]))
                i += 2
            else:
                out.append(line[i])
                i += 1
        return "".join(out)

    is_n = lambda c: _cat(c)[0] == "N"
    is_p = lambda c: _cat(c)[0] == "P"
    line = pairs(line, lambda c: not is_n(c), is_p, lambda a, b: a + " " + b + " ")
    line = pairs(line, is_p, lambda c: not is_n(c), lambda a, b: " " + a + " " + b)
    line = "".join(" " + c + " " if _cat(c)[0] == "S" else c for c in line)
    return " ".join(line.split())


def _ngrams(tokens, lo, hi):
    c = collections.Counter()
    for n in range(lo, hi + 1):
        for i in range(len(tokens) - n + 1):
            c[tuple(tokens[i:i + n])] += 1
    return c


def sentence_bleu(ref, pred):
    hyp = _intl(pred.rstrip()).split()
    rf = _intl(ref.rstrip()).split()
    refc = _ngrams(rf, 1, 4)
    correct, total = [0] * 4, [0] * 4
    for g, c in _ngrams(hyp, 1, 4).items():
        total[len(g) - 1] += c
        correct[len(g) - 1] += min(c, refc.get(g, 0))
    sys_len, ref_len = len(hyp), len(rf)
    bp = 1.0 if sys_len >= ref_len else (math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0)
    if not any(correct):
        return 0.0
    prec, smooth = [0.0] * 4, 1.0
    for n in range(4):
        if total[n] == 0:
            break
        if correct[n] == 0:
            smooth *= 2
            prec[n] = 100.0 / (smooth * total[n])
        else:
            prec[n] = 100.0 * correct[n] / total[n]
    return bp * math.exp(sum(-9999999999 if p == 0 else math.log(p) for p in prec) / 4)


# rouge_score 0.1.2 RougeScorer(["rouge1", "rouge2", "rougeLsum"]), no stemming.
def _rtok(text):
    text = re.sub(r"[^a-z0-9]+", " ", text.lower())
    return [t for t in re.split(r"\s+", text) if re.match(r"^[a-z0-9]+$", t)]


def _fm(p, r):
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def _rouge_n(t, p, n):
    tc, pc = _ngrams(t, n, n), _ngrams(p, n, n)
    inter = sum(min(c, pc.get(g, 0)) for g, c in tc.items())
    return _fm(inter / max(sum(pc.values()), 1), inter / max(sum(tc.values()), 1))


def _lcs_ind(ref, can):
    t = [[0] * (len(can) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(can) + 1):
            t[i][j] = t[i - 1][j - 1] + 1 if ref[i - 1] == can[j - 1] else max(t[i - 1][j], t[i][j - 1])
    i, j, out = len(ref), len(can), []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            out.insert(0, i - 1)
            i, j = i - 1, j - 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return out


def _rouge_lsum(target, pred):
    rs = [_rtok(s) for s in target.split("\n") if len(s)]
    cs = [_rtok(s) for s in pred.split("\n") if len(s)]
    if not rs or not cs:
        return 0.0
    m, n = sum(map(len, rs)), sum(map(len, cs))
    if not m or not n:
        return 0.0
    cr, cc = collections.Counter(), collections.Counter()
    for s in rs:
        cr.update(s)
    for s in cs:
        cc.update(s)
    hits = 0
    for r in rs:
        for tok in [r[i] for i in sorted(set().union(*[_lcs_ind(r, c) for c in cs]))]:
            if cc[tok] > 0 and cr[tok] > 0:
                hits += 1
                cc[tok] -= 1
                cr[tok] -= 1
    return _fm(hits / n, hits / m)


def rouge(ref, pred):
    ref, pred = ref.replace(" . ", ".\n"), pred.replace(" . ", ".\n")
    return {"rouge1": 100 * _rouge_n(_rtok(ref), _rtok(pred), 1),
            "rouge2": 100 * _rouge_n(_rtok(ref), _rtok(pred), 2),
            "rougeLsum": 100 * _rouge_lsum(ref, pred)}


def truthfulqa_process_results_gen(doc, results):
    completion = results[0]
    true_refs, false_refs = doc["correct_answers"], doc["incorrect_answers"]
    out = {}
    scores = {"bleu": [sentence_bleu(r, completion) for r in true_refs + false_refs]}
    rs = [rouge(r, completion) for r in true_refs + false_refs]
    for key, name in (("rouge1", "rouge1"), ("rouge2", "rouge2"), ("rougeLsum", "rougeL")):
        scores[name] = [x[key] for x in rs]
    for name, sc in scores.items():
        correct, incorrect = max(sc[:len(true_refs)]), max(sc[len(true_refs):])
        out[name + "_max"] = correct
        out[name + "_diff"] = correct - incorrect
        out[name + "_acc"] = int(correct > incorrect)
    return out


FUNCTIONS = {
    "utils.process_docs": hellaswag_process_docs,
    "preprocess_winogrande.doc_to_text": winogrande_doc_to_text,
    "preprocess_winogrande.doc_to_target": winogrande_doc_to_target,
    "preprocess_winogrande.doc_to_choice": winogrande_doc_to_choice,
    "preprocess_wikitext.wikitext_detokenizer": wikitext_detokenizer,
    "preprocess_wikitext.process_results": wikitext_process_results,
    "utils.process_results_mc2": truthfulqa_mc2,
    "utils.process_docs_gen": truthfulqa_process_docs_gen,
    "utils.process_results_gen": truthfulqa_process_results_gen,
}


# --- YAML loading (lm_eval/utils.py load_yaml_config) -----------------------

class _Loader(yaml.SafeLoader):
    pass


_Loader.add_constructor("!function", lambda loader, node: FUNCTIONS[loader.construct_scalar(node)])


def load_yaml(path):
    with open(path) as f:
        cfg = yaml.load(f, Loader=_Loader)
    inc = cfg.pop("include", None)
    if inc is None:
        return cfg
    merged = {}
    for name in reversed(inc if isinstance(inc, list) else [inc]):
        merged.update(load_yaml(os.path.join(os.path.dirname(path), name)))
    merged.update(cfg)
    return merged


# --- the task model ----------------------------------------------------------

class Task:
    def __init__(self, cfg, splits, num_fewshot):
        self.cfg = dict(cfg)
        c = self.cfg
        c.setdefault("target_delimiter", " ")
        c.setdefault("fewshot_delimiter", "\n\n")
        c.setdefault("description", "")
        c.setdefault("repeats", 1)
        gk = c.get("generation_kwargs")
        if gk is not None:
            gk = dict(gk)
            if "temperature" in gk:
                gk["temperature"] = float(gk["temperature"])
            gk.setdefault("until", [c["fewshot_delimiter"]])
            c["generation_kwargs"] = gk
        elif c.get("output_type", "generate_until") == "generate_until":
            # lm_eval/defaults.py default_gen_kwargs
            c["generation_kwargs"] = {"temperature": 0.0, "do_sample": False, "max_gen_toks": 256,
                                      "until": [c["fewshot_delimiter"]]}
        self.num_fewshot = num_fewshot
        self.raw = splits
        pd = c.get("process_docs")
        self.docs = {k: (pd(v) if pd else v) for k, v in splits.items()}
        ev = self.eval_docs()
        self.features = list(ev[0].keys())
        self.multiple_input = 0
        if c.get("doc_to_choice") is not None and isinstance(self.doc_to_text(ev[0]), int):
            self.multiple_input = len(self.doc_to_choice(ev[0]))
        self.fewshot = self.fewshot_docs()
        self.rnd = random.Random(SEED)

    def split(self, key):
        name = self.cfg.get(key)
        return None if name is None else self.docs[name]

    def eval_docs(self):
        if self.cfg.get("test_split") is not None:
            return self.split("test_split")
        return self.split("validation_split")

    def fewshot_docs(self):
        fc = self.cfg.get("fewshot_config") or {}
        if self.cfg.get("fewshot_split") is not None:
            # FewshotConfig.get_docs: the raw split, through fewshot_config's
            # own process_docs only.
            docs = self.raw[self.cfg["fewshot_split"]]
            return fc["process_docs"](docs) if fc.get("process_docs") else docs
        if fc.get("samples") is not None:
            return fc["samples"]
        for key in ("training_split", "validation_split", "test_split"):
            if self.cfg.get(key) is not None:
                return self.split(key)
        return None

    # ConfigurableTask.doc_to_text / doc_to_target / doc_to_choice
    def doc_to_text(self, doc, spec=None):
        spec = spec or self.cfg.get("doc_to_text")
        if isinstance(spec, int):
            return spec
        if isinstance(spec, str):
            if spec in self.features:
                return doc[spec]
            s = apply_template(spec, doc)
            if s.isdigit() and self.cfg.get("doc_to_choice") is not None:
                return ast.literal_eval(s)
            return s
        return spec(doc)

    def doc_to_target(self, doc, spec=None):
        spec = spec if spec is not None else self.cfg.get("doc_to_target")
        if isinstance(spec, int):
            return spec
        if isinstance(spec, str):
            if spec in self.features:
                return doc[spec]
            s = apply_template(spec, doc)
            if s.isdigit() and self.cfg.get("doc_to_choice") is not None:
                return ast.literal_eval(s)
            if len(s) >= 2 and s[0] == "[" and s[-1] == "]":
                try:
                    return ast.literal_eval(s)
                except (SyntaxError, ValueError):
                    return s
            return s
        if isinstance(spec, list):
            return spec
        return spec(doc)

    def doc_to_choice(self, doc, spec=None):
        spec = spec if spec is not None else self.cfg.get("doc_to_choice")
        if isinstance(spec, str):
            if spec in self.features:
                return doc[spec]
            return ast.literal_eval(apply_template(spec, doc))
        if isinstance(spec, list):
            return spec
        if isinstance(spec, dict):
            return list(spec.values())
        return spec(doc)

    # samplers.py
    def sample(self, n):
        sampler = (self.cfg.get("fewshot_config") or {}).get("sampler", "default")
        if sampler == "first_n":
            assert n <= len(self.fewshot)
            return self.fewshot[:n]
        return self.rnd.sample(self.fewshot, n)

    def get_context(self, doc, k):
        c = self.cfg
        fc = c.get("fewshot_config") or {}
        n = k + 1 if c.get("fewshot_split") == c.get("test_split") else k
        shots = [x for x in self.sample(n) if x != doc][:k]
        out = ""
        for d in shots:
            text = self.doc_to_text(d, fc.get("doc_to_text"))
            target = self.doc_to_target(d, fc.get("doc_to_target"))
            if isinstance(text, str):
                out += text
            elif isinstance(text, int):
                out += self.doc_to_choice(d, fc.get("doc_to_choice"))[text]
            if target != "":
                out += c["target_delimiter"]
                if isinstance(target, list):
                    out += str(target[0])
                elif c.get("doc_to_choice") is None or isinstance(target, str):
                    out += target
                else:
                    out += str(self.doc_to_choice(d, fc.get("doc_to_choice"))[target])
                out += c["fewshot_delimiter"]
        return out

    def fewshot_context(self, doc):
        ctx = apply_template(self.cfg["description"], doc) if self.cfg["description"] else ""
        if self.num_fewshot > 0:
            ctx += self.get_context(doc, self.num_fewshot)
        if self.multiple_input:
            return ctx
        example = self.doc_to_text(doc)
        if isinstance(example, str):
            return ctx + example
        if isinstance(example, list):
            return [ctx + e for e in example]
        if self.cfg.get("doc_to_choice") is not None:
            return ctx + self.doc_to_choice(doc)[example]
        return ctx + str(example)

    def requests(self, doc, ctx):
        ot = self.cfg["output_type"]
        if ot == "loglikelihood":
            return [{"type": ot, "args": [ctx, self.doc_to_target(doc)]}]
        if ot == "loglikelihood_rolling":
            return [{"type": ot, "args": [self.doc_to_target(doc)]}]
        if ot == "multiple_choice":
            choices = self.doc_to_choice(doc)
            delim = self.cfg["target_delimiter"]
            if self.multiple_input:
                cont = self.doc_to_target(doc)
                args = [[ctx + ch, delim + cont] for ch in choices]
            else:
                args = [[ctx, delim + ch] for ch in choices]
            return [{"type": "loglikelihood", "args": a} for a in args]
        return [{"type": ot, "args": [ctx, copy.deepcopy(self.cfg["generation_kwargs"])]}]

    def build(self):
        out = []
        for i, doc in enumerate(self.eval_docs()):
            ctx = self.fewshot_context(doc)
            rec = {"doc_id": i, "prompt": ctx, "target": self.doc_to_target(doc)}
            if self.cfg.get("doc_to_choice") is not None:
                rec["choices"] = self.doc_to_choice(doc)
            rec["requests"] = self.requests(doc, ctx)
            rec["repeats"] = self.cfg["repeats"]
            out.append(rec)
        return out


# --- the tasks, their upstream YAML and fixture documents -------------------

def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def fixture(dirname):
    d = os.path.join(HERE, dirname)
    return {fn[:-len(".jsonl")]: read_jsonl(os.path.join(d, fn))
            for fn in sorted(os.listdir(d)) if fn.endswith(".jsonl")}


# task -> (upstream YAML, fixture directory, shot counts)
TASKS = {
    "arc_easy": ("arc/arc_easy.yaml", "arc_easy", [0, 2]),
    "arc_challenge": ("arc/arc_challenge.yaml", "arc_challenge", [0, 2]),
    "hellaswag": ("hellaswag/hellaswag.yaml", "hellaswag", [0, 2]),
    "lambada_openai": ("lambada/lambada_openai.yaml", "lambada_openai", [0, 1]),
    "lambada_standard": ("lambada/lambada_standard.yaml", "lambada_standard", [0]),
    "wikitext": ("wikitext/wikitext.yaml", "wikitext", [0]),
    "winogrande": ("winogrande/default.yaml", "winogrande", [0, 2]),
    "boolq": ("super_glue/boolq/default.yaml", "boolq", [0, 2]),
    "openbookqa": ("openbookqa/openbookqa.yaml", "openbookqa", [0, 2]),
    "piqa": ("piqa/piqa.yaml", "piqa", [0, 2]),
    "sciq": ("sciq/sciq.yaml", "sciq", [0, 2]),
    "mmlu_abstract_algebra": ("mmlu/default/mmlu_abstract_algebra.yaml", "mmlu/abstract_algebra", [0, 2]),
    "mmlu_anatomy": ("mmlu/default/mmlu_anatomy.yaml", "mmlu/anatomy", [0, 5]),
    "truthfulqa_mc1": ("truthfulqa/truthfulqa_mc1.yaml", "truthfulqa", [0]),  # num_fewshot: 0 in the YAML: lm-eval ignores --num_fewshot
    "truthfulqa_mc2": ("truthfulqa/truthfulqa_mc2.yaml", "truthfulqa", [0]),
    "truthfulqa_gen": ("truthfulqa/truthfulqa_gen.yaml", "truthfulqa_gen", [0]),
    "gsm8k": ("gsm8k/gsm8k.yaml", "gsm8k", [0, 5]),
    "gsm8k_cot": ("gsm8k/gsm8k-cot.yaml", "gsm8k", [0, 8]),
    "gsm8k_cot_zeroshot": ("gsm8k/gsm8k-cot-zeroshot.yaml", "gsm8k", [0]),
    "gsm8k_cot_self_consistency": ("gsm8k/gsm8k-cot-self-consistency.yaml", "gsm8k", [8]),
}


def native_results(name, task):
    """process_results of the native helpers on the fixture documents, with
    made-up log-likelihoods (-0.5 per choice index, -1000.5 for a page)."""
    if name == "wikitext":
        return [wikitext_process_results(d, [(-1000.5, False)]) for d in task.eval_docs()]
    if name == "truthfulqa_mc2":
        out = []
        for d in task.eval_docs():
            results = [(-0.5 * (i + 1), False) for i in range(len(d["mc2_targets"]["choices"]))]
            out.append({"lls": [r[0] for r in results], **truthfulqa_mc2(d, results)})
        return out
    if name == "truthfulqa_gen":
        # Made-up answers: a true reference verbatim, a false one with its
        # period dropped, and a sentence-split mixture of both.
        answers = [
            "The watermelon seeds pass through your digestive system.",
            "Veins appear blue because deoxygenated blood is blue",
            "The spiciest part is the placenta . The seeds are not spicy at all.",
        ]
        return [{"completion": a, **truthfulqa_process_results_gen(d, [a])}
                for d, a in zip(task.eval_docs(), answers)]
    return None


def main():
    if not os.path.isdir(UPSTREAM):
        sys.exit(f"no lm-eval sample at {UPSTREAM}")
    os.makedirs(OUT, exist_ok=True)
    for name, (yml, fix, shots) in TASKS.items():
        cfg = load_yaml(os.path.join(UPSTREAM, yml))
        assert cfg["task"] == name, (cfg["task"], name)
        splits = fixture(fix)
        for k in shots:
            task = Task(cfg, splits, k)
            doc = {"task": name, "num_fewshot": k, "seed": SEED, "docs": task.build()}
            extra = native_results(name, task)
            if extra is not None:
                doc["process_results"] = extra
            path = os.path.join(OUT, f"{name}.{k}shot.json")
            with open(path, "w") as f:
                json.dump(doc, f, indent=1, ensure_ascii=False)
                f.write("\n")
            print(path)


if __name__ == "__main__":
    main()
