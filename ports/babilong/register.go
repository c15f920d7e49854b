package babilong

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
)

func init() {
	const file = "babilong/common_utils.py"
	task.RegisterDatasetLoader(task.Helper{File: file, Function: "load_dataset",
		SHA256: "98bd0da14c0c25a3895512074d06e22a0052080fa7d68f0e367f823011bf12d0"}, LoadDataset)
	task.RegisterProcessResults(task.Helper{File: file, Function: "process_results",
		SHA256: "61c6d81f7ae9a8ec1208fa92f142fa3989f3c9cf8f2c88f418862b95cd9ee886"}, func(doc task.Doc, results []any) (map[string]any, error) {
		rs, err := strs(results)
		if err != nil {
			return nil, err
		}
		acc, err := Acc(doc, rs)
		if err != nil {
			return nil, err
		}
		return map[string]any{"acc": acc}, nil
	})
}

func strs(results []any) ([]string, error) {
	out := make([]string, len(results))
	for i, r := range results {
		s, ok := r.(string)
		if !ok {
			return nil, fmt.Errorf("result %d is %T, want a generated string", i, r)
		}
		out[i] = s
	}
	return out, nil
}
