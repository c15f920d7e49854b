// Package drop ports lm_eval/tasks/drop/utils.py: process_docs (the
// answer and the validated answers as deduplicated tuples of text) and
// process_results (DROP's exact match and bag-of-words F1, numbers
// matched, the best over the gold answers).
package drop

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

func str(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("want text, got %T", v)
	}
	return s, nil
}

func list(v any) ([]any, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list, got %T", v)
	}
	return l, nil
}

// parseAnswer is parse_answer: the number, else the spans, else the date
// "day month year" stripped.
func parseAnswer(a map[string]any) ([]string, error) {
	n, ok := a["number"]
	if !ok {
		return nil, fmt.Errorf("no number (KeyError)")
	}
	if !pyval.Equal(n, "") {
		return []string{pyval.Str(n)}, nil
	}
	spans, err := list(a["spans"])
	if err != nil {
		return nil, fmt.Errorf("spans: %w", err)
	}
	if len(spans) > 0 {
		out := make([]string, len(spans))
		for i, s := range spans {
			if out[i], err = str(s); err != nil {
				return nil, fmt.Errorf("spans[%d]: %w", i, err)
			}
		}
		return out, nil
	}
	d, ok := a["date"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("date is %T, want a mapping", a["date"])
	}
	parts := make([]string, 3)
	for i, k := range []string{"day", "month", "year"} {
		if parts[i], err = str(d[k]); err != nil {
			return nil, fmt.Errorf("date %s: %w", k, err)
		}
	}
	return []string{pyre.Strip(strings.Join(parts, " "))}, nil
}

// GetAnswers is get_answers: the answer, then each validated answer, as
// parsed tuples, without repeats.
func GetAnswers(doc task.Doc) ([][]string, error) {
	a, ok := doc["answer"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("drop: answer is %T, want a mapping", doc["answer"])
	}
	cands := []map[string]any{a}
	va, ok := doc["validated_answers"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("drop: validated_answers is %T, want a mapping", doc["validated_answers"])
	}
	nums, err1 := list(va["number"])
	dates, err2 := list(va["date"])
	spans, err3 := list(va["spans"])
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, fmt.Errorf("drop: validated_answers wants lists number, date and spans")
	}
	for i := range nums {
		if i >= len(dates) || i >= len(spans) {
			return nil, fmt.Errorf("drop: validated_answers: list index out of range")
		}
		cands = append(cands, map[string]any{"number": nums[i], "date": dates[i], "spans": spans[i]})
	}
	var out [][]string
	seen := map[string]bool{}
	for i, c := range cands {
		ans, err := parseAnswer(c)
		if err != nil {
			return nil, fmt.Errorf("drop: answer %d: %w", i, err)
		}
		key := strings.Join(ans, "\x00") + fmt.Sprint(len(ans))
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, ans)
	}
	return out, nil
}

// ProcessDocs is process_docs: id, passage, question and answers (each a
// list of text), the other columns kept as datasets.map does.
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		ans, err := GetAnswers(d)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		nd := make(task.Doc, len(d)+2)
		for k, v := range d {
			nd[k] = v
		}
		al := make([]any, len(ans))
		for j, a := range ans {
			l := make([]any, len(a))
			for k, s := range a {
				l[k] = s
			}
			al[j] = l
		}
		nd["id"], nd["answers"] = d["query_id"], al
		out[i] = nd
	}
	return out, nil
}

// ProcessResults is process_results: {"em", "f1"}, the best over the gold
// answers whose first span is not blank.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	preds := make([]string, len(results))
	for i, r := range results {
		s, err := str(r)
		if err != nil {
			return nil, fmt.Errorf("drop process_results: result %d: %w", i, err)
		}
		preds[i] = s
	}
	golds, err := list(doc["answers"])
	if err != nil {
		return nil, fmt.Errorf("drop process_results: answers: %w", err)
	}
	// Python's max keeps the int 0 it starts from unless a score is
	// larger, so a document scoring nothing logs 0, not 0.0.
	var maxEM, maxF1 any = 0, 0
	larger := func(cur any, x float64) any {
		if c, ok := cur.(float64); ok && x > c || !ok && x > 0 {
			return x
		}
		return cur
	}
	for i, g := range golds {
		gl, err := list(g)
		if err != nil || len(gl) == 0 {
			return nil, fmt.Errorf("drop process_results: answers[%d]: want a non-empty list", i)
		}
		gold := make([]string, len(gl))
		for j, s := range gl {
			if gold[j], err = str(s); err != nil {
				return nil, fmt.Errorf("drop process_results: answers[%d][%d]: %w", i, j, err)
			}
		}
		em, f1 := GetMetrics(preds, gold)
		if pyre.Strip(gold[0]) != "" {
			maxEM, maxF1 = larger(maxEM, em), larger(maxF1, f1)
		}
	}
	return map[string]any{"em": maxEM, "f1": maxF1}, nil
}

// GetMetrics is get_metrics: exact match of the normalised span sets, and
// the mean F1 of the best one-to-one alignment of the spans' bags of
// words, rounded to 2 decimals.
func GetMetrics(pred, gold []string) (float64, float64) {
	pn, pb := answerToBags(pred)
	gn, gb := answerToBags(gold)
	em := 0.0
	if pyfn.SetEqual(pn, gn) && len(pn) == len(gn) {
		em = 1
	}
	scores := alignBags(pb, gb)
	sum := 0.0
	for _, s := range scores {
		sum += s
	}
	return em, pyRound2(sum / float64(len(scores)))
}

type bag map[string]bool

func answerToBags(spans []string) ([]string, []bag) {
	norm := make([]string, len(spans))
	bags := make([]bag, len(spans))
	for i, s := range spans {
		norm[i] = normalize(s)
		bags[i] = bag{}
		for _, w := range strings.FieldsFunc(norm[i], pyre.IsSpace) {
			bags[i][w] = true
		}
	}
	return norm, bags
}

// alignBags is _align_bags: per gold span, its score in an assignment of
// predicted to gold spans maximising the total (scipy's
// linear_sum_assignment; every optimal assignment has the same total, so
// the same mean), the array as long as the longer side.
func alignBags(pred, gold []bag) []float64 {
	scores := make([][]float64, len(gold))
	for g := range gold {
		scores[g] = make([]float64, len(pred))
		for p := range pred {
			if matchNumbers(gold[g], pred[p]) {
				scores[g][p] = computeF1(pred[p], gold[g])
			}
		}
	}
	best := make([]float64, max(len(gold), len(pred)))
	bestSum := -1.0
	cur := make([]int, len(gold)) // cur[g]: the prediction assigned to g, or -1
	used := make([]bool, len(pred))
	var rec func(g int, sum float64, assigned int)
	rec = func(g int, sum float64, assigned int) {
		if g == len(gold) {
			if assigned == min(len(gold), len(pred)) && sum > bestSum {
				bestSum = sum
				for i := range best {
					best[i] = 0
				}
				for gi, p := range cur {
					if p >= 0 {
						best[gi] = scores[gi][p]
					}
				}
			}
			return
		}
		for p := range pred {
			if !used[p] {
				used[p], cur[g] = true, p
				rec(g+1, sum+scores[g][p], assigned+1)
				used[p] = false
			}
		}
		cur[g] = -1
		rec(g+1, sum, assigned)
	}
	rec(0, 0, 0)
	return best
}

func computeF1(pred, gold bag) float64 {
	inter := 0
	for w := range gold {
		if pred[w] {
			inter++
		}
	}
	precision, recall := 1.0, 1.0
	if len(pred) > 0 {
		precision = float64(inter) / float64(len(pred))
	}
	if len(gold) > 0 {
		recall = float64(inter) / float64(len(gold))
	}
	if precision == 0 && recall == 0 {
		return 0
	}
	return 2 * precision * recall / (precision + recall)
}

func matchNumbers(gold, pred bag) bool {
	gn, pn := map[string]bool{}, map[string]bool{}
	for w := range gold {
		if _, ok := pyFloat(w); ok {
			gn[w] = true
		}
	}
	for w := range pred {
		if _, ok := pyFloat(w); ok {
			pn[w] = true
		}
	}
	if len(gn) == 0 {
		return true
	}
	for w := range gn {
		if pn[w] {
			return true
		}
	}
	return false
}

// pyFloat is Python's float(text) for text: surrounding whitespace,
// underscores between digits, inf/infinity/nan in any case. (Non-ASCII
// decimal digits, which Python also accepts, are not numbers here.)
func pyFloat(s string) (float64, bool) {
	t := strings.TrimFunc(s, pyre.IsSpace)
	if t == "" {
		return 0, false
	}
	body := strings.TrimLeft(t, "+-")
	if len(t)-len(body) > 1 {
		return 0, false
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if strings.HasPrefix(t, "-") {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		return math.NaN(), true
	}
	for i, r := range body {
		switch {
		case r >= '0' && r <= '9', r == '.', r == 'e', r == 'E', r == '+', r == '-':
		case r == '_':
			if i == 0 || i == len(body)-1 || !isDigit(body[i-1]) || !isDigit(body[i+1]) {
				return 0, false
			}
		default:
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true // Python gives inf (or 0) too
		}
		return 0, false
	}
	return f, true
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

var articles = pyre.MustCompile(`\b(a|an|the)\b`)

const punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

func removePunc(s string) string {
	if _, ok := pyFloat(s); ok {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r < 0x80 && strings.ContainsRune(punctuation, r) {
			return -1
		}
		return r
	}, s)
}

func fixNumber(s string) string {
	if f, ok := pyFloat(s); ok {
		return pyval.FloatRepr(f)
	}
	return s
}

var tokenSep = pyre.MustCompile(" |-")

// normalize is _normalize.
func normalize(answer string) string {
	var toks []string
	for _, tok := range splitRe(tokenSep, answer) {
		t := fixNumber(removePunc(pyre.Lower(tok)))
		t, _ = articles.Sub(" ", t, 0)
		t = strings.Join(strings.FieldsFunc(t, pyre.IsSpace), " ")
		if pyre.Strip(t) != "" {
			toks = append(toks, t)
		}
	}
	return pyre.Strip(strings.Join(toks, " "))
}

// splitRe is re.split(pattern, s) for a pattern without groups.
func splitRe(re *pyre.Regexp, s string) []string {
	var out []string
	last := 0
	for _, m := range re.FindAll(s) {
		out = append(out, s[last:m.Start()])
		last = m.End()
	}
	return append(out, s[last:])
}

// pyRound2 is Python's round(x, 2): the nearest two-decimal value, ties
// to even on the exact binary value (as strconv's correctly rounded
// formatting).
func pyRound2(x float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 2, 64), 64)
	return f
}
