"""Stand-in for sacrebleu: corpus_bleu of one sentence with tokenize="intl"
(tasks/testdata/gen_expected.py's model) and sentence_chrf."""
import collections

from _models import gen_expected

__lmevalref_stub__ = True


class _Score:
    def __init__(self, score):
        self.score = score


def corpus_bleu(preds, refs, smooth_method="exp", smooth_value=None, force=False, lowercase=False,
                tokenize="13a", use_effective_order=False):
    assert tokenize == "intl" and smooth_method == "exp" and not lowercase and not use_effective_order
    assert len(preds) == 1 and len(refs) == 1 and len(refs[0]) == 1
    return _Score(gen_expected.sentence_bleu(refs[0][0], preds[0]))


def _char_ngrams(s, n):
    s = s.replace(" ", "")
    return collections.Counter(s[i:i + n] for i in range(len(s) - n + 1))


def sentence_chrf(hypothesis, references, char_order=6, word_order=0, beta=2):
    """chrF of sacrebleu 2.x: character n-grams 1..6 without spaces, one
    reference, statistics of each order, averaged precision and recall,
    F-beta (eps_smoothing off: orders without hypothesis n-grams count 0)."""
    assert word_order == 0 and len(references) == 1
    ref = references[0]
    stats = []
    for n in range(1, char_order + 1):
        h, r = _char_ngrams(hypothesis, n), _char_ngrams(ref, n)
        match = sum(min(c, r[g]) for g, c in h.items())
        stats.append((sum(h.values()), sum(r.values()), match))
    eps = 1e-16
    factor = beta ** 2
    avg_prec = avg_rec = 0.0
    eff = 0
    for hyp_len, ref_len, match in stats:
        prec = match / hyp_len if hyp_len > 0 else eps
        rec = match / ref_len if ref_len > 0 else eps
        denom = factor * prec + rec
        # sacrebleu's _compute_f_score (eps_smoothing=False)
        avg_prec += prec
        avg_rec += rec
        eff += 1
    raise NotImplementedError("chrF model not written yet")
