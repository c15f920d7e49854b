#!/usr/bin/env python3
"""Fidelity cases for openai-mmmlu (subject filter on the Subject column,
CSV-suffixed names included) and mmlu_prox (full and lite, category
filter, CoT few-shot from validation) over documents in their schemas.
Run: python3 fidelity/build/mmlu_variants.py
"""
from common import case, write_cases, write_jsonl


def openai_mmmlu():
    rows = [
        ("Find all c in Z_3 such that Z_3[x]/(x^2 + c) is a field.", "0", "1", "2", "3", "B", "abstract_algebra"),
        ("Statement 1 | Every element of a group generates a cyclic subgroup. Statement 2 | The symmetric group S_10 has 10 elements.", "True, True", "False, False", "True, False", "False, True", "C", "abstract_algebra_test.csv_sw-KE.csv"),
        ("What is the embryological origin of the hyoid bone?", "The first pharyngeal arch", "The first and second pharyngeal arches", "The second pharyngeal arch", "The second and third pharyngeal arches", "D", "anatomy"),
        ("Which of these branches of the trigeminal nerve contain somatic motor processes?", "The supraorbital nerve", "The infraorbital nerve", "The mental nerve", "None of the above", "D", "anatomy_test-de"),
        ("Let A be the set of all ordered pairs of integers (m, n) such that 7m + 12n = 22. What is the greatest negative number in the set B = {m + n : (m, n) \\in A}?", "-5", "-4", "-3", "-2", "B", "college_mathematics"),
        ("  How many positive integers less than 100 are divisible by 3?  ", "32", "33", "34", "30", "B", "college_mathematics"),
    ]
    docs = [{"Unnamed: 0": i, "Question": q, "A": a, "B": b, "C": c, "D": d, "Answer": ans, "Subject": s}
            for i, (q, a, b, c, d, ans, s) in enumerate(rows)]
    f = {"test": write_jsonl("openai_mmmlu", "mmmlu_test.jsonl", docs)}
    write_cases("openai_mmmlu", [
        case("fid_mmmlu_ar_xy_abstract_algebra", "openai-mmmlu/default/mmmlu_ar_xy_abstract_algebra.yaml", f),
        case("fid_mmmlu_de_de_anatomy", "openai-mmmlu/default/mmmlu_de_de_anatomy.yaml", f),
        case("fid_mmmlu_sw_ke_college_mathematics", "openai-mmmlu/default/mmmlu_sw_ke_college_mathematics.yaml", f),
        case("fid_mmmlu_fr_fr_college_mathematics_1shot", "openai-mmmlu/default/mmmlu_fr_fr_college_mathematics.yaml", f, 1),
    ])


def mmlu_prox():
    def row(qid, q, opts, a, cat, cot):
        r = {"question_id": qid, "question": q}
        for i in range(10):
            r[f"option_{i}"] = opts[i] if i < len(opts) else None
        r.update({"answer": "ABCDEFGHIJ"[a], "answer_index": a, "cot_content": cot, "src": f"ori_mmlu-{cat}", "category": cat, "question_id_src": qid})
        return r
    test = [row(1, "Welche Struktur ist für die Photosynthese verantwortlich?", ["Mitochondrien", "Chloroplasten", "Ribosomen", "Zellkern"], 1, "biology", ""),
            row(2, "Was ist die Einheit der Kraft?", ["Joule", "Watt", "Newton", "Pascal", "Volt"], 2, "physics", ""),
            row(3, "Welches Organ produziert Insulin?", ["Leber", "Bauchspeicheldrüse", "Niere", "Magen", "Herz", "Lunge"], 1, "biology", ""),
            row(4, "What is 2 + 2?", ["3", "4", "5"], 1, "math", "")]
    val = [row(10 + k, f"Beispielfrage {k} zur Biologie?", [f"Option {j}" for j in range(10)], k, "biology",
               f"A: Denken wir Schritt für Schritt nach. Schritt {k}. Die Antwort ist ({'ABCDEFGHIJ'[k]}).") for k in range(5)]
    val += [row(20 + k, f"Example {k} about physics?", [f"Option {j}" for j in range(4)], k % 4, "physics",
                f"A: Let's think step by step. Step {k}. The answer is ({'ABCD'[k % 4]}).") for k in range(5)]
    val += [row(30 + k, f"Example {k} about math?", [f"{j}" for j in range(4)], k % 4, "math",
                f"A: Let's think step by step. The answer is ({'ABCD'[k % 4]}).") for k in range(5)]
    f = {"test": write_jsonl("mmlu_prox", "mmlu_prox_test.jsonl", test), "validation": write_jsonl("mmlu_prox", "mmlu_prox_validation.jsonl", val)}
    de = ["Denken wir Schritt für Schritt nach. Die Antwort ist (B).", "Die Antwort ist C", "Die Antwort ist (A).", "Ich weiß es nicht."]
    en = ["Let's think step by step. The answer is (B).", "the answer is (C)", "The answer is B.", "I am not sure."]
    write_cases("mmlu_prox", [
        case("fid_mmlu_prox_de_biology", "mmlu_prox/de/mmlu_prox_de_biology.yaml", f, answers=de),
        case("fid_mmlu_prox_lite_de_physics", "mmlu_prox/de/mmlu_prox_lite_de_physics.yaml", f, answers=de),
        case("fid_mmlu_prox_en_math", "mmlu_prox/en/mmlu_prox_en_math.yaml", f, answers=en),
        case("fid_mmlu_prox_en_physics_1shot", "mmlu_prox/en/mmlu_prox_en_physics.yaml", f, 1, answers=en),
    ])


if __name__ == "__main__":
    openai_mmmlu()
    mmlu_prox()
