#!/usr/bin/env python3
"""Vectors for ports/darija_bench from lm-eval's own helpers.

usage (from the repository root):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src /usr/bin/python3 \
    ports/darija_bench/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks

Hugging Face evaluate is not installed: an empty stand-in module lets the
utils.py files import (only the BERTScore and ROUGE aggregations use it,
and those are not ported: their vectors only say so).
"""
import sys
import types

sys.path.insert(0, "ports/internal/vectest")
import vectorlib as V  # noqa: E402

sys.modules.setdefault("evaluate", types.ModuleType("evaluate"))
V.setup(sys.argv[1])
D = "darija_bench/"


def msgs(user, assistant):
    return {"messages": [{"content": user, "role": "user"}, {"content": assistant, "role": "assistant"}]}


# --- sentiment
rel = D + "darija_sentiment/utils.py"
m = V.load(rel)
prompt = "شنو هو الإحساس ديال هاد الجملة؟\nالجملة: الماكلة زوينة بزاف\nالاختيارات:\n-سلبي\n-ايجابي\n-ماكينش إحساس"
for d in [msgs(prompt, "ايجابي"), msgs(prompt.replace("\n-ماكينش إحساس", ""), "سلبي"),
          msgs("-سلبي -سلبي -ايجابيات", "ماكينش إحساس"), msgs("x", "محايد")]:
    for fn in ["doc_to_text", "doc_to_target", "doc_to_choice_2", "doc_to_choice_3"]:
        V.doc(rel, fn, getattr(m, fn), d)

# --- summarization
rel = D + "darija_summarization/utils.py"
m = V.load(rel)
docs = [msgs("لخص هاد المقطع: الجو زوين اليوم", "الجو زوين"),
        msgs("لخص هاد المقطعلخص هاد المقطع", "t"), msgs("no instruction", "")]
for d in docs:
    for fn in ["doc_to_text", "doc_to_target"]:
        V.doc(rel, fn, getattr(m, fn), d)
V.doc(rel, "doc_to_target", m.doc_to_target, {"messages": [{"content": "only one"}]})
for resps in [[["  answer one \n", "second"], ["\tx"], [""]], [["ملخص  "]]]:
    V.add(rel, "strip", "filter_fn", {"resps": resps, "docs": [{} for _ in resps]},
          output=list(m.strip(resps, [{} for _ in resps])))


def metric(rel, name, fn, gold, result):
    # lm-eval's call: references=/predictions=, and on TypeError [gold, result]
    try:
        out = fn(references=[gold], predictions=[result])
    except TypeError:
        out = fn([gold, result])
    V.add(rel, name, "metric", {"gold": gold, "result": result}, output=out)


for name in ["bert", "rouge1", "rougeL", "rougeLsum"]:
    metric(rel, name, getattr(m, name), "الجو زوين", "الجو  زوين بزاف")
for name in ["agg_rouge1", "agg_rouge2", "agg_rougel", "agg_rougelsum", "darijabert"]:
    V.add(rel, name, "unavailable", None)

# --- translation and transliteration
for sub, dirs, berts in [("darija_translation", ["dr_fr", "dr_en", "dr_msa", "fr_dr", "en_dr", "msa_dr"],
                          ["camembert", "darijabert", "arabert", "bertbase", "mbert"]),
                         ("darija_transliteration", ["dr_ar", "ar_dr"], ["arabizibert", "darijabert", "mbert"])]:
    rel = D + sub + "/utils.py"
    m = V.load(rel)
    d = msgs("ترجم من الدارجة للفرنساوية:\nشنو سميتك؟", "Comment tu t'appelles ?")
    V.doc(rel, "doc_to_text", m.doc_to_text, d)
    V.doc(rel, "doc_to_target", m.doc_to_target, d)
    metric(rel, "bert", m.bert, "a", "b")
    V.add(rel, "strip", "filter_fn", {"resps": [[" x "]], "docs": [{}]}, output=list(m.strip([[" x "]], [{}])))
    rows = [dict(msgs(f"u{i}", f"a{i}"), direction=dirs[i % len(dirs)], dataset="doda") for i in range(10)]
    rows.append(dict(msgs("u", "a"), direction="DR_FR", dataset="doda"))
    for fn in dirs:
        V.vectors.append({"file": rel, "function": fn, "kind": "process_docs", "input": rows,
                          "columns": list(rows[0].keys()), "output": list(getattr(m, fn)(V.DS(rows)))})
    for name in berts:
        V.add(rel, name, "unavailable", None)

V.dump("ports/darija_bench/testdata/vectors.json")
