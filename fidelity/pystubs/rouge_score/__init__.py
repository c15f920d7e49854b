"""Stand-in for rouge_score, absent from Debian: lets lm-eval import task
helpers whose module imports it (truthfulqa/utils.py) so the helpers that
do not use it (process_results_mc2) run as they are. Any use raises."""
