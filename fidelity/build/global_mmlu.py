#!/usr/bin/env python3
"""Fidelity cases for global_mmlu: full/<lang> subject tasks (subject
filter) and default/<lang> category tasks (subject_category filter), zero-
and few-shot, over one file of documents in Global-MMLU's schema.
Run: python3 fidelity/build/global_mmlu.py
"""
from common import case, write_cases, write_jsonl

ROWS = [
    ("anatomy", "STEM", "Which of the following is the body cavity that contains the pituitary gland?", ["Abdominal", "Cranial", "Pleural", "Spinal"], "B"),
    ("anatomy", "STEM", "The maxillary sinus drains into the", ["middle meatus", "inferior meatus", "superior meatus", "sphenoethmoidal recess"], "A"),
    ("college_biology", "STEM", "Which of the following is not a way to form recombinant DNA?", ["Translation", "Conjugation", "Specialized transduction", "Transformation"], "A"),
    ("marketing", "Business", " A marketing strategy that targets a single, narrowly defined segment is called ", ["mass marketing", "differentiated marketing", "concentrated marketing", "micromarketing"], "C"),
    ("management", "Business", "Which of the following is the most appropriate leadership style in a crisis?", ["Laissez-faire", "Autocratic", "Democratic", "Transformational"], "B"),
    ("philosophy", "Humanities", "According to Kant, the moral worth of an action depends on", ["its consequences", "the motive of duty", "the happiness it produces", "the approval of society"], "B"),
    ("world_religions", "Humanities", "What is the sacred text of Sikhism?", ["Vedas", "Guru Granth Sahib", "Tripitaka", "Avesta"], "B"),
    ("clinical_knowledge", "Medical", "Which of the following is the normal resting heart rate for an adult?", ["30-50 bpm", "60-100 bpm", "110-140 bpm", "150-180 bpm"], "B"),
    ("global_facts", "Other", "As of 2017, how many of the world's 1-year-old children today have been vaccinated against some disease?", ["80%", "60%", "40%", "20%"], "A"),
    ("high_school_psychology", "Social Sciences", "Psychologists who study how people form impressions of others work in", ["social psychology", "developmental psychology", "clinical psychology", "biopsychology"], "A"),
    ("econometrics", "Social Sciences", "Which of the following is a disadvantage of the fixed effects approach?", ["It is too complex", "It may have a large number of parameters", "It cannot capture time variation", "It is biased"], "B"),
]


def rows(split):
    out = []
    for i, (subj, cat, q, opts, a) in enumerate(ROWS):
        out.append({"sample_id": f"{subj}/{split}/{i}", "subject": subj, "subject_category": cat, "question": q,
                    "option_a": opts[0], "option_b": opts[1], "option_c": opts[2], "option_d": opts[3], "answer": a,
                    "required_knowledge": "['conceptual']", "time_sensitive": "No", "reference": "", "culture": "", "region": "",
                    "country": "", "cultural_sensitivity_label": "CA", "is_annotated": split == "test"})
    return out


def main():
    test = write_jsonl("global_mmlu", "global_mmlu_test.jsonl", rows("test"))
    dev = write_jsonl("global_mmlu", "global_mmlu_dev.jsonl", rows("dev") + rows("dev2"))
    f = {"test": test, "dev": dev}
    cs = [case("fid_global_mmlu_full_am_anatomy", "global_mmlu/full/am/global_mmlu_full_am_anatomy.yaml", f),
          case("fid_global_mmlu_full_fr_college_biology", "global_mmlu/full/fr/global_mmlu_full_fr_college_biology.yaml", f),
          case("fid_global_mmlu_full_sw_marketing", "global_mmlu/full/sw/global_mmlu_full_sw_marketing.yaml", f),
          case("fid_global_mmlu_full_ja_anatomy_1shot", "global_mmlu/full/ja/global_mmlu_full_ja_anatomy.yaml", f, 1)]
    for cat in ("business", "humanities", "medical", "other", "social_sciences", "stem"):
        cs.append(case(f"fid_global_mmlu_en_{cat}", f"global_mmlu/default/en/global_mmlu_en_{cat}.yaml", f))
    cs.append(case("fid_global_mmlu_de_stem_1shot", "global_mmlu/default/de/global_mmlu_de_stem.yaml", f, 1))
    write_cases("global_mmlu", cs)


if __name__ == "__main__":
    main()
