"""The stand-ins the vector generators used, against the real packages.

usage (in make parity's venv, from the repository root):
  build/parity/venv/bin/python scripts/parity/standins.py

Debian's Python lacks math_verify, sacrebleu, rouge_score and evaluate, so
the generators of committed vectors ran over models of them
(fidelity/leaderboard/stubs/math_verify.py, fidelity/pystubs/rouge_score,
ports/internal/vectest/pystubs/sacrebleu). This runs each stand-in and the
real package on the inputs those generators gave them (the leaderboard
MATH answers of fidelity/leaderboard/gen.py, the rouge pairs of
ports/internal/vectest/rougepairs.py, sentence pairs for BLEU and chrF)
and prints every disagreement; exit 1 when there is one. Where they agree
on every input, the vectors made with the stand-in are what the real
package gives.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def load(name, path):
    """Imports the stand-in at path under a private name."""
    if os.path.isdir(path):
        path = os.path.join(path, "__init__.py")
    spec = importlib.util.spec_from_file_location(name, path, submodule_search_locations=[os.path.dirname(path)])
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def leaderboard_answers():
    """ANSWERS of fidelity/leaderboard/gen.py (read, not imported: it needs
    lm-eval-runner's stubs)."""
    import ast

    tree = ast.parse(open(os.path.join(ROOT, "fidelity/leaderboard/gen.py"), encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "ANSWERS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit("no ANSWERS in fidelity/leaderboard/gen.py")


def check_math_verify(diffs):
    import math_verify as real

    stub = load("stub_math_verify", os.path.join(ROOT, "fidelity/leaderboard/stubs/math_verify.py"))
    answers = leaderboard_answers()
    golds = [f"Working it out gives $\\boxed{{{a}}}$." for a in ["5", "12", "\\frac{1}{2}", "7", "1"]]
    n = 0
    for ans in answers:
        for gold in golds:
            g_s = stub.parse(gold, extraction_config=[stub.LatexExtractionConfig()])
            g_r = real.parse(gold, extraction_config=[real.LatexExtractionConfig()])
            v_s = stub.verify(g_s, stub.parse(ans))
            v_r = real.verify(g_r, real.parse(ans))
            n += 1
            if bool(v_s) != bool(v_r):
                diffs.append(f"math_verify: verify(parse({gold!r}), parse({ans!r})): stand-in {v_s}, real {v_r}")
    return n


def check_rouge(diffs):
    from rouge_score import rouge_scorer as real_scorer

    stub_pkg = os.path.join(ROOT, "fidelity/pystubs")
    sys.path.insert(0, os.path.join(ROOT, "ports/internal/vectest"))
    from rougepairs import PAIRS

    pairs = PAIRS + [["The cat sat on the mat.", "A cat was sitting on the mat"],
                     ["running runners ran quickly", "the runner runs quick"],
                     ["First line.\nSecond line here.", "Second line.\nFirst line here."]]
    saved = {k: v for k, v in sys.modules.items() if k == "rouge_score" or k.startswith("rouge_score.")}
    for k in saved:
        del sys.modules[k]
    sys.path.insert(0, stub_pkg)
    try:
        from rouge_score import rouge_scorer as stub_scorer
    finally:
        sys.path.remove(stub_pkg)
        for k in [k for k in sys.modules if k == "rouge_score" or k.startswith("rouge_score.")]:
            del sys.modules[k]
        sys.modules.update(saved)
    n = 0
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    for stem in (False, True):
        s, r = stub_scorer.RougeScorer(types, use_stemmer=stem), real_scorer.RougeScorer(types, use_stemmer=stem)
        for ref, pred in pairs:
            a, b = s.score(ref, pred), r.score(ref, pred)
            for t in types:
                n += 1
                if abs(a[t].fmeasure - b[t].fmeasure) > 1e-12 or abs(a[t].precision - b[t].precision) > 1e-12:
                    diffs.append(f"rouge_score {t} stem={stem} ({ref!r}, {pred!r}): stand-in {a[t]}, real {b[t]}")
    return n


def check_sacrebleu(diffs):
    import sacrebleu as real

    sys.path.insert(0, os.path.join(ROOT, "ports/internal/vectest/pystubs"))
    stub = load("stub_sacrebleu", os.path.join(ROOT, "ports/internal/vectest/pystubs/sacrebleu"))
    pairs = [("The cat sat on the mat.", "The cat is on the mat."), ("Hello, world!", "Hello world"),
             ("El gat menja peix al matí.", "el gat menja peix"), ("1992: els Jocs", "els jocs de 1992"),
             ("a b c d e f", "a b c d e f"), ("totally different", "nothing shared here"),
             ("Ünïcödé text, with—dashes.", "Unicode text with dashes")]
    n = 0
    for hyp, ref in pairs:
        a = stub.corpus_bleu([hyp], [[ref]], tokenize="intl").score
        b = real.corpus_bleu([hyp], [[ref]], tokenize="intl").score
        n += 1
        if abs(a - b) > 1e-9:
            diffs.append(f"sacrebleu corpus_bleu intl ({hyp!r}, {ref!r}): stand-in {a}, real {b}")
        a = stub.sentence_chrf(hyp, [ref]).score
        b = real.sentence_chrf(hyp, [ref]).score
        n += 1
        if abs(a - b) > 1e-9:
            diffs.append(f"sacrebleu sentence_chrf ({hyp!r}, {ref!r}): stand-in {a}, real {b}")
    return n


def main():
    diffs = []
    for name, f in (("math_verify", check_math_verify), ("rouge_score", check_rouge), ("sacrebleu", check_sacrebleu)):
        try:
            n = f(diffs)
            print(f"{name}: {n} comparisons")
        except Exception as e:  # report, go on with the others
            diffs.append(f"{name}: could not compare: {type(e).__name__}: {e}")
    for d in diffs:
        print("DIFF", d)
    print(f"{len(diffs)} disagreements")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
