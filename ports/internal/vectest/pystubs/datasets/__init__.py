"""The lm-eval runner's datasets stub (the next `datasets` on sys.path),
plus load_metric, which datasets < 3 had and basqueglue/utils.py imports:
load_metric("f1") is evaluate's f1 (this directory's evaluate)."""
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
for _p in sys.path:
    _init = os.path.join(os.path.abspath(_p or "."), "datasets", "__init__.py")
    if os.path.dirname(_init) != _here and os.path.exists(_init):
        __path__ = [os.path.dirname(_init)]  # its submodules (datasets.config, ...)
        exec(compile(open(_init, encoding="utf-8").read(), _init, "exec"))
        break
else:
    raise ImportError("no datasets package after the lmeval stand-ins")


def load_metric(name, *args, **kwargs):
    import evaluate

    return evaluate.load(name)
