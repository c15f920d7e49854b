#!/usr/bin/python3
"""Writes profiles.json.gz: langdetect's language profiles and the character
tables of its messages.properties, decoded by langdetect's own code.

Run with Debian's python3-langdetect (1.0.9):
    /usr/bin/python3 gen_profiles.py
The profiles are langdetect's data files (Apache License 2.0, Copyright
Nakatani Shuyo / Cybozu Labs); they are embedded unchanged in content.
"""
import gzip
import json
import os

import langdetect
from langdetect.utils import messages
from langdetect.utils.ngram import NGram

root = os.path.dirname(langdetect.__file__)
profdir = os.path.join(root, "profiles")
profiles = []
for name in sorted(os.listdir(profdir)):
    with open(os.path.join(profdir, name), encoding="utf-8") as f:
        d = json.load(f)
    profiles.append({"name": d["name"], "freq": d["freq"], "n_words": d["n_words"]})

out = {
    "profiles": profiles,
    "latin1_excluded": NGram.LATIN1_EXCLUDED,
    "normalized_vi_chars": NGram.NORMALIZED_VI_CHARS,
    "to_normalize_vi_chars": NGram.TO_NORMALIZE_VI_CHARS,
    "dmark_class": NGram.DMARK_CLASS,
    "cjk_class": NGram.CJK_CLASS,
}
data = json.dumps(out, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
with gzip.GzipFile("profiles.json.gz", "wb", mtime=0) as f:
    f.write(data)
