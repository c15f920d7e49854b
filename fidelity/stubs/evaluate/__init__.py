"""A stand-in for Hugging Face `evaluate` (not in Debian) for fidelity/gen.py.

evaluate.load(name).compute(predictions=..., references=..., **kwargs) for
the metrics lm-eval's tasks load (hf_evaluate: true): accuracy, f1,
precision, recall, matthews_correlation, exact_match. Like evaluate's
metric scripts it casts the inputs to the metric's features
(datasets.Value("int32") is Python's int() of each value; Value("string")
must be a str, else a ValueError) and calls scikit-learn with the keyword
arguments, returning {name: float(score)} (the array when there are
several scores). Unknown keyword arguments raise TypeError, as a script's
_compute does. Other names go to fidelity/pystubs/evaluate (squad_v2,
SCROLLS); any other metric loads but cannot compute. Nothing else of
evaluate is here.
"""
__lmevalref_stub__ = True


class _Metric:
    def __init__(self, name):
        self.name = name

    def _ints(self, xs, what):
        try:
            return [int(x) for x in xs]
        except (TypeError, ValueError) as e:
            raise ValueError(f"{what} don't match the expected format (Value(dtype='int32')): {e}") from None

    def compute(self, *, predictions=None, references=None, **kwargs):
        if len(predictions) != len(references):
            raise ValueError(f"Mismatch in the number of predictions ({len(predictions)}) and references ({len(references)})")
        if self.name == "exact_match":
            for x in list(predictions) + list(references):
                if not isinstance(x, str):
                    raise ValueError(f"Predictions and/or references don't match the expected format: expected type str but got {type(x)}")
            return _exact_match(predictions, references, **kwargs)
        from sklearn import metrics as skm

        refs, preds = self._ints(references, "references"), self._ints(predictions, "predictions")
        if self.name == "accuracy":
            return {"accuracy": float(skm.accuracy_score(refs, preds, **kwargs))}
        if self.name == "matthews_correlation":
            kwargs.pop("average", None)
            return {"matthews_correlation": float(skm.matthews_corrcoef(refs, preds, **kwargs))}
        allowed = {"labels", "pos_label", "average", "sample_weight"}
        if self.name in ("precision", "recall"):
            allowed.add("zero_division")
        for k in kwargs:
            if k not in allowed:
                raise TypeError(f"_compute() got an unexpected keyword argument '{k}'")
        fn = {"f1": skm.f1_score, "precision": skm.precision_score, "recall": skm.recall_score}[self.name]
        score = fn(refs, preds, **kwargs)
        return {self.name: score if getattr(score, "size", 1) > 1 else float(score)}


def _exact_match(predictions, references, **kwargs):
    # lm-eval carries evaluate's exact_match as exact_match_hf_evaluate.
    from lm_eval.api.metrics import exact_match_hf_evaluate

    return exact_match_hf_evaluate(predictions, references, **kwargs)


class _Unavailable:
    """A metric this stand-in lacks: loading works (some helpers load
    metrics at import that their tasks never use), computing fails."""

    def __init__(self, name):
        self.name = name

    def compute(self, *args, **kwargs):
        raise RuntimeError(f"evaluate stand-in: metric {self.name!r} is not available")


def load(name, *args, **kwargs):
    if name in ("accuracy", "f1", "precision", "recall", "matthews_correlation", "exact_match"):
        return _Metric(name)
    # The class tasks' metrics (squad_v2, SCROLLS) are fidelity/pystubs'.
    import importlib.util
    import os

    path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        "pystubs", "evaluate", "__init__.py")
    spec = importlib.util.spec_from_file_location("_fidelity_pystubs_evaluate", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    try:
        return mod.load(name, *args, **kwargs)
    except NotImplementedError:
        return _Unavailable(name)
