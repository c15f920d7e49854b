"""Stand-in for Hugging Face evaluate: load("rouge") models the Hub's rouge
metric script (rouge_score underneath, aggregated, mid.fmeasure), and
load("f1") its f1 (sklearn's f1_score)."""
from rouge_score import rouge_scorer, scoring


class _Rouge:
    def compute(self, predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False, tokenizer=None):
        if rouge_types is None:
            rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        multi_ref = isinstance(references[0], list)
        scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
        assert use_aggregator and not multi_ref
        aggregator = scoring.BootstrapAggregator()
        for ref, pred in zip(references, predictions):
            aggregator.add_scores(scorer.score(ref, pred))
        result = aggregator.aggregate()
        for key in result:
            result[key] = result[key].mid.fmeasure
        return result


class _F1:
    """The Hub's f1 metric script: sklearn's f1_score."""

    def compute(self, predictions, references, labels=None, pos_label=1, average="binary", sample_weight=None):
        import sklearn.metrics

        score = sklearn.metrics.f1_score(references, predictions, labels=labels, pos_label=pos_label,
                                         average=average, sample_weight=sample_weight)
        return {"f1": float(score) if score.size == 1 else score}


def load(name, *args, **kwargs):
    if name == "rouge":
        return _Rouge()
    if name == "f1":
        return _F1()
    raise NotImplementedError(f"evaluate stand-in: no metric {name!r}")
