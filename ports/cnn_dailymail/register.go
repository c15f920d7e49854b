// Package cnn_dailymail registers lm_eval/tasks/cnn_dailymail/utils.py's
// process_results as unavailable: besides rouge_score's stemmed
// ROUGE-1/2/L it gives BERTScore, which runs the distilbert-base-uncased
// model through bert_score; lmeval has no such model.
package cnn_dailymail

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterUnavailable(task.Helper{File: "cnn_dailymail/utils.py", Function: "process_results",
		SHA256: "fd577b6d998e6eb3cd0b7a33b48f1d40b1187a691653a6276d20b32d63ff7814"}, "its BERTScore metrics run the distilbert-base-uncased model through bert_score, which lmeval does not have")
}
