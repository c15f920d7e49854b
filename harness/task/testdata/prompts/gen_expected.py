#!/usr/bin/env python3
"""Computes expected.json: the prompts and requests lm-eval builds for the
tasks in tasks/ on the documents in data/, independently of the Go code.

It re-implements, in plain Python, the parts of lm-eval it needs, transcribed
from lm_eval/api/task.py (ConfigurableTask.fewshot_context, doc_to_text,
doc_to_target, doc_to_choice, doc_to_prefix, construct_requests),
lm_eval/api/samplers.py (ContextSampler.get_context, sample, FirstNSampler),
lm_eval/utils.py (load_yaml_config includes, apply_template's Jinja2
environment) and lm_eval/config/task.py (generation_kwargs defaults). The
`balanced` sampler is lmeval's own and is implemented here from its spec.

It also builds lm-eval's own YAML from ../shared/lm-eval-sample/tasks on
the small documents in sample/ (expected_sample.json).

Run from this directory:  python3 gen_expected.py
"""
import ast
import json
import math
import os
import random
import re

import jinja2
import yaml


def regex_replace(string, pattern, repl, count=0):
    return re.sub(pattern, repl, string, count=count)


env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
env.filters["regex_replace"] = regex_replace


def apply_template(template, doc):
    return env.from_string(template).render(**doc)


# --- native functions, as the Go test registers them (winogrande's) ---
def wino_doc_to_text(doc):
    answer_to_num = {"1": 0, "2": 1}
    return answer_to_num[doc["answer"]]


def wino_doc_to_target(doc):
    idx = doc["sentence"].index("_") + 1
    return doc["sentence"][idx:].strip()


def wino_doc_to_choice(doc):
    idx = doc["sentence"].index("_")
    options = [doc["option1"], doc["option2"]]
    return [doc["sentence"][:idx] + opt for opt in options]


FUNCS = {
    "preprocess_wino.doc_to_text": wino_doc_to_text,
    "preprocess_wino.doc_to_target": wino_doc_to_target,
    "preprocess_wino.doc_to_choice": wino_doc_to_choice,
}


def function_constructor(loader, node):
    return FUNCS[loader.construct_scalar(node)]


class Loader(yaml.FullLoader):
    pass


Loader.add_constructor("!function", function_constructor)


def load_yaml_config(path):
    with open(path) as f:
        cfg = yaml.load(f, Loader=Loader)
    if "include" in cfg:
        inc = cfg.pop("include")
        if isinstance(inc, str):
            inc = [inc]
        inc.reverse()
        final = {}
        for p in inc:
            final.update(load_yaml_config(os.path.join(os.path.dirname(path), p)))
        final.update(cfg)
        return final
    return cfg


def chat_template(msgs, add_generation_prompt=True):
    """The test's stand-in for a model's apply_chat_template (the Go test
    defines the same): with add_generation_prompt False the last message is
    continued (continue_final_message)."""
    out = "".join(f"<|{m['role']}|>\n{m['content']}<|end|>\n" for m in msgs)
    if add_generation_prompt:
        return out + "<|assistant|>\n"
    return out[: -len("<|end|>\n")]


def append_target_question(labeled_examples, question, fewshot_as_multiturn=False, gen_prefix=None):
    if not fewshot_as_multiturn:
        if len(labeled_examples) == 0 or labeled_examples[-1]["role"] == "system":
            labeled_examples.append({"role": "user", "content": question})
        else:
            labeled_examples[-1]["content"] += question
    else:
        labeled_examples.append({"role": "user", "content": question})
    if gen_prefix:
        labeled_examples.append({"role": "assistant", "content": gen_prefix})


class Task:
    def __init__(self, cfg, data):
        self.cfg = {
            "target_delimiter": " ",
            "fewshot_delimiter": "\n\n",
            "description": "",
            "output_type": "generate_until",
            "repeats": 1,
            "num_fewshot": None,
            "training_split": None,
            "validation_split": None,
            "test_split": None,
            "fewshot_split": None,
            "fewshot_config": None,
            "doc_to_choice": None,
            "gen_prefix": None,
            "generation_kwargs": None,
            "metric_list": None,
        }
        self.cfg.update(cfg)
        c = self.cfg
        if c["generation_kwargs"] is not None:
            if "temperature" in c["generation_kwargs"]:
                c["generation_kwargs"]["temperature"] = float(c["generation_kwargs"]["temperature"])
            if "until" not in c["generation_kwargs"]:
                c["generation_kwargs"]["until"] = [c["fewshot_delimiter"]]
        elif c["output_type"] == "generate_until":
            # lm_eval/defaults.py default_gen_kwargs
            c["generation_kwargs"] = {"temperature": 0.0, "do_sample": False, "max_gen_toks": 256,
                                      "until": [c["fewshot_delimiter"]]}
        self.data = data
        self.eval_docs = data[c["test_split"]] if c["test_split"] else data[c["validation_split"]]
        self.features = list(self.eval_docs[0].keys())
        fc = c["fewshot_config"] or {}
        self.fc = fc
        test_text = self.doc_to_text(self.eval_docs[0])
        self.multiple_input = c["doc_to_choice"] is not None and isinstance(test_text, int)

    # --- ConfigurableTask.doc_to_* ---
    def doc_to_text(self, doc, doc_to_text=None):
        doc_to_text = doc_to_text or self.cfg["doc_to_text"]
        if isinstance(doc_to_text, int):
            return doc_to_text
        elif isinstance(doc_to_text, str):
            if doc_to_text in self.features:
                return doc[doc_to_text]
            text_string = apply_template(doc_to_text, doc)
            if text_string.isdigit() and self.cfg["doc_to_choice"] is not None:
                return ast.literal_eval(text_string)
            return text_string
        elif callable(doc_to_text):
            return doc_to_text(doc)
        raise TypeError

    def doc_to_target(self, doc, doc_to_target=None):
        if doc_to_target is None:
            doc_to_target = self.cfg["doc_to_target"]
        if isinstance(doc_to_target, int):
            return doc_to_target
        elif isinstance(doc_to_target, str):
            if doc_to_target in self.features:
                return doc[doc_to_target]
            target_string = apply_template(doc_to_target, doc)
            if target_string.isdigit() and self.cfg["doc_to_choice"] is not None:
                return ast.literal_eval(target_string)
            elif len(target_string) >= 2 and target_string[0] == "[" and target_string[-1] == "]":
                try:
                    return ast.literal_eval(target_string)
                except (SyntaxError, ValueError):
                    return target_string
            return target_string
        elif isinstance(doc_to_target, list):
            return doc_to_target
        elif callable(doc_to_target):
            return doc_to_target(doc)
        raise TypeError

    def doc_to_choice(self, doc, doc_to_choice=None):
        if doc_to_choice is None:
            doc_to_choice = self.cfg["doc_to_choice"]
        if isinstance(doc_to_choice, str):
            if doc_to_choice in self.features:
                return doc[doc_to_choice]
            return ast.literal_eval(apply_template(doc_to_choice, doc))
        elif isinstance(doc_to_choice, list):
            return doc_to_choice
        elif isinstance(doc_to_choice, dict):
            return list(doc_to_choice.values())
        elif callable(doc_to_choice):
            return doc_to_choice(doc)
        raise TypeError

    def doc_to_prefix(self, doc):
        gp = self.cfg["gen_prefix"]
        if gp is not None:
            if gp in self.features:
                return doc[gp]
            return apply_template(gp, doc)
        return None

    # --- few-shot documents and sampler ---
    def fewshot_docs(self):
        c = self.cfg
        if c["fewshot_split"] is not None:
            return list(self.data[c["fewshot_split"]])
        if self.fc.get("samples") is not None:
            return list(self.fc["samples"])
        if c["training_split"]:
            return list(self.data[c["training_split"]])
        if c["validation_split"]:
            return list(self.data[c["validation_split"]])
        return list(self.data[c["test_split"]])

    def sample(self, n):
        sampler = self.fc.get("sampler", "default")
        if sampler == "first_n":
            assert n <= len(self.fdocs)
            return self.fdocs[:n]
        if sampler == "balanced":
            return self.balanced(n)
        return self.rnd.sample(self.fdocs, n)

    def balanced(self, n):
        # lmeval's class-balanced sampler: a random permutation drawn with
        # the task generator, then round-robin across gold labels in order
        # of first appearance.
        perm = self.rnd.sample(self.fdocs, len(self.fdocs))
        labels, buckets = [], {}
        for d in perm:
            t = self.doc_to_target(d, self.fc.get("doc_to_target"))
            if isinstance(t, list):
                t = t[0]
            if isinstance(t, int) and self.cfg["doc_to_choice"] is not None:
                t = self.doc_to_choice(d, self.fc.get("doc_to_choice"))[t]
            t = str(t)
            if t not in buckets:
                labels.append(t)
                buckets[t] = []
            buckets[t].append(d)
        out, rnd_ = [], 0
        while len(out) < n:
            for l in labels:
                if rnd_ < len(buckets[l]) and len(out) < n:
                    out.append(buckets[l][rnd_])
            rnd_ += 1
        return out

    def get_context(self, doc, num_fewshot, gen_prefix=None):
        c = self.cfg
        prefix = gen_prefix + " " if gen_prefix else ""
        n_samples = num_fewshot + 1 if c["fewshot_split"] == c["test_split"] else num_fewshot
        fewshotex = self.sample(n_samples)
        selected_docs = [x for x in fewshotex if x != doc][:num_fewshot]
        fdt = lambda d: self.doc_to_text(d, self.fc.get("doc_to_text"))
        fdg = lambda d: self.doc_to_target(d, self.fc.get("doc_to_target"))
        fdc = lambda d: self.doc_to_choice(d, self.fc.get("doc_to_choice"))
        labeled_examples = ""
        for d in selected_docs:
            doc_content = fdt(d)
            doc_target = fdg(d)
            if isinstance(doc_content, str):
                labeled_examples += doc_content
            elif isinstance(doc_content, int):
                labeled_examples += fdc(d)[doc_content]
            if doc_target != "":
                labeled_examples += c["target_delimiter"]
                labeled_examples += prefix
                labeled_examples += (
                    str(doc_target[0])
                    if isinstance(doc_target, list)
                    else doc_target
                    if c["doc_to_choice"] is None or isinstance(doc_target, str)
                    else str(fdc(d)[doc_target])
                )
                labeled_examples += c["fewshot_delimiter"]
        return labeled_examples

    def get_chat_context(self, doc, num_fewshot, fewshot_as_multiturn=False, gen_prefix=None):
        c = self.cfg
        prefix = gen_prefix + " " if gen_prefix else ""
        chat_history = []
        n_samples = num_fewshot + 1 if c["fewshot_split"] == c["test_split"] else num_fewshot
        fewshotex = self.sample(n_samples)
        selected_docs = [x for x in fewshotex if x != doc][:num_fewshot]
        fdt = lambda d: self.doc_to_text(d, self.fc.get("doc_to_text"))
        fdg = lambda d: self.doc_to_target(d, self.fc.get("doc_to_target"))
        fdc = lambda d: self.doc_to_choice(d, self.fc.get("doc_to_choice"))
        if fewshot_as_multiturn:
            for d in selected_docs:
                doc_content = fdt(d)
                doc_target = fdg(d)
                chat_history.append({"role": "user", "content": doc_content
                                     if c["doc_to_choice"] is None or isinstance(doc_content, str)
                                     else fdc(d)[doc_content]})
                chat_history.append({"role": "assistant", "content": prefix + str(doc_target[0])
                                     if isinstance(doc_target, list)
                                     else prefix + doc_target
                                     if c["doc_to_choice"] is None or isinstance(doc_target, str)
                                     else prefix + str(fdc(d)[doc_target])})
        else:
            chat_history.append({"role": "user", "content": self.get_context(doc, num_fewshot, gen_prefix=gen_prefix)})
        return chat_history

    def chat_fewshot_context(self, doc, num_fewshot, system_instruction=None, fewshot_as_multiturn=False, gen_prefix=None):
        c = self.cfg
        labeled_examples = []
        description = apply_template(c["description"], doc) if c["description"] else ""
        if system_instruction is not None and description:
            system_prompt = f"{system_instruction}{c['fewshot_delimiter']}{description}"
        elif system_instruction is not None:
            system_prompt = system_instruction
        elif description:
            system_prompt = description
        else:
            system_prompt = ""
        if system_prompt:
            labeled_examples.append({"role": "system", "content": system_prompt})
        if num_fewshot > 0:
            labeled_examples.extend(self.get_chat_context(doc, num_fewshot, fewshot_as_multiturn, gen_prefix=gen_prefix))
        example = self.doc_to_text(doc)
        if self.multiple_input:
            if not labeled_examples:
                return ""
            return chat_template(labeled_examples)
        if isinstance(example, str):
            append_target_question(labeled_examples, example, fewshot_as_multiturn, gen_prefix=gen_prefix)
        elif isinstance(example, int):
            if c["doc_to_choice"] is not None:
                append_target_question(labeled_examples, self.doc_to_choice(doc)[example], fewshot_as_multiturn, gen_prefix=gen_prefix)
            else:
                append_target_question(labeled_examples, str(example), fewshot_as_multiturn, gen_prefix=gen_prefix)
        return chat_template(labeled_examples, add_generation_prompt=not gen_prefix)

    def fewshot_context(self, doc, num_fewshot, system_instruction=None, gen_prefix=None):
        c = self.cfg
        if self.chat:
            return self.chat_fewshot_context(doc, num_fewshot, system_instruction, self.multiturn, gen_prefix)
        labeled_examples = ""
        description = apply_template(c["description"], doc) if c["description"] else ""
        if system_instruction is not None and description:
            system_prompt = f"{system_instruction}{c['fewshot_delimiter']}{description}"
        elif system_instruction is not None:
            system_prompt = system_instruction
        elif description:
            system_prompt = description
        else:
            system_prompt = ""
        if system_prompt:
            labeled_examples = system_prompt
        if num_fewshot > 0:
            labeled_examples += self.get_context(doc, num_fewshot, gen_prefix=gen_prefix)
        example = self.doc_to_text(doc)
        prefix = c["target_delimiter"] + gen_prefix if gen_prefix is not None else ""
        if self.multiple_input:
            return labeled_examples
        if isinstance(example, str):
            return labeled_examples + example + prefix
        elif isinstance(example, int):
            if c["doc_to_choice"] is not None:
                return labeled_examples + self.doc_to_choice(doc)[example] + prefix
            return labeled_examples + str(example) + prefix

    def construct_requests(self, doc, ctx):
        c = self.cfg
        ot = c["output_type"]
        if ot == "loglikelihood":
            return [("loglikelihood", [ctx, self.doc_to_target(doc)])]
        if ot == "loglikelihood_rolling":
            return [("loglikelihood_rolling", [self.doc_to_target(doc)])]
        if ot == "multiple_choice":
            choices = self.doc_to_choice(doc)
            td = c["target_delimiter"]
            if self.chat:
                td = ""
            if self.multiple_input:
                cont = self.doc_to_target(doc)
                args = [[ctx + (chat_template([{"role": "user", "content": ch}]) if self.chat else ch), f"{td}{cont}"]
                        for ch in choices]
            else:
                args = [[ctx, f"{td}{cont}"] for cont in choices]
            if "acc_mutual_info" in [m["metric"] for m in (c["metric_list"] or [])]:
                args.extend([["", f"{td}{ch}"] for ch in choices])
            return [("loglikelihood", a) for a in args]
        if ot == "generate_until":
            return [("generate_until", [ctx, dict(self.gen_kwargs)])]

    def build(self, limit=None, samples=None, num_fewshot=None, seed=1234,
              system_instruction=None, gen_kwargs=None, chat=False, multiturn=False):
        c = self.cfg
        self.chat, self.multiturn = chat, multiturn
        # simple_evaluate's num_fewshot rule
        if num_fewshot is not None:
            if c["num_fewshot"] != 0:
                c["num_fewshot"] = num_fewshot
        elif c["num_fewshot"] is None:
            c["num_fewshot"] = 0
        self.gen_kwargs = dict(c["generation_kwargs"] or {})
        if gen_kwargs and c["output_type"] == "generate_until":
            self.gen_kwargs.update(gen_kwargs)
        self.rnd = random.Random(seed)
        if c["num_fewshot"] > 0:
            self.fdocs = self.fewshot_docs()
        if samples:
            it = list(enumerate(x for i, x in enumerate(self.eval_docs) if i in samples))
        else:
            n = len(self.eval_docs)
            if limit is not None:
                n = int(math.ceil(n * limit)) if limit < 1.0 else int(limit)
            it = list(enumerate(self.eval_docs))[:n]
        docs = []
        for doc_id, doc in it:
            ctx = self.fewshot_context(doc, c["num_fewshot"], system_instruction=system_instruction,
                                       gen_prefix=self.doc_to_prefix(doc))
            reqs = self.construct_requests(doc, ctx)
            docs.append({"doc_id": doc_id, "context": ctx,
                         "requests": [{"type": t, "args": a} for t, a in reqs]})
        return docs


RUNS = [
    {"task": "qa_mc"},
    {"task": "qa_mc", "num_fewshot": 0},
    {"task": "qa_mc", "num_fewshot": 4, "seed": 42, "system_instruction": "You are a careful quiz taker."},
    {"task": "qa_same_split"},
    {"task": "qa_same_split", "limit": 0.5},
    {"task": "qa_val_only"},
    {"task": "qa_first_n"},
    {"task": "qa_balanced"},
    {"task": "qa_gen_prefix"},
    {"task": "qa_gen_prefix", "num_fewshot": 0, "system_instruction": "Be brief."},
    {"task": "math_gen"},
    {"task": "math_gen", "gen_kwargs": {"max_gen_toks": 32, "temperature": 0.5, "do_sample": True}},
    {"task": "math_gen_default", "samples": [0, 2]},
    {"task": "text_ll"},
    {"task": "text_ll", "limit": 2},
    {"task": "text_rolling"},
    {"task": "wino"},
    {"task": "big_mc"},
    {"task": "big_same", "limit": 12},
    {"task": "qa_mc", "chat": True},
    {"task": "qa_mc", "chat": True, "multiturn": True, "system_instruction": "Be exact."},
    {"task": "qa_same_split", "chat": True, "multiturn": True},
    {"task": "qa_gen_prefix", "chat": True},
    {"task": "qa_gen_prefix", "chat": True, "multiturn": True},
    {"task": "math_gen", "chat": True, "multiturn": True},
    {"task": "wino", "chat": True},
    {"task": "wino", "chat": True, "num_fewshot": 0},
    {"task": "wino", "chat": True, "multiturn": True},
]


SAMPLE_DIR = "../../../../../shared/lm-eval-sample/tasks"

SAMPLE_RUNS = [
    {"task": "arc_easy"},
    {"task": "arc_easy", "num_fewshot": 2},
    {"task": "mmlu_anatomy", "num_fewshot": 2},
    {"task": "belebele_eng_Latn", "num_fewshot": 1},
    {"task": "gsm8k", "num_fewshot": 2},
    {"task": "gsm8k_cot", "num_fewshot": 3},
    {"task": "lambada_openai"},
    {"task": "piqa", "num_fewshot": 2},
    {"task": "boolq", "num_fewshot": 2},
    {"task": "boolq-seq2seq", "num_fewshot": 1},
    {"task": "sciq", "num_fewshot": 1},
    {"task": "openbookqa", "num_fewshot": 2, "seed": 7},
    {"task": "blimp_adjunct_island"},
    {"task": "truthfulqa_mc1"},
]


class IgnoreLoader(yaml.SafeLoader):
    pass


IgnoreLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def find_sample(task):
    for root, _, files in sorted(os.walk(SAMPLE_DIR)):
        for fn in sorted(files):
            if not fn.endswith(".yaml"):
                continue
            path = os.path.join(root, fn)
            with open(path) as f:
                cfg = yaml.load(f, Loader=IgnoreLoader)
            if isinstance(cfg, dict) and cfg.get("task") == task:
                return path
    raise KeyError(task)


def run_all(runs, find, data_file):
    out = []
    for run in runs:
        cfg = load_yaml_config(find(run["task"]))
        with open(data_file(cfg)) as f:
            data = json.load(f)
        task = Task(cfg, data)
        kw = {k: v for k, v in run.items() if k != "task"}
        out.append({"run": run, "docs": task.build(**kw)})
    return out


def main():
    out = run_all(RUNS, lambda t: os.path.join("tasks", t + ".yaml"),
                  lambda cfg: os.path.join("data", cfg["dataset_path"].split("/")[1] + ".json"))
    with open("expected.json", "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)

    def sample_file(cfg):
        name = cfg["dataset_path"].replace("/", "_")
        if cfg.get("dataset_name"):
            name += "_" + cfg["dataset_name"]
        return os.path.join("sample", name + ".json")

    out = run_all(SAMPLE_RUNS, find_sample, sample_file)
    with open("expected_sample.json", "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)


main()
