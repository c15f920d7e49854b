"""Stand-in for transformers.data.metrics.squad_metrics: the SQuAD
scripts' answer normalization (lower-case; drop string.punctuation; drop
the words a, an, the; collapse whitespace), which Qasper's _process_doc
uses."""
import re
import string

_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCT = frozenset(string.punctuation)


def normalize_answer(s):
    s = s.lower()
    s = "".join(c for c in s if c not in _PUNCT)
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())
