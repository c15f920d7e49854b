package putnam_axiom

import "github.com/lmeval/lmeval/harness/task"

func init() {
	const file = "putnam_axiom/utils.py"
	// doc_to_text is minerva_math's (the same source): ports/minerva_math
	// registers it for both.
	task.RegisterMapDocs(task.Helper{File: file, Function: "process_docs", SHA256: "4f5defe13ebb901669d7f64407807388dc066bf75a74e8692d1bba3d8a398df7"}, task.MapDocs{Fn: ProcessDocs, Columns: []string{"problem", "solution", "answer"}})
	task.RegisterMapDocs(task.Helper{File: file, Function: "process_variations", SHA256: "0e1fbd56705b8565fdf11c4272db01921877100d33856b5089d51fd9e9d2b24d"}, task.MapDocs{Fn: ProcessVariations, Columns: []string{"problem", "solution", "answer"}})
	task.RegisterSamples(task.Helper{File: file, Function: "list_fewshot_samples", SHA256: "5e26d83d5c181cdc1bcca83b9b373324795112ab5a497a28a20f2046ef859513"}, ListFewshotSamples)
	task.RegisterProcessResults(task.Helper{File: file, Function: "process_results", SHA256: "4725e1747f90419bbf7090a47cd19952f671be2036304dd38003165db484845e"}, ProcessResults)
}
