// Package race ports lm_eval/tasks/race/preprocess_race.py: a document
// holds an article and its problems (a Python list literal); the prompt
// gives the earlier problems with their answers and asks the last one.
package race

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

type problem struct {
	question, answer string
	options          []any
}

func problems(doc task.Doc) ([]problem, error) {
	s, ok := doc["problems"].(string)
	if !ok {
		return nil, fmt.Errorf("race: problems is %T, want a Python literal", doc["problems"])
	}
	v, err := pyval.LiteralEval(s)
	if err != nil {
		return nil, fmt.Errorf("race: problems: %w", err)
	}
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return nil, fmt.Errorf("race: problems is not a non-empty list")
	}
	out := make([]problem, len(l))
	for i, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("race: problem %d is %T, want a dict", i, e)
		}
		q, ok1 := m["question"].(string)
		a, ok2 := m["answer"].(string)
		o, ok3 := m["options"].([]any)
		if !ok1 || !ok2 || !ok3 {
			return nil, fmt.Errorf("race: problem %d lacks question, answer or options", i)
		}
		out[i] = problem{q, a, o}
	}
	return out, nil
}

func (p problem) answerIndex() (int, error) {
	i := map[string]int{"A": 0, "B": 1, "C": 2, "D": 3}
	n, ok := i[p.answer]
	if !ok {
		return 0, fmt.Errorf("race: answer %q is not A-D (KeyError)", p.answer)
	}
	return n, nil
}

func (p problem) option(i int) (string, error) {
	if i >= len(p.options) {
		return "", fmt.Errorf("race: option %d of %d (IndexError)", i, len(p.options))
	}
	return pyval.Str(p.options[i]), nil
}

func (p problem) answerOption() (string, error) {
	i, err := p.answerIndex()
	if err != nil {
		return "", err
	}
	return p.option(i)
}

// DocToText is doc_to_text.
func DocToText(doc task.Doc) (string, error) {
	ps, err := problems(doc)
	if err != nil {
		return "", err
	}
	text := "Article: " + pyval.Str(doc["article"]) + "\n\n"
	for _, p := range ps[:len(ps)-1] {
		ans, err := p.answerOption()
		if err != nil {
			return "", err
		}
		q := []rune(p.question)
		if len(q) >= 6 && string(q[len(q)-6:]) == "  _  ." {
			text += string(q[:len(q)-5]) + ans + "\n"
		} else {
			text += "Question: " + p.question + "\n" + "Answer: " + ans + "\n"
		}
	}
	return text + ps[len(ps)-1].question, nil
}

// DocToChoice is doc_to_choice: the last problem's four options.
func DocToChoice(doc task.Doc) ([]string, error) {
	ps, err := problems(doc)
	if err != nil {
		return nil, err
	}
	out := make([]string, 4)
	for i := range out {
		if out[i], err = ps[len(ps)-1].option(i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DocToTarget is doc_to_target: the last problem's answer index.
func DocToTarget(doc task.Doc) (int, error) {
	ps, err := problems(doc)
	if err != nil {
		return 0, err
	}
	return ps[len(ps)-1].answerIndex()
}
