// Package acpbench ports lm_eval/tasks/acpbench's generative tasks
// (gen_2shot, gen_2shot_with_pddl; their acp_utils.py are the same):
// ACP_grammar_filter, which parses an answer with Lark and
// acp_grammar.lark (lark.go, grammar.go), and process_acp_results with the
// evaluators that need no planner: applicable actions (app), landmarks
// (land), progression (prog) and validation (val). The other four
// (action reachability, reachability, justification, next action) check
// answers with a PDDL grounder and planner (tarski with clingo,
// kstar-planner): those tasks are unavailable.
package acpbench

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// checkProgResponse is check_prog_response.
func checkProgResponse(resp string) bool {
	l := pyre.Lower(resp)
	return strings.Contains(l, "positive effects") && strings.Contains(l, "negative effects") && !strings.Contains(resp, "[")
}

// cleanPosNeg is ACPGrammarFilter.clean_pos_neg: "positive effects" and
// "negative effects" headings made the two bracketed lists.
func cleanPosNeg(resp string) string {
	if !checkProgResponse(resp) {
		return resp
	}
	r := strings.ReplaceAll(pyre.Lower(resp), "*", "")
	r = strings.ReplaceAll(r, "positive effects", "[")
	r = strings.ReplaceAll(r, "negative effects", "] [")
	return r + "]"
}

// cleanSimplifiedPlan is ACPGrammarFilter.clean_simplified_plan: what
// follows the first "simplified plan:".
func cleanSimplifiedPlan(resp string) string {
	if !strings.Contains(pyre.Lower(resp), "simplified plan:") {
		return resp
	}
	r := strings.ReplaceAll(pyre.Lower(resp), "*", "")
	parts := strings.Split(r, "simplified plan:")
	return parts[1]
}

// NewGrammarFilter is ACPGrammarFilter(grammar_task=..., clean=...): each
// response parsed with the grammar task's start rule.
func NewGrammarFilter(args map[string]any) (filters.Filter, error) {
	gt, ok := args["grammar_task"]
	if !ok {
		return nil, fmt.Errorf("ACP_grammar_filter: KeyError: 'grammar_task'")
	}
	grammarTask, ok := gt.(string)
	if !ok {
		return nil, fmt.Errorf("ACP_grammar_filter: grammar_task is %s, want a start rule", pydoc.TypeName(gt))
	}
	if _, ok := larkTables[grammarTask]; !ok {
		return nil, fmt.Errorf("ACP_grammar_filter: acp_grammar.lark has no start rule %q", grammarTask)
	}
	clean := func(s string) string { return s }
	switch args["clean"] {
	case "pos_neg":
		clean = cleanPosNeg
	case "simplified plan":
		clean = cleanSimplifiedPlan
	}
	return filters.FilterFunc(func(resps []any, _ []map[string]any) ([]any, error) {
		out := make([]any, len(resps))
		for i, r := range resps {
			l, ok := r.([]any)
			if !ok {
				return nil, fmt.Errorf("ACP_grammar_filter: responses %d are %T, want a list", i, r)
			}
			parsed := make([]any, len(l))
			for j, x := range l {
				s, ok := x.(string)
				if !ok {
					return nil, fmt.Errorf("ACP_grammar_filter: response is %s, not str", pydoc.TypeName(x))
				}
				var err error
				if parsed[j], err = grammarParse(grammarTask, clean(s)); err != nil {
					return nil, err
				}
			}
			out[i] = parsed
		}
		return out, nil
	}), nil
}

// fixActionName is fix_action_name: the words of "(...)" single-spaced.
func fixActionName(a string) (string, error) {
	if !strings.HasPrefix(a, "(") || !strings.HasSuffix(a, ")") || len(a) < 2 {
		return "", fmt.Errorf("AssertionError: fix_action_name(%s)", pyval.Repr(a))
	}
	var words []string
	for _, w := range strings.Split(a[1:len(a)-1], " ") {
		if w != "" {
			words = append(words, pyre.Strip(w))
		}
	}
	return "(" + strings.Join(words, " ") + ")", nil
}

// strRemoveBeforeFirstParentheses is str_remove_before_first_parentheses.
func strRemoveBeforeFirstParentheses(s string) string {
	if strings.HasPrefix(s, "(") {
		return s
	}
	i := strings.Index(s, "(")
	if i < 0 {
		return ""
	}
	return s[i:]
}

// strRemoveAfterLastParentheses is str_remove_after_last_parentheses.
func strRemoveAfterLastParentheses(s string) string {
	if strings.HasSuffix(s, ")") {
		return s
	}
	i := strings.LastIndex(s, ")")
	if i < 0 {
		return ""
	}
	return s[:i+1]
}

// cleanupAnswer is cleanup_answer: a str's actions, lower-cased and split
// at ")\n(", "),(" and ") ("; a list's, flattened.
func cleanupAnswer(ans any) ([]string, error) {
	switch x := ans.(type) {
	case string:
		s := pyre.Lower(strRemoveAfterLastParentheses(strRemoveBeforeFirstParentheses(x)))
		for _, sep := range []string{")\n(", "),(", ") ("} {
			s = strings.ReplaceAll(s, sep, ")######(")
		}
		return strings.Split(s, "######"), nil
	case []any:
		var out []string
		for _, e := range x {
			c, err := cleanupAnswer(e)
			if err != nil {
				return nil, err
			}
			out = append(out, c...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("cleanup_answer(%s): returned None", pydoc.TypeName(ans)) // then set(None): a TypeError
}

// lowerStrs is [a.lower() for a in v].
func lowerStrs(v any, what string) ([]string, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("TypeError: %s is %s, not a list", what, pydoc.TypeName(v))
	}
	out := make([]string, len(l))
	for i, e := range l {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("AttributeError: %s[%d] is %s, not str", what, i, pydoc.TypeName(e))
		}
		out[i] = pyre.Lower(s)
	}
	return out, nil
}

func asStr(x any) (string, error) {
	s, ok := x.(string)
	if !ok {
		return "", fmt.Errorf("AttributeError: the parsed answer is %s, not str", pydoc.TypeName(x))
	}
	return s, nil
}

// applicability is ApplicabilityEvaluator.get_score's scores.
func applicability(ans []any, doc task.Doc) ([]bool, error) {
	a, err := pydoc.Field(doc, "answer")
	if err != nil {
		return nil, err
	}
	real, err := lowerStrs(a, "answer")
	if err != nil {
		return nil, err
	}
	var scores []bool
	for _, x := range ans {
		if x == nil {
			scores = append(scores, false)
			continue
		}
		l, ok := x.([]any)
		if !ok {
			return nil, fmt.Errorf("TypeError: the parsed answer is %s, not a list", pydoc.TypeName(x))
		}
		fixed := make([]any, len(l))
		for i, e := range l {
			s, err := asStr(e)
			if err != nil {
				return nil, err
			}
			if fixed[i], err = fixActionName(s); err != nil {
				return nil, err
			}
		}
		c, err := cleanupAnswer(fixed)
		if err != nil {
			return nil, err
		}
		scores = append(scores, pyfn.SetEqual(real, c))
	}
	return scores, nil
}

// landmarks is LandmarksEvaluator.get_score's scores.
func landmarks(ans []any, doc task.Doc) ([]bool, error) {
	a, err := pydoc.Path(doc, "answer", "yes")
	if err != nil {
		return nil, err
	}
	yes, err := lowerStrs(a, `answer["yes"]`)
	if err != nil {
		return nil, err
	}
	var scores []bool
	for _, x := range ans {
		if x == nil {
			scores = append(scores, false)
			continue
		}
		s, err := asStr(x)
		if err != nil {
			return nil, err
		}
		s = pyre.Lower(pyre.Strip(s))
		switch {
		case contains(yes, s):
			scores = append(scores, true)
		case s == "none":
			scores = append(scores, len(yes) == 0)
		default:
			scores = append(scores, false)
		}
	}
	return scores, nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// progression is ProgressionEvaluator.get_score's scores.
func progression(ans []any, doc task.Doc) ([]bool, error) {
	pv, err := pydoc.Path(doc, "answer", "pos")
	if err != nil {
		return nil, err
	}
	nv, err := pydoc.Path(doc, "answer", "neg")
	if err != nil {
		return nil, err
	}
	pos, err := lowerStrs(pv, `answer["pos"]`)
	if err != nil {
		return nil, err
	}
	neg, err := lowerStrs(nv, `answer["neg"]`)
	if err != nil {
		return nil, err
	}
	var scores []bool
	for _, x := range ans {
		l, ok := x.([]any)
		if x != nil && !ok {
			return nil, fmt.Errorf("TypeError: the parsed answer is %s, not a list", pydoc.TypeName(x))
		}
		if x == nil || len(l) > 2 || len(l) < 1 {
			scores = append(scores, false)
			continue
		}
		p, err := cleanupAnswer(l[0])
		if err != nil {
			return nil, err
		}
		var n []string
		if len(l) == 2 {
			if n, err = cleanupAnswer(l[1]); err != nil {
				return nil, err
			}
		}
		scores = append(scores, pyfn.SetEqual(pos, p) && pyfn.SetEqual(neg, n))
	}
	return scores, nil
}

// validation is ValidationEvaluator.get_score's scores.
func validation(ans []any, doc task.Doc) ([]bool, error) {
	a, err := pydoc.Field(doc, "answer")
	if err != nil {
		return nil, err
	}
	real := pyval.Str(a)
	n, err := pyval.Int(real)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("AssertionError: The index must be non-negative, received %s", real)
	}
	var scores []bool
	for _, x := range ans {
		if x == nil {
			scores = append(scores, false)
			continue
		}
		s, err := asStr(x)
		if err != nil {
			return nil, err
		}
		scores = append(scores, pyre.Lower(real) == pyre.Lower(pyre.Strip(s)))
	}
	return scores, nil
}

// plannerGroups are the groups whose evaluators run a PDDL grounder or
// planner, and the tasks (dataset configurations) of each.
var plannerGroups = map[string]string{
	"reachable_action_gen":     "acp_areach_gen",
	"reachable_atom_gen":       "acp_reach_gen",
	"action_justification_gen": "acp_just_gen",
	"goal_closer_gen":          "acp_nexta_gen",
}

const plannerReason = "it checks answers with a PDDL grounder and planner (tarski with clingo, kstar-planner), " +
	"which lmeval does not include; acp_app_gen, acp_land_gen, acp_prog_gen and acp_val_gen run"

// ProcessACPResults is process_acp_results: the group's evaluator's
// average score over the (parsed) answers.
func ProcessACPResults(doc task.Doc, results []any) (map[string]any, error) {
	g, err := pydoc.Field(doc, "group")
	if err != nil {
		return nil, err
	}
	group, _ := g.(string)
	var scores []bool
	switch group {
	case "applicable_actions_gen":
		scores, err = applicability(results, doc)
	case "landmarks_gen":
		scores, err = landmarks(results, doc)
	case "progression_gen":
		scores, err = progression(results, doc)
	case "validation_gen":
		scores, err = validation(results, doc)
	default:
		if _, ok := plannerGroups[group]; ok {
			return nil, fmt.Errorf("acpbench group %s: %s", group, plannerReason)
		}
		return nil, fmt.Errorf("AttributeError: no evaluator for group %s", pyval.Repr(g))
	}
	if err != nil {
		return nil, err
	}
	if len(scores) == 0 {
		return nil, fmt.Errorf("ZeroDivisionError: division by zero (no answers)")
	}
	n := 0
	for _, s := range scores {
		if s {
			n++
		}
	}
	return map[string]any{"score": float64(n) / float64(len(scores))}, nil
}

// needsPlanner tells the tasks process_acp_results cannot score here: by
// their dataset configuration, or by their name.
func needsPlanner(cfg map[string]any) bool {
	dn, _ := cfg["dataset_name"].(string)
	name, _ := cfg["task"].(string)
	for _, ds := range plannerGroups {
		if dn == ds || strings.HasPrefix(name, ds) {
			return true
		}
	}
	return false
}

func init() {
	filters.Register("ACP_grammar_filter", NewGrammarFilter)
	const file = "acpbench/gen_2shot/acp_utils.py"
	task.RegisterFilter(task.Helper{File: file, Function: "ACPGrammarFilter",
		SHA256: "d1b20ac486f1c739bc69a2e2a9513d715a895fdab4db55c51a6d8b0b06c04f96"}, NewGrammarFilter)
	results := task.Helper{File: file, Function: "process_acp_results",
		SHA256: "106c4be1a51d390341bd8ce6a143ce73cafacb067d6be87cb3493ae42f1d2815"}
	task.RegisterProcessResults(results, ProcessACPResults)
	task.RegisterUnavailableIf(results, plannerReason, needsPlanner)
}
