#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/nerel-bench's helpers (see ports/internal/vectest/vecgen.py).

usage (from the repository root, in make parity's venv: nltk 3.10.4, sacrebleu):
  HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 build/parity/venv/bin/python scripts/parity/realgen.py \
    ports/nerel_bench/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
F = "nerel-bench/utils.py"
m = vecgen.load(F)
words = ["бегущий", "красивейший", "принцессы", "императорской", "Летова", "«Були", "для", "бабули»", "10-летие", "Москва",
         "читаю", "прочитавшись", "ёлка", "Ёжик", "вестей", "учительница", "сделанный", "нужно", "костей", "гостиница",
         "Pain", "josef", "Fruktы", "S.", "1989", "год", "тысяча", "надежды", "любовью", "соединяться", "бессмысленность",
         "красного", "знаменитейшая", "больше", "лучший", "ведомость", "работали", "деревня", "лиловый", "сильнейшими"]
cases = [("десятилетие\nсмерть\nЕгор Летов", "Смерть\nЕгора Летова\nдесятилетие"), ("Москва\nРоссия", "москва"),
         ("", "что-то"), ("Принцесса Мако\nимператор Японии", "принцессы Мако\nИмператорская семья\nЯпония"),
         (" ".join(words), " ".join(reversed(words))), ("связанных сущностей нет", "Связанных сущностей нет."),
         # nltk >= 3.10.3 tokenizes with the regex module: a stress mark stays in
         # its word (which then is not isalnum), ² is not a word character
         ("замо́к на двери x²", "замо́к двери x² 2")]
for ref, pred in cases:
    V.metric(F, "f1", [ref], [pred])
    V.metric(F, "chrf", [ref], [pred], kwargs={"ignore_case": True, "ignore_punctuation": True}, tol=1e-12, note="chrF's last bits")
V.metric(F, "f1", [" ".join(words[:20]), "a\nb"], [" ".join(words[20:]), "b\nc"], note="two samples")
# nltk's RussianStemmer itself, on the words and on their lower-cased forms
import json  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "stems.json"), "w", encoding="utf-8") as f:
    import nltk  # noqa: E402

    # and every token of the few-shot texts (hundreds of word forms)
    texts = " ".join(d["input_task"] + " " + d["true_answer"] for k in ["ner", "re", "rd", "ned"]
                     for d in getattr(m, "fewshot_samples_for_" + k)())
    toks = sorted({t.lower() for t in nltk.wordpunct_tokenize(texts) if t.isalnum()})
    json.dump({w: m.ru_stemmer.stem(w) for w in words + [w.lower() for w in words] + toks}, f, ensure_ascii=False, indent=0)
docs = [{"instruction": "Текст: {source_text}\nСущность: {first_entity_in_text} {{x}}", "context": '{"source_text": "Я тут.", "first_entity_in_text": 5}',
         "true_answer": "ответ"}]
V.process_docs(F, "process_docs", docs)
for k in ["ner", "re", "rd", "ned"]:
    V.samples(F, "fewshot_samples_for_" + k)
V.write(OUT)
