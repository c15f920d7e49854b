#!/usr/bin/env python3
"""Reference vectors for lmeval's ports of lm-eval's MATH scorers.

Runs lm-eval's own utils.py (leaderboard/math, minerva_math, hendrycks_math)
on (model output, gold solution) pairs built from MATH-style answers and
writes, per pair, the verdicts lm-eval gives:

  lb  leaderboard/math   process_result_v1 (the exact_match_original metric)
  mv  minerva_math       process_results' exact_match (the sympy is_equiv path)
  hm  hendrycks_math     process_results' exact_match
  eq  minerva_math       is_equiv on the two raw answer strings a and g

math_verify (leaderboard's exact_match, minerva's math_verify) is not
installed here, so it is stubbed out and not part of the vectors.

Needs sympy's ANTLR LaTeX parser: sympy >= 1.12 and antlr4-python3-runtime
4.11-4.13 (ATN serialisation 4). sympy insists on exactly 4.11; the check is
bypassed so the 4.13 runtime can run the 4.11-generated parser (the
generated tables are the same format). Run:

  python3 gen_math_vectors.py /path/to/lm-eval/lm_eval/tasks > math_pairs.jsonl
  gzip -9n math_pairs.jsonl
"""
import contextlib
import importlib.util
import io
import json
import random
import sys
import types

sys.path.insert(0, "/work/shared/lm-eval-runner/stubs")  # datasets stub (lm-eval-runner)
import sympy
import sympy.parsing.latex._parse_latex_antlr as _pla

_pla.version = lambda name: "4.11"  # see the docstring

# lm-eval's utils import math_verify at module level; it is not installed.
mv = types.ModuleType("math_verify")
def _no_mv(*a, **k):
    raise RuntimeError("math_verify is not available")
mv.parse = mv.verify = _no_mv
mv.LatexExtractionConfig = mv.ExprExtractionConfig = lambda *a, **k: None
sys.modules["math_verify"] = mv
sys.modules.setdefault("antlr4", __import__("antlr4"))
import importlib.metadata as _md
_real_version = _md.version
_md.version = lambda name: "4.11.0" if name == "antlr4-python3-runtime" else _real_version(name)


def load(tasks, rel):
    spec = importlib.util.spec_from_file_location(rel.replace("/", "_"), f"{tasks}/{rel}")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


TASKS = sys.argv[1]
LB = load(TASKS, "leaderboard/math/utils.py")
MM = load(TASKS, "minerva_math/utils.py")
HM = load(TASKS, "hendrycks_math/utils.py")

# Gold answers in the style of the MATH dataset (boxed contents).
GOLDS = r"""
5
-3
0
1
12
100
2019
1000000
\frac{1}{2}
\frac{3}{4}
-\frac{2}{3}
\dfrac{7}{8}
\frac{17}{6}
\tfrac{5}{12}
\frac{\sqrt{3}}{2}
\frac{1}{\sqrt{2}}
2\sqrt{2}
3\sqrt{5}
\sqrt{13}
4\sqrt{3}
\frac{5\sqrt{2}}{2}
1+\sqrt{2}
2-\sqrt{3}
\frac{1+\sqrt{5}}{2}
\sqrt[3]{2}
\sqrt[4]{8}
\pi
2\pi
\frac{\pi}{4}
4\pi\sqrt{3}
16\pi
\frac{2\pi}{3}
0.5
0.25
3.14
2.5
-1.5
12.5
0.\overline{3}
10\%
25\%
45^\circ
90^{\circ}
30^\circ
120
\$18.90
\$5
\text{(C)}
\text{(A)}
\textbf{(B)}
(C)
A
x^2+2x+1
x^2-4
(x+1)(x-1)
(x-2)(x+3)
2x+3
3x^2-5x+2
x^3-3x+1
-x+5
\frac{x+1}{x-1}
\frac{1}{x}
a^2b
ab
2a+b
4x^4+4
(2,3)
(-1,2)
(0,0)
(1,-\frac{1}{2})
(3,\frac{\pi}{2})
[2,5)
(-\infty,3]
(-\infty,-2)\cup(3,\infty)
[0,1]
(1,\infty)
\{1,2,3\}
1,2,3
-2,3
\frac{1}{2},-3
1, 2
\begin{pmatrix}1\\2\end{pmatrix}
\begin{pmatrix}2&0\\0&2\end{pmatrix}
\begin{pmatrix}-1\\3\\0\end{pmatrix}
x=5
y=2x+3
k=4
x=\frac{1}{2}
a=3,b=4
\text{Devon}
\text{yes}
\text{no}
\text{Monday}
\text{odd}
10\text{ inches}
5\text{ cm}
12\text{ square units}
6\text{ ways}
2\text{ dollars}
30\text{ minutes}
8\text{ feet}
1.5\times10^{3}
2\times10^5
3\cdot 10^{-2}
10^{10}
2^{10}
3^5
5!
\binom{10}{3}
\infty
e
e^2
\ln 2
\log_2 3
\sin 30^\circ
\cos\theta
\tan^{-1}(2)
\frac{\sqrt{6}-\sqrt{2}}{4}
2^{2009}
1{,}000
1,000,000
12,345
\frac{9}{2}
4.5
\frac{27}{4}
6.75
-\frac{\sqrt{3}}{3}
\sqrt{2}-1
\frac{2}{\sqrt{3}}
\frac{2\sqrt{3}}{3}
|x-1|
\lfloor x\rfloor
-2+3i
1+i
\frac{1}{2}+\frac{\sqrt{3}}{2}i
i
x\in[1,2]
x<3
x\ge 2
3<x<5
\frac{a}{b}
\frac{m}{n}
m+n
p^2
n(n+1)
\frac{n(n+1)}{2}
\frac{1}{3}
\frac{2}{9}
\frac{11}{36}
\frac{1}{64}
\frac{5}{324}
\frac{49}{100}
0.49
\frac{1}{6}
\frac{7}{2}
3.5
-4
-12
-0.5
40
72
144
360
1024
8\sqrt{2}
\frac{15}{2}
7.5
\frac{8}{3}
\frac{100}{3}
\frac{\sqrt{2}}{2}
\frac{3\sqrt{3}}{4}
\frac{-1+\sqrt{5}}{2}
-1\pm\sqrt{2}
\pm 2
2,-2
\text{east}
\text{(E)}
\frac{1}{4}\text{ hour}
12\%
50\text{ mph}
18\text{ units}^2
9\pi\text{ cm}^2
\left(\frac{1}{2},\frac{3}{2}\right)
\left[-1,1\right]
\frac12
\frac34
\sqrt3
3\sqrt2
\frac{1}{2}x
\frac{x}{2}
x^{\frac{1}{2}}
y^3
(a+b)^2
a^2+2ab+b^2
\frac{a+b}{2}
2^{-1}
10^{-3}
0.001
1.0
3.0
0.75
0.125
\frac{1}{8}
"""


def golds():
    return [g for g in GOLDS.strip("\n").split("\n") if g.strip()]


# Hand-written (prediction, gold) answer pairs: algebraically equal forms
# sympy must prove, and near misses.
EXTRA = r"""
\frac{1}{2}\sqrt{3}|\frac{\sqrt{3}}{2}
\frac{\sqrt{2}}{2}|\frac{1}{\sqrt{2}}
\sqrt{8}|2\sqrt{2}
\sqrt{12}|2\sqrt{3}
\sqrt{18}|3\sqrt{2}
\sqrt{50}|5\sqrt{2}
\sqrt{2}\sqrt{3}|\sqrt{6}
\frac{2}{\sqrt{3}}|\frac{2\sqrt{3}}{3}
\frac{1}{1+\sqrt{2}}|\sqrt{2}-1
\frac{1}{2-\sqrt{3}}|2+\sqrt{3}
\sqrt{3+2\sqrt{2}}|1+\sqrt{2}
(x+1)^2|x^2+2x+1
(x-1)(x+1)|x^2-1
x^2-1|(x+1)(x-1)
(x+2)^3|x^3+6x^2+12x+8
\frac{x^2-1}{x-1}|x+1
\frac{x^2+2x+1}{x+1}|x+1
2(x+3)|2x+6
-(x-5)|5-x
\frac{x}{2}|\frac{1}{2}x
\frac{3x}{6}|\frac{x}{2}
a^2b|ba^2
ab|ba
(a+b)^2|a^2+2ab+b^2
a^2-b^2|(a-b)(a+b)
\sin^2x+\cos^2x|1
2\sin x\cos x|\sin 2x
\cos^2x-\sin^2x|\cos 2x
\frac{\sin x}{\cos x}|\tan x
e^{2}|e^2
2^{10}|1024
3^5|243
10^{-3}|0.001
1.5\times10^3|1500
2\cdot10^5|200000
5!|120
\binom{10}{3}|120
\binom{5}{2}|10
\frac{10!}{7!3!}|120
0.\overline{3}|\frac{1}{3}
0.333|\frac{1}{3}
0.3333333333333333|\frac{1}{3}
3.14|\pi
\frac{22}{7}|\pi
2\pi|6.28
\pi r^2|r^2\pi
4\pi\sqrt{3}|4\sqrt{3}\pi
\frac{\pi}{2}|\frac{1}{2}\pi
\log_2 8|3
\ln e|1
\log_{10}100|2
\log_2 3|\frac{\ln 3}{\ln 2}
|-5||5
|x||x
\lfloor 3.7\rfloor|3
\lceil 3.2\rceil|4
-\frac{2}{3}|\frac{-2}{3}
-\frac{2}{3}|\frac{2}{-3}
\frac{-1+\sqrt{5}}{2}|\frac{\sqrt{5}-1}{2}
\frac{1+\sqrt{5}}{2}|\frac{1}{2}+\frac{\sqrt{5}}{2}
1+i|i+1
(1+i)^2|2i
i^2|-1
\frac{1}{i}|-i
2+3i|3i+2
x+y|y+x
xy|yx
\frac{a}{b}|a/b
\frac{m}{n}|\frac{n}{m}
n(n+1)|n^2+n
\frac{n(n+1)}{2}|\frac{n^2+n}{2}
\frac{1}{x}|x^{-1}
x^{\frac{1}{2}}|\sqrt{x}
\sqrt{x^2}|x
\sqrt{x}^2|x
(x^2)^3|x^6
x^2x^3|x^5
\frac{x^5}{x^2}|x^3
2^{2009}|2\cdot2^{2008}
2^{100}|2^{100}+1
1000001|1000000
\frac{100}{3}|33.333333333333336
33.3|\frac{100}{3}
7.5|\frac{15}{2}
0.49|\frac{49}{100}
12.5\%|\frac{1}{8}
\frac{3}{4}|75\%
45^\circ|\frac{\pi}{4}
\infty|\infty
-\infty|-\infty
x=5|5
y=2x+3|2x+3
x\le 5|x\le5
x<3|3>x
5,6|6,5
(2,3)|(2,3)
[2,5)|[2,5)
\{1,2\}|\{1,2\}
(1,2)|(2,1)
\text{(A)}|A
A|B
\text{yes}|yes
\text{no}|\text{yes}
f(x)|f(x)
f(2)|f(1+1)
g(x)|f(x)
x(x+1)|x^2+x
x(x+1)|x(x+1)
2x(x-1)|2x^2-2x
\sqrt[3]{8}|2
\sqrt[3]{27}|3
\sqrt[4]{16}|2
\sqrt[3]{2}|2^{\frac{1}{3}}
8^{\frac{2}{3}}|4
4^{\frac{1}{2}}|2
(-8)^{\frac{1}{3}}|-2
\frac{0}{5}|0
\frac{5}{0}|\frac{5}{0}
0^0|1
\frac{1}{2}+\frac{1}{3}|\frac{5}{6}
\frac{1}{2}\cdot\frac{2}{3}|\frac{1}{3}
\frac{\frac{1}{2}}{\frac{1}{4}}|2
\frac{a+b}{2}|\frac{b+a}{2}
\frac{a+b}{2}|\frac{a}{2}+\frac{b}{2}
\dfrac{7}{8}|0.875
\tfrac{5}{12}|\frac{5}{12}
1{,}000|1000
1,000,000|1000000
12,345|12345
0.1+0.2|0.3
1/2x|\frac{1}{2x}
1/2x|\frac{x}{2}
2x3|6
\cos\theta|\cos(\theta)
\tan^{-1}(2)|\arctan 2
\sin^{-1}(1)|\arcsin 1
\sin 30^\circ|\frac{1}{2}
\cos 0|1
e^{i\pi}|-1
\exp(0)|1
\frac{d}{dx}x^2|2x
\int_0^1 x\,dx|\frac{1}{2}
\sum_{n=1}^{3} n|6
\lim_{x\to0}x|0
x^2+2x+1|(x+1)^2
4x^4+4|4(x^4+1)
3x^2-5x+2|(3x-2)(x-1)
x^3-3x+1|x^3-3x+2
"""


def extra_pairs():
    out = []
    for line in EXTRA.strip("\n").split("\n"):
        p, g = line.rsplit("|", 1)
        out.append((p, g))
    return out


# Equivalent rewrites and near misses of an answer string.
def variants(g, rng):
    out = {g}
    out.add(g.replace("\\frac", "\\dfrac"))
    out.add(g.replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac"))
    out.add(" " + g + " ")
    out.add(g.replace(" ", ""))
    out.add("\\left(" + g + "\\right)")
    out.add("x=" + g)
    out.add("x = " + g)
    out.add(g + "\\text{ units}")
    out.add(g + "^\\circ")
    out.add("\\boxed{" + g + "}")
    out.add(g + ".")
    # frac forms
    import re
    m = re.fullmatch(r"(-?)\\d?frac\{(\d+)\}\{(\d+)\}", g)
    if m:
        s, a, b = m.groups()
        a, b = int(a), int(b)
        out.add(f"{s}{a}/{b}")
        out.add(f"{s}\\frac{a}{b}" if a < 10 and b < 10 else f"{s}\\frac{{{2*a}}}{{{2*b}}}")
        out.add(f"{s}{a/b:.4f}")
        out.add(f"{s}{a/b}")
        out.add(f"{s}\\frac{{{a+1}}}{{{b}}}")
        out.add(f"{s}\\frac{{{b}}}{{{a}}}")
        out.add(f"{'' if s else '-'}\\frac{{{a}}}{{{b}}}")
    m = re.fullmatch(r"-?\d+", g)
    if m:
        n = int(g)
        out.update({str(n + 1), str(n - 1), str(-n), str(n * 10), f"{n}.0", f"{n}.00",
                    f"\\frac{{{2*n}}}{{2}}", f"{n:,}", f"{n}\\%", f"\\${n}", f"{n}\\text{{ cm}}",
                    f"{n}^{{\\circ}}", f"({n})", f"{n} {n}", f"{n},{n+1}", f"{n}\\text{{ ways}}",
                    f"{n}\\text{{ square units}}", f"{n}!", f"\\sqrt{{{n*n}}}" if n >= 0 else f"-\\sqrt{{{n*n}}}",
                    f"{n}+0", f"{n}\\cdot1", f"2^{{{n}}}" if 0 <= n < 40 else str(n + 2)})
    m = re.fullmatch(r"-?\d+\.\d+", g)
    if m:
        f = float(g)
        out.update({str(f + 0.1), str(round(f, 1)), f"{f:.3f}", str(-f), g + "0", g.rstrip("0")})
    if "sqrt" in g:
        out.add(g.replace("\\sqrt{2}", "\\sqrt2").replace("\\sqrt{3}", "\\sqrt3"))
        out.add(g.replace("2", "3"))
        out.add(g.replace("\\sqrt{", "\\sqrt[3]{"))
    if "x" in g:
        out.add(g.replace("x", "y"))
        out.add(g.replace("x", "t"))
        out.add(g.replace("+", "-", 1))
        out.add(g.replace("2", "3", 1))
    if "," in g:
        parts = g.split(",")
        out.add(",".join(reversed(parts)))
        out.add(", ".join(parts))
        out.add(parts[0])
    if "\\pi" in g:
        out.add(g.replace("\\pi", "\\cdot\\pi"))
        out.add(g.replace("\\pi", "3.14"))
        out.add(g.replace("\\pi", "\\pi r"))
    if "text" in g:
        out.add(g.replace("\\text", "\\mbox"))
        out.add(g.replace("\\text{", "").replace("}", ""))
        out.add(g.lower())
    # random digit perturbations: must not be equal
    digits = [i for i, c in enumerate(g) if c.isdigit()]
    for _ in range(2):
        if digits:
            i = rng.choice(digits)
            d = str((int(g[i]) + rng.randint(1, 9)) % 10)
            out.add(g[:i] + d + g[i + 1 :])
    return sorted(out)


def completions(ans, rng):
    """Model outputs around an answer string, in the few-shot format and
    in others."""
    k = rng.randrange(8)
    if k == 0:
        return f"We compute.\nFinal Answer: The final answer is {ans}. I hope it is correct."
    if k == 1:
        return f"Final Answer: The final answer is ${ans}$."
    if k == 2:
        return f"So the answer is $\\boxed{{{ans}}}$.\nFinal Answer: The final answer is ${ans}$. I hope it is correct.\n\nProblem:"
    if k == 3:
        return f"The answer is ${ans}$"
    if k == 4:
        return f"Thus $x = {ans}$, and the final answer is $\\boxed{{{ans}}}$."
    if k == 5:
        return ans
    if k == 6:
        return f"Final Answer: The final answer is $${ans}$$. I hope it is correct."
    return f"Final Answer: The final answer is ${ans}$. I hope it is correct."


def quiet(f, *a):
    with contextlib.redirect_stdout(io.StringIO()):
        return f(*a)


def main():
    rng = random.Random(17)
    gs = golds()
    rows = []
    for g in gs:
        sol = f"We find the value.  Therefore the answer is $\\boxed{{{g}}}$."
        cands = variants(g, rng)
        # a few unrelated golds as wrong answers
        cands += rng.sample(gs, 3)
        for c in cands:
            rows.append((c, g, sol))
    for c, g in extra_pairs():
        sol = f"We find the value.  Therefore the answer is $\\boxed{{{g}}}$."
        for _ in range(3):
            rows.append((c, g, sol))
        rows.append((g, c, f"We find the value.  Therefore the answer is $\\boxed{{{c}}}$."))
    out = sys.stdout
    for c, g, sol in rows:
        comp = completions(c, rng)
        rec = {"c": comp, "s": sol, "a": c, "g": g}
        # leaderboard/math: process_docs' answer, then process_result_v1
        lb_ans = LB.remove_boxed(LB.last_boxed_only_string(sol))
        try:
            rec["lb"] = quiet(LB.process_result_v1, {"answer": lb_ans, "solution": sol}, comp)
        except Exception:  # process_results catches everything
            rec["lb"] = 0
        # minerva_math: process_docs' answer, then process_results' exact_match
        mm_ans = MM.normalize_final_answer(MM.remove_boxed(MM.last_boxed_only_string(sol)))
        una = MM.get_unnormalized_answer(comp)
        ans = MM.normalize_final_answer(una)
        rec["mv"] = 1 if quiet(MM.is_equiv, ans, mm_ans) else 0
        rec["hm"] = quiet(HM.process_results, {"solution": sol}, [comp])["exact_match"]
        rec["eq"] = 1 if quiet(MM.is_equiv, c, g) else 0
        out.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
