package f1score

import (
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
)

func init() {
	for _, a := range []*metrics.Aggregation{Weighted, Macro, Micro} {
		metrics.RegisterAggregation(a)
	}
	// from lm_eval.utils import weighted_f1_score (45 files)
	task.RegisterAggregation(task.Helper{File: "afrixnli/anli prompt/en-direct/utils.py", Function: "weighted_f1_score",
		SHA256: "8ad60dcf0f970c3bbaa31ccff8475190901968a40a79df8064ce8a7d2a6fb0ce"}, Weighted)
	task.RegisterAggregation(task.Helper{File: "kobest/utils.py", Function: "macro_f1_score",
		SHA256: "6f4de55c9551ec5d35394496e51d5ad8b2e3e51b52e4820fd05870922803c75c"}, Macro)
	task.RegisterAggregation(task.Helper{File: "aradice/ArabicMMLU/EGY/metrics.py", Function: "micro_f1_score",
		SHA256: "4fe721cf4d39affbbd728dc594eed89bcf3eb1550c0aac82624c62154f1ce1bf"}, Micro)
	// evaluate's f1 (a wrapper of sklearn's) with average="micro"
	task.RegisterAggregation(task.Helper{File: "basqueglue/utils.py", Function: "micro_f1_score",
		SHA256: "8fc7d67133a6c6dfb03fb0ee58be9733d9c5b7202beb5bbd0cbdd47ca8a09003"}, Micro)
}
