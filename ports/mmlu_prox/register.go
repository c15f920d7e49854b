package mmlu_prox

import "github.com/lmeval/lmeval/harness/task"

// The 30 <lang>/utils.py are one text, but each reads its language from
// its own directory (__file__), so each file has its own port.
const (
	docToTextSHA     = "40e65486a1298a70b479bab0774237b2955cdbb9ec64ca6193c4569aabb1f877"
	fewshotToTextSHA = "6a2a66eb9e52cd5eb971b73dfef43f7aa6601d010315a2f67a923efb41f72984"
)

func init() {
	for _, lang := range Languages() {
		file := "mmlu_prox/" + lang + "/utils.py"
		task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_text", SHA256: docToTextSHA}, func(d task.Doc) (any, error) { return FormatCOTExample(lang, d, false) })
		task.RegisterDocFunc(task.Helper{File: file, Function: "fewshot_to_text", SHA256: fewshotToTextSHA}, func(d task.Doc) (any, error) { return FormatCOTExample(lang, d, true) })
	}
}
