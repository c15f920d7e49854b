#!/usr/bin/env python3
"""An independent listing of the languages of lm-eval's tasks, by family.

The language index (harness/language) derives languages with general
rules (codes with scripts, dataset_name, sibling variants, lm-eval's
README). This script does not share them: it reads each task family the
way a person reading lm-eval's tree would, with one hand-written rule per
family folder saying where that family puts its language (xnli_<639-1>,
belebele_<639-3>_<Script>, global_mmlu/full/<639-1>/, ...) or which
language the whole family is in. It enumerates tasks itself (PyYAML,
includes merged), maps codes with Debian's iso-codes and CLDR's
macrolanguage aliases (data, not rules), and prints per ISO 639-3 code how
many tasks are in it, the number of tasks, and how many have a language.
Its output is committed as harness/language/testdata/expected_counts.tsv;
TestCorpusCounts compares the index with it.

Usage: scripts/languages/listing.py [TASKS_DIR] [--tasks]
  (default ../shared/lm-eval/lm_eval/tasks; --tasks prints one line per task)
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

import yaml

ISO = "/usr/share/iso-codes/json/iso_639-3.json"
CLDR = "/usr/share/unicode/cldr/common/supplemental/supplementalMetadata.xml"

# --- codes -----------------------------------------------------------------

_to3, _valid3 = {}, set()
for _l in json.load(open(ISO))["639-3"]:
    _valid3.add(_l["alpha_3"])
    if "alpha_2" in _l:
        _to3[_l["alpha_2"]] = _l["alpha_3"]
_macro = {}
for _e in ET.parse(CLDR).getroot().iter("languageAlias"):
    if _e.get("reason") == "macrolanguage" and "_" not in _e.get("type") and "_" not in _e.get("replacement"):
        _macro[_e.get("type")] = _e.get("replacement")


def c(code):
    """An ISO 639-1 or 639-3 code as the canonical ISO 639-3 code (va,
    Valencian, is Catalan in ISO 639)."""
    code = code.lower()
    code = {"va": "ca", "cls": "san"}.get(code, code)
    code = _to3.get(code, code)
    for form in [code] + [k for k, v in _to3.items() if v == code]:
        if form in _macro:
            code = _to3.get(_macro[form], _macro[form])
            break
    assert code in _valid3, code
    return code


NAMES = {  # English names used in task names and folders
    "arabic": "ara", "azerbaijani": "aze", "basque": "eus", "belarusian": "bel", "bengali": "ben",
    "bulgarian": "bul", "chinese": "zho", "croatian": "hrv", "dutch": "nld", "english": "eng",
    "estonian": "est", "finnish": "fin", "french": "fra", "georgian": "kat", "german": "deu",
    "greek": "ell", "hebrew": "heb", "hindi": "hin", "hungarian": "hun", "indonesian": "ind",
    "italian": "ita", "japanese": "jpn", "kazakh": "kaz", "korean": "kor", "lithuanian": "lit",
    "malay": "msa", "malayalam": "mal", "nepali": "nep", "north_macedonian": "mkd", "persian": "fas",
    "polish": "pol", "portuguese": "por", "russian": "rus", "serbian": "srp", "spanish": "spa",
    "swahili": "swa", "tagalog": "tgl", "tamil": "tam", "telugu": "tel", "turkish": "tur",
    "ukrainian": "ukr", "urdu": "urd", "uzbek": "uzb", "vietnamese": "vie", "albanian": "sqi",
    "armenian": "hye", "farsi": "fas", "swedish": "swe", "kannada": "kan",
    # indicparam
    "bodo": "brx", "dogri": "doi", "gujarati": "guj", "konkani": "kok", "maithili": "mai",
    "marathi": "mar", "oriya": "ori", "rajasthani": "raj", "sanskrit": "san", "santali": "sat",
    # xlsum
    "amharic": "amh", "hausa": "hau", "igbo": "ibo", "oromo": "orm", "somali": "som",
    "tigrinya": "tir", "yoruba": "yor",
}

# --- rules -----------------------------------------------------------------
# Each rule takes (name, dataset_name, path below the family folder) and
# returns the task's languages: a list of codes, [] for none.


def fixed(*codes):
    return lambda n, d, p: [c(x) for x in codes]


def regex(pattern, *fallback):
    """Groups named l, l1, l2 of pattern (on the name) are codes."""
    rx = re.compile(pattern)

    def rule(n, d, p):
        m = rx.search(n)
        if not m:
            return [c(x) for x in fallback]
        return [c(m.group(g)) for g in ("l", "l1", "l2") if g in rx.groupindex and m.group(g)]
    return rule


def named(pattern, *fallback):
    """Group w of pattern is an English language name."""
    rx = re.compile(pattern)

    def rule(n, d, p):
        m = rx.search(n.lower())
        if m and m.group("w") in NAMES:
            return [NAMES[m.group("w")]]
        return [c(x) for x in fallback]
    return rule


def script_pairs(s):
    """xxx_Scrp codes (belebele, flores, global_piqa), in order."""
    return [c(m.group(1)) for m in re.finditer(r"(?:^|[_-])([a-z]{3})_([A-Za-z][a-z]{3})(?=$|[_-])", s)]


def first(*rules):
    def rule(n, d, p):
        for r in rules:
            got = r(n, d, p)
            if got:
                return got
        return []
    return rule


def by_dataset(n, d, p):
    return [c(d)] if d else []


def by_dir(depth):
    return lambda n, d, p: [c(p.split("/")[depth])]


def pairs(n, d, p):
    """Translation pairs xx-yy in the name."""
    m = re.search(r"(?:^|[_-])([a-z]{2,3})-([a-z]{2,3})(?:$|_)", n)
    return [c(m.group(1)), c(m.group(2))] if m else []


def bench(lang):
    """The national benches: flores_xx-yy pairs, else the bench's language."""
    return first(pairs, fixed(lang))


ENG = fixed("eng")
NONE = fixed()

RULES = {
    "aclue": fixed("lzh"),
    "acpbench": ENG,
    "aexams": fixed("ara"),
    "afrimgsm": regex(r"afrimgsm_(?:cot_)?(?:translate_)?(?:cot_)?(?P<l>[a-z]{3})_prompt"),
    "afrimmlu": regex(r"afrimmlu_(?:direct|translate)_(?P<l>[a-z]{3})_prompt"),
    "afrixnli": regex(r"afrixnli_(?:en_direct_|manual_direct_|native_direct_|translate_|manual_translate_)?(?P<l>[a-z]{3})(?:_prompt|$)"),
    "alghafa": fixed("ara"),
    "anli": ENG, "aime": ENG, "arc": ENG, "arithmetic": ENG, "asdiv": ENG, "babi": ENG, "babilong": ENG,
    "arab_culture": fixed("ara"), "arab_culture_completion": fixed("ara"),
    "arabic_leaderboard_complete": fixed("ara"), "arabic_leaderboard_light": fixed("ara"),
    "arabicmmlu": fixed("ara"),
    "aradice": lambda n, d, p: {"egy": ["arz"], "lev": ["apc"], "eng": ["eng"]}.get(n.rsplit("_", 1)[-1], ["ara"]),
    "arc_mt": regex(r"arc_challenge_mt_(?P<l>[a-z]{2})$"),
    "bangla": fixed("ben"),
    "basque_bench": bench("eus"),
    "basqueglue": fixed("eus"),
    "bbh": ENG, "bbq": ENG, "bear": ENG, "blimp": ENG,
    "benchmarks": ENG,
    "bertaqa": regex(r"bertaqa_(?P<l>en|eu)"),
    "bhs": named(r"^bhs__(?P<w>[a-z]+)__"),
    "blimp_nl": fixed("nld"),
    "c4": ENG,
    "cabbq": fixed("cat"),
    "careqa": regex(r"careqa_(?P<l>en|es)$", "eng"),
    "catalan_bench": bench("cat"),
    "ceval": fixed("zho"),
    "click": fixed("kor"),
    "cmmlu": fixed("zho"),
    "cnn_dailymail": ENG,
    "code_x_glue": NONE,
    "commonsense_qa": ENG, "coqa": ENG, "drop": ENG, "fda": ENG, "fld": ENG,
    "common_voice": ENG,
    "copal_id": fixed("ind"),
    "crows_pairs": named(r"^crows_pairs_(?P<w>english|french)"),
    "cruxeval": NONE,
    "csatqa": fixed("kor"),
    "darija_bench": lambda n, d, p: sorted({"ary"} | {{"en": "eng", "fr": "fra", "msa": "ara"}[t] for t in n.split("_")[1:3] if t in ("en", "fr", "msa")}) if n.startswith("translation_") else ["ary"],
    "darijahellaswag": fixed("ary"), "darijammlu": fixed("ary"),
    "discrim_eval": ENG,
    "e2lmc": ENG,
    "egyhellaswag": fixed("arz"), "egymmlu": fixed("arz"),
    "eq_bench": regex(r"eqbench_(?P<l>ca|es)$", "eng"),
    "esbbq": fixed("spa"),
    "eus_exams": fixed("eus"), "eus_proficiency": fixed("eus"), "eus_reading": fixed("eus"), "eus_trivia": fixed("eus"),
    "evalita_llm": fixed("ita"),
    "french_bench": fixed("fra"),
    "galician_bench": bench("glg"),
    "glianorex": regex(r"glianorex_(?P<l>en|fr)$"),
    "global_mmlu": lambda n, d, p: [c(p.split("/")[1])],
    "global_piqa": lambda n, d, p: script_pairs(n),
    "glue": ENG, "gpqa": ENG, "graphwalks": ENG, "groundcocoa": ENG, "gsm8k": ENG, "gsm8k_platinum": ENG,
    "gsm_plus": ENG,
    "haerae": fixed("kor"),
    "headqa": regex(r"headqa_(?P<l>en|es)$"),
    "hellaswag": ENG, "hendrycks_ethics": ENG, "hendrycks_math": ENG,
    "histoires_morales": fixed("fra"),
    "hrm8k": regex(r"_(?P<l>en)$", "kor"),
    "humaneval": NONE, "humaneval_infilling": NONE, "mbpp": NONE, "jsonschema_bench": NONE,
    "icelandic_winogrande": fixed("isl"),
    "ifeval": regex(r"ifeval_(?P<l>ca|es)$", "eng"),
    "include": lambda n, d, p: [NAMES[p.split("/")[1].lower().replace(" ", "_")]],
    "indicparam": named(r"^indicparam_(?P<w>[a-z]+)"),
    "inverse_scaling": ENG,
    "japanese_leaderboard": fixed("jpn"), "jfinqa": fixed("jpn"),
    "kbl": fixed("kor"), "kmmlu": fixed("kor"), "kobest": fixed("kor"), "kormedmcqa": fixed("kor"),
    "lambada": ENG, "lambada_cloze": ENG,
    "lambada_multilingual": regex(r"_(?P<l>[a-z]{2})$"),
    "lambada_multilingual_stablelm": regex(r"_(?P<l>[a-z]{2})$"),
    "leaderboard": ENG, "legalbench": ENG,
    "libra": fixed("rus"),
    "lingoly": NONE,
    "llama3": regex(r"^mmlu_(?P<l>de|es|fr|hi|it|pt|th)_llama", "eng"),
    "lm_syneval": ENG, "logiqa": ENG, "logiqa2": ENG,
    "mastermind": ENG, "mathqa": ENG, "mc_taco": ENG, "med_concepts_qa": ENG, "med_prescriptions": ENG,
    "med_text_classification": ENG, "meddialog": ENG, "mediqa_qa2019": ENG, "medmcqa": ENG, "medqa": ENG,
    "medtext": ENG, "meqsum": ENG, "metabench": ENG, "mimic_repsum": ENG, "minerva_math": ENG,
    "mela": regex(r"mela_(?P<l>[a-z]{2})$"),
    "mgsm": regex(r"_(?P<l>[a-z]{2})$"),
    "mlqa": regex(r"mlqa_(?P<l1>[a-z]{2})_(?P<l2>[a-z]{2})$"),
    "mmlu": ENG, "mmlu-pro-plus": ENG, "mmlu-redux": ENG, "mmlu_pro": ENG, "mmlusr": ENG, "mmmu": ENG,
    "mmlu-redux-spanish": fixed("spa"),
    "mmlu_prox": lambda n, d, p: [c(p.split("/")[0])],
    "model_written_evals": ENG, "moral_stories": ENG, "mts_dialog": ENG, "mutual": ENG,
    "multiblimp": regex(r"^multiblimp_(?P<l>[a-z]{3})$"),
    "nerel-bench": fixed("rus"),
    "noreval": first(lambda n, d, p: [c(t) for t in n.split("_") if t in ("eng", "nob", "nno")],
                     lambda n, d, p: script_pairs(d), fixed("nor")),
    "noticia": fixed("spa"), "nq_open": ENG,
    "okapi": regex(r"^(?:arc|hellaswag|m_mmlu|truthfulqa)_(?P<l>[a-z]{2})(?:_mc[12])?$"),
    "olaph": ENG, "openbookqa": ENG,
    "openai-mmmlu": regex(r"^mmmlu_(?P<l>[a-z]{2})_[a-z]{2}_"),
    "paloma": ENG,
    "paws-x": regex(r"^paws_(?P<l>[a-z]{2})$"),
    "pile": ENG, "pile_10k": ENG, "piqa": ENG,
    "pisa": lambda n, d, p: [c("zho" if n.split("_")[1] == "ch" else n.split("_")[1])],
    "polemo2": fixed("pol"),
    "portuguese_bench": bench("por"),
    "prost": ENG, "pubmedqa": ENG, "putnam_axiom": ENG, "qa4mre": ENG, "qasper": ENG, "race": ENG,
    "realtoxicityprompts": ENG, "ruler": ENG, "sciq": ENG, "score": ENG, "scrolls": ENG,
    "simple_cooccurrence_bias": ENG, "siqa": ENG, "slr_bench": ENG,
    "spanish_bench": bench("spa"),
    "squad_completion": ENG, "squadv2": ENG, "storycloze": ENG, "super_glue": ENG, "swag": ENG, "swde": ENG,
    "tinyBenchmarks": ENG, "chartqa": ENG,
    "tmlu": fixed("zho"), "tmmluplus": fixed("zho"),
    "toksuite": named(r"^toksuite_(?:math_|stem_)?(?P<w>[a-z]+)"),
    "toxigen": ENG,
    "translation": regex(r"-(?P<l1>[a-z]{2})-(?P<l2>[a-z]{2})$"),
    "triviaqa": ENG, "truthfulqa": ENG,
    "truthfulqa-multi": regex(r"_(?P<l>[a-z]{2})$"),
    "turblimp": fixed("tur"), "turkishmmlu": fixed("tur"),
    "ulqa": fixed("uig"),
    "unitxt": ENG, "unscramble": ENG, "webqs": ENG, "wikitext": ENG, "winogender": ENG, "winogrande": ENG,
    "wmdp": ENG, "wsc273": ENG,
    "wmt2016": fixed("ron", "eng"),
    "xcopa": regex(r"^xcopa_(?P<l>[a-z]{2})$"),
    "xnli": regex(r"^xnli_(?P<l>[a-z]{2})$"),
    "xnli_eu": fixed("eus"),
    "xquad": regex(r"^xquad_(?P<l>[a-z]{2})$"),
    "xstorycloze": regex(r"^xstorycloze_(?P<l>[a-z]{2})$"),
    "xwinograd": lambda n, d, p: [c({"jp": "ja"}.get(n.split("_")[1], n.split("_")[1]))],
    "zhoblimp": fixed("zho"),
}


def belebele(n, d, p):
    return script_pairs(n)


RULES["belebele"] = belebele


def agieval(n, d, p):
    zh = n.startswith(("agieval_gaokao", "agieval_jec_qa", "agieval_logiqa_zh")) and n != "agieval_gaokao_english"
    return [c("zho" if zh else "eng")]


RULES["agieval"] = agieval


def bigbench(n, d, p):
    s = re.sub(r"_(generate_until|multiple_choice)$", "", n[len("bigbench_"):])
    special = {
        "multiemo": ["pol"], "parsinlu_qa": ["fas"], "parsinlu_reading_comprehension": ["fas"],
        "persian_idioms": ["fas"], "hinglish_toxicity": ["hin", "eng"], "kannada": ["kan"],
        "hindi_question_answering": ["hin"], "entailed_polarity_hindi": ["hin"],
        "misconceptions_russian": ["rus"], "english_russian_proverbs": ["eng", "rus"],
        "swahili_english_proverbs": ["swa", "eng"], "swedish_to_german_proverbs": ["swe", "deu"],
        "polish_sequence_labeling": ["pol"], "gender_inclusive_sentences_german": ["deu"],
        "cryobiology_spanish": ["spa"],
    }
    if s in special:
        return special[s]
    if s.startswith(("conlang_translation", "kanji_ascii", "language_identification", "which_wiki_edit",
                     "international_phonetic_alphabet", "gem", "natural_instructions")):
        return []
    return ["eng"]


RULES["bigbench"] = bigbench


def longbench(n, d, p):
    if n.startswith("longbench2"):
        return []
    if n.endswith("_zh") or n in ("longbench_dureader", "longbench_lsht", "longbench_vcsum"):
        return ["zho"]
    return ["eng"]


RULES["longbench"] = longbench
RULES["longbench2"] = longbench


def infinitebench(n, d, p):
    return ["zho"] if n.endswith("_chn") else ["eng"]


RULES["infinitebench"] = infinitebench


def afrobench(n, d, p):
    """AfroBench: task_<lang>_prompt_N, with <lang> a 639-1 or 639-3 code,
    a flores pair xxx_Scrp-yyy_Scrp, a mafand pair xx-yyy, or a name."""
    base = re.sub(r"_prompt_\d+$", "", n)
    sp = script_pairs(base)
    if sp:
        return sp
    m = re.search(r"_([a-z]{2,3})-([a-z]{2,3})$", base)
    if m:
        return [c(m.group(1)), c(m.group(2))]
    last = base.rsplit("_", 1)[-1]
    special = {"kirundi": "run", "pidgin": "pcm"}
    if last in special:
        return [special[last]]
    if last in NAMES:
        return [NAMES[last]]
    return [c(last)]


RULES["afrobench"] = afrobench


# --- tasks -----------------------------------------------------------------

class Loader(yaml.SafeLoader):
    pass


Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
_cache = {}


def load(path, stack=()):
    if path in _cache:
        return _cache[path]
    try:
        with open(path) as f:
            d = yaml.load(f, Loader=Loader) or {}
    except Exception:
        d = {}
    if not isinstance(d, dict):
        d = {}
    inc = d.pop("include", None)
    if inc and path not in stack:
        merged = {}
        for i in inc if isinstance(inc, list) else [inc]:
            merged.update(load(os.path.join(os.path.dirname(path), i), stack + (path,)))
        merged.update(d)
        d = merged
    _cache[path] = d
    return d


def tasks(root):
    """(name, dataset_name, path relative to root) of every task, as
    lm-eval's TaskManager indexes them; a name defined twice counts once
    (the later file)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(x for x in dirnames if x not in ("__pycache__", ".ipynb_checkpoints"))
        for fn in sorted(filenames):
            if not fn.endswith(".yaml"):
                continue
            path = os.path.join(dirpath, fn)
            rel = os.path.relpath(path, root)
            d = load(path)
            ds = d.get("dataset_name") if isinstance(d.get("dataset_name"), str) else ""
            if isinstance(d.get("task_list"), list):
                for item in d["task_list"]:
                    name = item if isinstance(item, str) else (item or {}).get("task")
                    if isinstance(name, str):
                        out[name] = (ds, rel)
            elif isinstance(d.get("task"), str):
                out[d["task"]] = (ds, rel)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = args[0] if args else "../shared/lm-eval/lm_eval/tasks"
    counts, total, with_lang = {}, 0, 0
    lines = []
    for name, (ds, rel) in sorted(tasks(root).items()):
        fam, _, below = rel.partition("/")
        rule = RULES.get(fam)
        if rule is None:
            raise SystemExit(f"no rule for family {fam} ({rel})")
        try:
            langs = sorted(set(rule(name, ds, below)))
        except (AssertionError, KeyError, IndexError) as e:
            raise SystemExit(f"{rel}: task {name}: rule of family {fam} failed: {e!r}")
        total += 1
        if langs:
            with_lang += 1
        for l in langs:
            counts[l] = counts.get(l, 0) + 1
        lines.append(f"{name}\t{','.join(langs)}\t{rel}")
    if "--tasks" in sys.argv:
        print("\n".join(lines))
        return
    print(f"# scripts/languages/listing.py over lm-eval {open(os.path.join(root, '../../COMMIT')).read().strip() if os.path.exists(os.path.join(root, '../../COMMIT')) else ''}")
    print(f"tasks\t{total}")
    print(f"with_language\t{with_lang}")
    for l in sorted(counts):
        print(f"{l}\t{counts[l]}")


if __name__ == "__main__":
    main()
