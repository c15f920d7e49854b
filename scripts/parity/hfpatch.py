"""One fix to transformers' GGUF readers, imported before anything loads a GGUF.

llama.cpp's converters write 0xFFFFFFFF for a special token id the model
lacks (stories260K: tokenizer.ggml.padding_token_id and
seperator_token_id); llama.cpp reads it as "none". transformers 5.25
indexes the vocabulary with it (integrations/gguf/gguf_tokenizer_mapping.py:
IndexError) and makes it the config's pad_token_id (then nn.Embedding:
"Padding_idx must be within num_embeddings"). Here such ids read as absent,
as llama.cpp reads them, in both of transformers' GGUF metadata readers.
Nothing else is changed (docs/parity.md).
"""
import transformers.integrations.gguf as _gguf
import transformers.integrations.gguf.reader as _reader
import transformers.modeling_gguf_pytorch_utils as _legacy

_NONE = 2**31


def _bad_id(k, v):
    return k.endswith("_token_id") and isinstance(v, int) and v >= _NONE


_orig_read = _reader.read_gguf_metadata


def _read_gguf_metadata(gguf_path, *args, **kwargs):
    metadata, names = _orig_read(gguf_path, *args, **kwargs)
    for k in [k for k, v in metadata.items() if k.startswith("tokenizer.ggml.") and _bad_id(k, v)]:
        del metadata[k]
    return metadata, names


_orig_load = _legacy.load_gguf_checkpoint


def _load_gguf_checkpoint(*args, **kwargs):
    out = _orig_load(*args, **kwargs)
    for part in ("config", "tokenizer", "tokenizer_config"):
        d = out.get(part) or {}
        for k in [k for k, v in d.items() if _bad_id(k, v)]:
            d[k] = None
    return out


# The tokenizer's reader imports read_gguf_metadata from .reader at call
# time, the configuration's from the package; the configuration of an
# architecture outside the fast reader comes from load_gguf_checkpoint.
_reader.read_gguf_metadata = _read_gguf_metadata
_gguf.read_gguf_metadata = _read_gguf_metadata
_legacy.load_gguf_checkpoint = _load_gguf_checkpoint


def deterministic_langdetect():
    """lm-eval's ifeval detects languages with langdetect, random unless
    seeded: seeded as lmeval's port and its vectors have it
    (ports/ifeval/testdata/seeded_langdetect.py)."""
    import os
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                    "ports", "ifeval", "testdata"))
    import seeded_langdetect

    seeded_langdetect.seed()


deterministic_langdetect()


def ggml_gelu():
    """Makes transformers' tanh GELU compute as ggml's CPU GELU does, for
    hfrun.py --ggml_gelu (docs/parity.md, "Gemma 3 270M"): ggml
    (ggml-cpu/vec.h, GGML_GELU_FP16, on by default) rounds the input to
    float16 and reads the result from a float16 table of the tanh GELU,
    0 below -10 and x above 10. Not used by make parity's comparison: it
    shows what that rounding alone moves (Gemma 3's feed-forward is GEGLU
    with the tanh GELU; Llama's is SiLU, computed in float32)."""
    import torch
    from transformers import activations

    def forward(self, x):
        h = x.to(torch.float16).to(torch.float32)
        y = torch.nn.functional.gelu(h, approximate="tanh").to(torch.float16).to(x.dtype)
        return torch.where(x <= -10, torch.zeros_like(x), torch.where(x >= 10, x, y))

    activations.GELUTanh.forward = forward
