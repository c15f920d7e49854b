"""Model of rouge_score.tokenize (default tokenizer, no stemming)."""
import re


def tokenize(text, stemmer=None):
    text = text.lower()
    text = re.sub(r"[^a-z0-9]+", " ", text)
    tokens = re.split(r"\s+", text)
    return [x for x in tokens if re.match(r"^[a-z0-9]+$", x)]
