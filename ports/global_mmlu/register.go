package global_mmlu

import "github.com/lmeval/lmeval/harness/task"

// The functions exist only at run time, so their source is the whole
// module (see docs/helpers.md): full/am's port serves the 41 identical
// full/<lang>/utils.py, default/en's the 14 identical default ones.
const (
	fullSHA    = "b4012dd2b1a508885d23ee2ddb12bc26f3e622081ba41ec1ab766edc31a4982b"
	defaultSHA = "9776c2ffc09ae0569d2cea41856f7a9c712a38362c8ea33ac61239005062df0f"
)

func init() {
	for _, s := range Subjects {
		task.RegisterProcessDocs(task.Helper{File: "global_mmlu/full/am/utils.py", Function: "process_" + s, SHA256: fullSHA}, func(docs []task.Doc) ([]task.Doc, error) { return Filter(docs, "subject", s), nil })
	}
	for _, c := range Categories {
		task.RegisterProcessDocs(task.Helper{File: "global_mmlu/default/en/utils.py", Function: CategoryFunc(c), SHA256: defaultSHA}, func(docs []task.Doc) ([]task.Doc, error) { return Filter(docs, "subject_category", c), nil })
	}
}
