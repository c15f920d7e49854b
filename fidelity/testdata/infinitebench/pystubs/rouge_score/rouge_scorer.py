"""Stand-in for rouge_score 0.1.2's RougeScorer (not installable here: no Debian
package), restating its published rougeLsum: tokenize.tokenize (lower-case,
[^a-z0-9]+ to spaces, split, NLTK's PorterStemmer on tokens longer than 3
characters when use_stemmer, keep ^[a-z0-9]+$), sentences split at newlines
(split_summaries=False), and _summary_level_lcs with _backtrack_norec's union
LCS. Only what infinitebench/utils.py:process_results_rouge calls is here."""
import collections
import re

from nltk.stem import porter


class Score(collections.namedtuple("Score", ["precision", "recall", "fmeasure"])):
    pass


def _fmeasure(p, r):
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


class RougeScorer:
    def __init__(self, rouge_types, use_stemmer=False, split_summaries=False):
        if list(rouge_types) != ["rougeLsum"] or split_summaries:
            raise NotImplementedError("stand-in: rougeLsum without split_summaries only")
        self._stemmer = porter.PorterStemmer() if use_stemmer else None

    def _tokenize(self, text):
        text = text.lower()
        text = re.sub(r"[^a-z0-9]+", " ", text)
        tokens = re.split(r"\s+", text)
        if self._stemmer:
            tokens = [self._stemmer.stem(x) if len(x) > 3 else x for x in tokens]
        return [x for x in tokens if re.match(r"^[a-z0-9]+$", x)]

    def score(self, target, prediction):
        sents = lambda s: [self._tokenize(x) for x in s.split("\n") if len(x)]  # noqa: E731
        return {"rougeLsum": _summary_level_lcs(sents(target), sents(prediction))}


def _lcs_table(ref, can):
    t = [[0] * (len(can) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(can) + 1):
            t[i][j] = t[i - 1][j - 1] + 1 if ref[i - 1] == can[j - 1] else max(t[i - 1][j], t[i][j - 1])
    return t


def _backtrack_norec(t, ref, can):
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
        return Score(0, 0, 0)
    m, n = sum(map(len, ref_sent)), sum(map(len, can_sent))
    if not n or not m:
        return Score(0, 0, 0)
    cr, cc = collections.Counter(), collections.Counter()
    for s in ref_sent:
        cr.update(s)
    for s in can_sent:
        cc.update(s)
    hits = 0
    for r in ref_sent:
        union = sorted(set().union(*[_backtrack_norec(_lcs_table(r, c), r, c) for c in can_sent]))
        for t in [r[i] for i in union]:
            if cc[t] > 0 and cr[t] > 0:
                hits += 1
                cc[t] -= 1
                cr[t] -= 1
    prec, rec = hits / n, hits / m
    return Score(prec, rec, _fmeasure(prec, rec))
