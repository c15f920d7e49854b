// Package graphwalks ports lm_eval/tasks/graphwalks/utils.py: load_dataset
// (one parquet file of the openai/graphwalks Hub dataset, as its train
// split) and process_results (set F1 of the nodes in the answer's last
// "Final Answer: [...]" line, and in any line for flexible_f1).
package graphwalks

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// LoadDataset is load_dataset: datasets.load_dataset("openai/graphwalks",
// data_files=data_file, split="train"), through the run's document loader.
func LoadDataset(ctx context.Context, kwargs map[string]any, load task.DocLoader) (map[string][]task.Doc, error) {
	file, _ := kwargs["data_file"].(string)
	if file == "" {
		return nil, errors.New("data_file must be specified in dataset_kwargs")
	}
	if load == nil {
		return nil, fmt.Errorf("openai/graphwalks %s: %w", file, task.ErrNotLocal)
	}
	docs, err := load(ctx, task.DatasetSpec{Path: "openai/graphwalks", Kwargs: map[string]any{"data_files": file}}, "train")
	if err != nil {
		return nil, err
	}
	return map[string][]task.Doc{"train": docs}, nil
}

var finalAnswer = pyre.MustCompile(`Final Answer:\s*\[(.*)\]`)

// items is the bracket content split on commas, each item stripped of
// whitespace and then of quotes, empty ones dropped.
func items(content string) []string {
	if pyre.Strip(content) == "" {
		return []string{}
	}
	out := []string{}
	for _, it := range strings.Split(content, ",") {
		if pyre.Strip(it) != "" {
			out = append(out, strings.Trim(pyre.Strip(it), "'\""))
		}
	}
	return out
}

func lines(response string) []string {
	return strings.Split(strings.TrimRight(response, "\n"), "\n")
}

// ExtractAnswerList is extract_answer_list: the nodes of the last line's
// "Final Answer: [...]"; isError when the line has none.
func ExtractAnswerList(response string) (nodes []string, isError bool) {
	ls := lines(response)
	line := ls[len(ls)-1]
	if !strings.Contains(line, "Final Answer:") {
		return []string{}, true
	}
	m := finalAnswer.Search(line)
	if m == nil {
		return []string{}, true
	}
	return items(m.Group(1)), false
}

// ExtractAnswerListFlexible is extract_answer_list_flexible: the last line
// with a "Final Answer: [...]".
func ExtractAnswerListFlexible(response string) (nodes []string, isError bool) {
	ls := lines(response)
	for i := len(ls) - 1; i >= 0; i-- {
		if m := finalAnswer.Search(ls[i]); m != nil {
			return items(m.Group(1)), false
		}
	}
	return []string{}, true
}

func f1(pred []string, truth map[string]bool) float64 {
	sampled := map[string]bool{}
	for _, p := range pred {
		sampled[p] = true
	}
	overlap := 0
	for p := range sampled {
		if truth[p] {
			overlap++
		}
	}
	recall, precision := 0.0, 0.0
	if len(truth) > 0 {
		recall = float64(overlap) / float64(len(truth))
	}
	if len(sampled) > 0 {
		precision = float64(overlap) / float64(len(sampled))
	}
	if recall+precision > 0 {
		return 2 * (recall * precision) / (recall + precision)
	}
	return 0
}

// ProcessResults is process_results.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) == 0 {
		return nil, errors.New("graphwalks process_results: no results")
	}
	resp, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("graphwalks process_results: result is %T, want the generated string", results[0])
	}
	gold, ok := doc["answer_nodes"].([]any)
	if !ok {
		return nil, fmt.Errorf("graphwalks process_results: answer_nodes is %T, want a list", doc["answer_nodes"])
	}
	truth := map[string]bool{}
	for _, g := range gold {
		s, ok := g.(string)
		if !ok {
			// a non-text node can equal no extracted (text) node
			s = "\x00" + pyval.Repr(g)
		}
		truth[s] = true
	}
	strict, _ := ExtractAnswerList(resp)
	flex, _ := ExtractAnswerListFlexible(resp)
	return map[string]any{"f1": f1(strict, truth), "flexible_f1": f1(flex, truth)}, nil
}
