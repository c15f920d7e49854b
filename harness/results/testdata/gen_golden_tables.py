"""Prints the tables lm-eval's make_table prints for results_test.go's
sample() (goldenResults, goldenGroups), through the real pytablewriter
(1.2.1, DataProperty 1.1.1 in make parity's venv):

  build/parity/venv/bin/python harness/results/testdata/gen_golden_tables.py
"""
from lm_eval.utils import make_table

HIB = {"acc": True, "acc_norm": True, "exact_match": True}
RESULTS = {
    "results": {
        "science": {"alias": "science", "acc,none": 0.75, "acc_stderr,none": 0.0125},
        "arc_easy": {"alias": "arc_easy", "acc,none": 0.75, "acc_stderr,none": 0.0125,
                     "acc_norm,none": 0.7, "acc_norm_stderr,none": 0.013},
        "gsm8k": {"alias": "gsm8k", "exact_match,strict-match": 0.323, "exact_match_stderr,strict-match": "N/A",
                  "exact_match,flexible-extract": 0.3366, "exact_match_stderr,flexible-extract": 0.013},
    },
    "groups": {"science": {"alias": "science", "acc,none": 0.75, "acc_stderr,none": 0.0125}},
    "group_subtasks": {"science": ["arc_easy"]},
    "versions": {"arc_easy": 1.0, "gsm8k": 3.0},
    "n-shot": {"arc_easy": 0, "gsm8k": 5},
    "higher_is_better": {"science": {"acc": True}, "arc_easy": HIB, "gsm8k": HIB},
}
print(make_table(RESULTS))
print(make_table(RESULTS, "groups"))
