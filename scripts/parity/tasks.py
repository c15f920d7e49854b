"""The tasks make parity runs: lm-eval's own YAML over local documents.

Each task is a fidelity case (fidelity/testdata/<family>/cases.json) or the
leaderboard's documents (fidelity/leaderboard/data): a wrapper YAML that
include:s lm-eval's task file and points it at local JSON lines in the
dataset's real schema, as fidelity/gen.py and scripts/results-identity.sh
write it. Both programs read the same wrappers.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LEADERBOARD = os.path.join(ROOT, "fidelity", "leaderboard", "data")

# (family, case, kind): kind is mc (log-likelihood), rolling or gen.
CASES = [
    ("arc", "fid_arc_easy", "mc"),
    ("hellaswag", "fid_hellaswag", "mc"),
    ("piqa", "fid_piqa", "mc"),
    ("winogrande", "fid_winogrande", "mc"),
    ("mmlu", "fid_mmlu_abstract_algebra", "mc"),  # 5-shot
    ("mmlu", "fid_mmlu_anatomy", "mc"),  # 5-shot
    ("truthfulqa", "fid_truthfulqa_mc2", "mc"),
    ("lambada", "fid_lambada_openai", "mc"),
    ("leaderboard", "fid_leaderboard_bbh_boolean_expressions", "mc"),  # 3-shot, in the prompt
    ("leaderboard", "fid_leaderboard_bbh_causal_judgement", "mc"),
    ("wikitext", "fid_wikitext", "rolling"),
    ("gsm8k", "fid_gsm8k", "gen"),  # 5-shot (gsm8k.yaml)
    ("ifeval", "fid_ifeval", "gen"),
]

# Leaderboard MATH (hard): the Hub's DigitalLearningGmbH/MATH-lighteval
# config algebra, from the leaderboard's end-to-end documents.
EXTRA = [
    {"task": "par_leaderboard_math_algebra_hard", "include": "leaderboard/math/math_algebra.yaml",
     "data_files": {"test": os.path.join(LEADERBOARD, "DigitalLearningGmbH/MATH-lighteval/algebra/test.jsonl"),
                    "train": os.path.join(LEADERBOARD, "DigitalLearningGmbH/MATH-lighteval/algebra/train.jsonl")},
     "kind": "gen"},
]

# The runs of the larger models (F16, Q4_K_M) in the full profile:
# lm-eval's HF backend needs minutes of CPU per task on them. Multiple
# choice with and without few-shot, rolling, few-shot generation and the
# instruct run; stories260K runs every task.
CORE = ["fid_arc_easy", "fid_hellaswag", "fid_mmlu_anatomy", "fid_lambada_openai", "fid_wikitext", "fid_gsm8k", "chat"]


# The instruct run: --apply_chat_template --fewshot_as_multiturn
# --system_instruction over a few-shot generation task and a
# multiple-choice one.
CHAT = {"name": "chat", "tasks": ["par_gsm8k_chat", "par_arc_easy_chat"],
        "system_instruction": "You are a careful assistant. Answer briefly."}
CHAT_CASES = [("gsm8k", "fid_gsm8k", "par_gsm8k_chat", 2, "gen"), ("arc", "fid_arc_easy", "par_arc_easy_chat", 2, "mc")]
# The instruct run's arc_easy alone. Both programs render the same chat
# prompts, but transformers' Llama tokenizer and llama.cpp's split "<s>[INST]"
# differently (docs/parity.md), so the instruct run's requests are set apart
# and what it checks is the prompts: the generation half (a third of make
# parity's CPU in CI) adds nothing to that check in the ci profile.
CHAT_MC = "chat_mc"

# The runs of each model kind (parity.py --model NAME:KIND) by profile
# (make parity's PARITY_PROFILE); None is every run. "full" is the whole
# comparison. "ci" is what fits CI's time for make parity (about eight
# minutes on an idle two-core machine; docs/parity.md, "Time in CI"), and
# still covers the three models: stories260K every task (the strict F32
# check, and the cheapest model); the F16 model hellaswag (Llama's 32k
# vocabulary) and the instruct run's arc_easy (the only model with a chat
# template; CHAT_MC); Gemma hellaswag (its largest differences, and the
# dequantized-F32 check that explains them), lambada (a single word) and
# wikitext (rolling).
PROFILES = {
    "full": {"f32": None, "f16": CORE, "q4_k_m": CORE},
    "ci": {"f32": None, "f16": ["fid_hellaswag", CHAT_MC],
           "q4_k_m": ["fid_hellaswag", "fid_lambada_openai", "fid_wikitext"]},
}


def _case(family, name):
    cases = json.load(open(os.path.join(ROOT, "fidelity", "testdata", family, "cases.json")))
    for c in cases:
        if c["task"] == name:
            return c
    raise SystemExit(f"parity: no case {name} in fidelity/testdata/{family}/cases.json")


def _wrapper(tasks_dir, c, data_dir):
    lines = [f"include: {os.path.join(tasks_dir, c['include'])}", f"task: {c['task']}",
             "dataset_path: json", "dataset_name: null", "dataset_kwargs:", "  data_files:"]
    for split, f in c["data_files"].items():
        lines.append(f"    {split}: {json.dumps(os.path.join(data_dir, f))}")
    if c.get("num_fewshot") is not None:
        lines.append(f"num_fewshot: {c['num_fewshot']}")
    if c.get("yaml"):
        lines.append(c["yaml"].rstrip("\n"))
    return "\n".join(lines) + "\n"


def write(tasks_dir, out_dir):
    """Writes the wrapper YAMLs into out_dir and returns the runs: a list
    of {"name", "tasks", "kind", "chat"?}, one per task, then the instruct
    run."""
    os.makedirs(out_dir, exist_ok=True)
    runs = []
    for family, name, kind in CASES:
        c = _case(family, name)
        data = os.path.join(ROOT, "fidelity", "testdata", family, "data")
        open(os.path.join(out_dir, name + ".yaml"), "w").write(_wrapper(tasks_dir, c, data))
        runs.append({"name": name, "tasks": [name], "kind": kind})
    for c in EXTRA:
        open(os.path.join(out_dir, c["task"] + ".yaml"), "w").write(_wrapper(tasks_dir, c, "/"))
        runs.append({"name": c["task"], "tasks": [c["task"]], "kind": c["kind"]})
    kinds = set()
    for family, name, task, shots, kind in CHAT_CASES:
        c = dict(_case(family, name), task=task, num_fewshot=shots)
        data = os.path.join(ROOT, "fidelity", "testdata", family, "data")
        open(os.path.join(out_dir, task + ".yaml"), "w").write(_wrapper(tasks_dir, c, data))
        kinds.add(kind)
    runs.append({"name": CHAT["name"], "tasks": CHAT["tasks"], "kind": "+".join(sorted(kinds)),
                 "chat": {"system_instruction": CHAT["system_instruction"]}})
    # The instruct run's multiple-choice half alone, for the ci profile.
    runs.append({"name": CHAT_MC, "tasks": [t for t in CHAT["tasks"] if t.endswith("arc_easy_chat")], "kind": "mc",
                 "chat": {"system_instruction": CHAT["system_instruction"]}})
    return runs
