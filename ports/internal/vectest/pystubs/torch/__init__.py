"""Stand-in for torch: evalita_llm/metrics.py reads its version only."""
import contextlib

__version__ = "2.0.0"
inference_mode = no_grad = contextlib.nullcontext


def manual_seed(seed):
    """lm_eval.utils.set_torch_seed's call: nothing to seed."""
