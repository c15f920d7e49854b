"""Writes a GGUF whose quantized tensors are replaced by their float32
dequantization, every metadata key kept.

usage (in the parity venv): python dequant.py IN.gguf OUT.gguf [--type f32|f16]

transformers loads a quantized GGUF by dequantizing each tensor with the
gguf package's numpy code (gguf.quants.dequantize) and computes in float32;
llama.cpp computes with the quantized weights directly (Q4_K, Q6_K, Q5_0 and
Q8_0 dot products against activations rounded to 8 bits). The file written
here holds the very weights transformers computes with, so llama.cpp (lmeval)
on it is a third computation: it separates llama.cpp's quantized arithmetic
from a difference in the model's graph (docs/parity.md, "Gemma 3").
"""
import argparse

import numpy as np
import gguf


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--type", choices=["f32", "f16"], default="f32")
    a = ap.parse_args()

    r = gguf.GGUFReader(a.src)
    arch = r.fields["general.architecture"].contents()
    w = gguf.GGUFWriter(a.dst, arch)
    for key, f in r.fields.items():
        if key.startswith("GGUF.") or key == "general.architecture":
            continue  # the header, written by the writer itself
        if key == "general.file_type":
            w.add_key_value(key, int(gguf.LlamaFileType.ALL_F32 if a.type == "f32" else gguf.LlamaFileType.MOSTLY_F16),
                            gguf.GGUFValueType.UINT32)
            continue
        vtype = f.types[0]
        sub = f.types[-1] if vtype == gguf.GGUFValueType.ARRAY else None
        w.add_key_value(key, f.contents(), vtype, sub)
    for t in r.tensors:
        x = gguf.quants.dequantize(t.data, t.tensor_type)
        # numpy's shape is GGUF's dimensions reversed (rows last).
        x = x.reshape(tuple(int(d) for d in reversed(t.shape)))
        # llama.cpp keeps norms and other 1-D tensors in F32 in an F16 model.
        if a.type == "f16" and x.ndim > 1:
            x = x.astype(np.float16)
        else:
            x = x.astype(np.float32)
        w.add_tensor(t.name, x)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main()
