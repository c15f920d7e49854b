#!/usr/bin/env python3
"""Vectors for ports/metabench from lm-eval's own process_docs.py and
process_docs_permute.py (how to run: ports/internal/vectest/pyvec.py).
The documents have metabench's columns: each row carries its few-shot
examples as numbered columns."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402


def arc(i, n=4):
    d = {"id": f"arc{i}", "question": f"Which gas do plants take in? ({i})",
         "choices": {"text": [f"gas {c}{i}" for c in "ABCDE"[:n]], "label": list("ABCDE"[:n]) if i % 2 else ["1", "2", "3", "4", "5"][:n]},
         "answerKey": ("ABCDE"[i % n] if i % 2 else str(i % n + 1))}
    for s in range(1, 26):
        d[f"arc_idx_shot_{s}"] = s
        d[f"arc_question_shot_{s}"] = f"Shot question {s}?"
        d[f"arc_choices_shot_{s}"] = {"text": [f"t{s}a", f"t{s}b", f"t{s}c"], "label": ["A", "B", "C"]}
        d[f"arc_answerKey_shot_{s}"] = "ABC"[s % 3]
    d["alltwentyfiveshot_longprompt"] = "long"
    return d


def gsm8k(i):
    d = {"question": f"Tom has {i} apples...", "answer": f"He has {i}.\n#### {i}"}
    for s in range(1, 6):
        d[f"gsm8k_idx_shot_{s}"] = s
        d[f"gsm8k_prompt_shot_{s}"] = f"Shot {s}: how many?"
        d[f"gsm8k_answer_shot_{s}"] = f"Steps.\n#### {s}"
    d["allfiveshot_longprompt"] = "long"
    return d


def hellaswag(i):
    d = {"ind": i, "activity_label": "Removing ice from car", "ctx_a": "Then, the man writes over the snow",
         "ctx_b": "THEN the man [title] writes" if i % 2 else "ᾳ then ΑΣ", "ctx": "ctx",
         "endings": [f" ending [step] {j} [x]  two " for j in range(4)], "source_id": "s", "split": "val",
         "split_type": "indomain", "label": str(i % 4)}
    for s in range(1, 11):
        d[f"hellaswag_ind_shot_{s}"] = s
        d[f"hellaswag_activity_labels_shot_{s}"] = f"Label {s}"
        d[f"hellaswag_ctx_a_shot_{s}"] = f"A man [header] {s}"
        d[f"hellaswag_ctx_b_shot_{s}"] = "iS walking"
        d[f"hellaswag_ctx_shot_{s}"] = "c"
        d[f"hellaswag_endings_shot_{s}"] = [f"end{s}{j}" for j in range(4)]
        d[f"hellaswag_source_id_shot_{s}"] = "s"
        d[f"hellaswag_split_shot_{s}"] = "train"
        d[f"hellaswag_split_type_shot_{s}"] = "indomain"
        d[f"hellaswag_label_shot_{s}"] = str(s % 4)
    d["alltenshot_longprompt"] = "long"
    return d


def mmlu(i):
    d = {"question": f"  What is {i}?  ", "subject": "high_school_biology", "choices": [f"c{j}{i}" for j in range(4)],
         "answer": i % 4}
    for s in range(1, 6):
        d[f"mmlu_ind_shot_{s}"] = s
        d[f"mmlu_question_shot_{s}"] = f" Shot {s}? "
        d[f"mmlu_choices_shot_{s}"] = ["w", "x", "y", "z"]
        d[f"mmlu_answers_shot_{s}"] = s % 4
    d["allfiveshot_longprompt"] = "long"
    return d


def truthfulqa(i):
    return {"question": f"What happens if {i}?", "mc1_targets": {"choices": [f"right{i}", "w1", "w2", "w3"][: 2 + i % 3],
                                                                "labels": [1, 0, 0, 0][: 2 + i % 3]},
            "mc2_targets": {"choices": ["a", "b"], "labels": [1, 0]}}


def winogrande(i):
    d = {"sentence": f"Sarah was a much better surgeon than Maria so _ always got the harder cases {i}.",
         "option1": "Sarah", "option2": "Maria", "answer": "12"[i % 2]}
    for s in range(1, 6):
        d[f"winogrande_idx_shot_{s}"] = s
        d[f"winogrande_prompt_shot_{s}"] = f"The trophy doesn't fit because _ is too big {s}."
        d[f"winogrande_option1_shot_{s}"] = "trophy"
        d[f"winogrande_option2_shot_{s}"] = "suitcase"
        d[f"winogrande_answer_shot_{s}"] = "12"[s % 2]
    d["allfiveshot_longprompt"] = "long"
    return d


make = {"arc": arc, "gsm8k": gsm8k, "hellaswag": hellaswag, "mmlu": mmlu, "truthfulqa": truthfulqa, "winogrande": winogrande}
plain = pyvec.load("metabench/process_docs.py")
perm = pyvec.load("metabench/process_docs_permute.py")
for name, f in make.items():
    docs = [f(i) for i in range(6)]
    pyvec.add_docs("metabench/process_docs.py", f"process_{name}", getattr(plain, f"process_{name}"), docs)
    if hasattr(perm, f"process_{name}"):
        fn = getattr(perm, f"process_{name}")
        pyvec.add_docs("metabench/process_docs_permute.py", f"process_{name}", fn, docs, seed=0)
        # Another seed, on other documents (the port caches by input, as
        # datasets' map cache does).
        pyvec.add_docs("metabench/process_docs_permute.py", f"process_{name}", fn, [f(i) for i in range(6, 12)], seed=1234)
bad = winogrande(0)
bad["winogrande_answer_shot_3"] = "3"
pyvec.add_docs("metabench/process_docs.py", "process_winogrande", plain.process_winogrande, [bad])
missing = arc(1)
del missing["alltwentyfiveshot_longprompt"]
pyvec.add_docs("metabench/process_docs.py", "process_arc", plain.process_arc, [missing])
wdocs = [plain.process_winogrande(pyvec.DS([winogrande(i)]))[0] for i in range(2)] + [
    {"sentence": "No blank here.", "option1": "a", "option2": "b", "answer": "3"}]
for fn in ["winogrande_doc_to_text", "winogrande_doc_to_target", "winogrande_doc_to_choice"]:
    pyvec.add_doc("metabench/process_docs.py", fn, getattr(plain, fn), wdocs)
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
