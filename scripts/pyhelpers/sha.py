#!/usr/bin/env python3
"""Print the sha256 of Python helpers' sources, as a task.Helper records it.

usage: sha.py TASKS_DIR FILE:FUNCTION [FILE:FUNCTION...]

FILE is relative to TASKS_DIR (lm_eval/tasks/); the hash is of
ast.get_source_segment(src, node) for the top-level definition (def,
class or assignment) of FUNCTION, UTF-8.
"""
import ast
import hashlib
import os
import sys


def segment(path, name):
    src = open(path, encoding="utf-8").read()
    seg = None
    for node in ast.parse(src).body:
        names = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        if name in names:
            seg = ast.get_source_segment(src, node)
    return seg


for arg in sys.argv[2:]:
    f, fn = arg.rsplit(":", 1)
    seg = segment(os.path.join(sys.argv[1], f), fn)
    if seg is None:
        sys.exit(f"sha.py: {f} defines no top-level {fn}")
    print(hashlib.sha256(seg.encode("utf-8")).hexdigest(), arg)
