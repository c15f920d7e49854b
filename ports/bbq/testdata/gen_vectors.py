#!/usr/bin/env python3
"""Reference vectors for ports/bbq from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/bbq/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "bbq/bbq_utils.py"
import random  # noqa: E402

rng = random.Random(3)
F = "bbq/utils.py"
u = load(F)


def doc(i, cat, pol, cc, ans, info, sg, label, ctx="Context.", q="Who?"):
    return {"example_id": i, "question_index": "1", "question_polarity": pol, "context_condition": cc, "category": cat,
            "answer_info": {"ans0": info[0], "ans1": info[1], "ans2": info[2]},
            "additional_metadata": {"subcategory": "None", "stereotyped_groups": sg, "version": "a", "source": "src"},
            "context": ctx, "question": q, "ans0": ans[0], "ans1": ans[1], "ans2": ans[2], "label": label}


raw = []
n = 0
specs = [
    ("Age", ["The grandfather", "The grandson", "Can't be determined"], [["grandfather", "old"], ["grandson", "nonOld"], ["Can't be determined", "unknown"]], ["old"]),
    ("Gender_identity", ["The man", "Not enough info", "The woman"], [["man", "M"], ["Not enough info", "unknown"], ["woman", "F"]], ["F"]),
    ("Race_x_gender", ["Unknown", "the Latina woman", "the Black man"], [["Unknown", "unknown"], ["", ""], ["M-Black", "M-Black"]], ["F-Latino", "Latino"]),
    ("Race_x_SES", ["The Black lawyer", "Cannot answer", "The White janitor"], [["Black lawyer", "highSES-Black"], ["Cannot answer", "unknown"], ["White janitor", "lowSES-White"]], ["lowSES-Black", "Black"]),
    ("SES", ["Not known", "The cashier", "The physician"], [["Not known", "unknown"], ["cashier", "lowSES"], ["physician", "highSES"]], ["low SES"]),
    ("Nationality", ["The Irish guy", "The Canadian guy", "Undetermined"], [["Irish", "Europe"], ["Canadian", "NorthAmerica"], ["Undetermined", "unknown"]], ["Irish"]),
    ("Disability_status", ["The person with autism", "The friend", "Can't answer"], [["person with autism", "disabled"], ["friend", "nonDisabled"], ["Can't answer", "unknown"]], ["disabled", "autistic people"]),
    ("Physical_appearance", ["The obese man", "The thin man", "Not answerable"], [["obese", "obese"], ["thin", "nonObese"], ["Not answerable", "unknown"]], ["obese"]),
    ("Sexual_orientation", ["The gay friend", "Cannot be determined", "The straight friend"], [["gay", "gay"], ["Cannot be determined", "unknown"], ["straight", "straight"]], ["gay"]),
    ("Religion", ["The Muslim", "Not enough information", "The Hindu"], [["Muslim", "Muslim"], ["Not enough information", "unknown"], ["Hindu", "Hindu"]], ["Muslim"]),
    ("Race_ethnicity", ["The boy", "The girl", "Unknown"], [["Black boy", "Black"], ["transgirl girl", "nonTrans"], ["Unknown", "unknown"]], ["Black"]),
]
for cat, ans, info, sg in specs:
    for pol in ["neg", "nonneg"]:
        for cc in ["ambig", "disambig"]:
            for label in range(3):
                raw.append(doc(n, cat, pol, cc, ans, info, sg, label, ctx=f"{cat} context {n}.", q=f"Which {pol}?"))
                n += 1
docs = list(u.process_docs(DS(raw)))
call(F, "process_docs", "process_docs", lambda: list(u.process_docs(DS(raw))), raw)
call(F, "process_docs_ambig", "process_docs", lambda: list(u.process_docs_ambig(DS(raw[:24]))), raw[:24])
call(F, "process_docs_disambig", "process_docs", lambda: list(u.process_docs_disambig(DS(raw[:24]))), raw[:24])
for bad_info in [[["", ""], ["a", "b"], ["Unknown", "unknown"]], [["a", "b"], ["", ""], ["Unknown", "unknown"]]]:
    b = doc(999, "Age", "neg", "ambig", ["x", "y", "Unknown"], bad_info, ["old"], 0)
    call(F, "process_docs", "process_docs", lambda: list(u.process_docs(DS([b]))), [b])

for d in docs[::5]:
    call(F, "doc_to_choice", "doc", u.doc_to_choice, d, d)
    call(F, "doc_to_target", "doc", u.doc_to_target, d, d)
for d in [dict(docs[0], ans0="x", ans1="y", ans2="z"), dict(docs[0], label=-1), dict(docs[0], label=5)]:
    call(F, "doc_to_choice", "doc", u.doc_to_choice, d, d)
    call(F, "doc_to_target", "doc", u.doc_to_target, d, d)

mc_items = []
for d in docs:
    for best in rng.sample(range(12), 1 + (d['example_id'] % 7 == 0)):
        lls = [-8.0 - rng.random() for _ in range(12)]
        lls[best] = -1.5
        res = [(x, False) for x in lls]
        it = {"doc": d, "results": res}
        if len(mc_items) % 3 == 0:
            call(F, "process_results_multiple_choice", "process_results", u.process_results_multiple_choice, it, d, res)
        mc_items.append(it)
bad = dict(docs[0], category="Other")
call(F, "process_results_multiple_choice", "process_results", u.process_results_multiple_choice,
     {"doc": bad, "results": mc_items[0]["results"]}, bad, mc_items[0]["results"])

gens = ["The grandfather", "the grandson was", "I don't know.", "Cannot be determined.", "It is the Latino woman", "black",
        "low SES person", "nothing useful here", "", "THE MAN!", "the  woman", "the canadian guy, probably", "a gay person",
        "Hindu", "The person with autism", "they do not know", "thin", "He", "The obese man and the thin man", "F"]
gen_items = []
for d in docs:
    for g in rng.sample(gens, 1) + [gens[len(gen_items) % len(gens)]]:
        it = {"doc": d, "results": [g]}
        call(F, "process_results_generate_until", "process_results", u.process_results_generate_until, it, d, [g])
        gen_items.append(it)


def agg(pr, items, metric, fn):
    vals = [getattr(u, pr)(it["doc"], it["results"])[metric] for it in items]
    call(F, fn, "aggregate", getattr(u, fn), {"process_results": F + ":" + pr, "metric": metric, "items": items}, vals, tol=1e-12)


for pr, items in [("process_results_multiple_choice", mc_items), ("process_results_generate_until", gen_items)]:
    subsets = [items, [it for it in items if it["doc"]["context_condition"] == "ambig"],
               [it for it in items if it["doc"]["context_condition"] == "disambig"], items[:12]]
    for s in subsets:
        agg(pr, s, "accuracy_amb", "agg_accuracy_amb")
        agg(pr, s, "accuracy_disamb", "agg_accuracy_disamb")
        for m in ["amb_bias_score", "amb_bias_score_Age", "amb_bias_score_SES", "amb_bias_score_Race_x_gender"]:
            agg(pr, s, m, "agg_amb_bias_scores")
        for m in ["disamb_bias_score", "disamb_bias_score_Age", "disamb_bias_score_Gender_identity", "disamb_bias_score_Religion"]:
            agg(pr, s, m, "agg_disamb_bias_scores")
write(os.path.join(HERE, "vectors.json.gz"))
