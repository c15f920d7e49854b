"""The two Dataset methods lm-eval's _SCROLLSTask uses that
lm-eval-runner's datasets stand-in lacks: flatten_indices (a no-op for a
list of rows) and add_column (a new last column)."""
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
