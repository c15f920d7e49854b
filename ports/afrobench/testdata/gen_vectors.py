#!/usr/bin/env python3
"""Reference vectors for ports/afrobench, from lm-eval's own helpers.

usage (from the repository root; the real packages, make parity's venv):
  build/parity/venv/bin/python scripts/parity/realgen_all.py afrobench
or, without them (Debian's Python, the stand-in below):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/afrobench/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks \
    > ports/afrobench/testdata/vectors.json

Each vector is a call of the real function (utils.py of the task tree, or
lm-eval's filter classes) on inputs chosen to reach its branches.

xlsum's rougeL_agg calls evaluate.load("rouge"). Where the real evaluate
cannot load its rouge metric (Debian's Python has neither evaluate nor
rouge_score), a stand-in `evaluate` module below restates evaluate's rouge
metric and rouge_score's RougeScorer and BootstrapAggregator (their
published source, not lmeval's) over the real numpy, whose generator the
bootstrap draws from.
"""
import collections
import importlib.util
import json
import re
import sys
import types
from contextlib import contextmanager

import lmevalref_compat  # noqa: F401
import numpy as np

TASKS = sys.argv[1]


# --- stand-in for evaluate.load("rouge") -----------------------------------
def _tokenize(text):
    text = text.lower()
    text = re.sub(r"[^a-z0-9]+", " ", text)
    tokens = re.split(r"\s+", text)
    return [x for x in tokens if re.match(r"^[a-z0-9]+$", x)]


def _fmeasure(p, r):
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def _ngrams(tokens, n):
    c = collections.Counter()
    for g in (tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)):
        c[g] += 1
    return c


def _score_ngrams(t, p):
    inter = sum(min(t[g], p[g]) for g in t)
    tn, pn = sum(t.values()), sum(p.values())
    prec, rec = inter / max(pn, 1), inter / max(tn, 1)
    return (prec, rec, _fmeasure(prec, rec))


def _lcs_table(ref, can):
    t = [[0] * (len(can) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(can) + 1):
            t[i][j] = t[i - 1][j - 1] + 1 if ref[i - 1] == can[j - 1] else max(t[i - 1][j], t[i][j - 1])
    return t


def _score_lcs(t, p):
    if not t or not p:
        return (0, 0, 0)
    lcs = _lcs_table(t, p)[-1][-1]
    prec, rec = lcs / len(p), lcs / len(t)
    return (prec, rec, _fmeasure(prec, rec))


def _lcs_ind(ref, can):
    t = _lcs_table(ref, can)
    i, j, lcs = len(ref), len(can), []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            lcs.insert(0, i - 1)
            i -= 1
            j -= 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return lcs


def _summary_level_lcs(ref_sent, can_sent):
    if not ref_sent or not can_sent:
        return (0, 0, 0)
    m, n = sum(map(len, ref_sent)), sum(map(len, can_sent))
    if not n or not m:
        return (0, 0, 0)
    cr, cc = collections.Counter(), collections.Counter()
    for s in ref_sent:
        cr.update(s)
    for s in can_sent:
        cc.update(s)
    hits = 0
    for r in ref_sent:
        union = sorted(set().union(*[_lcs_ind(r, c) for c in can_sent]))
        for t in [r[i] for i in union]:
            if cc[t] > 0 and cr[t] > 0:
                hits += 1
                cc[t] -= 1
                cr[t] -= 1
    prec, rec = hits / n, hits / m
    return (prec, rec, _fmeasure(prec, rec))


def _score(target, prediction, types_):
    tt, pt = _tokenize(target), _tokenize(prediction)
    out = {}
    for ty in types_:
        if ty == "rougeL":
            out[ty] = _score_lcs(tt, pt)
        elif ty == "rougeLsum":
            sents = lambda s: [_tokenize(x) for x in s.split("\n") if len(x)]
            out[ty] = _summary_level_lcs(sents(target), sents(prediction))
        else:
            n = int(ty[5:])
            out[ty] = _score_ngrams(_ngrams(tt, n), _ngrams(pt, n))
    return out


def _bootstrap_mid(matrix, n_samples=1000, ci=0.95):
    sample_mean = np.zeros((n_samples, matrix.shape[1]))
    for i in range(n_samples):
        idx = np.random.choice(np.arange(matrix.shape[0]), size=matrix.shape[0])
        sample_mean[i, :] = np.mean(matrix[idx, :], axis=0)
    d = (1 - ci) / 2
    return np.percentile(sample_mean, 100 * np.array([d, 0.5, 1 - d]), axis=0)[1]


@contextmanager
def _temp_seed(seed):
    state = np.random.get_state()
    np.random.seed(seed)
    try:
        yield
    finally:
        np.random.set_state(state)


class _Rouge:
    def __init__(self):
        _, seed, pos, *_ = np.random.get_state()
        self.seed = seed[pos] if pos < 624 else seed[0]

    def compute(self, predictions, references):
        types_ = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        scores = collections.defaultdict(list)
        for ref, pred in zip(references, predictions):
            for k, v in _score(ref, pred, types_).items():
                scores[k].append(v)
        with _temp_seed(self.seed):
            return {k: _bootstrap_mid(np.vstack(tuple(v)))[2] for k, v in scores.items()}


try:
    import evaluate

    evaluate.load("rouge")
except Exception:  # noqa: BLE001  (not installed, or its metric script unreachable)
    sys.modules["evaluate"] = types.SimpleNamespace(load=lambda name: _Rouge())
np.random.seed(1234)  # lm-eval's simple_evaluate


def load(rel):
    spec = importlib.util.spec_from_file_location(rel.replace("/", "_")[:-3], f"{TASKS}/{rel}")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def call(fn, *args):
    try:
        return {"output": fn(*args)}
    except Exception as e:  # noqa: BLE001
        return {"error": f"{type(e).__name__}: {e}"}


out = {}

# --- afriqa f1 ---------------------------------------------------------------
afriqa = load("afrobench/afriqa/prompt_1/utils.py")
out["afriqa_f1"] = [
    {"items": items, **call(afriqa.f1, items)}
    for items in [
        [["Paris", "Paris"]],
        [["The Eiffel Tower", "eiffel tower!"], ["an apple a day", "A day"], ["Nairobi", "Mombasa"]],
        [["Ọba Adé", "ọba, adé"], ["x y y z", "y y y"], ["one two", ""]],
        [["", "anything"], ["a", "the"]],
        [["Dar es Salaam, Tanzania", "dar es salaam"], ["1,000", "1000"], ["U.S.A.", "usa"], ["ÉCOLE", "école"]],
    ]
]

# --- masakhaner span_f1_agg and the format_span filter ----------------------------
ner = load("afrobench/masakhaner/prompt_1/utils.py")
ner_items = [
    [["PER: john $$ LOC: kenya", ["per: john $ loc: kenya"]]],
    [["PER: John Doe $$ ORG: The UN", ["per: john doe $ org: un"]], ["LOC: Lagos $$ LOC: Abuja", ["loc: lagos"]],
     ["DATE: 1999", ["date: 2000 $ per: musa"]]],
    [["PER: a#b $$ LOC: x•y", "PER: a b $$ LOC: x y"], ["PER: kofi, ama. LOC: accra", ["per: kofi $ per: ama $ loc: accra"]]],
    [["", [""]], ["PER: x", []], ["ORG: a: b $$ PER:  spaced   out ", ["org: a: b $ per: spaced out"]]],
    [["PER: Ngozi $$ PER: Ngozi", ["per: ngozi $ per: ngozi $ per: ngozi"]], ["LOC: Kano\tcity", ["loc: kano city"]]],
]
out["span_f1_agg"] = [{"items": items, **call(ner.span_f1_agg, items)} for items in ner_items]

from lm_eval.filters.extraction import POSFilter  # noqa: E402
from lm_eval.filters.transformation import SPANFilter  # noqa: E402

span_resps = [
    ["Person: John, Mary\nLocation: Kenya"],
    ["PER: Ali $$ ORG: none $$ LOC: Kano, None"],
    ["The entities are: organization: UN; country: Ghana $$"],
    ["people : Ama\ncompany:Acme Ltd\ntime: today date: 2020"],
    ["no entities here"],
    ["persons: Kofi $$$ places: Accra $$ continent: Africa $$"],
    ["  LOC: Paris  ", "PER: second response"],
]
out["format_span"] = [{"resps": r, "output": list(SPANFilter().apply([r], [{}]))[0]} for r in span_resps]
pos_resps = [
    ["[('Ọmọ', 'NOUN'), ('náà', 'DET'), ('lọ', 'VERB'), ('.', 'PUNCT')]"],
    ["Output: [(\"I\", \"PRON\")] and ('go', 'VERB')"],
    ["nothing tagged"],
    ["('a', 'X') ('b', '')", "('c', 'ADJ')"],
]
out["regex_pos"] = [{"resps": r, "output": list(POSFilter().apply([r], [{}]))[0]} for r in pos_resps]

# --- masakhapos doc_to_target and acc_score ---------------------------------------
pos = load("afrobench/masakhapos/prompt_1/utils.py")
out["pos_doc_to_target"] = [{"doc": d, **call(pos.doc_to_target, d)} for d in [
    {"id": "0", "tokens": ["a", "b"], "upos": list(range(18))},
    {"id": "1", "tokens": [], "upos": []},
    {"id": "2", "tokens": ["x"], "upos": [18]},
]]
out["acc_score"] = [{"items": items, **call(pos.acc_score, items)} for items in [
    [1.0, 1.0, 1.0],  # what lm-eval's acc gives documents with several targets
    [[["NOUN", "VERB", "PUNCT"], [["NOUN", "VERB", "NOUN"]]], [["DET"], [["DET", "NOUN"]]]],
    [[["NOUN", "ADJ"], [["NOUN"], ["ADJ", "X"]]], [["X"], [["invalid"]]]],
    [[["NOUN"], ["NOUN"]], [["ADP", "NUM"], [["ADP"]]]],
]]

# --- mafand prompts and targets ------------------------------------------------------
mafand_docs = [
    {"translation": {"amh": "ሰላም ለዓለም", "en": "Hello world"}},
    {"translation": {"en": "How are you?", "yor": "Báwo ni?"}},
    {"translation": {"fon": "A fɔ̀n à?", "fr": "Tu t'es réveillé ?"}},
    {"translation": {"fr": "Bonjour", "wol": "Salaam aleekum"}},
    {"translation": {"pcm": "How you dey", "en": "How are you"}},
]
fns = {
    "afrobench/mafand/prompt_1/african-english/utils.py": ["get_target", "get_target_reverse", "create_text_prompt_1",
                                                           "create_reverse_prompt_1", "create_text_prompt_2",
                                                           "create_reverse_prompt_2", "create_text_prompt_3",
                                                           "create_reverse_prompt_3"],
}
out["mafand"] = []
for rel, names in fns.items():
    m = load(rel)
    for n in names:
        for d in mafand_docs:
            out["mafand"].append({"function": n, "doc": d, **call(getattr(m, n), d)})

# --- xlsum rougeL and rougeL_agg --------------------------------------------------
xl = load("afrobench/xlsum/prompt_1/utils.py")
xl_items = [
    [["the cat sat on the mat", "the cat sat"]],
    [["the cat sat on the mat", "a cat on a mat"], ["Police said three people died.", "Three people died, police said"],
     ["ሰላም ለዓለም", "ሰላም"], ["Kenya won the match 2-1.\nFans celebrated.", "Kenya won 2-1; fans celebrated"]],
    [["One two three four five", "five four three two one"], ["", "empty reference"], ["same text", "same text"],
     ["Alpha beta", "gamma"], ["Ọba náà dé", "oba naa de"], ["x y z", "x"], ["Lagos is big", "Lagos is big and busy"],
     ["THE END", "the end."], ["a b c d e f g", "a c e g"]],
]
out["rougeL"] = [{"references": ["gold"], "predictions": ["pred"], **call(lambda: xl.rougeL(references=["g"], predictions=["p"]))}]
out["rougeL_agg"] = [{"items": items, **call(xl.rougeL_agg, items)} for items in xl_items]
big = [[f"summary {i} of the news {i % 7} today", f"news {i % 5} summary {i}"] for i in range(40)]
out["rougeL_agg"].append({"items": big, **call(xl.rougeL_agg, big)})


def conv(o):
    if isinstance(o, tuple):
        return list(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    raise TypeError(type(o))


print(json.dumps(out, ensure_ascii=False, default=conv, indent=0))
