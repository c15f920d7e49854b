// Package jfinqa ports lm_eval/tasks/jfinqa/utils.py: the prompt (text,
// a markdown table, the question) and process_results (exact match of
// NFKC-normalised answers, and a 1% relative numerical match that
// understands Japanese units and multipliers).
package jfinqa

import (
	"fmt"
	"math"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pynum"
	"github.com/lmeval/lmeval/ports/internal/pystr"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// strList is doc.get(key, []) for a list of texts ("" when empty or absent).
func joined(doc task.Doc, key string) (string, bool, error) {
	v, ok := doc[key]
	if !ok || v == nil {
		return "", false, nil
	}
	l, ok := v.([]any)
	if !ok {
		if s, isStr := v.(string); isStr {
			if s == "" {
				return "", false, nil
			}
			// "\n".join of a string joins its characters
			return strings.Join(strings.Split(s, ""), "\n"), true, nil
		}
		return "", false, fmt.Errorf("jfinqa: %s is %T, want a list", key, v)
	}
	if len(l) == 0 {
		return "", false, nil
	}
	parts := make([]string, len(l))
	for i, e := range l {
		s, ok := e.(string)
		if !ok {
			return "", false, fmt.Errorf("jfinqa: %s[%d] is %T (str.join needs text)", key, i, e)
		}
		parts[i] = s
	}
	return strings.Join(parts, "\n"), true, nil
}

func cells(v any) []string {
	l, _ := v.([]any)
	out := make([]string, len(l))
	for i, c := range l {
		out[i] = pyval.Str(c)
	}
	return out
}

// DocToText is doc_to_text.
func DocToText(doc task.Doc) (any, error) {
	var parts []string
	pre, ok, err := joined(doc, "pre_text")
	if err != nil {
		return nil, err
	}
	if ok {
		parts = append(parts, pre)
	}
	if headers := cells(doc["table_headers"]); len(headers) > 0 {
		seps := make([]string, len(headers))
		for i := range seps {
			seps[i] = "---"
		}
		lines := []string{"| " + strings.Join(headers, " | ") + " |", "| " + strings.Join(seps, " | ") + " |"}
		rows, _ := doc["table_rows"].([]any)
		for _, r := range rows {
			lines = append(lines, "| "+strings.Join(cells(r), " | ")+" |")
		}
		parts = append(parts, strings.Join(lines, "\n"))
	}
	post, ok, err := joined(doc, "post_text")
	if err != nil {
		return nil, err
	}
	if ok {
		parts = append(parts, post)
	}
	q := ""
	if v, ok := doc["question"]; ok {
		q = pyval.Str(v)
	}
	parts = append(parts, "Question: "+q+"\nAnswer:")
	return strings.Join(parts, "\n\n"), nil
}

var (
	answerRe   = pyre.MustCompile("(?:Answer|answer|A|回答)\\s*[:\uff1a]\\s*(.+)")
	triangleRe = pyre.MustCompile(`^[△▲]`)
	commaRe    = pyre.MustCompile(`(?<=\d),(?=\d)`)
	nonNumRe   = pyre.MustCompile(`[^\d.\-+]`)
)

// ExtractAnswer is _extract_answer.
func ExtractAnswer(text string) string {
	if m := answerRe.Search(text); m != nil {
		return pyre.Strip(m.Group(1))
	}
	var lines []string
	for _, l := range pystr.SplitLines(pyre.Strip(text)) {
		if s := pyre.Strip(l); s != "" {
			lines = append(lines, s)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return lines[len(lines)-1]
}

// Normalize is _normalize.
func Normalize(text string) string {
	s := norm.NFKC.String(pyre.Strip(text))
	s, _ = triangleRe.Sub("-", s, 0)
	s, _ = commaRe.Sub("", s, 0)
	if strings.HasSuffix(s, "しました") {
		s = strings.TrimSuffix(s, "しました")
	} else if strings.HasSuffix(s, "した") {
		s = strings.TrimSuffix(s, "した")
	}
	return pyre.Strip(pyre.Lower(s))
}

var unitSuffixes = []string{"百万円", "千円", "億円", "兆円", "円", "ドル", "ポイント", "pt", "bps"}

var kanjiMultipliers = []struct {
	kanji string
	mult  float64
}{{"千", 1_000}, {"百万", 1_000_000}, {"億", 100_000_000}, {"兆", 1_000_000_000_000}}

// TryParseNumber is _try_parse_number; ok is false where it returns None.
func TryParseNumber(text string) (float64, bool) {
	s := Normalize(text)
	for _, suf := range unitSuffixes {
		s = strings.TrimSuffix(s, suf)
	}
	for _, k := range kanjiMultipliers {
		if strings.Contains(s, k.kanji) {
			num := pyre.Strip(strings.ReplaceAll(s, k.kanji, ""))
			num, _ = nonNumRe.Sub("", num, 0)
			f, ok := pynum.Float(num)
			if !ok {
				return 0, false
			}
			return f * k.mult, true
		}
	}
	s = strings.TrimSuffix(s, "%")
	s, _ = nonNumRe.Sub("", s, 0)
	return pynum.Float(s)
}

// NumericalMatch is _numerical_match with the 1% tolerance.
func NumericalMatch(pred, gold string) bool {
	p, ok1 := TryParseNumber(pred)
	g, ok2 := TryParseNumber(gold)
	if !ok1 || !ok2 {
		return Normalize(pred) == Normalize(gold)
	}
	if g == 0 {
		return p == 0
	}
	return math.Abs(p-g)/math.Abs(g) <= 0.01
}

// ProcessResults is process_results.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	gold := ""
	if v, ok := doc["answer"]; ok {
		s, isStr := v.(string)
		if !isStr {
			return nil, fmt.Errorf("jfinqa process_results: answer is %T, want text", v)
		}
		gold = s
	}
	pred := ""
	if len(results) > 0 {
		s, ok := results[0].(string)
		if !ok {
			return nil, fmt.Errorf("jfinqa process_results: result is %T, want the generated string", results[0])
		}
		pred = s
	}
	pred = ExtractAnswer(pred)
	em, nm := 0.0, 0.0
	if Normalize(pred) == Normalize(gold) {
		em = 1
	}
	if NumericalMatch(pred, gold) {
		nm = 1
	}
	return map[string]any{"exact_match": em, "numerical_match": nm}, nil
}
