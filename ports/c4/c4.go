// Package c4 ports lm_eval/tasks/c4/preprocess_c4.py: the detokeniser of
// the rolling target and process_results (the rolling log-likelihood with
// the word and byte counts of the text before detokenisation).
package c4

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
)

var (
	contraction = pyre.MustCompile(`/' [0-9]/`)
	parens      = pyre.MustCompile(`\(\s*([^\)]*?)\s*\)`)
	brackets    = pyre.MustCompile(`\[\s*([^\]]*?)\s*\]`)
	braces      = pyre.MustCompile(`{\s*([^}]*?)\s*}`)
	dquotes     = pyre.MustCompile(`\"\s*([^\"]*?)\s*\"`)
	squotes     = pyre.MustCompile(`'\s*([^']*?)\s*'`)
	wsRun       = pyre.MustCompile(`\s+`)
)

func sub(re *pyre.Regexp, repl, s string) string {
	out, _ := re.Sub(repl, s, 0)
	return out
}

func replace(s string, pairs ...string) string {
	for i := 0; i < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	return s
}

// Detokenize is c4_detokenizer's transformation of a text.
func Detokenize(s string) string {
	s = strings.ReplaceAll(s, "s '", "s'")
	s = sub(contraction, `/'[0-9]/`, s)
	s = replace(s, " @-@ ", "-", " @,@ ", ",", " @.@ ", ".", " : ", ": ", " ; ", "; ", " . ", ". ", " ! ", "! ", " ? ", "? ", " , ", ", ")
	s = sub(parens, `(\1)`, s)
	s = sub(brackets, `[\1]`, s)
	s = sub(braces, `{\1}`, s)
	s = sub(dquotes, `"\1"`, s)
	s = sub(squotes, `'\1'`, s)
	return replace(s, "= = = =", "====", "= = =", "===", "= =", "==", " \u00b0 ", "\u00b0", " \n", "\n", "\n ", "\n", " N ", " 1 ", " 's", "'s")
}

// C4Detokenizer is c4_detokenizer.
func C4Detokenizer(doc task.Doc) (any, error) {
	s, ok := doc["text"].(string)
	if !ok {
		return nil, fmt.Errorf("c4: text is %T, want text", doc["text"])
	}
	return Detokenize(s), nil
}

// ProcessResults is process_results.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	s, ok := doc["text"].(string)
	if !ok {
		return nil, fmt.Errorf("c4 process_results: text is %T, want text", doc["text"])
	}
	if len(results) != 1 {
		return nil, fmt.Errorf("c4 process_results: %d results, want 1", len(results))
	}
	var ll float64
	switch r := results[0].(type) {
	case model.RollingResult:
		ll = r.LogProb
	case model.LoglikelihoodResult:
		ll = r.LogProb
	case float64:
		ll = r
	default:
		return nil, fmt.Errorf("c4 process_results: result is %T, want a log-likelihood", results[0])
	}
	words := float64(len(wsRun.FindAll(s)) + 1) // len(re.split(r"\s+", text))
	bytes := float64(len(s))
	return map[string]any{
		"word_perplexity": metrics.Weighted{LogLik: ll, Weight: words},
		"byte_perplexity": metrics.Weighted{LogLik: ll, Weight: bytes},
		"bits_per_byte":   metrics.Weighted{LogLik: ll, Weight: bytes},
	}, nil
}

func init() {
	task.RegisterDocFunc(task.Helper{File: "c4/preprocess_c4.py", Function: "c4_detokenizer",
		SHA256: "0fd0294cb1115fdc3d26b5de18ca575ea3a58bb3439c860a7b2041ce5e6d4d15"}, C4Detokenizer)
	task.RegisterProcessResults(task.Helper{File: "c4/preprocess_c4.py", Function: "process_results",
		SHA256: "2d9daff5604f3b3473b18c700c736c598f08fc618c4617716449a4d27a4197b3"}, ProcessResults)
}
