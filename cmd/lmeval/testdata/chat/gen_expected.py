#!/usr/bin/env python3
"""Writes expected.json: the prompts lm-eval builds for chat_mc.yaml with
--apply_chat_template, rendered by Python's jinja2 configured as
transformers' apply_chat_template configures it.

The prompt assembly follows lm-eval's ConfigurableTask.fewshot_context,
ContextSampler.get_chat_context / get_context (first_n sampler) and
append_target_question; multiple-choice continuations follow
construct_requests (no target delimiter under a chat template).

Run from this directory: python3 gen_expected.py
"""
import json

import jinja2
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

# The test's GGUF uses ggufwrite's SPM vocabulary: <s> and </s>.
BOS, EOS = "<s>", "</s>"
SYSTEM = "You are a careful assistant."
SHOTS = 2
TARGET_DELIMITER, FEWSHOT_DELIMITER = " ", "\n\n"
DESCRIPTION = "Answer with one word."


def hf_render(template, messages, add_generation_prompt):
    # transformers.utils.chat_template_utils._compile_jinja_template
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    return env.from_string(template).render(
        messages=messages, add_generation_prompt=add_generation_prompt, bos_token=BOS, eos_token=EOS)


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def doc_to_text(doc):
    return "Q: " + doc["question"] + "\nA:"


def target_text(doc):
    return doc["choices"][doc["label"]]


def messages_for(doc, shots, system_instruction, multiturn):
    msgs = []
    system = system_instruction + FEWSHOT_DELIMITER + DESCRIPTION if system_instruction else DESCRIPTION
    msgs.append({"role": "system", "content": system})
    if shots:
        if multiturn:
            for s in shots:
                msgs.append({"role": "user", "content": doc_to_text(s)})
                msgs.append({"role": "assistant", "content": target_text(s)})
        else:
            ctx = ""
            for s in shots:
                ctx += doc_to_text(s) + TARGET_DELIMITER + target_text(s) + FEWSHOT_DELIMITER
            msgs.append({"role": "user", "content": ctx})
    q = doc_to_text(doc)
    if not multiturn and msgs[-1]["role"] == "user":
        msgs[-1]["content"] += q
    else:
        msgs.append({"role": "user", "content": q})
    return msgs


def main():
    train, test = read_jsonl("train.jsonl"), read_jsonl("test.jsonl")
    cases = [
        # name: the --apply_chat_template value; file: the template's source
        {"name": "", "file": "templates/chatml.jinja", "multiturn": True, "system": SYSTEM},
        {"name": "llama3", "file": "templates/llama3.jinja", "multiturn": True, "system": SYSTEM},
        {"name": "templates/zephyr.jinja", "file": "templates/zephyr.jinja", "multiturn": False, "system": SYSTEM},
        {"name": "", "file": "templates/chatml.jinja", "multiturn": False, "system": ""},
    ]
    out = {"bos_token": BOS, "eos_token": EOS, "num_fewshot": SHOTS, "cases": []}
    for c in cases:
        with open(c["file"]) as f:
            template = f.read()
        docs = []
        for doc in test:
            msgs = messages_for(doc, train[:SHOTS], c["system"], c["multiturn"])
            docs.append({
                "context": hf_render(template, msgs, True),
                "continuations": list(doc["choices"]),
            })
        out["cases"].append({**c, "docs": docs})
    with open("expected.json", "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
