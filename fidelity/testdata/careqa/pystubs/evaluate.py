"""Stand-in for Hugging Face `evaluate`, which Debian lacks, for gen.py's
careqa cases only: careqa/utils_open.py loads BLEU, ROUGE, BLEURT and
BERTScore with evaluate.load at import, and careqa_open_perplexity imports
that module for its doc_to_target, which uses none of them. Any use of a
loaded metric fails loudly.

  PYTHONPATH=fidelity/testdata/careqa/pystubs:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 fidelity/gen.py ../shared/lm-eval careqa
"""


class _Unavailable:
    def __init__(self, name):
        self.name = name

    def compute(self, *args, **kwargs):
        raise RuntimeError(f"evaluate stub: metric {self.name!r} is not available")


def load(name, *args, **kwargs):
    return _Unavailable(name)
