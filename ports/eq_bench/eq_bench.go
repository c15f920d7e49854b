// Package eq_bench ports lm_eval/tasks/eq_bench/utils.py's
// calculate_score_fullscale (also multilingual/utils.py's, the same
// source): the four "emotion: score" answers against the reference's,
// each difference S-scaled, into a 0-100 score.
package eq_bench

import (
	"errors"
	"fmt"
	"math"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pynum"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

var pairRe = pyre.MustCompile(`(\w+):\s+(\d+)`)

func pyFloat(v any) (float64, error) {
	switch x := v.(type) {
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case float64:
		return x, nil
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case string:
		if f, ok := pynum.Float(x); ok {
			return f, nil
		}
		return 0, fmt.Errorf("could not convert string to float: %s", pyval.Repr(x))
	}
	return 0, fmt.Errorf("float() argument must be a string or a real number, not %T", v)
}

// CalculateScoreFullscale is calculate_score_fullscale.
func CalculateScoreFullscale(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) == 0 {
		return nil, errors.New("eq_bench: no results")
	}
	resp, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("eq_bench: result is %T, want the generated string", results[0])
	}
	src, ok := doc["reference_answer_fullscale"].(string)
	if !ok {
		return nil, fmt.Errorf("eq_bench: reference_answer_fullscale is %T, want a Python literal", doc["reference_answer_fullscale"])
	}
	lit, err := pyval.LiteralEval(src)
	if err != nil {
		return nil, fmt.Errorf("eq_bench: reference_answer_fullscale: %w", err)
	}
	ref, ok := lit.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("eq_bench: reference_answer_fullscale is not a dict")
	}
	get := func(k string) (any, error) {
		v, ok := ref[k]
		if !ok {
			return nil, fmt.Errorf("eq_bench: KeyError: %s", pyval.Repr(k))
		}
		return v, nil
	}
	// dict(re.findall(...)): a repeated emotion keeps its first place and
	// its last score
	var order []string
	user := map[string]string{}
	for _, m := range pairRe.FindAll(resp) {
		if _, seen := user[m.Group(1)]; !seen {
			order = append(order, m.Group(1))
		}
		user[m.Group(1)] = m.Group(2)
	}
	zero := map[string]any{"eqbench": 0, "percent_parseable": 0}
	if len(order) != 4 {
		return zero, nil
	}
	matched := map[string]bool{}
	for _, e := range order {
		for i := 1; i <= 4; i++ {
			v, err := get(fmt.Sprintf("emotion%d", i))
			if err != nil {
				return nil, err
			}
			if pyval.Equal(e, v) {
				matched[e] = true
			}
		}
	}
	if len(matched) != 4 {
		return zero, nil
	}
	tally := 0.0
	for _, e := range order {
		for i := 1; i <= 4; i++ {
			v, err := get(fmt.Sprintf("emotion%d", i))
			if err != nil {
				return nil, err
			}
			if !pyval.Equal(e, v) {
				continue
			}
			u, err := pyFloat(user[e])
			if err != nil {
				return nil, err
			}
			rv, err := get(fmt.Sprintf("emotion%d_score", i))
			if err != nil {
				return nil, err
			}
			r, err := pyFloat(rv)
			if err != nil {
				return nil, err
			}
			d := math.Abs(u - r)
			switch {
			case d == 0:
			case d <= 5:
				tally += 6.5 * (1 / (1 + math.Pow(math.E, -1.2*(d-4))))
			default:
				tally += d
			}
		}
	}
	final := 10 - tally*0.7477
	return map[string]any{"eqbench": final * 10, "percent_parseable": 100}, nil
}
