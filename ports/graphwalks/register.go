package graphwalks

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterDatasetLoader(task.Helper{File: "graphwalks/utils.py", Function: "load_dataset",
		SHA256: "84e2e0de09d6ec4b88cacc8f0f07b1127f16a6dfeb2391bd4e548e3106312350"}, LoadDataset)
	task.RegisterProcessResults(task.Helper{File: "graphwalks/utils.py", Function: "process_results",
		SHA256: "daeac8e493866831ed3c4368c1a41639fd24ee4741c5ecb88d38a20d00007202"}, ProcessResults)
}
