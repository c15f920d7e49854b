"""Held-out pairs for lmeval's math_verify port (ports/minerva_math): the
gold answers of gen_math_vectors.py's pairs, and other answers of those
pairs, put in prediction formats the generated pairs do not use, scored by
the real math_verify as lm-eval calls it (lbv: leaderboard/math
exact_match, mvv: minerva_math math_verify; -1 where it raised). Pairs
whose scoring took over 20 s are left out.

math_verify 0.8.0 and latex2sympy2_extended 1.11.0 from source, as in
gen_mathverify_vectors.py (sympy 1.14, antlr4-python3-runtime 4.13.2).
mathverify_heldout.jsonl.gz holds two runs:

  PYTHONPATH=<latex2sympy2_extended>/src:<Math-Verify>/src \
    python3 gen_mathverify_heldout.py 11 math_pairs.jsonl.gz 1500 plain
  PYTHONPATH=... python3 gen_mathverify_heldout.py 23 math_pairs.jsonl.gz 1500 hard
"""
import gzip, json, random, signal, sys
from math_verify import LatexExtractionConfig, parse, verify

random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
pairs = [json.loads(l) for l in gzip.open(sys.argv[2] if len(sys.argv) > 2 else "math_pairs.jsonl.gz", "rt")]
golds = sorted({p["g"] for p in pairs})
answers = sorted({p["a"] for p in pairs})

hard_templates = [
    "Hence $$ {a} $$ is the result; also $ {b} $.",
    "We solve $2x = {a}$.",
    "The answer is {a} dollars.",
    "Answer: \\textbf{{{a}}}",
    "the answer is $\\mathbb{{R}}$ or ${a}$",
    "Final answer is: $ x \\in {a} $",
    "The final answer is \\( \\boxed{{{a}}} \\).",
    "${a}$, ${b}$ and ${a}$",
    "1. ${b}$\n2. ${a}$",
    "ANSWER: {a}",
    "The answer is {a}%.",
    "x={a}, y={b}",
    "$\\frac{{1}}{{2}}$ of ${a}$",
]

templates = [

    "The final answer is {a}",
    "The final answer is ${a}$",
    "**Answer:** {a}",
    "Answer: ${a}$.",
    "answer is \\({a}\\)",
    "Therefore, \\[{a}\\]",
    "So we get $x = {a}$ and that is it.",
    "We get {a} apples.",
    "I think the result is {a}, so the answer is ${a}$",
    "$\\boxed{{{a}}}$ and $\\boxed{{{b}}}$",
    "The answer is $\\boxed{{{a}}}$. Check: $\\boxed{{{b}}}$ is wrong.",
    "First $ {b} $, then $ {a} $",
    "The answers are ${a}$ and ${b}$.",
    "The answer: {a}.",
    "{a}",
    " {a} %",
    "Final answer: $\\boxed{{{a}}}$",
    "Final Answer: The final answer is {a}. I hope it is correct.",
    "Final Answer: The final answer is ${a}$. I hope it is correct.",
    "We have $y={b}$, so $z = {a}$.",
    "Thus \\boxed{{{a}}}.",
    "The value is approximately {a}",
]

def mv(sol, out):
    def handler(*_):
        raise TimeoutError
    signal.signal(signal.SIGALRM, handler)
    signal.alarm(20)
    try:
        try:
            l = 1 if verify(parse(sol, extraction_config=[LatexExtractionConfig()]), parse(out)) else 0
        except Exception:
            l = -1
        try:
            m = 1 if verify(gold=parse(sol), target=parse(out)) else 0
        except Exception:
            m = -1
        return l, m
    except TimeoutError:
        return None
    finally:
        signal.alarm(0)

n = int(sys.argv[3]) if len(sys.argv) > 3 else 1500
if len(sys.argv) > 4 and sys.argv[4] == "hard":
    templates = hard_templates + templates
for i in range(n):
    g = random.choice(golds)
    sol = random.choice([
        "We find the value.  Therefore the answer is $\\boxed{%s}$." % g,
        "So $x = %s$, giving $\\boxed{%s}$." % (random.choice(golds), g),
        "The answer is $%s$." % g,
    ])
    a = g if random.random() < 0.45 else random.choice(answers + golds)
    b = random.choice(golds)
    out = random.choice(templates).format(a=a, b=b)
    r = mv(sol, out)
    if r is None:
        continue
    print(json.dumps({"s": sol, "c": out, "lbv": r[0], "mvv": r[1]}, ensure_ascii=False), flush=True)
