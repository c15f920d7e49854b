"""Model of rouge_score.tokenize (the default tokenizer)."""
import re


def tokenize(text, stemmer=None):
    text = text.lower()
    text = re.sub(r"[^a-z0-9]+", " ", text)
    tokens = re.split(r"\s+", text)
    if stemmer:
        # rouge_score stems only tokens longer than 3 characters
        tokens = [stemmer.stem(x) if len(x) > 3 else x for x in tokens]
    return [x for x in tokens if re.match(r"^[a-z0-9]+$", x)]
