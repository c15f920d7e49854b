#!/usr/bin/python3
"""Generates vectors-*.json.gz: responses of many shapes, and the verdicts of
lm-eval's own ifeval code on them (each registered checker with its
arguments, punkt sentence counts and splits, nltk.word_tokenize,
count_words, langdetect with seed 0, and process_results on whole
documents in the dataset's schema), with the nltk and regex that
scripts/parity/requirements.txt pins (nltk 3.10.4, what pip installs for
lm-eval's nltk>=3.9.1; its tokenizers compile their patterns with the regex
module) and langdetect 1.0.9.

From the repository root, in make parity's venv (scripts/parity/setup.sh),
with the English punkt_tab that scripts/parity/punkt.py writes:

    HF_HUB_OFFLINE=1 NLTK_DATA=build/parity/nltk_data \
      build/parity/venv/bin/python scripts/parity/realgen.py \
      ports/ifeval/testdata/gen_vectors.py

It writes beside itself and refuses another nltk or regex than the pinned
ones. See refsetup.py for how lm-eval, nltk and langdetect are set up.
"""
import glob
import gzip
import json
import os
import random
import re
import sys

import refsetup  # noqa: F401  (must come first)
import langdetect
import nltk

from refsetup import ifeval_instructions as I
from refsetup import ifeval_registry as R
from refsetup import ifeval_util as U
from refsetup import ifeval_utils as UT

HERE = os.path.dirname(os.path.abspath(__file__))


def pinned(name):
    with open(os.path.join(HERE, "..", "..", "..", "scripts", "parity", "requirements.txt")) as f:
        for line in f:
            if line.startswith(name + "=="):
                return line.split("==", 1)[1].split()[0]
    raise SystemExit(f"{name} is not pinned in scripts/parity/requirements.txt")


for mod in (nltk, __import__("regex")):
    if mod.__version__ != pinned(mod.__name__):
        raise SystemExit(f"{mod.__name__} {mod.__version__} is not the pinned {pinned(mod.__name__)}: run in make parity's venv")

TASKS = os.path.join(os.path.dirname(I.__file__), "..")
rng = random.Random(20261201)

# ---- corpus: English prose from lm-eval's docs and task READMEs, and
# non-English text from its task YAML.
english, foreign = [], []
for p in sorted(glob.glob(os.path.join(HERE, "..", "..", "..", "..", "shared", "lm-eval", "docs", "*.md")) + glob.glob(os.path.join(TASKS, "*/README.md"))):
    with open(p, encoding="utf-8") as f:
        for line in f:
            line = line.strip().lstrip("#>-* ").strip()
            if 30 < len(line) <= 250 and not line.startswith(("|", "```", "<", "!")):
                english.append(line)
for p in sorted(glob.glob(os.path.join(TASKS, "**/*.yaml"), recursive=True)):
    try:
        with open(p, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        continue
    for line in text.split("\n"):
        letters = [c for c in line if c.isalpha()]
        if len(letters) > 15 and sum(ord(c) > 0x24F for c in letters) > len(letters) * 0.6:
            foreign.append(line.strip().strip("'\"").replace("\\n", " ")[:250])
english = sorted(set(english))
foreign = sorted(set(foreign))
rng.shuffle(english)
rng.shuffle(foreign)
english = english[:6000]
foreign = foreign[:3000]
WORDS = U.WORD_LIST
print(len(english), "english lines,", len(foreign), "foreign lines", file=sys.stderr)


def sents(k):
    return " ".join(rng.choice(english) for _ in range(k))


def para(k=None):
    return sents(k or rng.randint(1, 4))


def response(style=None):
    if style is None:
        style = rng.randrange(25)
    if style == 0:
        return "\n".join(("* " if rng.random() < 0.6 else rng.choice(["- ", "  * ", "*", "-", "**"])) + sents(1) for _ in range(rng.randint(0, 7)))
    if style == 1:
        parts = [sents(1) for _ in range(rng.randint(1, 5))]
        return " ".join(rng.choice(["*%s*", "**%s**", "%s", "* %s *", "*%s", "***%s***"]) % p[: rng.randint(1, 40)] + " " + sents(1) for p in parts)
    if style == 2:
        sp = rng.choice(["Section", "SECTION", "section", "Part"])
        return "\n".join("%s %d\n%s" % (sp, i + rng.choice([1, 1, 0]), para()) for i in range(rng.randint(1, 6)))
    if style == 3:
        sep = rng.choice(["***", "\n***\n", " *** ", "\n\n***\n\n", "****", "\n\n"])
        ps = [para() for _ in range(rng.randint(1, 6))]
        if rng.random() < 0.2:
            ps.insert(rng.randrange(len(ps) + 1), "")
        return sep.join(ps)
    if style == 4:
        return para() + "\n\n" + rng.choice(["P.S.", "P.P.S", "p.s.", "P. S.", "PS:", "P.P.S.", "p. p. s"]) + " " + sents(1)
    if style == 5:
        return rng.choice(["<<%s>>\n", "<< >>\n", "<<%s>\n", "Title: <<%s>>\n", "<<%s\n>>"]).replace("%s", " ".join(rng.sample(WORDS, 3))) + para()
    if style == 6:
        obj = {w: rng.choice([1, 2.5, "x y", None, True, [1, 2], {"a": w}]) for w in rng.sample(WORDS, rng.randint(0, 4))}
        s = json.dumps(obj, indent=rng.choice([None, 2]))
        s = rng.choice(["%s", "```json\n%s\n```", "```\n%s\n```", "```JSON%s```", "Here: %s", "%s,", "[%s, NaN]", "{\"a\": Infinity}", "%s trailing", "{'a': 1}", "[1, 2,]", "```Json\n%s```"]).replace("%s", s)
        return s
    if style == 7:
        s = para()
        return rng.choice(['"%s"', '"%s', '  "%s"  ', '“%s”', '"', '""']).replace("%s", s)
    if style == 8:
        return para().upper()
    if style == 9:
        return para().lower()
    if style == 10:
        return para().replace(",", "")
    if style == 11:
        return " ".join(rng.choice(["[name]", "[address]", "[ ]", "[]", "[a [b] c]", sents(1)]) for _ in range(rng.randint(1, 8)))
    if style == 12:
        a, b = para(), rng.choice([para(), None])
        return rng.choice(["%s\n******\n%s", "%s******%s", "******\n%s\n******\n%s\n******", "%s\n******\n\n******\n%s"]).replace("%s", a, 1).replace("%s", b or a, 1)
    if style == 13:
        return rng.choice(foreign)
    if style == 14:
        return " ".join(rng.choice(foreign) for _ in range(rng.randint(2, 4)))
    if style == 15:
        return rng.choice(foreign) + " " + sents(rng.randint(0, 2))
    if style == 16:
        return para() + " " + rng.choice(["Any other questions?", "Is there anything else I can help with?", '"Is there anything else I can help with?"', "any other questions?  ", "Let me know."])
    if style == 17:
        return rng.choice(["Sure, here it is:\n", "Here you go!\n", ""]) + para() + rng.choice(["\nHope this helps.", "", "\n"])
    if style == 18:
        return rng.choice(["", " ", "\n\n", "...", "123 456", "!!!", "*", "******", "https://example.com/x?y=1", "a@b.co"])
    if style == 19:
        return "\n\n".join(rng.choice(WORDS).capitalize() + " " + para() for _ in range(rng.randint(1, 5)))
    if style == 20:
        return " ".join(w.upper() if rng.random() < 0.4 else w for w in para().split())
    if style == 21:
        return rng.choice(["My answer is yes.", "My answer is no.", "My answer is maybe.", "my answer is yes", "I think so."]) + " " + sents(rng.randint(0, 1))
    if style == 22:
        text = para(rng.randint(2, 6))
        return text.replace(". ", rng.choice([".\n", ".  ", "... ", ". (", '." ', ".) "]))
    if style == 23:
        p = sents(1)
        return rng.choice([p, p.lower(), " " + p.upper(), p[:-3]]) + rng.choice(["\n", " ", "\n\n"]) + para()
    return para(rng.randint(1, 8))


responses = [response() for _ in range(3000)]
N_BASE = len(responses)
LANGS = list(U.LANGUAGE_CODES.keys())


def words_of(r):
    ws = re.findall(r"[A-Za-z]+", r)
    return ws or WORDS


def kwargs_for(iid, r):
    rel = lambda: rng.choice(["less than", "at least"])  # noqa: E731
    if iid == "keywords:existence":
        return {"keywords": [rng.choice(words_of(r) if rng.random() < 0.7 else WORDS) for _ in range(rng.randint(1, 3))]}
    if iid == "keywords:frequency":
        return {"keyword": rng.choice(words_of(r) if rng.random() < 0.7 else WORDS), "frequency": rng.randint(1, 4), "relation": rel()}
    if iid == "keywords:forbidden_words":
        return {"forbidden_words": [rng.choice(words_of(r) if rng.random() < 0.5 else WORDS) for _ in range(rng.randint(1, 4))]}
    if iid == "keywords:letter_frequency":
        return {"letter": rng.choice("abcdefghijklmnopqrstuvwxyzEQZ"), "let_frequency": rng.randint(1, 15), "let_relation": rel()}
    if iid == "language:response_language":
        return {"language": rng.choice(LANGS + ["en"] * 5)}
    if iid == "length_constraints:number_sentences":
        return {"num_sentences": rng.randint(1, 12), "relation": rel()}
    if iid == "length_constraints:number_paragraphs":
        return {"num_paragraphs": rng.randint(1, 6)}
    if iid == "length_constraints:number_words":
        return {"num_words": rng.randint(5, 300), "relation": rel()}
    if iid == "length_constraints:nth_paragraph_first_word":
        n = rng.randint(1, 5)
        paras = [p for p in r.split("\n\n") if p.strip()]
        fw = rng.choice([p.split()[0].strip("'\".,?!").lower() for p in paras] if paras and rng.random() < 0.7 else WORDS)
        return {"num_paragraphs": n, "nth_paragraph": rng.randint(1, n), "first_word": fw or "x"}
    if iid == "detectable_content:number_placeholders":
        return {"num_placeholders": rng.randint(1, 6)}
    if iid == "detectable_content:postscript":
        return {"postscript_marker": rng.choice(["P.S.", "P.P.S", "PS:", " P.S. "])}
    if iid == "detectable_format:number_bullet_lists":
        return {"num_bullets": rng.randint(1, 6)}
    if iid == "detectable_format:number_highlighted_sections":
        return {"num_highlights": rng.randint(1, 5)}
    if iid == "detectable_format:multiple_sections":
        return {"section_spliter": rng.choice(["Section", "SECTION", "Part", " Section "]), "num_sections": rng.randint(1, 6)}
    if iid == "combination:repeat_prompt":
        return {"prompt_to_repeat": r[: rng.randint(1, 60)] if r.strip() and rng.random() < 0.6 else sents(1)}
    if iid == "startend:end_checker":
        return {"end_phrase": rng.choice(["Any other questions?", "Is there anything else I can help with?", "Let me know.", r.strip()[-12:] or "x"])}
    if iid == "change_case:capital_word_frequency":
        return {"capital_frequency": rng.randint(1, 25), "capital_relation": rel()}
    return {}


def verdict(iid, kw, r):
    ins = R.INSTRUCTION_DICT[iid](iid)
    try:
        ins.build_description(**kw)
        return ins.check_following(r)
    except Exception as e:  # noqa: BLE001
        return "error: %s" % type(e).__name__


# Styles of response() that exercise each checker's true branch.
STYLES = {
    "change_case:english_capital": [8, 20],
    "change_case:english_lowercase": [9],
    "change_case:capital_word_frequency": [8, 20],
    "combination:two_responses": [12],
    "combination:repeat_prompt": [23, 17],
    "detectable_content:number_placeholders": [11],
    "detectable_content:postscript": [4],
    "detectable_format:constrained_response": [21],
    "detectable_format:json_format": [6],
    "detectable_format:multiple_sections": [2],
    "detectable_format:number_bullet_lists": [0],
    "detectable_format:number_highlighted_sections": [1],
    "detectable_format:title": [5],
    "language:response_language": [13, 14, 15, 9],
    "length_constraints:nth_paragraph_first_word": [19],
    "length_constraints:number_paragraphs": [3],
    "length_constraints:number_sentences": [22, 23],
    "punctuation:no_comma": [10],
    "startend:end_checker": [16],
    "startend:quotation": [7],
}


def near_count(iid, r, kw):
    """Moves a count argument next to the response's real count, so both
    sides of each comparison are reached."""
    try:
        if iid == "detectable_format:number_bullet_lists":
            kw["num_bullets"] = max(1, len(re.findall(r"^\s*\*[^\*].*$", r, flags=re.M)) + len(re.findall(r"^\s*-.*$", r, flags=re.M)) + rng.choice([-1, 0, 0, 1]))
        elif iid == "detectable_format:multiple_sections":
            kw["num_sections"] = max(1, len(re.split(r"\s?" + kw["section_spliter"].strip() + r"\s?\d+\s?", r)) - 1 + rng.choice([-1, 0, 1]))
        elif iid == "length_constraints:number_paragraphs":
            kw["num_paragraphs"] = max(1, len([p for p in re.split(r"\s?\*\*\*\s?", r) if p.strip()]) + rng.choice([-1, 0, 0, 1]))
        elif iid == "length_constraints:number_sentences":
            kw["num_sentences"] = max(1, U.count_sentences(r) + rng.choice([-1, 0, 1]))
        elif iid == "length_constraints:number_words":
            kw["num_words"] = max(1, U.count_words(r) + rng.choice([-1, 0, 1]))
        elif iid == "length_constraints:nth_paragraph_first_word":
            n = max(1, len([p for p in r.split("\n\n") if p.strip()]) + rng.choice([0, 0, 1]))
            kw["num_paragraphs"] = n
            kw["nth_paragraph"] = rng.randint(1, n)
        elif iid == "detectable_format:number_highlighted_sections":
            kw["num_highlights"] = max(1, len(re.findall(r"\*[^\n\*]*\*", r)) + rng.choice([-1, 0, 1]))
        elif iid == "change_case:capital_word_frequency":
            kw["capital_frequency"] = max(1, sum(w.isupper() for w in nltk.word_tokenize(r)) + rng.choice([-1, 0, 1]))
        elif iid == "keywords:letter_frequency":
            kw["let_frequency"] = max(1, r.lower().count(kw["letter"].lower()) + rng.choice([-1, 0, 1]))
        elif iid == "language:response_language" and rng.random() < 0.5:
            try:
                kw["language"] = langdetect.detect(r)
            except langdetect.LangDetectException:
                pass
    except re.error:
        pass
    return kw


checks = []
for iid in sorted(R.INSTRUCTION_DICT):
    for _ in range(2000):
        if iid in STYLES and rng.random() < 0.4:
            responses.append(response(rng.choice(STYLES[iid])))
            ri = len(responses) - 1
        else:
            ri = rng.randrange(len(responses))
        kw = kwargs_for(iid, responses[ri])
        if rng.random() < 0.7:
            kw = near_count(iid, responses[ri], kw)
        checks.append({"id": iid, "kwargs": kw, "r": ri, "ok": verdict(iid, kw, responses[ri])})
    print(iid, sum(c["ok"] is True for c in checks[-2000:]), "true of 2000", file=sys.stderr)

# Texts where the regex module (which nltk 3.10.4's tokenizers compile
# with) and re disagree: combining marks and Unicode 16 letters are \w,
# U+001C..U+001F are not \s, ² is not \w, (?i) makes ſ an s.
EDGE = [
    "x\u0301'ab and ก่'อน then नमस्ते'स done.",
    "a\x1cb. C d.\x1cE f. G\x1d h.",
    "Hi.\x1cThere is more. And\x1fmore.",
    "We met Dr ². Then J. left. Call x². Now.",
    "The \u1c89. Next one \U00016D40. Then \U0001E5D0x.",
    "He said ’yes’. Fine. 'Tis “done.” «Oui.» Ok.",
    "'नमस्ते' and 'ต่อไป' and '다음은' and 'x\u0301y'.",
    "x²y a\u200cb Ⅷ ① \U0001CCF5 ٣٤ _a_",
    "a \x1c b \x85 c\u2028d. E\u3000f.",
    "It's 'ok'. 'Twas ſ'ſ 'ſtill K'K. I'd've gone.",
    "Wait...\x1cwhat? No! Yes. '\u0301x 'x",
    "Line one.\n\x1c\nLine two. (Yes.) [No.] {Maybe.}",
]

# ---- tokenizers and language detection on every response and corpus text
texts = responses + foreign[:1500] + english[:500] + EDGE
# the tokenizers and langdetect are checked on the base responses, 1,500 of
# the targeted ones, the corpus lines and EDGE
tok_idx = list(range(N_BASE)) + sorted(rng.sample(range(N_BASE, len(responses)), 1500)) + list(range(len(responses), len(texts)))
punkt = [refsetup.PUNKT.tokenize(texts[i]) for i in tok_idx]
words = [nltk.word_tokenize(texts[i]) for i in tok_idx]
counts = [U.count_words(texts[i]) for i in tok_idx]


def lang(t):
    try:
        return langdetect.detect(t)
    except langdetect.LangDetectException:
        return None


langs = [lang(texts[i]) for i in tok_idx]

# ---- whole documents in the dataset's schema
ALLKEYS = sorted({k for iid in R.INSTRUCTION_DICT for k in kwargs_for(iid, "x y z")} | {"prompt_to_repeat"})
docs = []
ids = sorted(R.INSTRUCTION_DICT)
for key in range(2000):
    ri = rng.randrange(len(responses))
    r = responses[ri]
    chosen = rng.sample(ids, rng.randint(1, 3))
    kws = []
    for iid in chosen:
        kw = {k: None for k in ALLKEYS}
        kw.update(kwargs_for(iid, r))
        kws.append(kw)
    doc = {"key": key, "prompt": "Write something. " + sents(1), "instruction_id_list": chosen, "kwargs": kws}
    try:
        out = UT.process_results(doc, [r])
    except Exception as e:  # noqa: BLE001
        out = {"error": type(e).__name__}
    docs.append({"doc": doc, "r": ri, "result": out})
agg_items = [d["result"]["inst_level_strict_acc"] for d in docs if "error" not in d["result"]]

out = {
    "texts": texts,
    "n_responses": len(responses),
    "tok_idx": tok_idx,
    "checks": checks,
    "punkt": punkt,
    "word_tokenize": words,
    "count_words": counts,
    "langdetect": langs,
    "docs": docs,
    "agg_inst_level_acc": UT.agg_inst_level_acc(agg_items),
}

def write_parts(out):
    """vectors-N.json.gz: the vectors in parts under 2 MiB each (the Go
    test reads them all, appending the texts in file order)."""
    half = len(out["texts"]) // 2
    parts = [{"texts": out["texts"][:half]}, {"texts": out["texts"][half:]},
             {k: out[k] for k in ("checks", "n_responses", "tok_idx")},
             {k: out[k] for k in ("docs", "agg_inst_level_acc", "count_words", "langdetect")},
             {"punkt": out["punkt"]}, {"word_tokenize": out["word_tokenize"]}]
    assert sorted(k for p in parts for k in p) == sorted(list(out) + ["texts"])
    for i, part in enumerate(parts, 1):
        with gzip.GzipFile(os.path.join(HERE, f"vectors-{i}.json.gz"), "wb", mtime=0) as f:
            f.write(json.dumps(part, ensure_ascii=False, sort_keys=True).encode())


if __name__ == "__main__":
    write_parts(out)
