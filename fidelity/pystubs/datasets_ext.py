"""Dataset methods lm-eval's helpers use that lm-eval-runner's datasets
stand-in lacks: flatten_indices (a no-op for a list of rows) and add_column
(a new last column), which _SCROLLSTask uses, and from_pandas (the frame's
rows), groundcocoa's process_docs."""
import datasets


def _flatten_indices(self, *args, **kwargs):
    return self


def _add_column(self, name, column, *args, **kwargs):
    rows = self.to_list()
    for r, v in zip(rows, column):
        r[name] = v
    return datasets.Dataset(rows, columns=self.column_names + [name], split=self.split)


datasets.Dataset.flatten_indices = _flatten_indices
datasets.Dataset.add_column = _add_column


def _from_pandas(cls, df, *args, **kwargs):
    return cls(df.to_dict("records"), columns=list(df.columns))


if not hasattr(datasets.Dataset, "from_pandas"):
    datasets.Dataset.from_pandas = classmethod(_from_pandas)
