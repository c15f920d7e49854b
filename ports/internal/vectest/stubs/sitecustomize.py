"""Loaded at start-up when ports/internal/vectest/stubs is on PYTHONPATH:
adds Dataset.from_pandas to lm-eval-runner's stand-in for `datasets`
(groundcocoa's process_docs builds its result with it), as a list of the
frame's rows."""
try:
    import datasets

    if getattr(datasets, "__lmevalref_stub__", False) and not hasattr(datasets.Dataset, "from_pandas"):
        datasets.Dataset.from_pandas = classmethod(
            lambda cls, df, **kw: cls(df.to_dict("records"), columns=list(df.columns)))
except ImportError:
    pass
