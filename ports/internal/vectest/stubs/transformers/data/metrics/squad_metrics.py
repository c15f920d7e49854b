"""Stand-in for transformers.data.metrics.squad_metrics (transformers is not
installed here): the four functions lm-eval's helpers use, written after the
SQuAD v2.0 evaluation script they come from (lower-case; drop
string.punctuation; drop the words a, an, the; collapse whitespace; exact
match of the normal forms; token-multiset F1, 1 or 0 when either side has no
tokens)."""
import collections
import re
import string


def normalize_answer(s):
    s = s.lower()
    s = "".join(ch for ch in s if ch not in set(string.punctuation))
    s = re.sub(re.compile(r"\b(a|an|the)\b", re.UNICODE), " ", s)
    return " ".join(s.split())


def get_tokens(s):
    return normalize_answer(s).split() if s else []


def compute_exact(a_gold, a_pred):
    return int(normalize_answer(a_gold) == normalize_answer(a_pred))


def compute_f1(a_gold, a_pred):
    g, p = get_tokens(a_gold), get_tokens(a_pred)
    same = sum((collections.Counter(g) & collections.Counter(p)).values())
    if not g or not p:
        return int(g == p)
    if same == 0:
        return 0
    prec, rec = same / len(p), same / len(g)
    return (2 * prec * rec) / (prec + rec)
