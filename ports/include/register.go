package include

import "github.com/lmeval/lmeval/harness/task"

// moduleSHA is the sha256 of utils.py: its functions exist only at run
// time, so the whole module is their source (docs/helpers.md).
const moduleSHA = "280dbae55143a4d1be55783551e7d508b01a0d840066e5d5f3b9b6ae40966477"

// firstFile is, per function, one utils.py whose YAML names it: the
// registration serves every identical file that lm-eval's table lists.
var firstFile = map[string]string{
	"process_applied_science":            "default/Azerbaijani",
	"process_arts_humanities":            "default/Albanian",
	"process_business_commerce":          "default/Albanian",
	"process_driving_license":            "default/Arabic",
	"process_general_knowledge":          "default/Arabic",
	"process_health_oriented_education":  "default/Albanian",
	"process_marine_license":             "default/Malayalam",
	"process_medical_license":            "default/Greek",
	"process_professional_certification": "default/Basque",
	"process_social_science":             "default/Albanian",
	"process_stem":                       "default/Albanian",
}

func init() {
	for _, c := range Categories {
		name := FuncName(c)
		task.RegisterProcessDocs(task.Helper{File: "include/" + firstFile[name] + "/utils.py", Function: name, SHA256: moduleSHA}, func(docs []task.Doc) ([]task.Doc, error) { return ProcessDocs(docs, c), nil })
	}
}
