"""Imports lm-eval's ifeval code for the vector generators.

With the real nltk (>= 3.9.1: make parity's venv pins 3.10.4, which
gen_vectors.py requires; scripts/parity/realgen.py runs the generators
there), nltk loads NLTK's English Punkt parameters from $NLTK_DATA's
punkt_tab, which scripts/parity/punkt.py writes from
github.com/neurosnap/sentences (data/english.json, what the Go port reads).

On Debian's Python (nltk 3.8, no punkt data; the fidelity generators still
run there), the same parameters are read from the Go module cache into
NLTK's own PunktSentenceTokenizer and served where lm-eval and
nltk.word_tokenize load "tokenizers/punkt/english.pickle". nltk 3.8's
tokenizers predate nltk 3.10's (the regex module, the apostrophe rule, the
curly quotes): the port follows 3.10.4, so answers made there can differ on
text with combining marks, apostrophes before non-Latin letters or curly
quotes after a period.

langdetect is made deterministic as DetectorFactory.seed = 0 with the
profiles loaded in file-name order.

Use: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src
/usr/bin/python3 -c 'import refsetup' (lm-eval importable as lm_eval).
"""
import glob
import importlib.metadata
import json
import os
import subprocess

import lmevalref_compat  # noqa: E402,F401  (typing_extensions shims of lm-eval-runner)
import nltk  # noqa: E402

# With nltk >= 3.9.1 (make parity's venv, scripts/parity/realgen.py) the real
# nltk loads punkt_tab from $NLTK_DATA (scripts/parity/punkt.py writes the same
# parameters there); the fakes below are for Debian's nltk 3.8 only.
REAL_NLTK = tuple(int(x) for x in nltk.__version__.split(".")[:3]) >= (3, 9, 1)
if not REAL_NLTK:
    _real_version = importlib.metadata.version

    def _version(name):
        if name == "nltk":
            return "3.9.1"
        return _real_version(name)

    importlib.metadata.version = _version

    import nltk  # noqa: E402
    import nltk.data  # noqa: E402
    import nltk.tokenize  # noqa: E402
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer  # noqa: E402

    def neurosnap_english():
        modcache = subprocess.run(["go", "env", "GOMODCACHE"], capture_output=True, text=True).stdout.strip()
        paths = sorted(glob.glob(os.path.join(modcache, "github.com/neurosnap/sentences@v1.1.2/data/english.json")))
        if not paths:
            raise SystemExit("run `go mod download github.com/neurosnap/sentences` first")
        with open(paths[0], encoding="utf-8") as f:
            return json.load(f)

    def english_punkt():
        d = neurosnap_english()
        p = PunktParameters()
        p.abbrev_types = set(d["AbbrevTypes"])
        p.collocations = {tuple(k.split(",", 1)) for k in d["Collocations"]}
        p.sent_starters = set(d["SentStarters"])
        for k, v in d["OrthoContext"].items():
            p.ortho_context[k] = v
        return PunktSentenceTokenizer(p)

    PUNKT = english_punkt()
    _real_load = nltk.data.load

    def _load(url, *a, **k):
        if url.endswith("tokenizers/punkt/english.pickle"):
            return PUNKT
        return _real_load(url, *a, **k)

    nltk.data.load = _load
    nltk.tokenize.load = _load
    _real_find = nltk.data.find

    def _find(name, *a, **k):
        if name.startswith("tokenizers/punkt"):
            return name
        return _real_find(name, *a, **k)

    nltk.data.find = _find
    nltk.download = lambda *a, **k: True

else:
    from nltk.tokenize.punkt import PunktTokenizer  # noqa: E402

    PUNKT = PunktTokenizer("english")  # punkt_tab from $NLTK_DATA

import seeded_langdetect  # noqa: E402  (beside this file)

seeded_langdetect.seed()

from lm_eval.tasks.ifeval import instructions as ifeval_instructions  # noqa: E402
from lm_eval.tasks.ifeval import instructions_registry as ifeval_registry  # noqa: E402
from lm_eval.tasks.ifeval import instructions_util as ifeval_util  # noqa: E402
from lm_eval.tasks.ifeval import utils as ifeval_utils  # noqa: E402
from lm_eval.tasks.leaderboard.ifeval import instructions as lb_instructions  # noqa: E402
from lm_eval.tasks.leaderboard.ifeval import utils as lb_utils  # noqa: E402
