"""Writes NLTK's English Punkt parameters (punkt_tab) for lm-eval's ifeval.

usage: python punkt.py ENGLISH_JSON NLTK_DATA_DIR

lm-eval's ifeval downloads punkt_tab at import, and NLTK's data server is
unreachable here. The parameters are NLTK's English Punkt model as
github.com/neurosnap/sentences ships it (data/english.json, the Go module
lmeval's ifeval port reads, from the Go module cache): written as NLTK's
own punkt_tab files (nltk.tokenize.punkt.load_punkt_params reads them), so
the lm-eval side splits sentences as the port does
(ports/ifeval/testdata/refsetup.py makes the same tokenizer).
"""
import json
import os
import sys


def main():
    src, root = sys.argv[1], sys.argv[2]
    d = json.load(open(src, encoding="utf-8"))
    out = os.path.join(root, "tokenizers", "punkt_tab", "english")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "collocations.tab"), "w", encoding="utf-8") as f:
        for k in sorted(d["Collocations"]):
            f.write("\t".join(k.split(",", 1)) + "\n")
    with open(os.path.join(out, "sent_starters.txt"), "w", encoding="utf-8") as f:
        f.write("".join(s + "\n" for s in sorted(d["SentStarters"])))
    with open(os.path.join(out, "abbrev_types.txt"), "w", encoding="utf-8") as f:
        f.write("".join(s + "\n" for s in sorted(d["AbbrevTypes"])))
    with open(os.path.join(out, "ortho_context.tab"), "w", encoding="utf-8") as f:
        for k, v in sorted(d["OrthoContext"].items()):
            f.write(f"{k}\t{v}\n")


if __name__ == "__main__":
    main()
