# Hides python-Levenshtein (Debian's python3-fuzzywuzzy depends on it), so
# fuzzywuzzy uses difflib's SequenceMatcher as a pip install of
# lm_eval[longbench] (fuzzywuzzy without its [speedup] extra) does.
raise ImportError("python-Levenshtein hidden for lm_eval[longbench]'s fuzzywuzzy")
