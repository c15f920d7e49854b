package config

import (
	"fmt"
	"strconv"
	"strings"
)

// TaskSpec is one entry of --tasks: a task, group or tag name, a wildcard
// or a YAML path, with an optional shot count of its own.
//
// Beyond lm-eval's plain names it accepts "hellaswag|10" (10 shots for this
// task only) and LightEval's "suite|task|num_fewshot|truncate_fewshots".
type TaskSpec struct {
	Name string
	// Suite is LightEval's suite ("leaderboard", "lighteval"), if given.
	Suite string
	// NumFewshot overrides the run's num_fewshot for this task; nil keeps it.
	NumFewshot *int
	// TruncateFewshots lets the task drop shots until the prompt fits the
	// context (LightEval's fourth field).
	TruncateFewshots bool
}

func (t TaskSpec) String() string {
	switch {
	case t.Suite != "":
		n := 0
		if t.NumFewshot != nil {
			n = *t.NumFewshot
		}
		tr := 0
		if t.TruncateFewshots {
			tr = 1
		}
		return fmt.Sprintf("%s|%s|%d|%d", t.Suite, t.Name, n, tr)
	case t.NumFewshot != nil:
		return fmt.Sprintf("%s|%d", t.Name, *t.NumFewshot)
	}
	return t.Name
}

const taskForms = "NAME, NAME|SHOTS, or SUITE|NAME|SHOTS|TRUNCATE (TRUNCATE 0 or 1)"

// ParseTaskSpec parses one task entry.
func ParseTaskSpec(s string) (TaskSpec, error) {
	s = strings.TrimSpace(s)
	parts := strings.Split(s, "|")
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			return TaskSpec{}, fmt.Errorf("invalid task %q: empty field; want %s", s, taskForms)
		}
	}
	shots := func(p string) (*int, error) {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("invalid task %q: shot count %q is not a non-negative integer; want %s", s, p, taskForms)
		}
		return &n, nil
	}
	switch len(parts) {
	case 1:
		return TaskSpec{Name: s}, nil
	case 2:
		n, err := shots(parts[1])
		if err != nil {
			return TaskSpec{}, err
		}
		return TaskSpec{Name: strings.TrimSpace(parts[0]), NumFewshot: n}, nil
	case 4:
		n, err := shots(parts[2])
		if err != nil {
			return TaskSpec{}, err
		}
		var trunc bool
		switch strings.TrimSpace(parts[3]) {
		case "0", "false", "False":
		case "1", "true", "True":
			trunc = true
		default:
			return TaskSpec{}, fmt.Errorf("invalid task %q: truncate_fewshots %q is not 0 or 1; want %s", s, parts[3], taskForms)
		}
		return TaskSpec{Suite: strings.TrimSpace(parts[0]), Name: strings.TrimSpace(parts[1]), NumFewshot: n, TruncateFewshots: trunc}, nil
	}
	return TaskSpec{}, fmt.Errorf("invalid task %q: want %s", s, taskForms)
}

// SplitTaskList splits a --tasks value on commas and whitespace, as lm-eval
// accepts both.
func SplitTaskList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\n'
	})
}

// ParseTaskList parses every entry of one or more --tasks values.
func ParseTaskList(values ...string) ([]TaskSpec, error) {
	var out []TaskSpec
	for _, v := range values {
		for _, item := range SplitTaskList(v) {
			t, err := ParseTaskSpec(item)
			if err != nil {
				return nil, err
			}
			out = append(out, t)
		}
	}
	return out, nil
}
