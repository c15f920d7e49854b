"""Stand-in for sacrebleu: corpus_bleu of one sentence with tokenize="intl"
(benchmarks/testdata/gen_expected.py's model) and sentence_chrf."""
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
    s = "".join(s.split())
    return collections.Counter(s[i:i + n] for i in range(len(s) - n + 1))


def sentence_chrf(hypothesis, references, char_order=6, word_order=0, beta=2):
    """sacrebleu 2.x's CHRF().sentence_score: character n-grams 1..6 (no
    whitespace) of the best reference, precision and recall averaged over
    the orders both sides have, then the F-beta (eps_smoothing off)."""
    assert word_order == 0
    best = None
    for ref in references:
        stats = []
        for n in range(1, char_order + 1):
            h, r = _char_ngrams(hypothesis, n), _char_ngrams(ref, n)
            stats.append((sum(h.values()), sum(r.values()), sum(min(c, r[g]) for g, c in h.items())))
        f = _chrf_f(stats, beta)
        if best is None or f > best:
            best = f
    return _Score(best)


def _chrf_f(stats, beta):
    factor = beta ** 2
    avg_prec = avg_rec = 0.0
    eff = 0
    for n_hyp, n_ref, n_match in stats:
        if n_hyp > 0 and n_ref > 0:
            avg_prec += n_match / n_hyp
            avg_rec += n_match / n_ref
            eff += 1
    if eff == 0:
        return 0.0
    avg_prec /= eff
    avg_rec /= eff
    if avg_prec + avg_rec:
        score = (1 + factor) * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return 100 * score
    return 0.0
