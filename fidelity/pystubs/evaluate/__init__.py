"""Stand-in for Hugging Face evaluate (fidelity/classref.py): load() knows
the two metrics lm-eval's class tasks load, written here from their
upstream scripts' logic (this machine has neither evaluate nor the
scripts, nor rouge_score):

* "squad_v2": evaluate's metrics/squad_v2 (SquadV2._compute over the
  official SQuAD 2.0 evaluation script's functions, no_answer_threshold
  1.0), with the no-answer probabilities passed through float32 as
  evaluate's Arrow features store them;
* the SCROLLS metric (tau/scrolls metrics/scrolls.py, which
  _SCROLLSTask downloads and loads by path with config_name): f1 (SQuAD
  1.1 token F1, best over the references, mean x100), exact_match, and
  rouge (rouge_score 0.1.2's rouge1, rouge2 and rougeL F-measures x100,
  no stemmer, best over the references, mean, plus their geometric mean),
  every number rounded to 4 decimals. The script's nltk.sent_tokenize
  step only changes whitespace between sentences, which those three ROUGE
  types do not see (rougeLsum, which needs it, is not computed: lm-eval
  reports only the three).
"""
import collections
import re
import string

import numpy as np

_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCT = frozenset(string.punctuation)


def _normalize(s):
    s = "".join(c for c in s.lower() if c not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", s).split())


def _tokens(s):
    return _normalize(s).split() if s else []


def _overlap(pred, gold):
    return sum((collections.Counter(pred) & collections.Counter(gold)).values())


def _f1_v2(gold, pred):
    g, p = _tokens(gold), _tokens(pred)
    if not g or not p:
        return int(g == p)
    same = _overlap(p, g)
    if same == 0:
        return 0
    prec, rec = same / len(p), same / len(g)
    return 2 * prec * rec / (prec + rec)


def _f1_v1(pred, gold):
    p, g = _normalize(pred).split(), _normalize(gold).split()
    same = _overlap(p, g)
    if same == 0:
        return 0
    prec, rec = same / len(p), same / len(g)
    return 2 * prec * rec / (prec + rec)


class SquadV2:
    def compute(self, predictions, references):
        na = {}
        text = {}
        for p in predictions:
            na[p["id"]] = float(np.float32(p["no_answer_probability"]))
            text[p["id"]] = p["prediction_text"]
        has = {}
        for r in references:
            has[r["id"]] = bool(r["answers"]["text"])
        exact, f1 = {}, {}
        for r in references:
            golds = [t for t in r["answers"]["text"] if _normalize(t)] or [""]
            if r["id"] not in text:
                continue
            pred = text[r["id"]]
            exact[r["id"]] = max(int(_normalize(g) == _normalize(pred)) for g in golds)
            f1[r["id"]] = max(_f1_v2(g, pred) for g in golds)

        def thresholded(scores):
            return {k: (float(not has[k]) if na[k] > 1.0 else v) for k, v in scores.items()}

        ex_t, f1_t = thresholded(exact), thresholded(f1)
        out = {}

        def summarize(prefix, ids):
            n = len(ids)
            out[prefix + "exact"] = 100.0 * sum(ex_t[k] for k in ids) / n
            out[prefix + "f1"] = 100.0 * sum(f1_t[k] for k in ids) / n
            out[prefix + "total"] = n

        summarize("", list(ex_t))
        has_ids = [k for k, v in has.items() if v]
        no_ids = [k for k, v in has.items() if not v]
        if has_ids:
            summarize("HasAns_", has_ids)
        if no_ids:
            summarize("NoAns_", no_ids)

        def best(scores):
            cur = best_score = sum(1 for k in has if not has[k])
            thresh = 0.0
            for k in sorted(na, key=lambda q: na[q]):
                if k not in scores:
                    continue
                cur += scores[k] if has[k] else (-1 if text[k] else 0)
                if cur > best_score:
                    best_score, thresh = cur, na[k]
            return 100.0 * best_score / len(scores), thresh

        out["best_exact"], out["best_exact_thresh"] = best(exact)
        out["best_f1"], out["best_f1_thresh"] = best(f1)
        return out


# --- rouge_score 0.1.2, default tokenizer, no stemmer
def _rouge_tokens(text):
    text = re.sub(r"[^a-z0-9]+", " ", text.lower())
    return [t for t in re.split(r"\s+", text) if re.match(r"^[a-z0-9]+$", t)]


def _fmeasure(p, r):
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def _rouge_n(target, pred, n):
    tg = collections.Counter(tuple(target[i:i + n]) for i in range(len(target) - n + 1))
    pg = collections.Counter(tuple(pred[i:i + n]) for i in range(len(pred) - n + 1))
    inter = sum(min(c, pg[g]) for g, c in tg.items())
    p = inter / max(sum(pg.values()), 1)
    r = inter / max(sum(tg.values()), 1)
    return _fmeasure(p, r)


def _rouge_l(target, pred):
    if not target or not pred:
        return 0.0
    prev = [0] * (len(pred) + 1)
    for t in target:
        row = [0]
        for j, w in enumerate(pred):
            row.append(prev[j] + 1 if t == w else max(prev[j + 1], row[j]))
        prev = row
    lcs = prev[-1]
    return _fmeasure(lcs / len(pred), lcs / len(target))


class Scrolls:
    _METRICS = {"contract_nli": "exact_match", "quality": "exact_match", "gov_report": "rouge",
                "qmsum": "rouge", "summ_screen_fd": "rouge", "narrative_qa": "f1", "qasper": "f1"}
    _SCORE = {"exact_match": "exact_match", "f1": "f1", "rouge": "rouge/geometric_mean"}
    _DISPLAY = {"exact_match": ["exact_match"], "f1": ["f1"],
                "rouge": ["rouge/rouge1", "rouge/rouge2", "rouge/rougeL"]}

    def __init__(self, config_name):
        self.config_name = config_name
        self.metric = self._METRICS[config_name]

    def compute(self, predictions, references):
        preds, refs = list(predictions), [list(r) for r in references]
        m = {}
        if self.metric == "f1":
            m["f1"] = 100.0 * sum(max(_f1_v1(p, g) for g in r) for p, r in zip(preds, refs)) / len(preds)
        elif self.metric == "exact_match":
            m["exact_match"] = 100.0 * sum(max(_normalize(p) == _normalize(g) for g in r)
                                           for p, r in zip(preds, refs)) / len(preds)
        else:
            best = collections.defaultdict(list)
            for p, r in zip(preds, refs):
                pt = _rouge_tokens(p)
                scores = collections.defaultdict(list)
                for g in r:
                    gt = _rouge_tokens(g)
                    scores["rouge1"].append(_rouge_n(gt, pt, 1) * 100)
                    scores["rouge2"].append(_rouge_n(gt, pt, 2) * 100)
                    scores["rougeL"].append(_rouge_l(gt, pt) * 100)
                for k, v in scores.items():
                    best[k].append(max(v))
            agg = {k: sum(v) / len(v) for k, v in best.items()}
            agg["geometric_mean"] = (agg["rouge1"] * agg["rouge2"] * agg["rougeL"]) ** (1.0 / 3.0)
            m.update({f"rouge/{k}": v for k, v in agg.items()})
        m["num_predicted"] = len(preds)
        m["mean_prediction_length_characters"] = sum(len(p) for p in preds) / len(preds)
        m = {k: round(v, 4) for k, v in m.items()}
        m["scrolls_score"] = m[self._SCORE[self.metric]]
        m["display_keys"] = self._DISPLAY[self.metric]
        m["display"] = [m[k] for k in m["display_keys"]]
        return m


def load(path, config_name=None, **kwargs):
    if path == "squad_v2":
        return SquadV2()
    if path.endswith("scrolls_py.py") or path.endswith("scrolls.py"):
        return Scrolls(config_name)
    raise NotImplementedError(f"fidelity stand-in for evaluate: no metric {path!r}")
