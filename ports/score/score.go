// Package score ports lm_eval/tasks/score (NVIDIA's SCORE robustness
// suite): utils.py's document expansions (every prompt template, every
// position of the correct option, a sampled run), its prompt and answer
// parsing and its consistency rates, and the AGIEval and MMLU-Pro
// bindings (agi_eval/utils_agieval.py, mmlu_pro/utils_mmlu_pro.py) with
// their accuracies. The prompt templates are copies of the
// prompt_templates.json files beside those modules (templates/).
package score

import (
	"embed"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

//go:embed templates/*.json
var templateFS embed.FS

// template is one entry of prompt_templates.json.
type template struct {
	Prompt        string  `json:"prompt"`
	OptionsFormat *string `json:"options_format"`
}

type templates struct {
	Prompt      []template `json:"prompt_robustness"`
	OptionOrder template   `json:"option_order_robustness"`
	NonGreedy   template   `json:"non_greedy_robustness"`
}

func loadTemplates(name string) templates {
	b, err := templateFS.ReadFile("templates/" + name + ".json")
	if err != nil {
		panic(err)
	}
	var t templates
	if err := json.Unmarshal(b, &t); err != nil {
		panic(fmt.Sprintf("score: templates/%s.json: %v", name, err))
	}
	return t
}

var (
	numerals      = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}
	romanNumerals = []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"}
)

// preprocess is a dataset_specific_preprocess (a Dataset.map of its own).
type preprocess func(docs []task.Doc) ([]task.Doc, error)

// AddPrompts is process_docs_add_prompts: every document once per prompt
// template, with prompt_id, prompt and (when the first template has one)
// options_format.
func AddPrompts(docs []task.Doc, ts []template, pre preprocess) ([]task.Doc, error) {
	if pre != nil {
		var err error
		if docs, err = pre(docs); err != nil {
			return nil, err
		}
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("score: no prompt templates")
	}
	withFormat := ts[0].OptionsFormat != nil
	var out []task.Doc
	for _, d := range docs {
		for i, t := range ts {
			nd := pyval.DeepCopy(d).(map[string]any)
			nd["prompt_id"] = int64(i)
			nd["prompt"] = t.Prompt
			if withFormat {
				if t.OptionsFormat == nil {
					return nil, fmt.Errorf("score: prompt template %d has no options_format (KeyError)", i)
				}
				nd["options_format"] = *t.OptionsFormat
			}
			out = append(out, nd)
		}
	}
	return out, nil
}

// OptionOrder is option_order_robustness_process_docs: every document
// once per label, with the correct option moved to that label's place
// (when the document has that many options), always_same_option the
// label, the template's prompt and options_format, and
// original_answer_index.
func OptionOrder(docs []task.Doc, t template, labels []string, pre preprocess) ([]task.Doc, error) {
	if pre != nil {
		var err error
		if docs, err = pre(docs); err != nil {
			return nil, err
		}
	}
	if t.OptionsFormat == nil {
		return nil, fmt.Errorf("score: option_order_robustness has no options_format (KeyError)")
	}
	var out []task.Doc
	for _, d := range docs {
		ai, ok := toInt(d["answer_index"])
		if !ok {
			return nil, fmt.Errorf("score: answer_index is %T (KeyError or TypeError)", d["answer_index"])
		}
		opts, ok := d["options"].([]any)
		if !ok {
			return nil, fmt.Errorf("score: options is %T, want a list", d["options"])
		}
		for li, label := range labels {
			nd := pyval.DeepCopy(d).(map[string]any)
			if li < len(opts) {
				if ai < 0 || ai >= len(opts) {
					return nil, fmt.Errorf("score: answer_index %d of %d options (IndexError)", ai, len(opts))
				}
				no := nd["options"].([]any)
				no[li] = pyval.DeepCopy(opts[ai])
				no[ai] = pyval.DeepCopy(opts[li])
				nd["answer_index"] = int64(li)
				if _, has := d["answer"]; has {
					nd["answer"] = label
				}
			}
			nd["always_same_option"] = label
			nd["prompt"] = t.Prompt
			nd["options_format"] = *t.OptionsFormat
			nd["original_answer_index"] = d["answer_index"]
			out = append(out, nd)
		}
	}
	return out, nil
}

// NonGreedy is non_greedy_robustness_process_docs: the template's prompt
// (and options_format) added to every document.
func NonGreedy(docs []task.Doc, t template, pre preprocess) ([]task.Doc, error) {
	if pre != nil {
		var err error
		if docs, err = pre(docs); err != nil {
			return nil, err
		}
	}
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		nd := pyval.DeepCopy(d).(map[string]any)
		nd["prompt"] = t.Prompt
		if t.OptionsFormat != nil {
			nd["options_format"] = *t.OptionsFormat
		}
		out[i] = nd
	}
	return out, nil
}

func toInt(v any) (int, bool) {
	switch x := v.(type) {
	case int64:
		return int(x), true
	case int:
		return x, true
	case float64:
		if x == math.Trunc(x) {
			return int(x), true
		}
	}
	return 0, false
}

// pyFormat is str.format with keyword fields only ({name}, {{, }}).
func pyFormat(s string, kw map[string]string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' && i+1 < len(s) && s[i+1] == '{':
			b.WriteByte('{')
			i++
		case c == '}' && i+1 < len(s) && s[i+1] == '}':
			b.WriteByte('}')
			i++
		case c == '{':
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return "", fmt.Errorf("ValueError: expected '}' before end of string")
			}
			name := s[i+1 : i+j]
			v, ok := kw[name]
			if !ok {
				return "", fmt.Errorf("KeyError: %q in format string %q", name, s)
			}
			b.WriteString(v)
			i += j
		case c == '}':
			return "", fmt.Errorf("ValueError: single '}' encountered in format string")
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// DocToText is robustness_doc_to_text: the prompt with the question, the
// options as options_format lays each out (None without a format), and
// the category.
func DocToText(doc task.Doc) (string, error) {
	prompt, ok := doc["prompt"].(string)
	if !ok {
		return "", fmt.Errorf("score: prompt is %T (KeyError)", doc["prompt"])
	}
	format := ""
	if v, has := doc["options_format"]; has {
		format = pyval.Str(v)
		if v == nil {
			format = ""
		}
	}
	q, has := doc["question"]
	if !has {
		return "", fmt.Errorf("score: no question (KeyError)")
	}
	category := ""
	if v, has := doc["category"]; has {
		category = pyval.Str(v)
	}
	options := "None"
	if format != "" {
		opts, ok := doc["options"].([]any)
		if !ok {
			return "", fmt.Errorf("score: options is %T, want a list", doc["options"])
		}
		var b strings.Builder
		for i, o := range opts {
			if i >= len(numerals) {
				return "", fmt.Errorf("score: option %d (IndexError: NUMERALS)", i)
			}
			s, err := pyFormat(format, map[string]string{
				"letter": string(rune('A' + i)), "option": pyval.Str(o), "numeral": numerals[i],
				"roman_numeral": romanNumerals[i], "lower_case_letter": string(rune('a' + i)),
			})
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		}
		options = b.String()
	}
	return pyFormat(prompt, map[string]string{"question": pyval.Str(q), "options": options, "category": category})
}

var nonAlnum = pyre.MustCompile(`[^a-zA-Z0-9]`)

// PostprocessPred is __postprocess_pred: the word after the last "the
// best answer is " (lower-cased), letters and digits only, upper-cased;
// the answer unchanged when it does not say "the best answer is".
func PostprocessPred(pred string) string {
	low := pyre.Lower(pred)
	if !strings.Contains(low, "the best answer is") {
		return pred
	}
	parts := strings.Split(low, "the best answer is ")
	p := parts[len(parts)-1]
	p, _, _ = strings.Cut(p, "\n")
	p, _, _ = strings.Cut(p, " ")
	p, _ = nonAlnum.Sub("", p, 0)
	return pyre.Upper(pyre.Strip(p))
}

// TranslateAnswer is translate_model_answer_to_labels; format is nil for
// Python's None.
func TranslateAnswer(answer string, labels []string, format *string) (string, error) {
	answer = pyre.Upper(answer)
	if format == nil || !strings.Contains(*format, "numeral") {
		return answer, nil
	}
	list := numerals
	if strings.Contains(*format, "roman") {
		list = romanNumerals
	}
	for i, n := range list {
		if n == answer {
			if i >= len(labels) {
				return "", fmt.Errorf("score: label %d of %d (IndexError)", i, len(labels))
			}
			return labels[i], nil
		}
	}
	return answer, nil
}

// finalAnswer is the process_results' first two lines: the parsed answer
// in the labels of the document's options_format.
func finalAnswer(doc task.Doc, results []any, labels []string) (string, error) {
	if len(results) == 0 {
		return "", fmt.Errorf("score: no result (IndexError)")
	}
	r, ok := results[0].(string)
	if !ok {
		return "", fmt.Errorf("score: result is %T, want a generated string", results[0])
	}
	v, has := doc["options_format"]
	if !has {
		return "", fmt.Errorf("score: no options_format (KeyError)")
	}
	var format *string
	if v != nil {
		s := pyval.Str(v)
		format = &s
	}
	return TranslateAnswer(PostprocessPred(r), labels, format)
}

func label(labels []string, doc task.Doc, key string) (string, error) {
	i, ok := toInt(doc[key])
	if !ok {
		return "", fmt.Errorf("score: %s is %T (KeyError)", key, doc[key])
	}
	if i < 0 {
		i += len(labels)
	}
	if i < 0 || i >= len(labels) {
		return "", fmt.Errorf("score: %s %d (IndexError: LABELS)", key, i)
	}
	return labels[i], nil
}

// ConsistencyRate is calculate_consistency_rate: the share of agreeing
// pairs among the answers to each question.
func ConsistencyRate(responses [][]any) float64 {
	similar := 0
	combos := 0.0
	for _, set := range responses {
		n := len(set)
		combos += float64(n*(n-1)) / 2
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if pyval.Equal(set[i], set[j]) {
					similar++
				}
			}
		}
	}
	if combos > 0 {
		return float64(similar) / combos
	}
	return 0
}

// grouped collects values by key in first-seen order (a Python dict).
type grouped struct {
	keys []string
	m    map[string][]any
}

func (g *grouped) add(key any, v any) {
	if g.m == nil {
		g.m = map[string][]any{}
	}
	k := pyval.Repr(key)
	if _, ok := g.m[k]; !ok {
		g.keys = append(g.keys, k)
	}
	g.m[k] = append(g.m[k], v)
}

func (g *grouped) lists() [][]any {
	out := make([][]any, len(g.keys))
	for i, k := range g.keys {
		out[i] = g.m[k]
	}
	return out
}

func tuple(v any, n int) ([]any, error) {
	t, ok := v.([]any)
	if !ok || len(t) != n {
		return nil, fmt.Errorf("score: item %v is not a %d-tuple (ValueError: unpack)", v, n)
	}
	return t, nil
}

// PromptConsistencyRate is prompt_consistency_rate over (question_id,
// prompt_id, final_answer, gt) items.
func PromptConsistencyRate(items []any) (float64, error) {
	var g grouped
	for _, it := range items {
		t, err := tuple(it, 4)
		if err != nil {
			return 0, err
		}
		g.add(t[0], t[2])
	}
	return ConsistencyRate(g.lists()), nil
}

// OptionsConsistencyRate is options_consistency_rate over (question_id,
// always_same_option, final_answer, original_answer_index, answer_index)
// items: an answer that follows the moved correct option counts as the
// original one.
func OptionsConsistencyRate(items []any, labels []string) (float64, error) {
	var g grouped
	for _, it := range items {
		t, err := tuple(it, 5)
		if err != nil {
			return 0, err
		}
		oi, ok := toInt(t[3])
		if !ok || oi >= len(labels) || oi < -len(labels) {
			return 0, fmt.Errorf("score: original_answer_index %v (IndexError)", t[3])
		}
		if oi < 0 {
			oi += len(labels)
		}
		final := t[2]
		if pyval.Equal(final, labels[oi]) {
			final = t[1]
		}
		if pyval.Equal(final, t[1]) {
			final = labels[oi]
		}
		g.add(t[0], final)
	}
	return ConsistencyRate(g.lists()), nil
}

// npRound is np.round(x, 4): rint(x * 10**4) / 10**4.
func npRound(x float64) float64 { return math.RoundToEven(x*1e4) / 1e4 }

// npSum is numpy's pairwise summation of a float64 array (np.add.reduce).
func npSum(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		s := -0.0
		for _, x := range a {
			s += x
		}
		return s
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := 0; j < 8; j++ {
				r[j] += a[i+j]
			}
		}
		s := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += a[i]
		}
		return s
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return npSum(a[:n2]) + npSum(a[n2:])
	}
}

// npMean is np.mean of a list of floats (NaN for none).
func npMean(a []float64) float64 {
	if len(a) == 0 {
		return math.NaN()
	}
	return npSum(a) / float64(len(a))
}

// accuracy is sum(list of bools) / len: ZeroDivisionError for none.
func accuracy(right, n int) (float64, error) {
	if n == 0 {
		return 0, fmt.Errorf("score: no answers (ZeroDivisionError: division by zero)")
	}
	return float64(right) / float64(n), nil
}

// macroAccuracy is the mean over categories (first-seen order) of each
// category's accuracy, np.round(np.mean(...), 4).
func macroAccuracy(cats []any, right []bool) float64 {
	var g grouped
	for i, c := range cats {
		g.add(c, right[i])
	}
	var accs []float64
	for _, l := range g.lists() {
		k := 0
		for _, v := range l {
			if v.(bool) {
				k++
			}
		}
		accs = append(accs, float64(k)/float64(len(l)))
	}
	return npRound(npMean(accs))
}
