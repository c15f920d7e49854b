#!/usr/bin/env python3
"""Vectors for ports/super_glue from lm-eval's own super_glue helpers.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:fidelity/pystubs:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/super_glue/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks

(fidelity/pystubs has a stand-in for transformers' squad_metrics, which
record/util.py imports.)
"""
import datasets
import vectest

V = vectest.Vectors("super_glue/cb/aggregate.py")


def metric_agg(file, mod, metric, agg, calls):
    V.call(metric, "metric", calls, lambda: [getattr(mod, metric)(predictions=c["predictions"], references=c["references"]) for c in calls], file=file)
    V.call(metric, "metric_agg", calls, lambda: getattr(mod, agg)([getattr(mod, metric)(predictions=c["predictions"], references=c["references"]) for c in calls]), file=file, agg=agg)


# cb
m = vectest.load("super_glue/cb/aggregate.py")
for items in [[(0, 0), (1, 1), (2, 1), (0, 2), (1, 1)], [(0, 0), (0, 0)], [(1, 2), (2, 1), (0, 1)], [(2, 2), (2, 0), (1, 1), (0, 0), (1, 0), (2, 2), (0, 1)]]:
    V.call("cb_multi_fi", "agg_pairs", items, m.cb_multi_fi, items)
F = "super_glue/cb/t5_utils.py"
m = vectest.load(F)
labels = ["entailment", "contradiction", "neutral"]
preds = ["entailment", "neutral", "banana", "contradiction", "neutral", "Entailment", "contradiction"]
golds = ["entailment", "contradiction", "neutral", "contradiction", "entailment", "entailment", "neutral"]
metric_agg(F, m, "mean_3class_f1", "agg_mean_3class_f1", [{"predictions": [p], "references": [g]} for p, g in zip(preds, golds)])
metric_agg(F, m, "mean_3class_f1", "agg_mean_3class_f1", [{"predictions": ["neutral"], "references": ["neutral"]}])
V.call("mean_3class_f1", "metric", [{"predictions": ["x"], "references": ["bad"]}], lambda: m.mean_3class_f1(["x"], ["bad"]), file=F)

# copa
F = "super_glue/copa/utils.py"
m = vectest.load(F)
for d in [
    {"premise": "The man broke his toe.", "choice1": "He dropped a hammer on his foot.", "choice2": "He got a hole in his sock.", "question": "cause", "label": 0},
    {"premise": "  I tipped the bottle.  ", "choice1": "Élan rose.", "choice2": "the liquid spilled", "question": "effect", "label": 1},
    {"premise": "x", "choice1": "A", "choice2": "B", "question": "other", "label": 1},
]:
    for fn in ["doc_to_text", "doc_to_target", "doc_to_choice"]:
        V.call(fn, "doc", d, getattr(m, fn), d, file=F)

# multirc
F = "super_glue/multirc/t5_utils.py"
m = vectest.load(F)
calls = [{"predictions": [p], "references": [r]} for p, r in [
    ("True", "1_True"), ("False", "1_True"), ("maybe", "1_False"), ("True", "2_False"), ("False", "2_False"),
    ("yes", "3_True"), ("True", "3_True"), ("False", "4_False")]]
metric_agg(F, m, "f1", "agg_f1", calls)
metric_agg(F, m, "em", "agg_em", calls)
metric_agg(F, m, "f1", "agg_f1", [{"predictions": ["False"], "references": ["1_False"]}])
V.call("em", "metric", [{"predictions": ["True"], "references": ["1_2_True"]}], lambda: m.em(["True"], ["1_2_True"]), file=F)

# record t5
F = "super_glue/record/t5_utils.py"
m = vectest.load(F)
rdocs = [
    {"passage": "Top story.\n@highlight\nFirst point\n@highlight\nSecond \"quoted\"\n@highlight\nend", "query": "@placeholder won", "entities": ["Bob", "Ann"], "answers": ["Bob", "Bobby"], "idx": {"passage": 0, "query": 1}},
    {"passage": "No highlights", "query": "q @placeholder", "entities": ["X"], "answers": [], "idx": {"passage": 1, "query": 2}},
    {"passage": "p!\n@highlight\nh", "query": "q", "entities": ["Y", "Z"], "answers": ["Z"], "idx": {"passage": 2, "query": 3}},
]
for d in rdocs:
    V.call("doc_to_text", "doc", d, m.doc_to_text, d, file=F)
V.call("process_docs", "process_docs", rdocs, lambda: list(m.process_docs(datasets.Dataset.from_list(rdocs))), file=F)
calls = [{"predictions": [p], "references": [r]} for p, r in [
    ("Bob", "0+1_Bob"), ("Bob", "0+1_Bobby"), ("the Z!", "2+3_Z"), ("Ann Lee", "4+5_Ann"), ("nothing", "4+5_Lee Ann")]]
metric_agg(F, m, "em", "squad_em_agg", calls)
metric_agg(F, m, "f1", "squad_f1_agg", calls)
metric_agg(F, m, "f1", "squad_f1_agg", [{"predictions": ["a"], "references": ["0_x_y"]}])

# record util
F = "super_glue/record/util.py"
m = vectest.load(F)
udocs = [
    {"passage": "  Lead text.\n@highlight\nOne\n@highlight\nTwo  ", "query": "@placeholder said @placeholder", "entities": ["Bob", "Ann", "Bob"], "answers": ["Bob", "Bob"], "idx": {"passage": 0, "query": 0}},
    {"passage": "Only lead", "query": "The @placeholder team", "entities": ["Zed", "Éclair", "alpha"], "answers": ["the Éclair", "alpha"], "idx": {"passage": 1, "query": 1}},
]
V.call("process_docs", "process_docs", udocs, lambda: list(m.process_docs(datasets.Dataset.from_list(udocs))), file=F)
pdocs = list(m.process_docs(datasets.Dataset.from_list(udocs)))
for d in pdocs:
    for fn in ["doc_to_text", "doc_to_target", "doc_to_choice"]:
        V.call(fn, "doc", d, getattr(m, fn), d, file=F)
for d, lls in [(pdocs[0], [-2.0, -1.0]), (pdocs[0], [-1.0, -3.0]), (pdocs[1], [-5.0, -1.0, -2.0]), (pdocs[1], [-0.5, -1.0, -2.0]), (pdocs[1], [-9.0, -9.0, -0.1])]:
    r = [(x, False) for x in lls]
    V.call("process_results", "process_results", {"doc": d, "results": r}, m.process_results, d, r, file=F, results="loglikelihood")
d = {"entities": ["x y z", ""], "answers": ["x y", ""], "query": "q", "passage": "p"}
for lls in [[-1.0, -2.0], [-3.0, -2.0]]:
    r = [(x, False) for x in lls]
    V.call("process_results", "process_results", {"doc": d, "results": r}, m.process_results, d, r, file=F, results="loglikelihood")

# wsc
F = "super_glue/wsc/preprocess_wsc.py"
m = vectest.load(F)
wdocs = [
    {"text": "Mark told Pete many lies about himself , which Pete included in his book . He should have been more truthful .", "span1_index": 0, "span2_index": 15, "span1_text": "Mark", "span2_text": "He", "label": 0, "idx": 0},
    {"text": "The trophy does n't fit into the brown suitcase because it is too large .", "span1_index": 1, "span2_index": 10, "span1_text": "The trophy", "span2_text": "it", "label": 1, "idx": 1},
    {"text": "I poured water from the bottle into the cup until it was full ( very ) .", "span1_index": 8, "span2_index": 10, "span1_text": "the cup", "span2_text": "it", "label": 1, "idx": 2},
]
for d in wdocs:
    V.call("default_doc_to_text", "doc", d, m.default_doc_to_text, d, file=F)
F = "super_glue/wsc/t5_utils.py"
m = vectest.load(F)
special = {"text": 'The boy continued to whip the pony , and eventually the pony threw him over. John laughed out quite loud. "Good for him," he said. ', "span2_index": 22, "span2_text": "him", "span1_text": "The boy", "label": 0}
bad = {"text": "a b c", "span2_index": 0, "span2_text": "a", "span1_text": "b", "label": 0}
mismatch = {"text": "a b c", "span2_index": 1, "span2_text": "c", "span1_text": "b", "label": 0}
for d in wdocs + [special, bad, mismatch, dict(wdocs[0], span2_text="He\\1")]:
    V.call("doc_to_text", "doc", d, m.doc_to_text, d, file=F)
for d, r in [(wdocs[0], "Mark"), (wdocs[0], "Pete"), (wdocs[1], "the trophy"), (wdocs[1], " The Trophy "), (wdocs[2], "cup"),
             (wdocs[2], "the bottle"), (wdocs[2], "the cup's"), (dict(wdocs[0], span1_text="Bob's hat"), "Bob's hat"), (wdocs[1], "")]:
    V.call("process_results", "process_results", {"doc": d, "results": [r]}, m.process_results, d, [r], file=F)

V.write(vectest.out_path(__file__))
