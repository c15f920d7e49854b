#!/usr/bin/env python3
"""Fidelity cases for bigbench (multiple_choice templates a and b, with
filter_multiple_choice dropping free-form rows; generate_until) in
hails/bigbench's schema. Run: python3 fidelity/build/bigbench_afri.py
"""
from common import case, write_cases, write_jsonl


def bigbench():
    def d(i, inputs, targets, mct, scores):
        return {"idx": i, "inputs": inputs, "targets": targets, "multiple_choice_targets": mct, "multiple_choice_scores": scores}
    anach = [d(0, "Identify whether a given statement contains an anachronism.\nQ: Richard III used his smartphone to call for a horse.\n  choice: Yes\n  choice: No\nA:", ["Yes"], ["Yes", "No"], [1, 0]),
             d(1, "Identify whether a given statement contains an anachronism.\nQ: Cleopatra wrote letters on papyrus.\n  choice: Yes\n  choice: No\nA:", ["No"], ["Yes", "No"], [0, 1]),
             d(2, "Identify whether a given statement contains an anachronism.\nQ: The Wright brothers flew a jet airliner.\n  choice: Yes\n  choice: No\nA:", ["Yes"], ["Yes", "No"], [1, 0])]
    strat = [d(0, "Q: Could a llama birth twice during War in Vietnam (1945-46)?\nA:", ["No. The War in Vietnam was 6 months. The gestation period for a llama is 11 months."],
               ["Yes", "No"], [0, 1]),
             d(1, "Q: Do hamsters provide food for any animals?\nA:", ["Yes. Hamsters are prey animals."], ["Yes", "No"], [1, 0])]
    kanji = [d(0, "What is the meaning of the following ASCII art kanji?\n  ||\n ----\n  ||\nA:", ["tree"], ["tree", "fire", "water"], [1, 0, 0]),
             d(1, "What is the meaning of the following ASCII art kanji?\n /\\\n/  \\\nA:", ["person"], [], []),
             d(2, "What is the meaning of the following ASCII art kanji?\n ~~\n ~~\nA:", ["water"], ["tree", "fire", "water"], [0, 0, 1])]
    arith = [d(0, "What is 12 plus 7?", ["19"], [], []), d(1, "What is 9 times 8?", ["72"], [], []), d(2, "What is 100 minus 58?", ["42"], [], [])]
    fa = {"default": write_jsonl("bigbench", "anachronisms.jsonl", anach)}
    fs = {"default": write_jsonl("bigbench", "strategyqa.jsonl", strat)}
    fk = {"default": write_jsonl("bigbench", "kanji_ascii.jsonl", kanji)}
    fr = {"default": write_jsonl("bigbench", "arithmetic.jsonl", arith)}
    write_cases("bigbench", [
        case("fid_bigbench_anachronisms_multiple_choice", "bigbench/multiple_choice/anachronisms.yaml", fa),
        case("fid_bigbench_strategyqa_multiple_choice", "bigbench/multiple_choice/strategyqa.yaml", fs),
        case("fid_bigbench_kanji_ascii_multiple_choice", "bigbench/multiple_choice/kanji_ascii.yaml", fk),
        case("fid_bigbench_arithmetic_generate_until", "bigbench/generate_until/arithmetic.yaml", fr, answers=[" 19", "72.", " 42", "I think 41", " nineteen"]),
        case("fid_bigbench_kanji_ascii_generate_until", "bigbench/generate_until/kanji_ascii.yaml", fk, answers=[" tree", "Person", " fire!", "water"]),
    ])


if __name__ == "__main__":
    bigbench()
