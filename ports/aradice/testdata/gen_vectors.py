#!/usr/bin/env python3
"""Vectors for ports/aradice from lm-eval's own helpers.

usage (from the repository root):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src /usr/bin/python3 \
    ports/aradice/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import sys

sys.path.insert(0, "ports/internal/vectest")
import vectorlib as V  # noqa: E402

V.setup(sys.argv[1])


def pd(rel, docs):
    V.process_docs(rel, V.load(rel).process_docs, docs)


def opts(**kw):
    base = {"A": None, "B": None, "C": None, "D": None, "E": None}
    base.update(kw)
    return base


mmlu = [
    {"ID": 1, "Source": "s", "Country": "Egypt", "Group": "Humanities", "Subject": "History", "Level": "High",
     "question": "متى بنيت الأهرامات؟", "context": "", "Answer Key": "B",
     "options": opts(A="قديما", B="حديثا", C="أمس", D="غدا")},
    {"ID": 2, "Source": "s", "Country": None, "Group": "STEM", "Subject": "Political Science", "Level": None,
     "question": "Q [INPUT] two", "context": "سياق طويل", "Answer Key": "E",
     "options": opts(A="a", B="b", C="c", D="d", E="e")},
    {"ID": 3, "Source": "s", "Country": "KSA", "Group": "Other", "Subject": "Arabic Language (Grammar)", "Level": "Univ",
     "question": "q3", "context": None, "Answer Key": "A", "options": opts(A="one", B="two", C=None, D="four")},
    {"ID": 4, "Source": "s", "Country": "Morocco", "Group": "Other", "Subject": "Driving Test", "Level": "Prof",
     "question": "q4", "context": "", "Answer Key": "C", "options": {"A": "x", "B": "y", "C": "z"}},
    {"ID": 5, "Source": "s", "Country": "Lebanon", "Group": "Other", "Subject": "Math", "Level": "Primary",
     "question": "q5", "context": "c5", "Answer Key": "D", "options": opts(A=1, B=2.5, C="[OPTION]", D="d")},
]
for dia in ["EGY", "LEV"]:
    rel = f"aradice/ArabicMMLU/{dia}/utils.py"
    pd(rel, mmlu)
    pd(rel, [dict(mmlu[0], Subject="Astrology")])
    pd(rel, [dict(mmlu[0], Level="Kindergarten")])
    pd(rel, [dict(mmlu[0], **{"Answer Key": "F"})])
    pd(rel, [dict(mmlu[0], Country="Iraq")])

boolq = [
    {"question": "هل القاهرة عاصمة مصر؟", "answer": True, "passage": "القاهرة هي عاصمة مصر."},
    {"question": "  is the sky green?  ", "answer": False, "passage": "p"},
    {"question": "no mark", "answer": "true", "passage": "p"},
    {"question": "two ??", "answer": "false", "passage": "p"},
    {"question": "؟", "answer": 1, "passage": "p"},
    {"question": " q ? ", "answer": 0, "passage": "p"},
    {"question": "q?", "answer": 1.0, "passage": "p"},
]
for dia in ["EGY", "ENG", "LEV", "MSA"]:
    rel = f"aradice/boolq/{dia}/utils.py"
    pd(rel, boolq)
    pd(rel, [{"question": "q", "answer": "yes", "passage": "p"}])
    pd(rel, [{"question": "q", "answer": 2, "passage": "p"}])

pd("aradice/cultural-benchmark/utils.py", [
    {"ID": 1, "Country": "Egypt", "Question": "ما هو الطبق الوطني؟", "Option A": "كشري", "Option B": "مندي", "Option C": "كسكس"},
    {"ID": 2, "Country": "Jordan", "Question": "q", "Option A": "a", "Option B": None, "Option C": 3},
])
pd("aradice/cultural-benchmark/utils.py", [{"Question": "q", "Option A": "a", "Option B": "b"}])

m = V.load("aradice/openbookqa/utils.py")
rel = "aradice/openbookqa/utils.py"


def q(stem, labels, texts):
    return {"stem": stem, "choices": [{"label": l, "text": t} for l, t in zip(labels, texts)]}


obqa = [
    {"id": "1", "question": q("  الشمس مصدر   ", ["A", "B", "C", "D"], ["الضوء", "الظلام", "الماء", "الهواء"]), "answerKey": "A"},
    {"id": "2", "question": q("stem\n", ["A", "B", "C", "D"], ["a", "b", "c", "d"]), "answerKey": " D"},
    {"id": "3", "question": q("s", ["A", "B"], ["a", "b"]), "answerKey": "C"},
    {"id": "4", "question": q("s", ["1", "2", "3"], ["a", "b", "c"]), "answerKey": "2 "},
    {"id": "5", "question": q("s", ["A", "B"], ["a", "b"]), "answerKey": None},
    {"id": "6", "question": q("s", ["A"], ["a"])},
]
for d in obqa:
    for fn in ["doc_to_text", "doc_to_choice", "doc_to_target"]:
        V.doc(rel, fn, getattr(m, fn), d)
V.doc(rel, "doc_to_target", m.doc_to_target, {"question": {"stem": "s", "choices": [{"text": "a"}]}, "answerKey": "A"})
V.doc(rel, "doc_to_text", m.doc_to_text, {"question": {"stem": 3, "choices": []}})

V.dump("ports/aradice/testdata/vectors.json")
