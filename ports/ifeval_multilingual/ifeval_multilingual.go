// Package ifeval_multilingual registers lm_eval/tasks/ifeval/multilingual's
// process_results (ifeval_ca, ifeval_es) as unavailable: its instruction
// checkers split and count with spaCy's trained pipelines
// (ca_core_news_sm, es_core_news_sm, xx_sent_ud_sm), which lmeval does not
// include. (Its agg_inst_level_acc is ifeval's, ported in ports/ifeval.)
package ifeval_multilingual

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterUnavailable(task.Helper{File: "ifeval/multilingual/utils.py", Function: "process_results",
		SHA256: "d75ffe29548e774424e56c36113b963eda53bf27bd469340f55df5fe3f1fca57"}, "its instruction checks split sentences and words with spaCy's trained pipelines "+
		"(ca_core_news_sm, es_core_news_sm, xx_sent_ud_sm), which lmeval does not include")
}
