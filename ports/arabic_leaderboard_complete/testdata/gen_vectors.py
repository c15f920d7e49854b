#!/usr/bin/env python3
"""Vectors for ports/arabic_leaderboard_complete from lm-eval's own process_docs.

usage (from the repository root):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src /usr/bin/python3 \
    ports/arabic_leaderboard_complete/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import random
import sys

sys.path.insert(0, "ports/internal/vectest")
import vectorlib as V  # noqa: E402

V.setup(sys.argv[1])
C = "arabic_leaderboard_complete/arabic_leaderboard_"
L = "arabic_leaderboard_light/arabic_leaderboard_"


def pd(rel, docs, **kw):
    V.process_docs(rel, V.load(rel).process_docs, docs, **kw)


mcq = [
    {"query": "ما هو أكبر كوكب؟", "sol1": "الأرض", "sol2": "المشتري", "sol3": "زحل", "sol4": "المريخ", "label": "1"},
    {"query": "سؤال [ثاني]", "sol1": "أ", "sol2": "ب", "sol3": "ج", "sol4": "د", "label": 3},
    {"query": "q3", "sol1": "x", "sol2": "y", "sol3": "z", "sol4": "w", "label": " 0 "},
]
for rel in [C + "alghafa/utils.py", C + "arabic_mt_arc_challenge/utils.py", L + "arabic_mt_mmlu_light/utils.py",
            L + "alghafa_light/utils.py"]:
    pd(rel, mcq)
# the columns in another order, a __few_shots column, five choices, True/False
pd(C + "alghafa/utils.py", [
    {"label": 0, "sol2": "second", "query": "Q", "__few_shots": True, "sol1": "first", "sol10": "tenth"},
    {"label": 1, "sol2": "b", "query": "Q2", "__few_shots": False, "sol1": "a", "sol10": "j"},
])
pd(C + "alghafa/utils.py", [{"query": "Q", "sol1": "صح", "sol2": "خطأ", "label": "2.0"}])  # int("2.0") fails
pd(C + "alghafa/utils.py", [{"query": "Q", "sol1": 1, "sol2": 2.5, "sol3": None, "label": 2}])

exams = [
    {"id": "e1", "question": "كم عدد أيام الأسبوع؟", "A": "خمسة", "B": "ستة", "C": "سبعة", "D": "ثمانية",
     "answer": "C", "subject": "islamic_studies"},
    {"id": "e2", "question": "Q", "A": "a", "B": "b", "C": "c", "D": "d", "answer": "A", "subject": "Biology"},
    {"id": "e3", "question": "Q", "A": "a", "B": "b", "C": "c", "D": "d", "answer": "E", "subject": "a_b_c"},
]
pd(C + "arabic_exams/utils.py", exams)
pd(L + "arabic_exams_light/utils.py", exams[:2])
pd(C + "arabic_exams/utils.py", [dict(exams[0], answer="c")])
pd(C + "arabic_mmlu/utils.py", exams)
pd(L + "arabic_mmlu_light/utils.py", [dict(exams[1], subject="high_school_world_history")])
pd(C + "arabic_mmlu/utils.py", [dict(exams[0], answer=None)])
pd(C + "arabic_mmlu/utils.py", [{k: v for k, v in exams[0].items() if k != "D"}])

pd(C + "arabic_mt_boolq/utils.py", [
    {"question": "هل السماء زرقاء", "passage": "السماء زرقاء في النهار.", "answer": True},
    {"question": "q", "passage": "p\nline", "answer": False},
    {"question": "q", "passage": "p", "answer": "false"},
    {"question": "q", "passage": "p", "answer": 0},
])
pd(C + "arabic_mt_copa/utils.py", [
    {"premise": "سقط الولد", "choice1": "بكى", "choice2": "ضحك", "question": "effect", "label": 0, "idx": 0},
    {"premise": "p", "choice1": "a", "choice2": "b", "question": "cause", "label": 1, "idx": 1},
])
pd(C + "arabic_mt_copa/utils.py", [{"premise": "p", "choice1": "a", "choice2": "b", "question": "why", "label": 1}])
pd(C + "arabic_mt_hellaswag/utils.py", [
    {"ctx": "رجل [header] يقف [step] على", "endings": "['[title] نهاية أولى', 'نهاية [x] ثانية', \"ثالثة\", 'رابعة']",
     "label": 2, "activity_label": "a"},
    {"ctx": "no brackets [ open", "endings": "['a]', '[b', '[]c']", "label": 0, "activity_label": "b"},
])
pd(C + "arabic_mt_hellaswag/utils.py", [{"ctx": "c", "endings": "not a list", "label": 0}])
pd(C + "arabic_mt_toxigen/utils.py", [
    {"text": "عبارة", "toxicity_ai": 3.2, "toxicity_human": 2.4},
    {"text": "t", "toxicity_ai": 2.75, "toxicity_human": 2.75},
    {"text": "t's", "toxicity_ai": 5, "toxicity_human": 1},
    {"text": "t", "toxicity_ai": 1, "toxicity_human": 2},
])
pd(C + "avca/utils.py", [{"question": "الشمس نجم", "answer": "صح"}, {"question": "q", "answer": "خطأ"}])
pd(C + "avca/utils.py", [{"question": "q", "answer": "نعم"}])

# sciq: random.shuffle on the module generator, each call the first draws
# after random.seed(seed)
sciq = [
    {"question": "ما الذي يحتاجه النبات؟", "distractor1": "الظلام", "distractor2": "الملح", "distractor3": "البلاستيك",
     "correct_answer": "الضوء", "support": "تحتاج النباتات الضوء."},
] + [
    {"question": f"q{i}", "distractor1": f"d{i}a", "distractor2": f"d{i}b", "distractor3": f"d{i}c",
     "correct_answer": f"c{i}", "support": f"s{i}"} for i in range(9)
] + [
    {"question": "dup", "distractor1": "same", "distractor2": "x", "distractor3": "same", "correct_answer": "same",
     "support": ""},
]
for seed in [0, 1234, 42]:
    for rel in [C + "arabic_mt_sciq/utils.py", L + "arabic_mt_sciq_light/utils.py"]:
        random.seed(seed)
        pd(rel, sciq, seed=seed)

V.dump("ports/arabic_leaderboard_complete/testdata/vectors.json")
