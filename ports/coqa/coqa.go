// Package coqa ports lm_eval/tasks/coqa/utils.py: the conversation prompt,
// the target answers of the last turn, and process_results (SQuAD exact
// match and F1, each gold answer left out in turn).
package coqa

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/squad"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

func inputTexts(doc task.Doc, key string) ([]any, error) {
	m, ok := doc[key].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("coqa: %s is %T, want a dict", key, doc[key])
	}
	l, ok := m["input_text"].([]any)
	if !ok {
		return nil, fmt.Errorf("coqa: %s.input_text is %T, want a list", key, m["input_text"])
	}
	return l, nil
}

// DocToText is doc_to_text: the story, then each question with its answer,
// the last question with "A:".
func DocToText(doc task.Doc) (any, error) {
	qs, err := inputTexts(doc, "questions")
	if err != nil {
		return nil, err
	}
	as, err := inputTexts(doc, "answers")
	if err != nil {
		return nil, err
	}
	if len(as) > 0 {
		as = as[:len(as)-1]
	}
	text := pyval.Str(doc["story"]) + "\n\n"
	for i := 0; i < max(len(qs), len(as)); i++ {
		var q, a any
		if i < len(qs) {
			q = qs[i]
		}
		if i < len(as) {
			a = as[i]
		}
		text += "Q: " + pyval.Str(q) + "\n\n"
		if a != nil {
			text += "A: " + pyval.Str(a) + "\n\n"
		} else {
			text += "A:"
		}
	}
	return text, nil
}

func at(l []any, i int) (any, error) {
	if i < 0 {
		i += len(l)
	}
	if i < 0 || i >= len(l) {
		return nil, fmt.Errorf("coqa: list index out of range")
	}
	return l[i], nil
}

// Targets is doc_to_target: the last turn's answer and the additional
// answers that differ from those before them (ignoring case).
func Targets(doc task.Doc) ([]string, error) {
	qs, err := inputTexts(doc, "questions")
	if err != nil {
		return nil, err
	}
	as, err := inputTexts(doc, "answers")
	if err != nil {
		return nil, err
	}
	turn := len(qs)
	a, err := at(as, turn-1)
	if err != nil {
		return nil, err
	}
	s, ok := a.(string)
	if !ok {
		return nil, fmt.Errorf("coqa: answer is %T, want text", a)
	}
	out := []string{s}
	add, _ := doc["additional_answers"].(map[string]any)
	// the dict's keys ("0", "1", "2" in CoQA) in sorted order: the task
	// layer's documents do not keep a struct's key order
	for _, k := range pyval.SortedKeys(add) {
		m, ok := add[k].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("coqa: additional_answers[%q] is %T", k, add[k])
		}
		l, ok := m["input_text"].([]any)
		if !ok {
			return nil, fmt.Errorf("coqa: additional_answers[%q].input_text is %T", k, m["input_text"])
		}
		v, err := at(l, turn-1)
		if err != nil {
			return nil, err
		}
		t, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("coqa: additional answer is %T", v)
		}
		seen := false
		for _, o := range out {
			if pyre.Lower(o) == pyre.Lower(t) {
				seen = true
			}
		}
		if !seen {
			out = append(out, t)
		}
	}
	return out, nil
}

// DocToTarget is doc_to_target.
func DocToTarget(doc task.Doc) (any, error) {
	t, err := Targets(doc)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(t))
	for i, s := range t {
		out[i] = s
	}
	return out, nil
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// ComputeScores is compute_scores.
func ComputeScores(golds []string, pred string) map[string]any {
	em, f1 := 0.0, 0.0
	best := func(gs []string) {
		ems, f1s := make([]any, len(gs)), make([]any, len(gs))
		for i, g := range gs {
			ems[i], f1s[i] = squad.ComputeExact(g, pred), squad.ComputeF1(g, pred)
		}
		em += toFloat(squad.Max(ems))
		f1 += toFloat(squad.Max(f1s))
	}
	if len(golds) > 1 {
		for i := range golds {
			rest := append(append([]string{}, golds[:i]...), golds[i+1:]...)
			best(rest)
		}
	} else {
		best(golds)
	}
	n := float64(max(1, len(golds)))
	return map[string]any{"em": em / n, "f1": f1 / n}
}

// ProcessResults is process_results: the first line of the stripped
// output scored against the targets.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	golds, err := Targets(doc)
	if err != nil {
		return nil, err
	}
	if len(results) == 0 {
		return nil, fmt.Errorf("coqa process_results: no results")
	}
	r, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("coqa process_results: result is %T, want the generated string", results[0])
	}
	pred := strings.Split(pyre.Strip(r), "\n")[0]
	return ComputeScores(golds, pred), nil
}

func init() {
	task.RegisterDocFunc(task.Helper{File: "coqa/utils.py", Function: "doc_to_text",
		SHA256: "3a03eed23b1d0311dd156532e2538258a2bd3f2d1b47cf52bfe0aa4e044df179"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: "coqa/utils.py", Function: "doc_to_target",
		SHA256: "80256023c9d0bca9fe8829f2570179474bfac3b1ff2d51772e8c0d454d57773c"}, DocToTarget)
	task.RegisterProcessResults(task.Helper{File: "coqa/utils.py", Function: "process_results",
		SHA256: "255761430ebee5fe42aab539e7fa182ec0b72dad4ec8b1ad8feaf05d3f0ef301"}, ProcessResults)
}
