#!/usr/bin/python3
"""Prints the sha256 of the source of each ported lm-eval function or
class: sha256 of ast.get_source_segment(src, node), UTF-8, for the
FunctionDef/ClassDef, as register.go records them.

    /usr/bin/python3 gen_sha.py /work/shared/lm-eval/lm_eval/tasks
"""
import ast
import hashlib
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/lm-eval/lm_eval/tasks"
targets = {
    "ifeval/utils.py": ["process_results", "agg_inst_level_acc", "test_instruction_following_strict", "test_instruction_following_loose"],
    "leaderboard/ifeval/utils.py": ["process_results", "agg_inst_level_acc", "test_instruction_following_strict", "test_instruction_following_loose"],
    "ifeval/instructions_util.py": ["count_words", "count_sentences"],
    "ifeval/instructions.py": None,  # every checker class
}
for rel, names in targets.items():
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        src = f.read()
    for node in ast.parse(src).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and (names is None or node.name in names):
            seg = ast.get_source_segment(src, node)
            print(rel, node.name, hashlib.sha256(seg.encode("utf-8")).hexdigest())
