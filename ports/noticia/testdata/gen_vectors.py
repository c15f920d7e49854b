#!/usr/bin/env python3
"""Reference vectors for ports/noticia from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/noticia/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "noticia/noticia_utils.py"
# noticia/utils.py imports evaluate; rouge1_agg loads its rouge. This
# machine has neither evaluate nor rouge_score: ports/internal/vectest/pystubs
# and fidelity/pystubs model them (rouge_score's scorer and bootstrap aggregator over real
# numpy). evaluate runs _compute under temp_seed of the global generator's
# first state word, 1234 after lm-eval's np.random.seed(1234): seeding
# before each call gives that.
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest/pystubs"))
sys.path.insert(1, os.path.join(HERE, "../../../fidelity/pystubs"))  # rouge_score
import numpy as np  # noqa: E402
import evaluate  # noqa: E402
from rouge_score import rouge_scorer, scoring  # noqa: E402


class _RougeMultiRef:
    """evaluate's rouge with a list of references per prediction (the
    stand-in models one each): rouge_score's score_multi, the best
    F-measure per type over the references, then the bootstrap mid."""

    def compute(self, predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False, tokenizer=None):
        rouge_types = rouge_types or ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
        aggregator = scoring.BootstrapAggregator()
        for refs, pred in zip(references, predictions):
            scores = [scorer.score(t, pred) for t in refs]
            aggregator.add_scores({k: scores[int(np.argmax([sc[k].fmeasure for sc in scores]))][k] for k in rouge_types})
        result = aggregator.aggregate()
        return {k: v.mid.fmeasure for k, v in result.items()}


_load = evaluate.load
evaluate.load = lambda name, *a, **k: _RougeMultiRef() if name == "rouge" else _load(name, *a, **k)

F = "noticia/utils.py"
u = load(F)
pairs = [
    ("Los expertos recomiendan dormir entre siete y nueve horas.", "Dormir entre siete y nueve horas, según los expertos."),
    ("El truco es usar bicarbonato.", "Usar bicarbonato de sodio."),
    ("Porque el Gobierno ha subido el IVA al 21%.", "El Gobierno subió el IVA."),
    ("No, no es cierto.", "Sí."),
    ("\"Nunca lo haría\", dijo el ministro.", "El ministro dijo que nunca lo haría"),
    ("Se debe a la sequía en Andalucía.", ""),
    ("Real Madrid ganó 3-1 al Barça.", "El Real Madrid venció 3-1"),
    ("Ñandú y pingüino: ¿qué comen?", "comen pescado\n\ny  semillas"),
]
for g, r in pairs:
    call(F, "average_len", "metric", lambda: u.average_len([g, r]), {"references": [g], "predictions": [r], "kwargs": {}})
subsets = [pairs, pairs[:1], pairs[1:5], pairs[5:6], pairs[2:]]
for s in subsets:
    items = [[g, r] for g, r in s]
    inp = {"metric_fn": F + ":rouge1", "items": [{"references": [g], "predictions": [r]} for g, r in s]}

    def agg(items=items):
        np.random.seed(1234)
        return u.rouge1_agg(items)
    call(F, "rouge1_agg", "aggregate", agg, inp, tol=1e-12)
    call(F, "average_len_agg", "aggregate", lambda: u.average_len_agg(items), dict(inp, metric_fn=F + ":average_len"), tol=1e-12)
write(os.path.join(HERE, "vectors.json"))
