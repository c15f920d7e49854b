"""Model of rouge_score.rouge_scorer.RougeScorer (default tokenizer, no
stemming): rougeN, rougeL and rougeLsum (sentences split at newlines)."""
import collections

from rouge_score import scoring, tokenize

from _models import gen_expected


def _ngrams(tokens, n):
    c = collections.Counter()
    for i in range(len(tokens) - n + 1):
        c[tuple(tokens[i:i + n])] += 1
    return c


def _score_ngrams(t, p):
    inter = sum(min(c, p[g]) for g, c in t.items())
    tn, pn = sum(t.values()), sum(p.values())
    precision = inter / max(pn, 1)
    recall = inter / max(tn, 1)
    return scoring.Score(precision, recall, scoring.fmeasure(precision, recall))


def _lcs_len(r, c):
    t = [[0] * (len(c) + 1) for _ in range(len(r) + 1)]
    for i in range(1, len(r) + 1):
        for j in range(1, len(c) + 1):
            t[i][j] = t[i - 1][j - 1] + 1 if r[i - 1] == c[j - 1] else max(t[i - 1][j], t[i][j - 1])
    return t[-1][-1]


def _score_lcs(t, p):
    if not t or not p:
        return scoring.Score(0, 0, 0)
    lcs = _lcs_len(t, p)
    precision, recall = lcs / len(p), lcs / len(t)
    return scoring.Score(precision, recall, scoring.fmeasure(precision, recall))


def _summary_lcs(target, pred):
    rs = [tokenize.tokenize(s) for s in target.split("\n") if len(s)]
    cs = [tokenize.tokenize(s) for s in pred.split("\n") if len(s)]
    if not rs or not cs:
        return scoring.Score(0, 0, 0)
    m, n = sum(map(len, rs)), sum(map(len, cs))
    if not m or not n:
        return scoring.Score(0, 0, 0)
    cr, cc = collections.Counter(), collections.Counter()
    for s in rs:
        cr.update(s)
    for s in cs:
        cc.update(s)
    hits = 0
    for r in rs:
        for tok in [r[i] for i in sorted(set().union(*[gen_expected._lcs_ind(r, c) for c in cs]))]:
            if cc[tok] > 0 and cr[tok] > 0:
                hits += 1
                cc[tok] -= 1
                cr[tok] -= 1
    precision, recall = hits / n, hits / m
    return scoring.Score(precision, recall, scoring.fmeasure(precision, recall))


class RougeScorer:
    def __init__(self, rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None):
        assert not use_stemmer and not split_summaries and tokenizer is None
        self.rouge_types = rouge_types

    def score(self, target, prediction):
        tt, pt = tokenize.tokenize(target), tokenize.tokenize(prediction)
        out = {}
        for rt in self.rouge_types:
            if rt == "rougeL":
                out[rt] = _score_lcs(tt, pt)
            elif rt == "rougeLsum":
                out[rt] = _summary_lcs(target, prediction)
            else:
                n = int(rt[5:])
                out[rt] = _score_ngrams(_ngrams(tt, n), _ngrams(pt, n))
        return out
