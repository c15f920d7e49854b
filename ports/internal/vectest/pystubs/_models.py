"""benchmarks/testdata/gen_expected.py's models of sacrebleu and rouge_score."""
import importlib.util
import os

_p = os.path.join(os.path.dirname(os.path.abspath(__file__)), *[".."] * 4, "benchmarks", "testdata", "gen_expected.py")
_spec = importlib.util.spec_from_file_location("lmeval_gen_expected", os.path.normpath(_p))
gen_expected = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_expected)
