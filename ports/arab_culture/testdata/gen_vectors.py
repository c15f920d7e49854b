#!/usr/bin/env python3
"""Vectors for ports/arab_culture and ports/arab_culture_completion from
lm-eval's own helpers, imported under each combination of the COUNTRY,
REGION, ARABIC and MODEL_NAME environment variables they read.

usage (from the repository root):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src /usr/bin/python3 \
    ports/arab_culture/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, "ports/internal/vectest")
import vectorlib as V  # noqa: E402

V.setup(sys.argv[1])


def doc(**kw):
    d = {"id": "1", "country": "Egypt", "region": "Nile Valley",
         "first_statement": "  في العيد، العائلة بتجتمع و  ",
         "options": {"arabic_keys": ["أ", "ب", "ج"], "english_keys": ["A", "B", "C"],
                     "text": [" بتاكل كحك ", "بتاكل سمك\n", "بتنام"]},
         "answer_key": {"arabic_answer_key": " أ", "english_answer_key": "A "},
         "relevant_to_this_country": "Yes", "relevant_to_other_countries": "No", "should_discard": "No"}
    d.update(kw)
    return d


docs = [
    doc(),
    doc(country="Morocco", region="North Africa",
        answer_key={"arabic_answer_key": "ج", "english_answer_key": "C"}),
    doc(country="KSA", region="Gulf", answer_key={"arabic_answer_key": "ب", "english_answer_key": "B"}),
    doc(country=None, region=None),
    doc(country="", region="Levant"),
    doc(country="Narnia", region="Levant"),
    doc(first_statement="{country} {choices} literal braces"),
    doc(options={"arabic_keys": ["أ", "ب"], "english_keys": ["A", "B"], "text": ["x", "y"]},
        answer_key={"arabic_answer_key": "ب", "english_answer_key": "B"}),
    doc(answer_key={"arabic_answer_key": "د", "english_answer_key": "D"}),
]
envs = [
    {},
    {"COUNTRY": "True", "REGION": "True", "ARABIC": "True"},
    {"COUNTRY": "True", "REGION": "True"},
    {"REGION": "True", "ARABIC": "True"},
    {"REGION": "True"},
    {"ARABIC": "True"},
    {"COUNTRY": "True"},
    {"COUNTRY": "true", "REGION": "1", "ARABIC": "yes"},
    {"ARABIC": "True", "MODEL_NAME": "jais-13b-chat"},
    {"MODEL_NAME": "inceptionai/jais-30b-chat-v3"},
    {"MODEL_NAME": "jais-13b"},
    {"MODEL_NAME": ""},
]
NAMES = ["COUNTRY", "REGION", "ARABIC", "MODEL_NAME"]
for pkg, rel in [("arab_culture", "arab_culture/utils_mcq.py"),
                 ("arab_culture_completion", "arab_culture_completion/utils_completion.py")]:
    V.vectors = []
    for env in envs:
        for n in NAMES:
            os.environ.pop(n, None)
        os.environ.update(env)
        m = V.load(rel)
        for d in docs:
            for fn in ["doc_to_text", "doc_to_choice", "doc_to_target"]:
                V.doc(rel, fn, getattr(m, fn), d, env=env)
    for n in NAMES:
        os.environ.pop(n, None)
    V.dump(f"ports/{pkg}/testdata/vectors.json")
