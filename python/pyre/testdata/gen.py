# Generates vectors.json: what Python's re module does for each case.
# Run: python3 gen.py > vectors.json. The Go tests read the committed output.
import json
import re

cases = [
    (r"#### (\-?[0-9\.\,]+)", 0, ["The answer is #### 1,234.5 done", "#### -7\n#### 8", "no answer"], r"<\1>"),
    (r"(-?[$0-9.,]{2,})|(-?[0-9]+)", 0, ["I have 3 apples and $4.50, total 12", "x 7 y", "none", "-5 and -10,000"], r"[\1|\2]"),
    (r"The answer is (\-?[0-9\.\,]+).", 0, ["So The answer is 42. Yes", "The answer is 3,5."], r"\g<1>"),
    (r"(?i)\b(A|B|C|D)\b", 0, ["answer: b.", "The ABC is c", "é A", "naïveB C"], r"(\1)"),
    (r"\d+", 0, ["abc ١٢٣ 45 ６７", "x"], r"N"),
    (r"\w+", 0, ["héllo wörld_1 ²3 naïve", "a-b"], r"<\g<0>>"),
    (r"\s+", 0, ["a\u00a0b\u2003c\x1cd\ve f", "ab"], r"_"),
    (r"[\d,]+", 0, ["1,٣4 and 5"], r"#"),
    (r"[\s\w]+", 0, ["ab cd!ef\u3000g"], r"|"),
    (r"x*", 0, ["abxd", "xxaxx", ""], r"-"),
    (r"a|", 0, ["bab"], r"[\g<0>]"),
    (r"(?P<num>\d+)-(?P=num)", 0, ["12-12 3-4 7-7"], r"\g<num>!"),
    (r"(\w)\1", 0, ["hello bookkeeper"], r"<\1\1>"),
    (r"foo(?=bar)", 0, ["foobar foobaz"], r"X"),
    (r"(?<!\$)\b\d+\b", 0, ["$100 and 200 and 3"], r"N"),
    (r"end$", 0, ["the end\n", "the end", "end\nmore"], r"E"),
    (r"(?m)^\w+$", 0, ["one\ntwo three\nfour\n"], r"L"),
    (r"^\s*([A-D])\s*$", 0, ["  C \n", "C\nD"], r"\1"),
    (r"answer\Z", 0, ["the answer\n", "the answer"], r"Z"),
    (r"\Aab", 0, ["abab", "cab"], r"-"),
    (r"a{,2}b", 0, ["aaab b ab"], r"X"),
    (r"a{2}", 0, ["aaaaa"], r"X"),
    (r"x{", 0, ["ax{b"], r"Y"),
    (r"(a)|(b)", 0, ["ab c b"], r"[\1\2]"),
    (r"(?:(a)|b)+", 0, ["ab", "ba"], r"<\1>"),
    (r"colou?r", re.IGNORECASE, ["Colour COLOR"], r"c"),
    (r"""
      (\d+)   # a number
      \s* \#  # then a hash
    """, re.VERBOSE, ["12 #, 3#"], r"\1"),
    (r"[^\W\d]+", 0, ["ab1 cé2_"], r"w"),
    (r"\u00e9+|\x41", 0, ["éé A"], r"u"),
    (r"[]a]+", 0, ["a]b"], r"c"),
    (r"(?s)a.b", 0, ["a\nb"], r"x"),
    (r"a.b", 0, ["a\nb axb"], r"x"),
    (r"\(([A-Z])\)", 0, ["The answer is (B) not (C)"], r"\1"),
    (r"(?a)\w+", 0, ["héllo"], r"w"),
    (r"\$?\d+(\.\d\d)?", 0, ["$3.50 and 7"], r"\1\\"),
    (re.escape("What? (a) 1+1 = 2 [ok] #1 ~x"), 0, ["Q: What? (a) 1+1 = 2 [ok] #1 ~x!"], r"E"),
    (r"(?i)Ü", 0, ["ü Ü"], r"u"),
    (r"(?:\d+)?\.?", 0, ["1.2"], r"-"),
    (r"[^\s]+", 0, ["a b\u00a0c"], r"T"),
    (r"\bé", 0, ["é xé"], r"E"),
    # patterns of other lm-eval tasks (bbh, mgsm, math, mmlu-pro, ...)
    (r"(?<=the answer is )(.*)(?=.)", 0, ["So the answer is (B).", "the answer is 42"], r"[\1]"),
    (r"(?i)answer\s*:\s*\(?([A-D])\)?", 0, ["Answer: (c)", "ANSWER :D.", "answer:\n\tB"], r"\1"),
    (r"\\boxed\{(.*)\}", 0, ["so \\boxed{\\frac{1}{2}} done", "none"], r"<\1>"),
    (r"[-+]?\d*\.\d+|\d+", 0, ["x=-3.5, y=.25, z=7 and 1e3"], r"#"),
    (r"\$?(\d+(?:,\d{3})*(?:\.\d+)?)", 0, ["$1,234.56 or 7,00"], r"(\1)"),
    (r"(?:^|\s)(?:\$|\\\$)?([+-]?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+))", 0, ["cost \\$12 and $3,000.5 +7"], r"{\1}"),
    (r"^\s*([A-Z])", 0, ["  B) because", "b"], r"\1"),
    (r"\((\w)\)", 0, ["(a) or (é)?"], r"\1"),
    (r"answer is \(?([A-J])\)?", 0, ["The answer is (J).", "answer is C"], r"\1"),
    (r".*[aA]nswer:\s*([A-J])", 0, ["Reasoning. Answer: B\nMore. answer: C"], r"\1"),
    (r"(?s)(.*?)\n\n", 0, ["first\npart\n\nsecond\n\nthird"], r"[\1]"),
    (r"^(?P<word>\w+)\s(?P=word)$", 0, ["hello hello", "hello hello\n", "hi ho"], r"\g<word>"),
    (r"\d{1,3}(?=(\d{3})+(?!\d))", 0, ["1234567"], r"\g<0>,"),
]


def byte_spans(rx, s, m):
    if m is None:
        return None
    res = []
    for i in range(rx.groups + 1):
        a, b = m.span(i)
        if a < 0:
            res.append([-1, -1])
        else:
            res.append([len(s[:a].encode()), len(s[:b].encode())])
    return res


def record(compile, cases):
    """Each case's search, match, fullmatch, findall and sub (spans in bytes)
    as compile (re.compile, or regex.compile for gen_regexmod.py) gives them."""
    out = []
    for pat, flags, subjects, repl in cases:
        rx = compile(pat, flags)
        for s in subjects:
            fa = [list(x) if isinstance(x, tuple) else [x] for x in rx.findall(s)]
            out.append({
                "pattern": pat, "flags": flags, "subject": s, "repl": repl,
                "search": byte_spans(rx, s, rx.search(s)),
                "match": byte_spans(rx, s, rx.match(s)),
                "fullmatch": byte_spans(rx, s, rx.fullmatch(s)),
                "findall": fa, "sub": rx.sub(repl, s), "sub1": rx.sub(repl, s, count=1),
            })
    return out


if __name__ == "__main__":
    print(json.dumps(record(re.compile, cases), ensure_ascii=False, indent=1))
