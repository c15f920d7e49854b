"""Stand-in for Hugging Face evaluate, for running lm-eval's medical task
modules (meddialog, mediqa_qa2019, medtext, meqsum, mimic_repsum, mts_dialog,
olaph) on a machine without it: their utils.py load BLEU, ROUGE, BLEURT and
BERTScore at import. Only the perplexity variants, which never call them, can
be run against this stand-in (fidelity/gen.py with this directory first on
PYTHONPATH); a generation variant's metrics fail loudly."""


class _Metric:
    def __init__(self, name):
        self.name = name

    def compute(self, **kwargs):
        raise RuntimeError(f"evaluate stand-in: {self.name} is not available here")


def load(name, *args, **kwargs):
    return _Metric(name)
