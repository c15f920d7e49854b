"""Stand-in (see __init__.py): any use raises."""


class BootstrapAggregator:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("rouge_score is not installed; this stand-in only lets modules import")
