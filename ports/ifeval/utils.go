package ifeval

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/python/pyre"
)

// Result is what test_instruction_following_strict/_loose return.
type Result struct {
	FollowAll  bool
	FollowList []bool
}

// Input is utils.InputExample: one document of the ifeval dataset.
type Input struct {
	InstructionIDs []string
	Prompt         string
	Kwargs         []map[string]any
}

func (in Input) checkers() ([]Checker, error) {
	if len(in.Kwargs) < len(in.InstructionIDs) {
		return nil, fmt.Errorf("%d instruction ids but %d kwargs entries", len(in.InstructionIDs), len(in.Kwargs))
	}
	out := make([]Checker, len(in.InstructionIDs))
	for i, id := range in.InstructionIDs {
		c, err := New(id, in.Kwargs[i])
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// Strict is test_instruction_following_strict.
func Strict(in Input, response string) (Result, error) {
	cs, err := in.checkers()
	if err != nil {
		return Result{}, err
	}
	res := Result{FollowAll: true, FollowList: make([]bool, len(cs))}
	for i, c := range cs {
		ok := false
		if pyre.Strip(response) != "" {
			if ok, err = c.Check(response); err != nil {
				return Result{}, err
			}
		}
		res.FollowList[i] = ok
		res.FollowAll = res.FollowAll && ok
	}
	return res, nil
}

// LooseVariants are the eight responses test_instruction_following_loose
// tries, in its order.
func LooseVariants(response string) []string {
	r := strings.Split(response, "\n")
	join := func(p []string) string { return pyre.Strip(strings.Join(p, "\n")) }
	removeFirst := join(r[1:])
	removeLast := join(r[:len(r)-1])
	removeBoth := ""
	if len(r) > 2 {
		removeBoth = join(r[1 : len(r)-1])
	}
	star := func(s string) string { return strings.ReplaceAll(s, "*", "") }
	return []string{
		response, star(response), removeFirst, removeLast, removeBoth,
		star(removeFirst), star(removeLast), star(removeBoth),
	}
}

// Loose is test_instruction_following_loose.
func Loose(in Input, response string) (Result, error) {
	cs, err := in.checkers()
	if err != nil {
		return Result{}, err
	}
	variants := LooseVariants(response)
	res := Result{FollowAll: true, FollowList: make([]bool, len(cs))}
	for i, c := range cs {
		ok := false
		for _, v := range variants {
			if pyre.Strip(v) == "" {
				continue
			}
			if ok, err = c.Check(v); err != nil {
				return Result{}, err
			}
			if ok {
				break
			}
		}
		res.FollowList[i] = ok
		res.FollowAll = res.FollowAll && ok
	}
	return res, nil
}

// InputFromDoc reads a document in the dataset's schema (key, prompt,
// instruction_id_list, kwargs).
func InputFromDoc(doc map[string]any) (Input, error) {
	var in Input
	p, ok := doc["prompt"].(string)
	if !ok {
		return in, fmt.Errorf("ifeval: document field prompt: want a string, got %T", doc["prompt"])
	}
	in.Prompt = p
	ids, ok := doc["instruction_id_list"].([]any)
	if !ok {
		return in, fmt.Errorf("ifeval: document field instruction_id_list: want a list, got %T", doc["instruction_id_list"])
	}
	for i, v := range ids {
		s, ok := v.(string)
		if !ok {
			return in, fmt.Errorf("ifeval: instruction_id_list[%d]: want a string, got %T", i, v)
		}
		in.InstructionIDs = append(in.InstructionIDs, s)
	}
	kws, ok := doc["kwargs"].([]any)
	if !ok {
		return in, fmt.Errorf("ifeval: document field kwargs: want a list, got %T", doc["kwargs"])
	}
	for i, v := range kws {
		m, ok := v.(map[string]any)
		if !ok {
			return in, fmt.Errorf("ifeval: kwargs[%d]: want a mapping, got %T", i, v)
		}
		in.Kwargs = append(in.Kwargs, m)
	}
	return in, nil
}

// ProcessResults is utils.process_results: results[0] is the generated
// response.
func ProcessResults(doc map[string]any, results []any) (map[string]any, error) {
	in, err := InputFromDoc(doc)
	if err != nil {
		return nil, err
	}
	if len(results) == 0 {
		return nil, fmt.Errorf("ifeval process_results: no results")
	}
	response, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("ifeval process_results: want a generated string, got %T", results[0])
	}
	strict, err := Strict(in, response)
	if err != nil {
		return nil, fmt.Errorf("ifeval process_results: %w", err)
	}
	loose, err := Loose(in, response)
	if err != nil {
		return nil, fmt.Errorf("ifeval process_results: %w", err)
	}
	return map[string]any{
		"prompt_level_strict_acc": strict.FollowAll,
		"inst_level_strict_acc":   strict.FollowList,
		"prompt_level_loose_acc":  loose.FollowAll,
		"inst_level_loose_acc":    loose.FollowList,
	}, nil
}

// AggInstLevelAcc is utils.agg_inst_level_acc: the share of true values
// among all documents' instruction-level lists.
func AggInstLevelAcc(items []any) (float64, error) {
	n, t := 0, 0
	for i, it := range items {
		var l []bool
		switch x := it.(type) {
		case []bool:
			l = x
		case []any:
			for _, e := range x {
				b, ok := e.(bool)
				if !ok {
					return 0, fmt.Errorf("agg_inst_level_acc: item %d: want booleans, got %T", i, e)
				}
				l = append(l, b)
			}
		default:
			return 0, fmt.Errorf("agg_inst_level_acc: item %d: want a list of booleans, got %T", i, it)
		}
		for _, b := range l {
			n++
			if b {
				t++
			}
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("agg_inst_level_acc: division by zero (no instructions)")
	}
	return float64(t) / float64(n), nil
}
