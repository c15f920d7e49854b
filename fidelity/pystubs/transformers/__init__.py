"""Stand-in for transformers (fidelity/classref.py): what lm-eval's
scrolls/task.py imports. AutoTokenizer is only used to prune datasets,
which lm-eval's SCROLLS classes do not."""

__version__ = "0+fidelity-stand-in"  # lm-eval's add_env_info reads it


class AutoTokenizer:
    @classmethod
    def from_pretrained(cls, *args, **kwargs):
        raise NotImplementedError("fidelity stand-in: no tokenizers")
