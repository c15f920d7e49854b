#!/usr/bin/env python3
"""Fidelity cases for every task of lm-eval's mmlu directory: the 57
subjects of default (5-shot), continuation, generative, flan_cot_zeroshot,
flan_cot_fewshot (its YAML's 4 worked examples) and flan_n_shot
(generative and loglikelihood, 5-shot): 399 cases.

Each subject has its own test/validation file of three questions (cais/mmlu's
schema: question, subject, choices, answer), drawn in turn from the pool
below; the dev split (few-shot) is one shared file of five questions.
Run: python3 fidelity/build/mmlu.py
"""
import os

from common import TASKS, case, write_cases, write_jsonl

POOL = [
    ("Find all c in Z_3 such that Z_3[x]/(x^2 + c) is a field.", ["0", "1", "2", "3"], 1),
    ("What is the embryological origin of the hyoid bone?", ["The first pharyngeal arch", "The first and second pharyngeal arches", "The second pharyngeal arch", "The second and third pharyngeal arches"], 3),
    ("Why is Mars red?", ["Because the surface is covered with heavily oxidized (\"rusted\") minerals.", "Because the atmosphere scatters more light at bluer wavelengths transmitting mostly red light.", "Because Mars is covered with ancient lava flows which are red in color.", "Because flowing water on Mars's surface altered the surface minerals several billion years ago."], 0),
    ("Which of the following is the body cavity that contains the pituitary gland?", ["Abdominal", "Cranial", "Pleural", "Spinal"], 1),
    ("  In a given population, 1 out of every 400 people has a cancer caused by a completely recessive allele, b. Assuming the population is in Hardy-Weinberg equilibrium, which of the following is the expected proportion of individuals who carry the b allele but are not expected to develop the cancer?", ["1/400", "19/400", "20/400", "38/400"], 3),
    ("The price elasticity of demand for a product is greater if", ["the proportion of the good of the consumer's budget is high.", "the number of substitute products is limited.", "the period of time to respond to a price change is short.", "the product is a necessity."], 0),
    ("Which of the following statements about the lanthanide elements is NOT true?", ["The most common oxidation state for the lanthanide elements is +3.", "Lanthanide complexes often have high coordination numbers (> 6).", "All of the lanthanide elements react with aqueous acid to liberate hydrogen.", "The atomic radii of the lanthanide elements increase across the period from La to Lu."], 3),
    ("A list of numbers has n elements, indexed from 1 to n. Which of the following algorithms finds the largest value fastest on average?", ["Binary search", "Linear scan", "Bubble sort then take the last", "Random sampling"], 1),
    ("Which of the following best describes the balance the Supreme Court has struck between the establishment clause and the free-exercise clause?", ["Freedom of speech is protected except in certain situations, such as yelling \"fire\" in a crowded theater.", "Once a church has been recognized by the federal government, its tax-exempt status can never be revoked.", "Once Congress has created an administrative agency, that agency can be dissolved only by a constitutional amendment.", "State-sponsored prayer during school hours is prohibited, but voluntary prayer by student groups before school is allowed."], 3),
    ("Which of these is an example of a contract that is void?", ["A contract with a minor for necessaries", "A contract to commit a crime", "A contract signed under mild pressure", "A contract with a typo"], 1),
    ("In the complex z-plane, the set of points satisfying the equation z² = |z|² is a", ["pair of points", "circle", "half-line", "line"], 3),
    ("Which of the following is a function of the Golgi apparatus?", ["Protein synthesis", "Packaging and modifying proteins", "ATP production", "DNA replication"], 1),
    ("What is the main reason that the ozone layer matters?", ["It keeps the planet warm.", "It absorbs most ultraviolet radiation from the Sun.", "It produces oxygen.", "It reflects visible light."], 1),
    ("Psychologists who study how people form impressions of others are working in which field?", ["social psychology", "developmental psychology", "clinical psychology", "biopsychology"], 0),
    ("According to Kant, the moral worth of an action depends on", ["its consequences", "the motive of duty", "the happiness it produces", "the approval of society"], 1),
    ("Which war ended with the Treaty of Versailles?", ["The Franco-Prussian War", "World War I", "World War II", "The Napoleonic Wars"], 1),
    ("Let A be a real 2x2 matrix. Which of the following statements must be true?\nI. All of the entries of A^2 are nonnegative.\nII. The determinant of A^2 is nonnegative.\nIII. If A has two distinct eigenvalues, then A^2 has two distinct eigenvalues.", ["I only", "II only", "III only", "II and III only"], 1),
    ("What is the output of print(2 ** 3 ** 2) in Python 3?", ["64", "512", "36", "None"], 1),
    ("Which of the following is a renewable resource?", ["Coal", "Natural gas", "Solar energy", "Uranium"], 2),
    ("A marketing strategy that targets a single, narrowly defined segment is called", ["mass marketing", "differentiated marketing", "concentrated marketing", "micromarketing"], 2),
]
DEV = [
    ("Which of the following statements about the ionosphere is true?", ["It is below the stratosphere.", "It contains charged particles.", "It is made of liquid water.", "It has no effect on radio waves."], 1),
    ("A fair die is rolled. What is the probability of an even number?", ["1/6", "1/3", "1/2", "2/3"], 2),
    ("Which organ produces insulin?", ["Liver", "Pancreas", "Kidney", "Stomach"], 1),
    ("Who wrote 'The Wealth of Nations'?", ["Karl Marx", "John Maynard Keynes", "Adam Smith", "David Ricardo"], 2),
    ("The SI unit of force is the", ["joule", "watt", "pascal", "newton"], 3),
]


def subjects():
    d = os.path.join(TASKS, "mmlu", "default")
    return sorted(f[len("mmlu_"):-len(".yaml")] for f in os.listdir(d) if f.startswith("mmlu_") and f.endswith(".yaml"))


def main():
    dev = write_jsonl("mmlu", "mmlu_dev.jsonl", [{"question": q, "subject": "miscellaneous", "choices": c, "answer": a} for q, c, a in DEV])
    files = {}
    for i, s in enumerate(subjects()):
        rows = [POOL[(3 * i + k) % len(POOL)] for k in range(3)]
        f = write_jsonl("mmlu", f"mmlu_{s}.jsonl", [{"question": q, "subject": s, "choices": c, "answer": a} for q, c, a in rows])
        files[s] = {"test": f, "validation": f, "dev": dev}
    letters = [" A", " B", "C", " D.", " (B)", " The answer is C", " b"]
    paren = [" (A)", " (B)", "(C)", " (D) because", " The answer is (B).", " I think (c)", " A"]
    cot = [" The answer is (A).", " So the answer is (B).", " The answer is (C)", " The final answer: (D).", " The answer: (B).", " It is (C).", " answer is A."]
    cs = []
    for s in subjects():
        f = files[s]
        cs.append(case(f"fid_mmlu_{s}", f"mmlu/default/mmlu_{s}.yaml", f, 5))
        cs.append(case(f"fid_mmlu_continuation_{s}", f"mmlu/continuation/mmlu_{s}.yaml", f))
        cs.append(case(f"fid_mmlu_generative_{s}", f"mmlu/generative/mmlu_{s}.yaml", f, answers=letters))
        cs.append(case(f"fid_mmlu_flan_cot_zeroshot_{s}", f"mmlu/flan_cot_zeroshot/mmlu_{s}.yaml", f, answers=cot))
        cs.append(case(f"fid_mmlu_flan_cot_fewshot_{s}", f"mmlu/flan_cot_fewshot/mmlu_{s}.yaml", f, answers=cot))
        cs.append(case(f"fid_mmlu_flan_n_shot_generative_{s}", f"mmlu/flan_n_shot/generative/mmlu_{s}.yaml", f, 5, answers=paren))
        cs.append(case(f"fid_mmlu_flan_n_shot_loglikelihood_{s}", f"mmlu/flan_n_shot/loglikelihood/mmlu_{s}.yaml", f, 5))
    write_cases("mmlu", cs)


if __name__ == "__main__":
    main()
