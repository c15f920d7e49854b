"""`evaluate` stand-in whose load("bleu") is Hugging Face evaluate's bleu
metric: its _compute, over evaluate's own metrics/bleu/nmt_bleu.py and
tokenizer_13a.py, which are not part of lmeval: put them in a directory
named by $EVALUATE_BLEU (from github.com/huggingface/evaluate)."""
import os
import sys

sys.path.insert(0, os.environ["EVALUATE_BLEU"])
from nmt_bleu import compute_bleu  # noqa: E402
from tokenizer_13a import Tokenizer13a  # noqa: E402


class Bleu:
    def compute(self, predictions, references, tokenizer=Tokenizer13a(), max_order=4, smooth=False):
        if isinstance(references[0], str):
            references = [[ref] for ref in references]
        references = [[tokenizer(r) for r in ref] for ref in references]
        predictions = [tokenizer(p) for p in predictions]
        (bleu, precisions, bp, ratio, tl, rl) = compute_bleu(reference_corpus=references, translation_corpus=predictions,
                                                             max_order=max_order, smooth=smooth)
        return {"bleu": bleu, "precisions": precisions, "brevity_penalty": bp, "length_ratio": ratio,
                "translation_length": tl, "reference_length": rl}


def load(name, *args, **kwargs):
    if name == "bleu":
        return Bleu()
    raise RuntimeError(f"evaluate stand-in: {name} is not available here")
