package infinitebench

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/porter"
	"github.com/lmeval/lmeval/ports/internal/pynum"
	"github.com/lmeval/lmeval/python/pyre"
)

// prediction is the post-processed first result.
func prediction(results []any) (string, error) {
	if len(results) == 0 {
		return "", fmt.Errorf("infinitebench: no result (IndexError)")
	}
	s, ok := results[0].(string)
	if !ok {
		return "", fmt.Errorf("infinitebench: result is %T, want a generated string", results[0])
	}
	return Postprocess(s), nil
}

// strList is doc.get(key, []) as strings (nil for an absent, empty or
// None value: Python's `not answers`).
func strList(doc task.Doc, key string) ([]string, error) {
	v, ok := doc[key]
	if !ok || v == nil {
		return nil, nil
	}
	l, isList := v.([]any)
	if !isList {
		return nil, fmt.Errorf("infinitebench: %s is %T, want a list", key, v)
	}
	out := make([]string, len(l))
	for i, e := range l {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("infinitebench: %s[%d] is %T (AttributeError: strip)", key, i, e)
		}
		out[i] = s
	}
	return out, nil
}

func score(v float64) map[string]any { return map[string]any{"score": v} }

func bool01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

type scorer func(doc task.Doc, pred string, answers []string) (float64, error)

// withAnswers is the shared head of the process_results: the
// prediction, and 0 without answers.
func withAnswers(fn scorer) task.ProcessResultsFunc {
	return func(doc task.Doc, results []any) (map[string]any, error) {
		pred, err := prediction(results)
		if err != nil {
			return nil, err
		}
		answers, err := strList(doc, "answer")
		if err != nil {
			return nil, err
		}
		if len(answers) == 0 {
			return score(0), nil
		}
		v, err := fn(doc, pred, answers)
		if err != nil {
			return nil, err
		}
		return score(v), nil
	}
}

func replaceAll(s string, chars []string) string {
	for _, c := range chars {
		s = strings.ReplaceAll(s, c, " ")
	}
	return s
}

// Substring is process_results: an answer, stripped and upper-cased, in
// the upper-cased prediction.
func Substring(_ task.Doc, pred string, answers []string) (float64, error) {
	up := pyre.Upper(pred)
	for _, a := range answers {
		if strings.Contains(up, pyre.Upper(pyre.Strip(a))) {
			return 1, nil
		}
	}
	return 0, nil
}

// KV is process_results_kv: an answer among the prediction's words.
func KV(_ task.Doc, pred string, answers []string) (float64, error) {
	words := split(replaceAll(pred, []string{"\n", ":", "\"", "'", ".", ",", "?", "!", "{", "}"}))
	for _, a := range answers {
		a = pyre.Strip(a)
		for _, w := range words {
			if w == a {
				return 1, nil
			}
		}
	}
	return 0, nil
}

// IntMatch is process_results_int_match: the first run of ASCII digits
// equals an answer.
func IntMatch(_ task.Doc, pred string, answers []string) (float64, error) {
	first := ""
	for _, m := range strings.FieldsFunc(pred, func(r rune) bool { return r < '0' || r > '9' }) {
		first = m
		break
	}
	if first == "" {
		return 0, nil
	}
	for _, a := range answers {
		if first == pyre.Strip(a) {
			return 1, nil
		}
	}
	return 0, nil
}

// Math is process_results_math: the first number of the prediction
// equals an answer as a float (when either has a "."), an int, or
// else as text.
func Math(_ task.Doc, pred string, answers []string) (float64, error) {
	m := number.Search(pred)
	if m == nil {
		return 0, nil
	}
	p := m.Group(0)
	for _, a := range answers {
		a = pyre.Strip(a)
		if strings.Contains(p, ".") || strings.Contains(a, ".") {
			pf, ok1 := pynum.Float(p)
			af, ok2 := pynum.Float(a)
			if ok1 && ok2 {
				if pf == af {
					return 1, nil
				}
				continue
			}
		} else {
			pi, ok1 := pynum.Int(p)
			ai, ok2 := pynum.Int(a)
			if ok1 && ok2 {
				if pi.Cmp(ai) == 0 {
					return 1, nil
				}
				continue
			}
		}
		if p == a { // ValueError
			return 1, nil
		}
	}
	return 0, nil
}

// answerLetter is _answer_to_letter.
func answerLetter(doc task.Doc) (string, error) {
	answers, err := strList(doc, "answer")
	if err != nil {
		return "", err
	}
	opts, err := strList(doc, "options")
	if err != nil {
		return "", err
	}
	if len(answers) == 0 || len(opts) == 0 {
		return "", nil
	}
	text := pyre.Strip(answers[0])
	for i, o := range opts {
		if pyre.Strip(o) == text {
			return string(rune('A' + i)), nil
		}
	}
	if len([]rune(text)) == 1 && strings.Contains("ABCDEFGHIJ", pyre.Upper(text)) {
		return pyre.Upper(text), nil
	}
	return "", nil
}

// findFold is cleaned.lower().find(prefix) with the index taken back to
// cleaned (code points, as Python slices), and the text after it.
func afterPrefix(cleaned, prefix string) (string, bool) {
	low := []rune(pyre.Lower(cleaned))
	p := []rune(prefix)
	for i := 0; i+len(p) <= len(low); i++ {
		if string(low[i:i+len(p)]) == prefix {
			c := []rune(cleaned)
			k := min(i+len(p), len(c))
			return pyre.Strip(string(c[k:])), true
		}
	}
	return "", false
}

func firstUpper(s string) string { return pyre.Upper(string([]rune(s)[:1])) }

// Choice is process_results_choice.
func Choice(doc task.Doc, results []any) (map[string]any, error) {
	pred, err := prediction(results)
	if err != nil {
		return nil, err
	}
	label, err := answerLetter(doc)
	if err != nil {
		return nil, err
	}
	if label == "" {
		return score(0), nil
	}
	pred = pyre.Strip(pred)
	if m := lastAD.Search(pred); m != nil {
		return score(bool01(pyre.Upper(m.Group(1)) == label)), nil
	}
	if pred == "" {
		return score(0), nil
	}
	if first := string([]rune(pred)[:1]); strings.Contains("ABCD", first) {
		return score(bool01(first == label)), nil
	}
	if pyre.Upper(pred) == label {
		return score(1), nil
	}
	cleaned := replaceAll(pred, []string{"\n", "\"", "'", ".", ",", "?", "!", "{", "}"})
	for _, prefix := range []string{"answer is:", "answer:", "answer is", "option is"} {
		if after, ok := afterPrefix(cleaned, prefix); ok && after != "" && strings.Contains("ABCD", firstUpper(after)) {
			return score(bool01(firstUpper(after) == label)), nil
		}
	}
	for _, w := range split(cleaned) {
		switch u := pyre.Upper(w); u {
		case "A", "B", "C", "D":
			return score(bool01(u == label)), nil
		}
	}
	return score(0), nil
}

// CodeDebug is process_results_code_debug.
func CodeDebug(doc task.Doc, results []any) (map[string]any, error) {
	pred, err := prediction(results)
	if err != nil {
		return nil, err
	}
	answers, err := strList(doc, "answer")
	if err != nil {
		return nil, err
	}
	if len(answers) == 0 {
		return score(0), nil
	}
	labelFunc := pyre.Strip(answers[0])
	letter, err := answerLetter(doc)
	if err != nil {
		return nil, err
	}
	if letter == "" {
		if len([]rune(labelFunc)) == 1 && strings.Contains("ABCDEFGHIJ", pyre.Upper(labelFunc)) {
			letter, labelFunc = pyre.Upper(labelFunc), ""
		} else {
			return score(0), nil
		}
	}
	pred = pyre.Strip(pred)
	if m := lastAJ.Search(pred); m != nil {
		return score(bool01(pyre.Upper(m.Group(1)) == letter)), nil
	}
	cleaned := replaceAll(pred, []string{"-", "*"})
	cleaned = strings.ReplaceAll(cleaned, "Option", " ")
	cleaned = strings.ReplaceAll(cleaned, "option", " ")
	for strings.Contains(cleaned, "  ") {
		cleaned = strings.ReplaceAll(cleaned, "  ", " ")
	}
	cleaned = pyre.Strip(cleaned)
	if strings.HasPrefix(pyre.Upper(cleaned), letter) {
		return score(1), nil
	}
	if labelFunc != "" && strings.HasPrefix(cleaned, labelFunc) {
		return score(1), nil
	}
	for _, prefix := range []string{"answer is:", "is:", "answer:", "correct option is:"} {
		if after, ok := afterPrefix(cleaned, prefix); ok {
			if after != "" {
				if firstUpper(after) == letter {
					return score(1), nil
				}
				if labelFunc != "" && strings.HasPrefix(after, labelFunc) {
					return score(1), nil
				}
			}
			return score(0), nil
		}
	}
	return score(0), nil
}

// CodeRun is process_results_code_run: the last word of the prediction,
// as an int, equals an answer.
func CodeRun(_ task.Doc, pred string, answers []string) (float64, error) {
	words := split(replaceAll(pred, []string{"\n", ".", "`", "'", "\"", ":"}))
	if len(words) == 0 {
		return 0, nil
	}
	last := words[len(words)-1]
	p, ok := pynum.Int(last)
	if !ok {
		return 0, nil
	}
	for _, a := range answers {
		a = pyre.Strip(a)
		if ai, ok := pynum.Int(a); ok {
			if p.Cmp(ai) == 0 {
				return 1, nil
			}
		} else if last == a {
			return 1, nil
		}
	}
	return 0, nil
}

// QA is process_results_qa_en (zh: process_results_qa_chn): the best
// token F1 over the answers, 0 for an empty prediction.
func QA(chinese bool) task.ProcessResultsFunc {
	return func(doc task.Doc, results []any) (map[string]any, error) {
		pred, err := prediction(results)
		if err != nil {
			return nil, err
		}
		answers, err := strList(doc, "answer")
		if err != nil {
			return nil, err
		}
		if len(answers) == 0 || pred == "" {
			return score(0), nil
		}
		best := TokenF1(pred, answers[0], chinese)
		for _, a := range answers[1:] {
			best = max(best, TokenF1(pred, a, chinese))
		}
		return score(best), nil
	}
}

// Rouge is process_results_rouge: rouge_score's rougeLsum F-measure
// (use_stemmer=True) of the prediction against the first answer, 0 for
// an empty prediction.
func Rouge(doc task.Doc, results []any) (map[string]any, error) {
	pred, err := prediction(results)
	if err != nil {
		return nil, err
	}
	answers, err := strList(doc, "answer")
	if err != nil {
		return nil, err
	}
	if len(answers) == 0 || pred == "" {
		return score(0), nil
	}
	tok := func(s string) []string { return metrics.RougeTokenizeStem(s, porter.Stem) }
	return score(metrics.RougeLsumTokenized(answers[0], pred, tok).FMeasure), nil
}
