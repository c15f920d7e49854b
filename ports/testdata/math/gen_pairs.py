#!/usr/bin/env python3
"""Writes math_pairs.jsonl.gz: gen_math_vectors.py's pairs and verdicts
(lm-eval's MATH scorers over sympy), with gen_mathverify_vectors.py's
math_verify verdicts added, gzip -9n; the file is rewritten only when its
lines change. Run over the real packages (make parity's venv: sympy,
antlr4-python3-runtime 4.11 and math-verify as lm-eval's math extra
installs them):

  build/parity/venv/bin/python scripts/parity/realgen_all.py math_pairs
"""
import gzip
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "math_pairs.jsonl.gz")


def main():
    tasks = sys.argv[1]
    pairs = subprocess.run([sys.executable, os.path.join(HERE, "gen_math_vectors.py"), tasks],
                           check=True, capture_output=True).stdout
    lines = subprocess.run([sys.executable, os.path.join(HERE, "gen_mathverify_vectors.py")], input=pairs,
                           check=True, capture_output=True).stdout
    if os.path.exists(OUT) and gzip.open(OUT).read() == lines:
        print(f"{OUT}: unchanged", file=sys.stderr)
        return
    with open(OUT, "wb") as f:
        subprocess.run(["gzip", "-9n"], input=lines, stdout=f, check=True)
    n = lines.count(b"\n")
    print(f"{OUT}: {n} pairs", file=sys.stderr)


if __name__ == "__main__":
    main()
