// Package babilong ports lm_eval/tasks/babilong/common_utils.py: the
// documents of RMT-team/babilong-1k-samples at a context length (the
// max_seq_lengths metadata, "0k" by default) and a qa split, and the
// string-match accuracy of the answer.
package babilong

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// Dataset is the Hub dataset load_dataset reads.
const Dataset = "RMT-team/babilong-1k-samples"

// LoadDataset is load_dataset: the split kwargs["qa_split"] of the
// configuration kwargs["max_seq_lengths"] ("0k" when absent).
func LoadDataset(ctx context.Context, kwargs map[string]any, load task.DocLoader) (map[string][]task.Doc, error) {
	config := "0k"
	if v, ok := kwargs["max_seq_lengths"]; ok {
		config = pyval.Str(v)
	}
	split, ok := kwargs["qa_split"].(string)
	if !ok {
		return nil, fmt.Errorf("babilong: dataset_kwargs has no qa_split (a split name such as qa1)")
	}
	if load == nil {
		return nil, fmt.Errorf("babilong: %s %s: %w", Dataset, config, task.ErrNotLocal)
	}
	docs, err := load(ctx, task.DatasetSpec{Path: Dataset, Name: config}, split)
	if err != nil {
		return nil, err
	}
	return map[string][]task.Doc{split: docs}, nil
}

var nonPrintable = regexp.MustCompile(`[\x00-\x1f]`)

// PostprocessPred is postprocess_pred.
func PostprocessPred(preds []string) []string {
	out := make([]string, len(preds))
	for i, p := range preds {
		p = pyre.Strip(p)
		out[i] = pyre.Strip(nonPrintable.ReplaceAllString(p, "\n"))
	}
	return out
}

// Acc is process_results's score: 1 when the stripped target, lowered,
// is in the post-processed first answer, lowered.
func Acc(doc task.Doc, results []string) (float64, error) {
	pred := PostprocessPred(results)
	target := ""
	if v, ok := doc["target"]; ok {
		s, isStr := v.(string)
		if !isStr {
			return 0, fmt.Errorf("babilong: target is %T (AttributeError: no strip)", v)
		}
		target = s
	}
	target = pyre.Strip(target)
	if len(pred) == 0 {
		return 0, fmt.Errorf("babilong: no answer (IndexError)")
	}
	if strings.Contains(pyre.Lower(pred[0]), pyre.Lower(target)) {
		return 1, nil
	}
	return 0, nil
}
