"""The code tasks the generators here cover: (task, lm-eval file, data file)."""
TASKS = [
    ("humaneval", "humaneval/humaneval.yaml", "humaneval.jsonl"),
    ("humaneval_64", "humaneval/humaneval_64.yaml", "humaneval.jsonl"),
    ("humaneval_instruct", "humaneval/humaneval_instruct.yaml", "humaneval.jsonl"),
    ("humaneval_64_instruct", "humaneval/humaneval_64_instruct.yaml", "humaneval.jsonl"),
    ("humaneval_plus", "humaneval/humaneval_plus.yaml", "humaneval.jsonl"),
    ("mbpp", "mbpp/mbpp.yaml", "mbpp.jsonl"),
    ("mbpp_instruct", "mbpp/mbpp_instruct.yaml", "mbpp.jsonl"),
    ("mbpp_plus", "mbpp/mbpp_plus.yaml", "mbppplus.jsonl"),
    ("mbpp_plus_instruct", "mbpp/mbpp_plus_instruct.yaml", "mbppplus.jsonl"),
    ("humaneval_single_line_infilling", "humaneval_infilling/single_line_infilling.yaml", "infilling.jsonl"),
    ("humaneval_multi_line_infilling", "humaneval_infilling/multi_line_infilling.yaml", "infilling.jsonl"),
    ("cruxeval_input", "cruxeval/cruxeval_input.yaml", "cruxeval.jsonl"),
    ("cruxeval_input_cot", "cruxeval/cruxeval_input_cot.yaml", "cruxeval.jsonl"),
    ("cruxeval_output", "cruxeval/cruxeval_output.yaml", "cruxeval.jsonl"),
    ("cruxeval_output_cot", "cruxeval/cruxeval_output_cot.yaml", "cruxeval.jsonl"),
    ("cruxeval_input_08", "cruxeval/cruxeval_input_08.yaml", "cruxeval.jsonl"),
]
