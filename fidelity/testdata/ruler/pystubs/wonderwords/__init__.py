"""Import-time stand-in for wonderwords (fidelity cases only).

RULER's task files name their document generators with `!function`, so
lm-eval imports niah_utils (and through it prepare_niah, which imports
wonderwords and checks nltk's version) even for a wrapper that sets
`custom_dataset: null` and reads local documents. The cases only check the
scoring (common_utils.py), which never reaches these modules.
"""


class RandomWord:
    def __init__(self, *args, **kwargs):
        self._categories = {"nouns": ["stub"], "adjectives": ["stub"], "verbs": ["stub"]}
