#!/usr/bin/python3
"""Vectors for lmeval's echo parser: lm-eval's own LocalCompletionsAPI.parse_logprobs
(lm_eval/models/openai_completions.py) run on completions answers in the shape vLLM and
`lmeval serve` return (echo + logprobs; vLLM appends one generated token, lmeval serve with
max_tokens 0 none), ties in the top log-probs and choices out of index order included.

  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src /usr/bin/python3 \
      backend/remote/testdata/gen_parse_logprobs.py > backend/remote/testdata/parse_logprobs.json
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
for p in (os.environ.get("LMEVALREF_SRC", "/tmp/lmevalref/src"),
          os.path.join(HERE, "..", "..", "..", "..", "shared", "lm-eval-runner", "stubs")):
    sys.path.insert(0, p)
import lmevalref_compat  # noqa: E402,F401
from lm_eval.models.openai_completions import LocalCompletionsAPI  # noqa: E402


def choice(index, lps, tops, extra=0):
    """lps[0] is None (the first prompt token); tops are the top-1 dicts."""
    return {"index": index, "text": "", "finish_reason": "length",
            "logprobs": {"tokens": ["t%d" % i for i in range(len(lps))],
                         "token_logprobs": lps, "top_logprobs": tops,
                         "text_offset": list(range(len(lps)))}}


cases = []
# vLLM-style: prompt of 5 tokens + 1 generated; ctxlen 2 scores prompt tokens 2..4
cases.append({"name": "vllm_one", "ctxlens": [2], "prompt_lens": [5],
              "answer": {"choices": [choice(0, [None, -1.5, -0.25, -2.0, -0.125, -0.5],
                                            [None, {"a": -0.5}, {"b": -0.25}, {"c": -0.75}, {"d": -0.125}, {"e": -0.5}])]}})
# greedy: every scored token is the top one (a tie with another token counts as greedy)
cases.append({"name": "vllm_greedy_tie", "ctxlens": [1], "prompt_lens": [4],
              "answer": {"choices": [choice(0, [None, -0.5, -0.25, -1.0, -3.0],
                                            [None, {"x": -0.5, "y": -0.5}, {"z": -0.25}, {"w": -1.0, "v": -2.0}, {"u": -0.1}])]}})
# two prompts in one request, choices given out of index order
cases.append({"name": "vllm_batch", "ctxlens": [1, 3], "prompt_lens": [3, 4],
              "answer": {"choices": [
                  choice(1, [None, -0.1, -0.2, -0.3, -0.4], [None, {"a": -0.1}, {"b": -0.2}, {"c": -0.3}, {"d": -0.4}]),
                  choice(0, [None, -1.0, -2.0, -9.0], [None, {"a": -1.0}, {"b": -1.0}, {"c": -9.0}])]}})
for c in cases:
    prompt_lens = c["prompt_lens"]
    # lm-eval's slice [ctxlen:-1] drops the generated token of a vLLM answer
    c["want"] = [list(x) for x in LocalCompletionsAPI.parse_logprobs(c["answer"], ctxlens=c["ctxlens"])]
json.dump(cases, sys.stdout, indent=1)
print()
