"""Model of rouge_score.rouge_scorer.RougeScorer (the default tokenizer,
optionally stemmed): rougeN, rougeL and rougeLsum (sentences split at
newlines, split_summaries=False; the union LCS of _summary_level_lcs)."""
import collections

from rouge_score import scoring, tokenize


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


def _lcs_ind(ref, can):
    """_backtrack_norec over _lcs_table: the indices in ref of one LCS."""
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


def _summary_lcs(target, pred, tok):
    rs = [tok(s) for s in target.split("\n") if len(s)]
    cs = [tok(s) for s in pred.split("\n") if len(s)]
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
        for tok in [r[i] for i in sorted(set().union(*[_lcs_ind(r, c) for c in cs]))]:
            if cc[tok] > 0 and cr[tok] > 0:
                hits += 1
                cc[tok] -= 1
                cr[tok] -= 1
    precision, recall = hits / n, hits / m
    return scoring.Score(precision, recall, scoring.fmeasure(precision, recall))


class RougeScorer:
    def __init__(self, rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None):
        assert not split_summaries and tokenizer is None
        self.rouge_types = rouge_types
        self._stemmer = None
        if use_stemmer:
            from nltk.stem import porter

            self._stemmer = porter.PorterStemmer()

    def _tokenize(self, text):
        return tokenize.tokenize(text, self._stemmer)

    def score(self, target, prediction):
        tt, pt = self._tokenize(target), self._tokenize(prediction)
        out = {}
        for rt in self.rouge_types:
            if rt == "rougeL":
                out[rt] = _score_lcs(tt, pt)
            elif rt == "rougeLsum":
                out[rt] = _summary_lcs(target, prediction, self._tokenize)
            else:
                n = int(rt[5:])
                out[rt] = _score_ngrams(_ngrams(tt, n), _ngrams(pt, n))
        return out
