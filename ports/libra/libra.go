// Package libra ports what lmeval can of lm_eval/tasks/libra/utils.py
// (LIBRA, Russian long-context tasks): the documents of ai-forever/LIBRA
// filtered by context length, and process_results. The scores cannot be
// reproduced: every aggregate_results_* lemmatizes the answers with
// pymorphy3 and its OpenCorpora dictionaries, which lmeval does not have,
// so the tasks stay unavailable with that reason.
package libra

import (
	"context"
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

// Pymorphy3Reason is why LIBRA's tasks are unavailable.
const Pymorphy3Reason = "lemmatizes Russian answers with pymorphy3 and its OpenCorpora " +
	"morphological dictionaries, which lmeval does not include, so LIBRA's scores cannot be reproduced"

func kw(kwargs map[string]any, key string, def any) any {
	if v, ok := kwargs[key]; ok {
		return v
	}
	return def
}

// FilterDatasetByPageLengths is filter_dataset_by_page_lengths: the test
// split of dataset_repo_name (ai-forever/LIBRA) configuration
// dataset_name, only the documents whose filter_colname ("length") is one
// of valid_pages when that is given.
func FilterDatasetByPageLengths(ctx context.Context, kwargs map[string]any, load task.DocLoader) (map[string][]task.Doc, error) {
	repo := pyval.Str(kw(kwargs, "dataset_repo_name", "ai-forever/LIBRA"))
	name := ""
	if v := kw(kwargs, "dataset_name", nil); v != nil {
		name = pyval.Str(v)
	}
	col := pyval.Str(kw(kwargs, "filter_colname", "length"))
	var valid []any
	if v := kw(kwargs, "valid_pages", nil); v != nil {
		l, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("libra: valid_pages is %T, want a list", v)
		}
		valid = l
	}
	if load == nil {
		return nil, fmt.Errorf("libra: %s %s: %w", repo, name, task.ErrNotLocal)
	}
	docs, err := load(ctx, task.DatasetSpec{Path: repo, Name: name}, "test")
	if err != nil {
		return nil, err
	}
	if len(docs) > 0 {
		if _, ok := docs[0][col]; !ok {
			return nil, fmt.Errorf("libra: column %s not found in dataset %s (ValueError)", col, name)
		}
	}
	if len(valid) == 0 {
		return map[string][]task.Doc{"test": docs}, nil
	}
	var out []task.Doc
	for _, d := range docs {
		for _, p := range valid {
			if pyval.Equal(d[col], p) {
				out = append(out, d)
				break
			}
		}
	}
	return map[string][]task.Doc{"test": out}, nil
}

// ProcessResults is process_results: the answer, the reference answers
// and the length, for the aggregation.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) == 0 {
		return nil, fmt.Errorf("libra: no result (IndexError)")
	}
	answers, ok := doc["positive_outputs"]
	if !ok {
		return nil, fmt.Errorf("libra: no positive_outputs (KeyError)")
	}
	length, ok := doc["length"]
	if !ok {
		return nil, fmt.Errorf("libra: no length (KeyError)")
	}
	return map[string]any{"libra_score": map[string]any{"pred_answer": results[0], "answers": answers, "length": length}}, nil
}

func init() {
	const file = "libra/utils.py"
	task.RegisterDatasetLoader(task.Helper{File: file, Function: "filter_dataset_by_page_lengths",
		SHA256: "2b85567c0b037952b4b2f690caef9bff689a652a79c14bd6a943e24ffb80bfb0"}, FilterDatasetByPageLengths)
	task.RegisterProcessResults(task.Helper{File: file, Function: "process_results",
		SHA256: "b08b2f087ecef7ed3b96e6422b0a0a7e9b14c46833558292496f5c60ac37eb3c"}, ProcessResults)
	for fn, sha := range map[string]string{
		"aggregate_results_em":          "91f1ab8cac93d2743d1fa99d7714de70af24fc393fc15b0cbffdb58750896e94",
		"aggregate_results_f1":          "f59460c9a032875194299f9aad6c68404da2d88904ccde90fd8f7dcf326e26e7",
		"aggregate_results_count_score": "9a40315b758888e8cfb64a2603d56cc6f2fce7e403d68910c7184425adbbad3e",
	} {
		task.RegisterUnavailable(task.Helper{File: file, Function: fn, SHA256: sha}, Pymorphy3Reason)
	}
}
