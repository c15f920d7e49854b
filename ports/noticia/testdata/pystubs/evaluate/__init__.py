"""evaluate stand-in for noticia (fidelity/gen.py): load("rouge") is
ports/internal/vectest/pystubs' model of the Hub's rouge metric over
rouge_score (fidelity/pystubs' model), with a list of references per prediction (score_multi: the best
F-measure per type), computed as evaluate does under temp_seed of the global
NumPy generator's first state word at load."""
import contextlib
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "..", "fidelity", "pystubs"))
from rouge_score import rouge_scorer, scoring  # noqa: E402


@contextlib.contextmanager
def _temp_seed(seed):
    state = np.random.get_state()
    np.random.seed(seed)
    try:
        yield
    finally:
        np.random.set_state(state)


class _Rouge:
    def __init__(self):
        self.seed = np.random.get_state()[1][0]

    def compute(self, predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False, tokenizer=None):
        rouge_types = rouge_types or ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        with _temp_seed(self.seed):
            scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
            aggregator = scoring.BootstrapAggregator()
            for refs, pred in zip(references, predictions):
                if not isinstance(refs, list):
                    refs = [refs]
                scores = [scorer.score(t, pred) for t in refs]
                aggregator.add_scores({k: scores[int(np.argmax([sc[k].fmeasure for sc in scores]))][k] for k in rouge_types})
            result = aggregator.aggregate()
            return {k: v.mid.fmeasure for k, v in result.items()}


def load(name, *args, **kwargs):
    if name == "rouge":
        return _Rouge()
    raise NotImplementedError(f"evaluate stand-in: no metric {name!r}")
