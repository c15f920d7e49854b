// Package hrm8k ports lm_eval/tasks/hrm8k's utils.py (default/ in Korean,
// en/ in English): the prompts, postprocess (numbers made canonical) and
// process_results, which compares answers with agieval's parsing and
// normalisation (ports/agieval).
package hrm8k

import (
	"errors"
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/agieval"
	"github.com/lmeval/lmeval/ports/internal/pynum"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// Prompt heads: default/utils.py (Korean) and en/utils.py.
const (
	koText  = "주어진 문제를 풀어보세요.\n문제를 푼 후, 최종 답변을 다음과 같은 형식으로 작성하세요: $\\boxed{N}$.\n\n문제: "
	koMMMLU = "주어진 문제를 풀어보세요.\n문제를 푼 후, 주어진 선택지 (1, 2, 3, 4) 중 최종 선택지를 다음 형식으로 작성하세요: $\\boxed{N}$.\n\n문제: "
	koTail  = "\n답변:"
	enText  = "Solve the given question.\nAfter solving the problem, state your final answer in the following format: $\\boxed{N}$.\n\nQuestion: "
	enMMMLU = "Solve the given question.\nAfter solving the problem, state your final choice among the choices (1, 2, 3, 4) in the following format: $\\boxed{N}$.\n\nQuestion: "
	enTail  = "\nAnswer:"
)

// docText builds head + doc[field].strip() + tail.
func docText(head, field, tail string) task.DocFunc {
	return func(doc task.Doc) (any, error) {
		q, ok := doc[field].(string)
		if !ok {
			return nil, fmt.Errorf("hrm8k: %s is %T, want text", field, doc[field])
		}
		return head + pyre.Strip(q) + tail, nil
	}
}

// Postprocess is postprocess: str(s).strip(), and when that is a float,
// its integer digits (an integral value) or its repr.
func Postprocess(v any) string {
	s := pyre.Strip(pyval.Str(v))
	f, ok := pynum.Float(s)
	if !ok {
		return s
	}
	if pynum.IsInteger(f) {
		return pynum.IntString(f)
	}
	return pyval.FloatRepr(f)
}

// DocToTarget is doc_to_target.
func DocToTarget(doc task.Doc) (any, error) { return Postprocess(doc["answer"]), nil }

// IsEquiv is hrm8k's is_equiv: agieval's, with the first answer's
// normalised form postprocessed.
func IsEquiv(s1, s2 string) bool {
	a, b := agieval.Parse(s1), agieval.Parse(s2)
	if !a.OK || !b.OK {
		return a.Equal(b)
	}
	x, err1 := agieval.StripString(a.S)
	if err1 == nil {
		x = Postprocess(x)
	}
	y, err2 := agieval.StripString(b.S)
	if err1 != nil || err2 != nil {
		return a.Equal(b)
	}
	return x == y
}

// ProcessResults is process_results: exact_match 1 when the generated
// answer is equivalent to the postprocessed gold answer.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) == 0 {
		return nil, errors.New("hrm8k process_results: no results")
	}
	cand, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("hrm8k process_results: result is %T, want the generated string", results[0])
	}
	em := 0
	if IsEquiv(cand, Postprocess(doc["answer"])) {
		em = 1
	}
	return map[string]any{"exact_match": em}, nil
}
