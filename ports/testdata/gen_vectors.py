#!/usr/bin/env python3
"""Reference vectors for several native ports, from lm-eval's own helpers.

usage (from the repository root, with the packages of requirements.txt):
  python3 -m venv build/vecenv && build/vecenv/bin/pip install -r ports/testdata/requirements.txt
  PYTHONPATH=../shared/lm-eval-runner/stubs:../shared/lm-eval \
    build/vecenv/bin/python ports/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks

Each vector is one call of a real Python function of lm-eval's task tree
on a document (or documents, or responses) chosen to reach its branches.
They are written in ports/internal/vectest's format, each port's to
ports/<its directory>/testdata/vectors_common.json, which the port's own
test replays through the registered port (vectest.Run).
"""
import importlib.util

import lmevalref_compat  # noqa: F401  (lm-eval-runner: typing shims lm_eval.tasks needs)
import json
import os
import random
import sys
import types

TASKS = sys.argv[1]


def load(rel):
    spec = importlib.util.spec_from_file_location(rel.replace("/", "_")[:-3], f"{TASKS}/{rel}")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


class DS(list):
    """The part of datasets.Dataset the helpers use: map and filter."""

    def map(self, fn):
        out = DS()
        for d in self:
            nd = dict(d)
            nd.update(fn(d))
            out.append(nd)
        return out

    def filter(self, fn):
        return DS(d for d in self if fn(d))


vectors = []


def add(file, function, kind, inp, out, **extra):
    v = {"file": file, "function": function, "kind": kind, "input": inp, "output": out}
    v.update(extra)
    vectors.append(v)


# --- gpqa: process_docs (module random, seeded as lm-eval does; and
# n_shot's own Random(42)) over documents reaching preprocess's branches.
gpqa_docs = [
    {"Question": "What is 2+2?", "Correct Answer": "4", "Incorrect Answer 1": "3",
     "Incorrect Answer 2": "5", "Incorrect Answer 3": "22", "Record ID": "r1"},
    {"Question": "Q two", "Correct Answer": "  The [title] answer  [1]", "Incorrect Answer 1": "a  b",
     "Incorrect Answer 2": None, "Incorrect Answer 3": "[x] y [z]", "Record ID": "r2"},
    {"Question": "Q three", "Correct Answer": "same", "Incorrect Answer 1": "other [ref] text",
     "Incorrect Answer 2": "x [title] y", "Incorrect Answer 3": "\tspaced\n", "Record ID": "r3"},
] + [
    {"Question": f"Q{i}", "Correct Answer": f"c{i}", "Incorrect Answer 1": f"i{i}a",
     "Incorrect Answer 2": f"i{i}b", "Incorrect Answer 3": f"i{i}c", "Record ID": f"g{i}"}
    for i in range(12)
]
for rel in ["leaderboard/gpqa/utils.py", "gpqa/zeroshot/utils.py", "gpqa/cot_n_shot/utils.py",
            "gpqa/cot_zeroshot/utils.py", "gpqa/generative/utils.py", "gpqa/n_shot/utils.py"]:
    # Each part as the first call after random.seed(seed) (or after the
    # import, for n_shot's own Random(42)): see ports/gpqa.
    parts = [gpqa_docs[:5], gpqa_docs[5:10], gpqa_docs[10:]]
    calls = []
    for seed, p in zip([0, 0, 7], parts):
        random.seed(seed)
        m = load(rel)
        calls.append({"seed": seed, "docs": p, "output": list(m.process_docs(DS(p)))})
    add(rel, "process_docs", "process_docs_calls", calls, None)

# --- musr
musr = load("leaderboard/musr/utils.py")
musr_docs = [
    {"narrative": "In the quiet town...\nA body was found.", "question": "Who is the most likely murderer?",
     "choices": "['Mackenzie', 'Ana']", "answer_index": 0, "answer_choice": "Mackenzie"},
    {"narrative": "N", "question": "Which location is the most likely place Ricky would look to find the gloves given the story?",
     "choices": '["drawer", "Bob\'s car", "the \\"shed\\"", "ünïcode"]', "answer_index": 2, "answer_choice": "the \"shed\""},
]
for d in musr_docs:
    add("leaderboard/musr/utils.py", "doc_to_text", "doc", d, musr.doc_to_text(d))
    add("leaderboard/musr/utils.py", "doc_to_choice", "doc", d, musr.doc_to_choice(d))

# --- mmlu_pro (leaderboard and standalone)
opts = [f"option {c} " for c in "ABCDEFGHIJ"]
mp_docs = [
    {"question_id": 1, "question": "Which is right?", "options": ["yes", " no ", "maybe"], "answer": "B", "answer_index": 1,
     "cot_content": "A: Let's think step by step. We know no. The answer is (B).", "src": "ori_mmlu-x", "category": "biology"},
    {"question_id": 2, "question": "Ten options?", "options": opts, "answer": "J", "answer_index": 9,
     "cot_content": "A: Let's think step by step.Nothing. A: Let's think step by step. again", "src": "s", "category": "computer science"},
    {"question_id": 3, "question": "Eleven?", "options": opts + ["extra K"], "answer": "A", "answer_index": 0,
     "cot_content": "", "src": "s", "category": "math"},
]
lmp = load("leaderboard/mmlu_pro/utils.py")
for d in mp_docs[:2]:
    add("leaderboard/mmlu_pro/utils.py", "doc_to_text", "doc", d, lmp.doc_to_text(d))
    add("leaderboard/mmlu_pro/utils.py", "doc_to_choice", "doc", d, lmp.doc_to_choice(d))
smp = load("mmlu_pro/utils.py")
for d in mp_docs:
    for fn in ["doc_to_text", "fewshot_to_text", "fewshot_to_target"]:
        add("mmlu_pro/utils.py", fn, "doc", d, getattr(smp, fn)(d))
cats = [dict(d, category=c) for d in mp_docs for c in ["biology", "computer science", "law", "Biology"]]
for fn in [n for n in dir(smp) if n.startswith("process_") and n != "process_docs"]:
    add("mmlu_pro/utils.py", fn, "process_docs", cats, list(getattr(smp, fn)(DS(cats))))

# --- bbh zero-shot filter classes (word2number is not installable here:
# NumberParseRegexFilter's vectors use responses its number pattern
# matches, and a stand-in module that fails if the word path is taken).
w2n = types.ModuleType("word2number")
w2n.w2n = types.SimpleNamespace(word_to_num=lambda s: (_ for _ in ()).throw(RuntimeError("word path")))
sys.modules["word2number"] = w2n
bbh = load("bbh/zeroshot/utils.py")
mc_doc = {"input": "Which is the best?\nOptions:\n(A) The cat, sat.\n(B) a DOG\n(C) Ünïcode — yes!\n(D) (nested)", "target": "(B)"}
mc_resps = ["The answer is (C).", "I think it is a dog", "the cat sat", "Answer: D", "answer:B and (A)", "nothing here",
            "ünïcode yes", "(Z) is wrong", "", "so: A", "A DOG! the cat, sat."]
for args in [dict(group_select=0, ignore_case=True, ignore_punctuation=True, regex_pattern=r"(\([A-Z]\))"),
             dict(group_select=-1, regex_pattern=r"(\([A-Z]\))"),
             dict(regex_pattern=r"answer is (\([A-D]\))", ignore_case=True, regexes_to_ignore=[",", "\\."])]:
    f = bbh.MultiChoiceRegexFilter(**args)
    add("bbh/zeroshot/utils.py", "MultiChoiceRegexFilter", "filter", {"docs": [mc_doc], "resps": [mc_resps]},
        list(f.apply([mc_resps], [mc_doc])), args=args)
ws_doc = {"input": "Sort the following words alphabetically: List: oven costume counterpart", "target": "costume counterpart oven"}
ws_resps = ["costume counterpart oven", "oven oven costume", "The sorted list: counterpart, costume, oven, costume", "none", ""]
add("bbh/zeroshot/utils.py", "WordSortFilter", "filter", {"docs": [ws_doc], "resps": [ws_resps]},
    list(bbh.WordSortFilter().apply([ws_resps], [ws_doc])), args={})
map_args = {"group_select": 0, "ignore_case": True, "regex_pattern_to_value": [
    [r"\b(no|does not tell the truth|is not telling the truth)\b", "no"],
    [r"\b(yes|tells the truth|is telling the truth)\b", "yes"]]}
map_resps = ["Yes.", "So Fidel does not tell the truth.", "NO", "maybe", "He tells the truth, no doubt", ""]
f = bbh.MapRegexFilter(group_select=0, ignore_case=True, regex_pattern_to_value=dict(map_args["regex_pattern_to_value"]))
add("bbh/zeroshot/utils.py", "MapRegexFilter", "filter", {"docs": [{}], "resps": [map_resps]},
    list(f.apply([map_resps], [{}])), args=map_args)
num_resps = ["The answer is 42.", "-7 and 3", "12 apples", "0"]
f = bbh.NumberParseRegexFilter(group_select=0, regex_pattern=r"([-0-9]+)")
add("bbh/zeroshot/utils.py", "NumberParseRegexFilter", "filter", {"docs": [{}], "resps": [num_resps]},
    list(f.apply([num_resps], [{}])), args={"group_select": 0, "regex_pattern": r"([-0-9]+)"})

# --- global_mmlu (full and default) and openai-mmmlu subject filters,
# functions the modules make at import time.
gm_docs = [{"question": f"q{i}", "subject": s, "subject_category": c, "answer": "A"}
           for i, (s, c) in enumerate([("anatomy", "Medical"), ("virology", "Medical"), ("anatomy", "STEM"),
                                       ("world_religions", "Humanities"), ("Anatomy", "Social Sciences"),
                                       ("high_school_us_history", "Business")])]
full = load("global_mmlu/full/am/utils.py")
for fn in ["process_anatomy", "process_virology", "process_world_religions", "process_college_physics"]:
    add("global_mmlu/full/am/utils.py", fn, "process_docs", gm_docs, list(getattr(full, fn)(DS(gm_docs))))
default = load("global_mmlu/default/en/utils.py")
for fn in ["process_medical", "process_social_sciences", "process_business", "process_other"]:
    add("global_mmlu/default/en/utils.py", fn, "process_docs", gm_docs, list(getattr(default, fn)(DS(gm_docs))))
mm_docs = [{"Question": f"q{i}", "Subject": s, "Answer": "B"}
           for i, s in enumerate(["anatomy", "college_mathematics_test.csv_sw-KE.csv", "college_mathematics",
                                  "anatomy_test-x", "virology_test.csv", "Anatomy", "anatomy_extra"])]
mm = load("openai-mmmlu/default/utils.py")
for fn in ["process_anatomy", "process_college_mathematics", "process_virology"]:
    add("openai-mmmlu/default/utils.py", fn, "process_docs", mm_docs, list(getattr(mm, fn)(DS(mm_docs))))

# --- f1_score aggregations over (gold, pred) pairs
import lm_eval.utils as lmu
pair_sets = [[(0, 0), (1, 1), (2, 1), (1, 1), (0, 2), (3, 3)], [(1, 0), (1, 0)], [(0, 0)],
             [(2, 2), (2, 0), (0, 0), (1, 2), (1, 1), (1, 1), (4, 4)]]
kobest = load("kobest/utils.py")
aradice = load("aradice/ArabicMMLU/EGY/metrics.py")
for items in pair_sets:
    add("afrixnli/anli prompt/en-direct/utils.py", "weighted_f1_score", "aggregation", items, lmu.weighted_f1_score(items))
    add("kobest/utils.py", "macro_f1_score", "aggregation", items, kobest.macro_f1_score(items))
    add("aradice/ArabicMMLU/EGY/metrics.py", "micro_f1_score", "aggregation", items, aradice.micro_f1_score(items))

# --- mmlu_prox: the prompt words come from the file's directory
prox_docs = [
    dict({"question_id": 1, "question": "What is 2+2?", "answer": "B", "answer_index": 1, "src": "s", "category": "math",
          "cot_content": "A: Let's think step by step. It is 4. The answer is (B)."},
         **{f"option_{i}": (f"opt {i}" if i < 4 else None) for i in range(10)}),
    dict({"question_id": 2, "question": "Ten?", "answer": "J", "answer_index": 9, "src": "s", "category": "law",
          "cot_content": "A: 一歩一歩考えていきましょう。 x"},
         **{f"option_{i}": f"o{i}" for i in range(10)}),
]
for lang in ["en", "ja", "zh", "af", "sw", "ar"]:
    m = load(f"mmlu_prox/{lang}/utils.py")
    for d in prox_docs:
        for fn in ["doc_to_text", "fewshot_to_text"]:
            add(f"mmlu_prox/{lang}/utils.py", fn, "doc", d, getattr(m, fn)(d))

# --- logiqa, xcopa, race
lq = load("logiqa/utils_logiqa.py")
for d in [{"label": "c ", "context": "All cats are grey.", "question": "Which follows?", "options": ["w", "x", "y", "z"]},
          {"label": "a", "context": "P", "question": "Q", "options": ["only", "two"]}]:
    add("logiqa/utils_logiqa.py", "doc_to_text", "doc", d, lq.doc_to_text(d))
    add("logiqa/utils_logiqa.py", "doc_to_target", "doc", d, lq.doc_to_target(d))
xc = load("xcopa/utils.py")
for d in [{"premise": " Mies avasi oven. ", "question": "cause", "choice1": "Ovikello soi.", "choice2": "Ämpäri", "label": 0},
          {"premise": "我饿了。", "question": "effect", "choice1": "İstanbul", "choice2": "b", "label": 1}]:
    add("xcopa/utils.py", "doc_to_choice", "doc", d, xc.doc_to_choice(d))
    for lang in ["et", "ht", "it", "id", "qu", "sw", "ta", "th", "tr", "vi", "zh"]:
        add("xcopa/utils.py", f"doc_to_text_{lang}", "doc", d, getattr(xc, f"doc_to_text_{lang}")(d))
rc = load("race/preprocess_race.py")
probs = [{"question": "The story is about  _  .", "answer": "B", "options": ["cats", "dogs", "fish", "birds"]},
         {"question": "Why did he go?", "answer": "D", "options": ["a", "b", "c", "to eat"]},
         {"question": "What happened last?", "answer": "A", "options": ["x", "y", "z", "w"]}]
for d in [{"article": "Once upon a time.", "problems": repr(probs), "example_id": "1"},
          {"article": "Short.", "problems": repr(probs[2:]), "example_id": "2"}]:
    for fn in ["doc_to_text", "doc_to_choice", "doc_to_target"]:
        add("race/preprocess_race.py", fn, "doc", d, getattr(rc, fn)(d))

# --- drop
dr = load("drop/utils.py")
def date(d="", m="", y=""):
    return {"day": d, "month": m, "year": y}
drop_docs = [
    {"section_id": "s1", "query_id": "q1", "passage": "The Bears won 24-17.", "question": "How many points?",
     "answer": {"number": "24", "date": date(), "spans": [], "worker_id": "", "hit_id": ""},
     "validated_answers": {"number": ["24", ""], "date": [date(), date()], "spans": [[], ["twenty-four"]], "worker_id": ["", ""], "hit_id": ["", ""]}},
    {"section_id": "s2", "query_id": "q2", "passage": "P", "question": "Who scored?",
     "answer": {"number": "", "date": date(), "spans": ["Jay Cutler", "the Bears' Matt Forte"], "worker_id": "", "hit_id": ""},
     "validated_answers": {"number": [""], "date": [date()], "spans": [["Jay Cutler", "the Bears' Matt Forte"]], "worker_id": [""], "hit_id": [""]}},
    {"section_id": "s3", "query_id": "q3", "passage": "P", "question": "When?",
     "answer": {"number": "", "date": date("3", "May", "1999"), "spans": [], "worker_id": "", "hit_id": ""},
     "validated_answers": {"number": [], "date": [], "spans": [], "worker_id": [], "hit_id": []}},
    {"section_id": "s4", "query_id": "q4", "passage": "P", "question": "Empty?",
     "answer": {"number": "", "date": date(), "spans": [], "worker_id": "", "hit_id": ""},
     "validated_answers": {"number": ["1,000"], "date": [date()], "spans": [[]], "worker_id": [""], "hit_id": [""]}},
]
processed = list(dr.process_docs(DS(drop_docs)))
add("drop/utils.py", "process_docs", "process_docs", drop_docs, [dict(d, answers=[list(a) for a in d["answers"]]) for d in processed])
preds = ["24", "twenty-four points", "Jay Cutler and Matt Forte", "Matt Forte", "3 May 1999", "May 3, 1999", "1000", "1,000.0",
         "The Bears", "", "  24.0 ", "1_000", "nan", "inf points", "a an the", "Cutler-Forte"]
for d in processed:
    dj = dict(d, answers=[list(a) for a in d["answers"]])
    for p in preds:
        add("drop/utils.py", "process_results", "process_results", {"doc": dj, "results": [p]}, dr.process_results(d, [p]))

# --- bigbench, logiqa2, mathqa
bb = load("bigbench/utils.py")
bb_docs = [{"inputs": "q1", "targets": ["a"], "multiple_choice_targets": ["a", "b"], "multiple_choice_scores": [1, 0], "idx": 0},
           {"inputs": "q2", "targets": ["free"], "multiple_choice_targets": [], "multiple_choice_scores": [], "idx": 1}]
add("bigbench/utils.py", "filter_multiple_choice", "process_docs", bb_docs, list(bb.filter_multiple_choice(DS(bb_docs))))
lq2 = load("logiqa2/utils_logiqa2.py")
for d in [{"id": 1, "answer": 2, "text": "All A are B.", "question": "Which?", "options": ["w", "x", "y", "z"], "type": {}},
          {"id": 2, "answer": 0, "text": "T", "question": "Q", "options": ["one", "two", "three"], "type": {}}]:
    add("logiqa2/utils_logiqa2.py", "doc_to_text", "doc", d, lq2.doc_to_text(d))
mq = load("mathqa/utils.py")
for o in ["a ) 38 , b ) 27.675 , c ) 30 , d ) data inadequate , e ) none of these",
          "a ) rs . 1,200 , b ) rs . 1,500 , c ) rs . 1,800 , d ) rs . 2,000 , e ) rs . 2,500",
          "a ) 1 , b ) 2 , c ) 3 , d ) 4 , e ) 5 ", "a ) x ,b ) y , e ) z"]:
    d = {"Problem": "p", "Rationale": "r", "options": o, "correct": "a", "annotated_formula": "", "linear_formula": "", "category": "general"}
    add("mathqa/utils.py", "doc_to_choice", "doc", d, mq.doc_to_choice(d))

def port_dir(file):
    """The ports/ package of an lm-eval file: its task directory
    (openai-mmmlu is ports/openai_mmmlu; leaderboard's are per task)."""
    parts = file.split("/")
    d = parts[0].replace("-", "_")
    return f"leaderboard/{parts[1]}" if d == "leaderboard" else d


def vectest_form(v):
    """The vector(s) in ports/internal/vectest's format."""
    base = {"file": v["file"], "function": v["function"]}
    k = v["kind"]
    if k in ("doc", "process_docs", "process_results"):
        return [dict(base, kind=k, input=v["input"], output=v["output"])]
    if k == "process_docs_calls":
        # Each call is the first after random.seed(seed) (n_shot's own
        # Random(42): after the module's import).
        return [dict(base, kind="process_docs", seed=c["seed"], input=c["docs"], output=c["output"]) for c in v["input"]]
    if k == "filter":
        return [dict(base, kind="filter", input={"args": v["args"], "resps": v["input"]["resps"], "docs": v["input"]["docs"]}, output=v["output"])]
    if k == "aggregation":
        return [dict(base, kind="aggregate", items="pairs", input={"items": v["input"]}, output=v["output"], tol=1e-12)]
    raise ValueError(k)


by_port = {}
for v in vectors:
    by_port.setdefault(port_dir(v["file"]), []).extend(vectest_form(v))
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
for d, vs in sorted(by_port.items()):
    os.makedirs(os.path.join(root, d, "testdata"), exist_ok=True)
    with open(os.path.join(root, d, "testdata", "vectors_common.json"), "w") as w:
        json.dump(vs, w, indent=1, ensure_ascii=False)
        w.write("\n")
