package llama3

import "github.com/lmeval/lmeval/harness/task"

func init() {
	for _, lang := range Langs {
		file := "llama3/instruct/mmlu_" + lang + "/utils.py"
		for subj, sha := range subjectSHA[lang] {
			task.RegisterProcessDocs(task.Helper{File: file, Function: "process_docs_" + subj, SHA256: sha}, func(docs []task.Doc) ([]task.Doc, error) { return ProcessDocs(docs, lang, subj), nil })
		}
	}
	task.RegisterDocFunc(task.Helper{File: "llama3/instruct/mmlu_pro/utils.py", Function: "fewshot_to_text",
		SHA256: "f8d6468836239ad06c873a5e424b52584199d3cd31a0c0a92e2d32bdce7d2927"}, func(d task.Doc) (any, error) { return FewshotToText(d) })
	task.RegisterProcessDocs(task.Helper{File: "llama3/instruct/arc_challenge/utils.py", Function: "process_docs",
		SHA256: "bdb5f8562794ddcd472a796a424bc9fbc44344d2183274fdb1cfdf5ee8092d10"}, ArcProcessDocs)
}
