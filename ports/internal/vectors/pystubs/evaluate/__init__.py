"""Stand-in for Hugging Face evaluate: load("rouge") models the Hub's rouge
metric script (rouge_score underneath, aggregated, mid.fmeasure)."""
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


def load(name, *args, **kwargs):
    if name == "rouge":
        return _Rouge()
    raise NotImplementedError(f"evaluate stand-in: no metric {name!r}")
