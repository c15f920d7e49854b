#!/usr/bin/env python3
"""Reference vectors for ports/longbench, from lm-eval's longbench/metrics.py.

usage (from the repository root; ROUGE_SRC is a checkout of pltrdy/rouge 1.0.1,
the `rouge` package pip installs for lm_eval[longbench]; jieba is Debian's
python3-jieba 0.42.1, fuzzywuzzy Debian's python3-fuzzywuzzy 0.18.0):
  PYTHONPATH=ROUGE_SRC /usr/bin/python3 ports/longbench/testdata/gen_vectors.py \
    ../shared/lm-eval/lm_eval/tasks > ports/longbench/testdata/vectors.json

python-Levenshtein is hidden, so fuzzywuzzy uses difflib's SequenceMatcher as it
does when installed by pip without the [speedup] extra (lm-eval's longbench
extra). Each vector is a call of a get_*_with_score function on a document and
the model's answer: its returned dict, or the exception it raised.
"""
import importlib.util
import json
import random
import sys
import warnings

sys.modules["Levenshtein"] = None  # fuzzywuzzy falls back to difflib

sys.setrecursionlimit(1000)  # Python's default, which lm-eval keeps
warnings.simplefilter("ignore")

spec = importlib.util.spec_from_file_location("lb_metrics", sys.argv[1] + "/longbench/metrics.py")
M = importlib.util.module_from_spec(spec)
spec.loader.exec_module(M)

out = []

# The rouge package's _recon_lcs recurses once per step of the LCS path, so a
# long sentence pair hits Python's recursion limit (rouge_score then returns
# 0.0) at a length that depends on the frames already on the stack. Under
# lm-eval's console script (lm_eval -> cli_evaluate -> HarnessCLI.execute ->
# _execute -> simple_evaluate -> ... -> process_results) 18 frames are on the
# stack when _recon_lcs runs (16 under run_ref.py, measured with
# inspect.stack(), plus the CLI's two extra frames): calls are made at that
# depth here.
RECON_FRAMES = 18
BELOW = 9  # frames from get_*_with_score down to _recon_lcs, both included


def depth():
    f, n = sys._getframe(1), 0
    while f is not None:
        n, f = n + 1, f.f_back
    return n


def at_depth(target, fn):
    if depth() < target - 1:
        return at_depth(target, fn)
    return fn()


def call(fn, doc, results):
    v = {"function": fn, "doc": doc, "results": results}
    try:
        # fn runs with RECON_FRAMES - BELOW frames below it
        v["output"] = at_depth(RECON_FRAMES - BELOW, lambda: getattr(M, fn)(doc, results))
    except Exception as e:  # noqa: BLE001
        v["error"] = f"{type(e).__name__}: {e}"
    out.append(v)


rnd = random.Random(7)
words = "the a an cat dog sat on mat and Paris France river bank of was is were".split()


def sent(n):
    return " ".join(rnd.choice(words) for _ in range(n))


qa = [
    ({"answers": ["Paris"]}, ["  Paris, France.\n"]),
    ({"answers": ["the Eiffel Tower", "Eiffel tower"]}, ["The Eiffel-Tower is in Paris"]),
    ({"answers": ["An apple a day"]}, ["a the an"]),
    ({"answers": ["1990s"]}, ["In the 1990s and 1990s."]),
    ({"answers": ["Thé café"]}, ["THÉ CAFÉ!"]),
    ({"answers": []}, ["anything"]),
    ({"answers": ["yes"]}, [""]),
]
for d, r in qa:
    call("get_qa_f1_with_score", d, r)

for d, r in [
    ({"answers": ["The cat sat on the mat. It was happy."]}, ["The cat sat. On the mat it was happy"]),
    ({"answers": ["A summary of the report.  Two sentences here."]}, [" a summary of the report"]),
    ({"answers": ["x"]}, [""]),
    ({"answers": ["x"]}, ["..."]),
    ({"answers": ["..."]}, ["x y"]),
    ({"answers": ["one two three", "two three four five"]}, ["two three four"]),
    ({"answers": ["a . . b"]}, ["a . b ."]),
    ({"answers": [sent(40) + ". " + sent(30) + "." + sent(12)]}, [sent(35) + ". " + sent(50)]),
    ({"answers": ["w " * 600]}, ["w " * 600]),
    ({"answers": ["w " * 400]}, ["w " * 450]),
    ({"answers": [" ".join(["w"] * 981)]}, [" ".join(["w"] * 981)]),
    ({"answers": [" ".join(["w"] * 982)]}, [" ".join(["w"] * 982)]),
    ({"answers": [" ".join(["w"] * 500)]}, [" ".join(["v"] * 481) + " w"]),
    ({"answers": [" ".join(["w"] * 500)]}, [" ".join(["v"] * 482) + " w"]),
    ({"answers": ["\u3000spaced\tout\nwords"]}, ["spaced out\u00a0words"]),
]:
    call("get_rouge_with_score", d, r)

code = [
    ({"answers": ["    return x + 1"]}, ["\n    return x + 1\n"]),
    ({"answers": ["    return x + 1"]}, ["```python\n# comment\n    return x+1\nfoo()"]),
    ({"answers": ["int y = 2;"]}, ["// c\n   \nint y = 3;"]),
    ({"answers": ["abc"]}, ["# only comments\n// here"]),
    ({"answers": [""]}, ["# only comments"]),
    ({"answers": ["self.assertEqual(a, b)", "assert a == b"]}, ["assert a==b"]),
    ({"answers": ["x" * 150 + "y" * 150]}, ["x" * 120 + "z" * 10 + "y" * 170]),
    ({"answers": ["".join(rnd.choice("ab cd(),") for _ in range(260))]}, ["".join(rnd.choice("ab cd(),") for _ in range(240))]),
    ({"answers": ["日本語のコード = 1"]}, ["日本語 = 1"]),
]
for d, r in code:
    call("get_code_sim_with_score", d, r)

classes = ["Location", "Entity", "Abbreviation", "Human", "Description", "Numeric value", "Numeric"]
for d, r in [
    ({"answers": ["Location"], "all_classes": classes}, ["Location"]),
    ({"answers": ["Numeric value"], "all_classes": classes}, ["Numeric value"]),
    ({"answers": ["Numeric"], "all_classes": classes}, ["Numeric value"]),
    ({"answers": ["Human"], "all_classes": classes}, ["Human or Entity? Human Description"]),
    ({"answers": ["Entity"], "all_classes": ["Ent", "Entity", "Enti", "y"]}, ["Entity"]),
    ({"answers": ["ab"], "all_classes": ["a", "b", "ab", "a"]}, ["ab"]),
    ({"answers": ["Human"], "all_classes": classes}, ["nothing"]),
    ({"answers": ["Human"], "all_classes": None}, ["Human"]),
]:
    call("get_classification_with_score", d, r)

for d, r in [
    ({"answers": ["5"]}, ["There are 5 paragraphs, not 6. So 5."]),
    ({"answers": ["12"]}, ["12"]),
    ({"answers": ["3"]}, ["three"]),
    ({"answers": ["3"]}, ["٣ paragraphs or 3"]),
    ({"answers": ["7"]}, ["07 and 7 and 77"]),
]:
    call("get_count_with_score", d, r)

for d, r in [
    ({"answers": ["Paragraph 4"]}, ["Paragraph 4"]),
    ({"answers": ["Paragraph 4"]}, ["Paragraph 4 and Paragraph 14"]),
    ({"answers": ["Paragraph 12", "Paragraph 3"]}, ["The answer is 3"]),
    ({"answers": ["the fourth"]}, ["4"]),
]:
    call("get_retrieval_with_score", d, r)
for d, r in [
    ({"answers": ["段落5"]}, ["答案是段落5"]),
    ({"answers": ["段落5"]}, ["段落15，段落5"]),
    ({"answers": ["Paragraph 5"]}, ["5"]),
]:
    call("get_retrieval_zh_with_score", d, r)

for d, r in [
    ({"answers": ["北京是中国的首都"]}, ["首都是北京。"]), ({"answers": ["小明硕士毕业于中国科学院计算所"]}, ["小明毕业于计算所，后在日本深造"]),
    ({"answers": ["2023年GDP增长了5.2%"]}, ["GDP增长5.2%"]), ({"answers": ["上海"]}, ["。，！"]), ({"answers": ["杭研大厦"]}, ["他来到了网易杭研大厦"]),
    ({"answers": ["ABC公司"]}, ["abc公司"]),
]:
    call("get_qa_f1_zh_with_score", d, r)
    call("get_rouge_zh_with_score", d, r)
call("get_rouge_zh_with_score", {"answers": ["会议讨论了预算。决定增加投入。"]}, ["会议讨论预算，决定增加投入"])
call("get_rouge_zh_with_score", {"answers": ["x"]}, [""])

json.dump(out, sys.stdout, ensure_ascii=False, indent=0)
print()
