#!/usr/bin/env python3
"""Vectors for ports/llama3 from lm-eval's own llama3/instruct helpers.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/llama3/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import datasets
import vectest

V = vectest.Vectors("llama3/instruct/arc_challenge/utils.py")

# mmlu_<lang>: each process_docs_<subject> over documents of several subtasks.
for lang in ["de", "es", "fr", "hi", "it", "pt", "th"]:
    rel = f"llama3/instruct/mmlu_{lang}/utils.py"
    m = vectest.load(rel)
    docs = [
        {"subtask_name": f"mmlu_{lang}_chat.anatomy", "input_question": "q1", "input_correct_responses": ["A"]},
        {"subtask_name": f"mmlu_{lang}_chat.virology", "input_question": "q2", "input_correct_responses": ["B"]},
        {"subtask_name": f"mmlu_xx_chat.anatomy", "input_question": "q3", "input_correct_responses": ["C"]},
        {"subtask_name": f"mmlu_{lang}_chat.anatomy", "input_question": "q4", "input_correct_responses": ["D"]},
        {"subtask_name": None, "input_question": "q5", "input_correct_responses": ["A"]},
    ]
    for subj in ["anatomy", "virology", "world_religions"]:
        fn = getattr(m, f"process_docs_{subj}")
        V.call(f"process_docs_{subj}", "process_docs", docs,
               lambda: list(fn(datasets.Dataset.from_list(docs))), file=rel)

# mmlu_pro: fewshot_to_text
rel = "llama3/instruct/mmlu_pro/utils.py"
m = vectest.load(rel)
for cot in [
    "A: Let's think step by step. First, 2+2=4. The answer is (B).",
    "A: Let's think step by step.\n\nThe answer is (C). And again The answer is (D).",
    "No lead here. The answer is (b). The answer is (Z).",
    "  A: Let's think step by step. spaced  ",
    "",
]:
    d = {"cot_content": cot, "question": "q"}
    V.call("fewshot_to_text", "doc", d, m.fewshot_to_text, d, file=rel)

# arc_challenge: process_docs
m = vectest.load("llama3/instruct/arc_challenge/utils.py")


def arc(key, labels=("A", "B", "C", "D"), qid="x"):
    return {"id": qid, "question": "Q " + qid, "choices": {"text": [f"t{i}" for i in range(len(labels))], "label": list(labels)}, "answerKey": key}


arc_docs = [arc("B", qid="1"), arc("3", ("1", "2", "3", "4"), "2"), arc("E", ("A", "B", "C", "D", "E"), "3"),
            arc("C", ("A", "B", "C"), "4"), arc("0", ("1", "2", "3", "4"), "5"), arc(" 2", ("1", "2", "3", "4"), "6")]
V.call("process_docs", "process_docs", arc_docs, lambda: list(m.process_docs(datasets.Dataset.from_list(arc_docs))))
for bad in ["E", "5", "x"]:
    docs = [arc(bad, ("1", "2", "3", "4"), "b")]
    V.call("process_docs", "process_docs", docs, lambda: list(m.process_docs(datasets.Dataset.from_list(docs))))

V.write(vectest.out_path(__file__))
