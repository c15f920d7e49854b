// Package winogrande ports lm-eval's winogrande/preprocess_winogrande.py:
// the partial scoring's context index, continuation and choices.
package winogrande

import "github.com/lmeval/lmeval/harness/task"

func init() {

	task.RegisterDocFunc(task.Helper{File: "winogrande/preprocess_winogrande.py", Function: "doc_to_text", SHA256: "209f98ca866ca43ff7ed1eb1b4ae1bbfe93badd69ae9709f78228eaab625d0f6"}, func(d task.Doc) (any, error) { return DocToText(d) })
	task.RegisterDocFunc(task.Helper{File: "winogrande/preprocess_winogrande.py", Function: "doc_to_target", SHA256: "e7f36e60b06fe5fbd1ed46cfc385c0818ece301b12c4b41251b06160aefaed6d"}, func(d task.Doc) (any, error) { return DocToTarget(d) })
	task.RegisterDocFunc(task.Helper{File: "winogrande/preprocess_winogrande.py", Function: "doc_to_choice", SHA256: "c539fb65f429ca017a0384af755ac662b7b875018b9032934446f34fea44eb16"}, func(d task.Doc) (any, error) { return DocToChoice(d) })
}
