#!/usr/bin/env python3
"""Fidelity cases for ifeval and leaderboard_ifeval: twelve documents of
ports/ifeval/testdata/e2e/docs.jsonl (google/IFEval's schema, every kwargs
key present, None included) and answers that pass some instructions and
fail others. gen.py's pysetup loads ports/ifeval/testdata/refsetup.py in
lm-eval (NLTK Punkt parameters, seeded langdetect).
Run: python3 fidelity/build/ifeval.py
"""
import json
import os

from common import ROOT, case, write_cases, write_jsonl

ANSWERS = [
    "SECTION 1\nTHIS IS THE FIRST PART OF MY ANSWER. IT IS WRITTEN IN CAPITAL LETTERS.\n\nSECTION 2\nTHE SECOND PART ENDS HERE. Any other questions?",
    "\"Here is my answer without any commas at all. It has two sentences.\"",
    "<<A Short Title>>\n\nThe first paragraph talks about the task.\n\n***\n\nSecond paragraph here, with a comma, and more words.",
    "```json\n{\"answer\": \"yes\", \"reason\": \"the dataset is small\"}\n```",
    "I think the answer is simple. The dataset, the task and the metric are described above. P.S. thanks for reading.",
    "* first point\n* second point\n* third point\n\nThat is all I have to say about it in English.",
    "lowercase answer only, no capitals here. it mentions the keyword dataset twice: dataset.",
]


def main():
    src = os.path.join(ROOT, "ports", "ifeval", "testdata", "e2e", "docs.jsonl")
    docs = [json.loads(l) for l in open(src, encoding="utf-8")][:12]
    f = write_jsonl("ifeval", "ifeval_train.jsonl", docs)
    write_cases("ifeval", [case("fid_ifeval", "ifeval/ifeval.yaml", {"train": f}, answers=ANSWERS),
                           case("fid_leaderboard_ifeval", "leaderboard/ifeval/ifeval.yaml", {"train": f}, answers=ANSWERS)])


if __name__ == "__main__":
    main()
