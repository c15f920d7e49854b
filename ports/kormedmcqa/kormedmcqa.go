// Package kormedmcqa ports lm_eval/tasks/kormedmcqa/utils.py:
// ExtractChoiceFilter, the answer-extraction cascade of the KorMedMCQA
// paper (extract_choice on every response).
package kormedmcqa

import (
	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/python/pyre"
)

// choicePatterns is CHOICE_PATTERNS, each compiled with re.IGNORECASE.
var choicePatterns = []*pyre.Regexp{
	mustCompile(`정답[:\s]*([ABCDE])`),
	mustCompile(`정답은\s*([ABCDE])\s*입니다`),
	mustCompile(`\b([ABCDE])\.`),
	mustCompile(`\b([ABCDE])\b`),
}

func mustCompile(p string) *pyre.Regexp {
	re, err := pyre.CompileFlags(p, pyre.IGNORECASE)
	if err != nil {
		panic(err)
	}
	return re
}

// ExtractChoice is extract_choice: the last match of the first pattern
// that matches, upper-cased, or "".
func ExtractChoice(output string) string {
	for _, p := range choicePatterns {
		if m := p.FindAllStrings(output); len(m) > 0 {
			last := m[len(m)-1]
			return pyre.Upper(last[len(last)-1])
		}
	}
	return ""
}

// NewExtractChoiceFilter is ExtractChoiceFilter(**kwargs): lm-eval's
// Filter base class accepts and ignores any keyword argument.
func NewExtractChoiceFilter(args map[string]any) (filters.Filter, error) {
	return filters.ListFunc(func(resps [][]string, _ []map[string]any) ([][]string, error) {
		out := make([][]string, len(resps))
		for i, r := range resps {
			out[i] = make([]string, len(r))
			for j, s := range r {
				out[i][j] = ExtractChoice(s)
			}
		}
		return out, nil
	}), nil
}
