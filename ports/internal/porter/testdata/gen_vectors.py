#!/usr/bin/env python3
"""Reference stems for ports/internal/porter, from NLTK's PorterStemmer()
(nltk 3.10.4, pinned in scripts/parity/requirements.txt).

usage (from the repository root, in make parity's venv):
  build/parity/venv/bin/python ports/internal/porter/testdata/gen_vectors.py > ports/internal/porter/testdata/vectors.json
"""
import json
import re

from nltk.stem import porter
from nltk.stem.porter import PorterStemmer

words = set("""caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized hopping
tanned falling hissing fizzed failing filing happy sky skies dying lying tying news innings inning outings canning howe
proceed exceed succeed relational conditional rational valenci hesitanci digitizer conformabli radicalli differentli vileli
analogousli vietnamization predication operator feudalism decisiveness hopefulness callousness formaliti sensitiviti
sensibiliti triplicate formative formalize electriciti electrical hopeful goodness revival allowance inference airliner
gyroscopic adjustable defensible irritant replacement adjustment dependent adoption homologou communism activate
angulariti homologous effective bowdlerize probate rate cease controll roll generalli fulli apologi analogi
yyyy aaaa eeed ied cried died spied sies bies ies hied agreement generalization generously cry fly flying
the a an is was summary government agencies reported reports reporting national international year years
xyzzy queueing running ran sses ssses ness icate ative bly bl at iz ion sion tion ement ment ent ll l
""".split())
text = open(porter.__file__).read()
words |= set(re.findall(r"[a-z]+", text.lower()))
# capitalised words: nltk 3.10.4 looks the lower-cased word up in its pool
words |= {w for w in re.findall(r"\b[A-Z][a-z]+\b", text)} | {"Skies", "SKIES", "Dying", "News", "Innings", "Proceed"}
st = PorterStemmer()
print(json.dumps(sorted([w, st.stem(w)] for w in words), indent=0))
