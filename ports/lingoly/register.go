package lingoly

import (
	"context"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
)

func init() {
	metrics.RegisterAggregation(AggregateScores)
	task.RegisterMapDocs(task.Helper{File: "lingoly/utils.py", Function: "load_all_questions",
		SHA256: "e98eef1b3465da6af2ce2af02e78dcf261dc29415b3104cba47807911edae6a1"}, task.MapDocs{Fn: LoadAllQuestions, Columns: []string{"prompt", "nc_prompt", "answers", "index"}})
	task.RegisterMetric(task.Helper{File: "lingoly/script.py", Function: "exact_match",
		SHA256: "fdeacd923e4e502a5e07d21eac3cad60bbb864f3fd2dcf4804227f57d27988ff"}, func(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
		return ExactMatch(refs, preds)
	})
	task.RegisterAggregation(task.Helper{File: "lingoly/script.py", Function: "aggregate_scores",
		SHA256: "45c7fb4453655b4d69adf99efc8ed828e77c21bcb943749e460aad9e9aa41b03"}, AggregateScores)
}
