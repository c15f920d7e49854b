"""A stand-in for Hugging Face math_verify (not in Debian), for
fidelity/leaderboard/gen.py only.

leaderboard/math's process_results calls parse(answer), parse(solution,
extraction_config=[LatexExtractionConfig()]) and verify(gold, candidate).
The answers gen.py draws for MATH tasks are plain: a final number or
\\frac{1}{2} in $...$ or \\boxed{...}, or no math at all. For those,
math_verify's verdict is whether the last such answer is the same
expression, which is all this does: it is not math_verify, and only the
answers gen.py uses are meant to reach it.
"""
import re


class LatexExtractionConfig:
    def __init__(self, *args, **kwargs):
        pass


ExprExtractionConfig = LatexExtractionConfig


def _last_answer(text):
    boxed = re.findall(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}", text)
    if boxed:
        return boxed[-1].strip()
    dollars = re.findall(r"\$([^$]+)\$", text)
    if dollars:
        return dollars[-1].strip()
    nums = re.findall(r"-?\d+(?:\.\d+)?", text)
    return nums[-1] if nums else None


def parse(text, extraction_config=None, **kwargs):
    a = _last_answer(text)
    return [] if a is None else [a, a]


def verify(gold, target, **kwargs):
    return bool(gold) and bool(target) and gold[0] == target[0]
