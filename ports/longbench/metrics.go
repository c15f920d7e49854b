// Package longbench ports lm_eval/tasks/longbench/metrics.py: LongBench's
// per-document scores (token F1, ROUGE-L of the rouge package, fuzzy code
// similarity, classification, counting and retrieval) behind the
// get_*_with_score functions the task files name.
package longbench

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/jieba"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

var (
	digits        = pyre.MustCompile(`\d+`)
	paragraph     = pyre.MustCompile(`Paragraph (\d+)`)
	paragraphZh   = pyre.MustCompile(`段落(\d+)`)
	zhPunctuation = "！？｡。＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟〰〾〿–—‘’‛“”„‟…‧﹏."
	asciiPunct    = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
)

func findAll(re *pyre.Regexp, s string) []string {
	var out []string
	for _, m := range re.FindAllStrings(s) {
		out = append(out, m[0])
	}
	return out
}

// CountScore is count_score: the share of the numbers in the prediction
// equal to the ground truth.
func CountScore(prediction, groundTruth string) float64 {
	numbers := findAll(digits, prediction)
	right := 0
	for _, n := range numbers {
		if n == groundTruth {
			right++
		}
	}
	if len(numbers) == 0 {
		return 0
	}
	return float64(right) / float64(len(numbers))
}

// RetrievalScore is retrieval_score (zh: retrieval_zh_score): the share
// of the numbers in the prediction equal to the paragraph number of the
// ground truth ("Paragraph N", "段落N").
func RetrievalScore(prediction, groundTruth string, zh bool) (float64, error) {
	re := paragraph
	if zh {
		re = paragraphZh
	}
	ids := findAll(re, groundTruth)
	if len(ids) == 0 {
		return 0, fmt.Errorf("longbench: no paragraph number in the answer %q (IndexError)", groundTruth)
	}
	return CountScore(prediction, ids[0]), nil
}

// CodeSimScore is code_sim_score: fuzz.ratio / 100 of the first
// non-blank line without "`", "#" or "//" of the prediction ("" when
// none) and the ground truth.
func CodeSimScore(prediction, groundTruth string) float64 {
	line := ""
	for _, l := range strings.Split(prediction, "\n") {
		if pyre.Strip(l) == "" {
			continue
		}
		if !strings.Contains(l, "`") && !strings.Contains(l, "#") && !strings.Contains(l, "//") {
			line = l
			break
		}
	}
	return float64(FuzzRatio(line, groundTruth)) / 100
}

// ClassificationScore is classification_score, with the Python loop that
// removes from the list it iterates (and so skips the element after each
// removal).
func ClassificationScore(prediction, groundTruth string, allClasses []string) float64 {
	var matches []string
	for _, c := range allClasses {
		if strings.Contains(prediction, c) {
			matches = append(matches, c)
		}
	}
	for i := 0; i < len(matches); i++ {
		term := matches[i]
		if strings.Contains(groundTruth, term) && term != groundTruth {
			for k, m := range matches { // list.remove: the first equal element
				if m == term {
					matches = append(matches[:k:k], matches[k+1:]...)
					break
				}
			}
		}
	}
	for _, m := range matches {
		if m == groundTruth {
			return 1.0 / float64(len(matches))
		}
	}
	return 0
}

// RougeScore is rouge_score: RougeL's F, 0 where the package raises.
func RougeScore(prediction, groundTruth string) float64 {
	f, _ := RougeL(prediction, groundTruth)
	return f
}

// QAF1Score is qa_f1_score: the token F1 of the SQuAD-normalised texts.
func QAF1Score(prediction, groundTruth string) float64 {
	return metrics.SQuADF1v1(prediction, groundTruth)
}

// NormalizeZhAnswer is normalize_zh_answer: lower-cased, without ASCII
// and Chinese punctuation, without whitespace.
func NormalizeZhAnswer(s string) string {
	s = pyre.Lower(s)
	var b strings.Builder
	for _, r := range s {
		if !strings.ContainsRune(asciiPunct, r) && !strings.ContainsRune(zhPunctuation, r) {
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.FieldsFunc(b.String(), pyre.IsSpace), "")
}

// answers is doc["answers"] as strings.
func answers(doc task.Doc) ([]string, error) {
	l, ok := doc["answers"].([]any)
	if !ok {
		return nil, fmt.Errorf("longbench: answers is %T, want a list", doc["answers"])
	}
	out := make([]string, len(l))
	for i, a := range l {
		s, ok := a.(string)
		if !ok {
			return nil, fmt.Errorf("longbench: answer %d is %T, want a string", i, a)
		}
		out[i] = s
	}
	return out, nil
}

func firstResult(results []any) (string, error) {
	if len(results) == 0 {
		return "", fmt.Errorf("longbench: no result (IndexError)")
	}
	s, ok := results[0].(string)
	if !ok {
		return "", fmt.Errorf("longbench: result is %T, want a generated string", results[0])
	}
	return s, nil
}

// scorer is one of metrics.py's per-answer scores.
type scorer func(doc task.Doc, prediction, groundTruth string) (float64, error)

// best is get_*_score: the highest score of the (stripped, unless strip
// is false) first result against every answer, 0 when there are none.
func best(doc task.Doc, results []any, strip bool, score scorer) (float64, error) {
	pred, err := firstResult(results)
	if err != nil {
		return 0, err
	}
	if strip {
		pred = pyre.Strip(pred)
	}
	golds, err := answers(doc)
	if err != nil {
		return 0, err
	}
	out := 0.0
	for _, g := range golds {
		s, err := score(doc, pred, g)
		if err != nil {
			return 0, err
		}
		out = max(s, out)
	}
	return out, nil
}

func allClasses(doc task.Doc) ([]string, error) {
	l, ok := doc["all_classes"].([]any)
	if !ok {
		return nil, fmt.Errorf("longbench: all_classes is %T, want a list (TypeError)", doc["all_classes"])
	}
	out := make([]string, len(l))
	for i, c := range l {
		s, ok := c.(string)
		if !ok {
			return nil, fmt.Errorf("longbench: class %d is %T, want a string", i, c)
		}
		out[i] = s
	}
	return out, nil
}

// withScore is a get_*_with_score: {"score": v, name: v}.
func withScore(name string, strip bool, score scorer) task.ProcessResultsFunc {
	return func(doc task.Doc, results []any) (map[string]any, error) {
		v, err := best(doc, results, strip, score)
		if err != nil {
			return nil, err
		}
		return map[string]any{"score": v, name: v}, nil
	}
}

var (
	qaF1           = withScore("qa_f1_score", true, func(_ task.Doc, p, g string) (float64, error) { return QAF1Score(p, g), nil })
	rouge          = withScore("rouge_score", true, func(_ task.Doc, p, g string) (float64, error) { return RougeScore(p, g), nil })
	classification = withScore("classification_score", true, func(d task.Doc, p, g string) (float64, error) {
		cs, err := allClasses(d)
		if err != nil {
			return 0, err
		}
		return ClassificationScore(p, g, cs), nil
	})
	count = withScore("count_score", true, func(_ task.Doc, p, g string) (float64, error) {
		return CountScore(p, pyval.Str(g)), nil
	})
	retrieval   = withScore("retrieval_score", true, func(_ task.Doc, p, g string) (float64, error) { return RetrievalScore(p, g, false) })
	retrievalZh = withScore("retrieval_zh_score", true, func(_ task.Doc, p, g string) (float64, error) { return RetrievalScore(p, g, true) })
	codeSim     = withScore("code_sim_score", false, func(_ task.Doc, p, g string) (float64, error) { return CodeSimScore(p, g), nil })
)

// QAF1ZhScore is qa_f1_zh_score: the F1 of jieba's words, each
// normalize_zh_answer'd, the empty ones dropped.
func QAF1ZhScore(prediction, groundTruth string) (float64, error) {
	words := func(s string) ([]string, error) {
		ws, err := jieba.Cut(s)
		if err != nil {
			return nil, err
		}
		var out []string
		for _, w := range ws {
			if w = NormalizeZhAnswer(w); w != "" {
				out = append(out, w)
			}
		}
		return out, nil
	}
	p, err := words(prediction)
	if err != nil {
		return 0, err
	}
	g, err := words(groundTruth)
	if err != nil {
		return 0, err
	}
	return metrics.TokenF1(p, g), nil
}

// RougeZhScore is rouge_zh_score: RougeScore of jieba's words joined by
// spaces.
func RougeZhScore(prediction, groundTruth string) (float64, error) {
	p, err := jieba.Cut(prediction)
	if err != nil {
		return 0, err
	}
	g, err := jieba.Cut(groundTruth)
	if err != nil {
		return 0, err
	}
	return RougeScore(strings.Join(p, " "), strings.Join(g, " ")), nil
}

var (
	qaF1Zh  = withScore("qa_f1_zh_score", true, func(_ task.Doc, p, g string) (float64, error) { return QAF1ZhScore(p, g) })
	rougeZh = withScore("rouge_zh_score", true, func(_ task.Doc, p, g string) (float64, error) { return RougeZhScore(p, g) })
)
