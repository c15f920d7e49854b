#!/usr/bin/env python3
"""Fidelity cases for bbh (every subtask of its four variants), leaderboard
(bbh_mc, gpqa, mmlu_pro, musr; ifeval and math need nltk data and
math_verify), gpqa (every variant), drop and the mmlu_pro subjects.

bbh's documents are the three worked examples of each subtask in lm-eval's
own bbh/fewshot YAML (input and short target, the dataset's schema); the
answers are built from each subtask's targets in the formats the filters
look for. Run: python3 fidelity/build/reasoning.py
"""
import json
import os
import sys

import yaml

from common import TASKS, TESTDATA, case, write_cases, write_jsonl


class _L(yaml.SafeLoader):
    pass


_L.add_constructor("!function", lambda loader, node: None)


def load_yaml(path):
    return yaml.load(open(path, encoding="utf-8"), Loader=_L)


def bbh_docs():
    d = os.path.join(TASKS, "bbh", "fewshot")
    out = {}
    for f in sorted(os.listdir(d)):
        if f.startswith("_"):
            continue
        y = load_yaml(os.path.join(d, f))
        out[f[:-5]] = [{"input": s["input"], "target": s["target"]} for s in y["fewshot_config"]["samples"]]
    return out


def bbh_answers(docs):
    ts = [d["target"] for d in docs]
    other = ts[1] if ts[1] != ts[0] else ts[-1]
    return [f"Let's think step by step. The first step is clear. So the answer is {ts[0]}.", f" {ts[0]}", f"{other}\n\nQ: next",
            f"So the answer is {other}.", "I am not sure.", f"the answer is {ts[-1]}.", f"The answer is {ts[1]}."]


def bbh():
    docs = bbh_docs()
    cs = []
    for sub, rows in docs.items():
        f = write_jsonl("bbh", f"bbh_{sub}.jsonl", rows)
        ans = bbh_answers(rows)
        for variant in ("zeroshot", "fewshot", "cot_zeroshot", "cot_fewshot"):
            cs.append(case(f"fid_bbh_{variant}_{sub}", f"bbh/{variant}/{sub}.yaml", {"test": f}, answers=ans))
    write_cases("bbh", cs)


def leaderboard():
    docs = bbh_docs()
    cs = []
    d = os.path.join(TASKS, "leaderboard", "bbh_mc")
    for f in sorted(os.listdir(d)):
        if f.startswith("_"):
            continue
        sub = f[:-5]
        fn = write_jsonl("leaderboard", f"bbh_{sub}.jsonl", docs[sub])
        cs.append(case(f"fid_leaderboard_bbh_{sub}", f"leaderboard/bbh_mc/{f}", {"test": fn}))
    musr = [
        {"narrative": "In the quiet town of Elm, a body was found in the library.\nMackenzie had a motive: the victim owed her money. Ana was seen in the garden at the time.",
         "question": "Who is the most likely murderer?", "choices": "['Mackenzie', 'Ana']", "answer_index": 0, "answer_choice": "Mackenzie"},
        {"narrative": "Eve put the keys in the drawer. While she was out, Bob moved them to the shelf. Eve's brother saw him do it.",
         "question": "Which location is the most likely place Eve would look to find the keys given the story?", "choices": "['drawer', 'shelf', \"Eve's brother's bag\"]", "answer_index": 0, "answer_choice": "drawer"},
        {"narrative": "The manager must assign Tom, Ann and Raj to cooking and cleaning. Tom hates cleaning; Ann and Raj argue when they work together.",
         "question": "Given the story, how would you uniquely allocate each person to make sure both tasks are accomplished efficiently?",
         "choices": "['Cooking: Tom, Cleaning: Ann and Raj', 'Cooking: Ann, Cleaning: Tom and Raj', 'Cooking: Raj and Ann, Cleaning: Tom']", "answer_index": 0,
         "answer_choice": "Cooking: Tom, Cleaning: Ann and Raj"},
    ]
    mf = write_jsonl("leaderboard", "musr.jsonl", musr)
    for split in ("murder_mysteries", "object_placements", "team_allocation"):
        cs.append(case(f"fid_leaderboard_musr_{split}", f"leaderboard/musr/musr_{split}.yaml", {split: mf}))
    gf = write_jsonl("leaderboard", "gpqa_train.jsonl", [json.loads(l) for l in open(os.path.join(TESTDATA, "gpqa", "data", "gpqa_train.jsonl"))])
    for v in ("diamond", "extended", "main"):
        cs.append(case(f"fid_leaderboard_gpqa_{v}", f"leaderboard/gpqa/gpqa_{v}_zeroshot.yaml", {"train": gf}, alone=True))
    write_cases("leaderboard", cs)


def gpqa():
    f = "gpqa_train.jsonl"
    ans = ["The answer is (A).", "Let's think step by step: the correct choice is (B). The answer is (B).", " (C)", "(D) right 3", "I think the answer is (a)", "The answer is B."]
    cs = []
    for v in ("diamond", "extended", "main"):
        cs.append(case(f"fid_gpqa_{v}_zeroshot", f"gpqa/zeroshot/gpqa_{v}_zeroshot.yaml", {"train": f}, alone=True))
        cs.append(case(f"fid_gpqa_{v}_n_shot", f"gpqa/n_shot/gpqa_{v}_n_shot.yaml", {"train": f}, 2, alone=True))
        cs.append(case(f"fid_gpqa_{v}_cot_zeroshot", f"gpqa/cot_zeroshot/gpqa_{v}_cot_zeroshot.yaml", {"train": f}, answers=ans, alone=True))
        cs.append(case(f"fid_gpqa_{v}_cot_n_shot", f"gpqa/cot_n_shot/gpqa_{v}_cot_n_shot.yaml", {"train": f}, 2, answers=ans, alone=True))
        cs.append(case(f"fid_gpqa_{v}_generative_n_shot", f"gpqa/generative/gpqa_{v}_generative_n_shot.yaml", {"train": f}, 2, answers=ans, alone=True))
    write_cases("gpqa", cs)


def drop():
    def d(sid, qid, passage, q, number="", spans=(), date=None, validated=None):
        date = date or {"day": "", "month": "", "year": ""}
        ans = {"number": number, "date": date, "spans": list(spans), "worker_id": "", "hit_id": ""}
        v = validated or [ans]
        return {"section_id": sid, "query_id": qid, "passage": passage, "question": q, "answer": ans,
                "validated_answers": {"number": [a["number"] for a in v], "date": [a["date"] for a in v], "spans": [a["spans"] for a in v],
                                      "worker_id": ["" for _ in v], "hit_id": ["" for _ in v]}}
    rows = [json.loads(l) for l in open(os.path.join(TESTDATA, "drop", "data", "drop_validation.jsonl"))][:2]
    p = "To start the season, the Lions traveled south to Tampa, Florida to take on the Tampa Bay Buccaneers. The Lions scored first in the first quarter with a 23-yard field goal by Jason Hanson. The Buccaneers tied it up with a 38-yard field goal by Connor Barth, then took the lead when Aqib Talib intercepted a pass from Matthew Stafford and ran it in 28 yards. The game was played on September 12, 2010."
    rows += [d("nfl_1", "q3", p, "How many yards was the longest field goal?", number="38"),
             d("nfl_1", "q4", p, "Who kicked the field goals?", spans=["Jason Hanson", "Connor Barth"]),
             d("nfl_1", "q5", p, "When was the game played?", date={"day": "12", "month": "September", "year": "2010"}),
             d("nfl_1", "q6", p, "Which team scored first?", spans=["the Lions"],
               validated=[{"number": "", "date": {"day": "", "month": "", "year": ""}, "spans": ["Lions"], "worker_id": "", "hit_id": ""}])]
    vf = write_jsonl("drop", "drop_validation.jsonl", rows)
    answers = [" 24", " Jay Cutler", " Cutler threw", " 38", " 38 yards", " Jason Hanson and Connor Barth", " Connor Barth", " September 12, 2010",
               " 12 September 2010", " the Lions", " Tampa Bay", " 23"]
    write_cases("drop", [case("fid_drop", "drop/default.yaml", {"train": "drop_train.jsonl", "validation": vf}, answers=answers),
                         case("fid_drop_2shot", "drop/default.yaml", {"train": "drop_train.jsonl", "validation": vf}, 2, answers=answers)])


MMLU_PRO_CATS = ["biology", "business", "chemistry", "computer science", "economics", "engineering", "health", "history", "law",
                 "math", "other", "philosophy", "physics", "psychology"]


def mmlu_pro():
    """Adds a case for each mmlu_pro subject to the family's cases (the
    first three are p-afro's/earlier ones, kept as they are)."""
    test, val = [], []
    qid = 1000
    for ci, cat in enumerate(MMLU_PRO_CATS):
        for k in range(2):
            n = 4 + (ci + k) % 7
            opts = [f"{cat} option {j} of question {qid}" for j in range(n)]
            a = (ci * 3 + k) % n
            test.append({"question_id": qid, "question": f"Which statement about {cat} is correct in case {k + 1}?", "options": opts,
                         "answer": "ABCDEFGHIJ"[a], "answer_index": a, "cot_content": "", "src": f"ori_mmlu-{cat.replace(' ', '_')}", "category": cat})
            qid += 1
        for k in range(5):
            opts = [f"{cat} example option {j}" for j in range(10)]
            a = (ci + k) % 10
            val.append({"question_id": qid, "question": f"Example {k + 1}: what is true of {cat}?", "options": opts, "answer": "ABCDEFGHIJ"[a], "answer_index": a,
                        "cot_content": f"A: Let's think step by step. We recall the basics of {cat}. The answer is ({'ABCDEFGHIJ'[a]}).",
                        "src": f"cot_lib-{cat.replace(' ', '_')}", "category": cat})
            qid += 1
    tf = write_jsonl("mmlu_pro", "mmlu_pro_all_test.jsonl", test)
    vf = write_jsonl("mmlu_pro", "mmlu_pro_all_validation.jsonl", val)
    path = os.path.join(TESTDATA, "mmlu_pro", "cases.json")
    cs = [c for c in json.load(open(path)) if not c["task"].startswith("fid_mmlu_pro_all_")]
    ans = ["Let's think step by step. The answer is (A).", "The answer is (B)", "answer is C", "I do not know.", "the answer is (D).", "The answer is J"]
    for cat in MMLU_PRO_CATS:
        t = cat.replace(" ", "_")
        cs.append(case(f"fid_mmlu_pro_all_{t}", f"mmlu_pro/mmlu_pro_{t}.yaml", {"test": tf, "validation": vf}, answers=ans))
    write_cases("mmlu_pro", cs)


FAMILIES = {f.__name__: f for f in (bbh, leaderboard, gpqa, drop, mmlu_pro)}

if __name__ == "__main__":
    for name in sys.argv[1:] or FAMILIES:
        FAMILIES[name]()
