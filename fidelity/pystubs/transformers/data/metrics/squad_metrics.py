"""Stand-in for transformers.data.metrics.squad_metrics: the SQuAD
scripts' answer normalization (lower-case; drop string.punctuation; drop
the words a, an, the; collapse whitespace), which Qasper's _process_doc
uses, and the scores coqa/utils.py and super_glue/record/util.py take from
it: compute_exact (the normal forms equal, an int) and compute_f1 (F1 of
the normal forms' token multisets; 1 or 0 when either has no tokens)."""
import collections
import re
import string

_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCT = frozenset(string.punctuation)


def normalize_answer(s):
    s = s.lower()
    s = "".join(c for c in s if c not in _PUNCT)
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


def get_tokens(s):
    return normalize_answer(s).split() if s else []


def compute_exact(a_gold, a_pred):
    return int(normalize_answer(a_gold) == normalize_answer(a_pred))


def compute_f1(a_gold, a_pred):
    gold, pred = get_tokens(a_gold), get_tokens(a_pred)
    same = sum((collections.Counter(gold) & collections.Counter(pred)).values())
    if len(gold) == 0 or len(pred) == 0:
        return int(gold == pred)
    if same == 0:
        return 0
    precision, recall = 1.0 * same / len(pred), 1.0 * same / len(gold)
    return (2 * precision * recall) / (precision + recall)
