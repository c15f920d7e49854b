#!/usr/bin/env python3
"""Reference vectors for ports/infinitebench, from lm-eval's infinitebench/utils.py.

usage (from the repository root; rouge_score is not installable here, so
fidelity/pystubs/rouge_score models it):
  PYTHONPATH=fidelity/pystubs /usr/bin/python3 ports/infinitebench/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks \
    > ports/infinitebench/testdata/vectors.json

Each vector is a call of a function of utils.py on a document (and, for the
process_results, the model's answer): its output, or the exception it raised.
"""
import importlib.util
import json
import sys

spec = importlib.util.spec_from_file_location("ib_utils", sys.argv[1] + "/infinitebench/utils.py")
U = importlib.util.module_from_spec(spec)
spec.loader.exec_module(U)

out = []


def call(fn, doc, results=None):
    v = {"function": fn, "doc": doc}
    if results is not None:
        v["results"] = results
    try:
        f = getattr(U, fn)
        v["output"] = f(doc) if results is None else f(doc, results)
    except Exception as e:  # noqa: BLE001
        v["error"] = f"{type(e).__name__}: {e}"
    out.append(v)


ctx = "def func_1(x):\n    return x + 1"
for inp in ["What is the return value of func_12(-3)?", "func_7(15) = ?", "  no call here  ", "func_x(3)", "func_3(+4)"]:
    call("doc_to_text_code_run", {"context": ctx, "input": inp})
for opts in [["f1", "f2", "f3", "f4"], ["only"], [], None, ["a", "b", "c", "d", "e"]]:
    d = {"context": "code", "input": "q", "options": opts}
    call("doc_to_text_code_debug", d)
    call("doc_to_text_longbook_choice", d)
call("doc_to_text_code_debug", {"context": "code"})
call("doc_to_text_longdialogue", {"context": "A: hi\n$$MASK$$: hello"})
for inp in ["What is The largest number of the list?", "Find The Smallest Number of all of them of", "no pattern", "The of", "The x ofThe y of"]:
    call("doc_to_text_math_find", {"context": "[1, 2, 3]", "input": inp})

gen = [
    ({"answer": ["JOHN"]}, ["  john said\x01hi "]), ({"answer": [" Mary "]}, ["It was mary."]), ({"answer": []}, ["x"]),
    ({"answer": ["Straße"]}, ["STRASSE"]), ({}, ["x"]), ({"answer": ["Bob"]}, ["Alice"]),
]
for d, r in gen:
    call("process_results", d, r)
for d, r in [({"answer": ["abc-123"]}, ['The value is "abc-123".']), ({"answer": ["abc"]}, ["abcd: abc!"]), ({"answer": ["a b"]}, ["a b"]),
             ({"answer": ["x"]}, ["{x}"]), ({"answer": ["x"]}, [""])]:
    call("process_results_kv", d, r)
for d, r in [({"answer": ["12345"]}, ["The passkey is 12345."]), ({"answer": ["123"]}, ["abc 0123"]), ({"answer": ["7"]}, ["no digits"]),
             ({"answer": [" 42 "]}, ["42abc 17"]), ({"answer": ["٣"]}, ["٣ 3"]), ({"answer": ["5"]}, ["x\x055"])]:
    call("process_results_int_match", d, r)
for d, r in [({"answer": ["3.0"]}, ["The answer is 3"]), ({"answer": ["3"]}, ["3.00 is it"]), ({"answer": ["007"]}, ["7"]),
             ({"answer": ["abc"]}, ["12"]), ({"answer": ["1.5x", "12"]}, ["1.5 then 12"]), ({"answer": ["٣"]}, ["٣"]),
             ({"answer": ["x.y"]}, ["2.5"]), ({"answer": ["12"]}, ["none"]), ({"answer": [" 1e1 "]}, ["10.0"])]:
    call("process_results_math", d, r)
opts = ["Paris", "London", "Rome", "Berlin"]
for a, r in [("Rome", "C"), ("Rome", "The answer is C."), ("Rome", "A or maybe C"), ("London", "b"), ("London", "answer: b"),
             ("Paris", "I think the answer is: a"), ("Berlin", "option is d, definitely"), ("Berlin", "well d"), ("Berlin", ""),
             ("Rome", "Cé"), ("Rome", "c."), ("E", "E"), ("Madrid", "A"), ("Rome", "ANSWER IS C"), ("Rome", "İanswer is c")]:
    call("process_results_choice", {"answer": [a], "options": opts}, [r])
call("process_results_choice", {"answer": ["c"], "options": []}, ["C"])
fopts = ["func_a", "func_b", "func_c", "func_d"]
for a, r, o in [("func_b", "B", fopts), ("func_b", "The answer is B.", fopts), ("func_b", "Option B", fopts), ("func_c", "func_c is wrong", fopts),
                ("func_c", "answer is: c", fopts), ("func_c", "it is: func_c", fopts), ("func_c", "it is: nothing", fopts),
                ("D", "d", []), ("func_z", "B", fopts), ("func_d", "**d**", fopts), ("func_d", "- - d", fopts), ("func_a", "", fopts),
                ("func_b", "answer: func_b", fopts), ("func_b", "correct option is: b", fopts)]:
    call("process_results_code_debug", {"answer": [a], "options": o}, [r])
call("process_results_code_debug", {"answer": []}, ["B"])
for d, r in [({"answer": ["42"]}, ["The return value is 42."]), ({"answer": ["-7"]}, ["`-7`"]), ({"answer": ["5"]}, ["five"]),
             ({"answer": ["x"]}, ["value: 3"]), ({"answer": ["abc", "3"]}, ["3"]), ({"answer": ["٣"]}, ["3"]), ({"answer": ["1"]}, [""]),
             ({"answer": ["10"]}, ["1_0"])]:
    call("process_results_code_run", d, r)
for d, r in [({"answer": ["The quick brown fox"]}, ["a quick fox"]), ({"answer": ["Paris", "the city of Paris"]}, ["Paris, France"]),
             ({"answer": ["x"]}, [""]), ({"answer": ["!!!"]}, ["..."]), ({"answer": ["Thé Café"]}, ["THÉ-café"])]:
    call("process_results_qa_en", d, r)
for d, r in [({"answer": ["北京是首都"]}, ["首都是北京。"]), ({"answer": ["上海"]}, ["广州"]), ({"answer": ["ＡＢ，c"]}, ["ab c"])]:
    call("process_results_qa_chn", d, r)
for d, r in [
    ({"answer": ["The committee reviewed the reports.\nIt recommended changes to the programs."]}, ["The committee is reviewing reports and recommends changing programs."]),
    ({"answer": ["Summaries of national agencies"]}, ["summary of the nation's agency\n\nsummarized"]),
    ({"answer": ["x"]}, [""]), ({"answer": []}, ["text"]), ({"answer": ["!!!"]}, ["..."]),
    ({"answer": ["Running runners ran quickly; generalization generalized."]}, ["runs, running: generally generalizing"]),
]:
    call("process_results_rouge", d, r)
json.dump(out, sys.stdout, ensure_ascii=False, indent=0)
print()
