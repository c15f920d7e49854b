package japanese_leaderboard

import (
	"context"

	"github.com/lmeval/lmeval/harness/task"
)

const xlsumReason = "ROUGE-2 over MeCab tokens: it needs the MeCab analyser with a Japanese dictionary (fugashi), neologdn and rouge_score, which lmeval does not have"

func init() {
	const dir = "japanese_leaderboard/"
	task.RegisterMapDocs(task.Helper{File: dir + "ja_leaderboard_jcommonsenseqa.py", Function: "process_docs",
		SHA256: "03e8d7b51982befc4f5e3cd026684357e326dd9a6cf748f5b902c915cd103591"}, task.MapDocs{Fn: JCommonsenseQAProcessDocs, Columns: []string{"choices"}})
	task.RegisterMapDocs(task.Helper{File: dir + "ja_leaderboard_xwinograd.py", Function: "process_docs",
		SHA256: "5792d98f6e9ad7360605ed2bae175fa585810f55f09a6904995f8200aab3f412"}, task.MapDocs{Fn: XWinogradProcessDocs, Columns: []string{"label", "choices"}})
	task.RegisterProcessResults(task.Helper{File: dir + "ja_leaderboard_mgsm.py", Function: "process_results",
		SHA256: "3925cd13f52c92bef90c20aea7e3cb1bf74555a2a035cd3a33f608b523f0432f"}, MGSMProcessResults)
	task.RegisterMetric(task.Helper{File: dir + "ja_leaderboard_xlsum.py", Function: "rouge2",
		SHA256: "22f0154cab7f281e9ee5d7761c6c2d300ecbd577c37c0fa1c119303d6f79c755"}, Rouge2)
	task.RegisterUnavailable(task.Helper{File: dir + "ja_leaderboard_xlsum.py", Function: "rouge2_agg",
		SHA256: "c5ac1d2afb58cb364658b44182216234c0e1e5b160228a7bf11c487769d6391d"}, xlsumReason)
}

// Rouge2 is ja_leaderboard_xlsum.rouge2, a passthrough: lm-eval calls it
// with references= and predictions=, which its signature (items) refuses,
// so it is called again with [gold, result], which it returns.
func Rouge2(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
	var g, p any
	if len(refs) > 0 {
		g = refs[0]
	}
	if len(preds) > 0 {
		p = preds[0]
	}
	return []any{g, p}, nil
}
