"""Stand-in for radgraph (mimic_repsum/utils.py imports F1RadGraph); see evaluate.py."""


class F1RadGraph:
    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        raise RuntimeError("radgraph stand-in: not available here")
