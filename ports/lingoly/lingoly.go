// Package lingoly ports lm_eval/tasks/lingoly: utils.py's
// load_all_questions (one document per question of each problem sheet,
// with and without the sheet's context) and script.py's exact_match
// (per answer part, cleaned exact match, any listed alternative) and
// aggregate_scores (the share of right parts over all documents).
package lingoly

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// decodeJSON is json.loads: ints as int, other numbers float64.
func decodeJSON(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return ints(v), nil
}

func ints(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i, e := range x {
			x[i] = ints(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = ints(e)
		}
	}
	return v
}

type subprompt struct{ n, question, answer any }

type subquestion struct {
	prompt any
	subs   []subprompt
}

func questions(qsheet task.Doc) ([]subquestion, error) {
	s, ok := qsheet["questions"].(string)
	if !ok {
		return nil, fmt.Errorf("lingoly: questions is %T, want JSON text", qsheet["questions"])
	}
	v, err := decodeJSON(s)
	if err != nil {
		return nil, fmt.Errorf("lingoly: questions: %w", err)
	}
	l, ok := v.([]any)
	if !ok {
		return nil, errors.New("lingoly: questions is not a JSON list")
	}
	out := make([]subquestion, len(l))
	for i, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("lingoly: question %d is not an object", i)
		}
		sps, _ := m["subprompts"].([]any)
		sq := subquestion{prompt: m["prompt"]}
		for _, sp := range sps {
			spm, ok := sp.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("lingoly: question %d has a subprompt that is not an object", i)
			}
			sq.subs = append(sq.subs, subprompt{spm["questionpart_n"], spm["question"], spm["answer"]})
		}
		out[i] = sq
	}
	return out, nil
}

func (sq subquestion) text() string {
	s := "\n" + pyval.Str(sq.prompt) + "\n"
	for _, sp := range sq.subs {
		s += pyval.Str(sp.n) + " " + pyval.Str(sp.question) + "\n"
	}
	return s
}

func questionSheet(qsheet task.Doc, sqs []subquestion, noContext bool) string {
	all := ""
	for _, sq := range sqs {
		all += sq.text()
	}
	if noContext {
		return pyval.Str(qsheet["preamble"]) + "\n\n                 " + all + "\n                 "
	}
	return pyval.Str(qsheet["preamble"]) + "\n                 " + pyval.Str(qsheet["context"]) + "\n\n                 " + all + "\n                 "
}

// dictKeys gives a dict's keys in insertion order (a repeated key keeps
// its first place) with its last value per key.
func dictKeys(sq subquestion) ([]any, map[string]any) {
	var order []any
	vals := map[string]any{}
	for _, sp := range sq.subs {
		k := pyval.Repr(sp.n)
		if _, seen := vals[k]; !seen {
			order = append(order, sp.n)
		}
		vals[k] = sp.answer
	}
	return order, vals
}

func loadQuestion(qsheet task.Doc, sqs []subquestion, i int, noContext bool) (prompt, answers string, err error) {
	sq := sqs[i]
	order, vals := dictKeys(sq)
	out := make([]string, len(order))
	ans := make([]string, len(order))
	for j, k := range order {
		ks := pyval.Str(k) // json.dumps makes int keys strings
		if _, isStr := k.(string); !isStr {
			switch k.(type) {
			case int, float64, bool, nil:
			default:
				return "", "", fmt.Errorf("lingoly: keys must be str, int, float, bool or None, not %T", k)
			}
			if k == nil {
				ks = "null"
			} else if b, ok := k.(bool); ok {
				ks = strconv.FormatBool(b)
			}
		}
		kj, err := pyval.JSON(ks, pyval.JSONOptions{Indent: -1, ASCII: true})
		if err != nil {
			return "", "", err
		}
		out[j] = kj + ": \"\""
		ans[j] = pyval.Repr(k) + ": " + pyval.Repr(vals[pyval.Repr(k)])
	}
	body := questionSheet(qsheet, sqs, noContext)
	prompt = "Below is a problem sheet from a lingusitics exam. You will first see the entire sheet, then be asked to respond to specific questions from the sheet. Your answers to the questions should rely only on reasoning about the information provided in the sheet.\n                " +
		body + "\n\n                Now respond to the following questions:\n                " + sq.text() +
		"\n\n                Format your response as a json file with the keys as provided below:\n                {" + strings.Join(out, ", ") + "}\n                "
	return prompt, "{" + strings.Join(ans, ", ") + "}", nil
}

// LoadAllQuestions is utils.py's load_all_questions.
func LoadAllQuestions(sheets []task.Doc) ([]task.Doc, error) {
	out := []task.Doc{}
	for _, qs := range sheets {
		sqs, err := questions(qs)
		if err != nil {
			return nil, err
		}
		for i := range sqs {
			p, a, err := loadQuestion(qs, sqs, i, false)
			if err != nil {
				return nil, err
			}
			nc, _, err := loadQuestion(qs, sqs, i, true)
			if err != nil {
				return nil, err
			}
			out = append(out, task.Doc{"prompt": p, "nc_prompt": nc, "answers": a, "index": qs["overall_question_n"]})
		}
	}
	return out, nil
}

var (
	spaces = pyre.MustCompile(`[ ]+`)
	plus   = pyre.MustCompile(`\+`)
)

// CleanAnswer is clean_answer.
func CleanAnswer(s string) string {
	c := strings.Trim(pyre.Strip(s), ".")
	c, _ = spaces.Sub(" ", c, 0)
	c = pyre.Lower(c)
	c, _ = plus.Sub("", c, 0)
	c = strings.NewReplacer("‘", "'", "’", "'", "“", "\"", "”", "\"").Replace(c)
	return norm.NFKD.String(c)
}

// safeExact is safe_exact of one reference and prediction.
func safeExact(ref, pred string) float64 {
	if ref == "" {
		return 1
	}
	if pred == "" {
		return 0
	}
	if ref == pred {
		return 1
	}
	return 0
}

func pyLen(v any) (int, error) {
	switch x := v.(type) {
	case string:
		return len([]rune(x)), nil
	case []any:
		return len(x), nil
	case map[string]any:
		return len(x), nil
	}
	return 0, fmt.Errorf("object of type %T has no len()", v)
}

func contains(v any, sub string) bool {
	switch x := v.(type) {
	case string:
		return strings.Contains(x, sub)
	case []any:
		for _, e := range x {
			if pyval.Equal(e, sub) {
				return true
			}
		}
	}
	return false
}

// parseStrListScore is parse_str_list_score with safe_exact; it returns a
// float64, or a bool for the membership test of long lists.
func parseStrListScore(modelV, correct any) (any, error) {
	model := pyval.Str(modelV)
	n, err := pyLen(correct)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return 1.0, nil
	}
	if model == "" {
		return 0.0, nil
	}
	if contains(correct, "[") && (contains(correct, "'") || contains(correct, "\"")) {
		s, ok := correct.(string)
		if !ok {
			return nil, errors.New("lingoly: malformed node or string (literal_eval of a list)")
		}
		v, err := pyval.LiteralEval(s)
		if err != nil {
			return nil, fmt.Errorf("lingoly: literal_eval(%s): %w", pyval.Repr(s), err)
		}
		if l, ok := v.([]any); ok {
			correct = l
		}
	}
	cm := CleanAnswer(model)
	l, isList := correct.([]any)
	if !isList {
		s, ok := correct.(string)
		if !ok {
			return nil, fmt.Errorf("lingoly: %T has no strip()", correct)
		}
		return safeExact(CleanAnswer(s), cm), nil
	}
	allStr := true
	for _, c := range l {
		if _, ok := c.(string); !ok {
			allStr = false
		}
	}
	if allStr && len(l) > 24 {
		for _, c := range l {
			if CleanAnswer(c.(string)) == cm {
				return true, nil
			}
		}
		return false, nil
	}
	best := 0.0
	for _, c := range l {
		var ref string
		switch x := c.(type) {
		case string:
			ref = x
		case []any:
			parts := make([]string, len(x))
			for i, e := range x {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("lingoly: sequence item %d: expected str instance, %T found", i, e)
				}
				parts[i] = s
			}
			ref = strings.Join(parts, ", ")
		default:
			return nil, fmt.Errorf("lingoly: %T has no strip()", c)
		}
		if s := safeExact(CleanAnswer(ref), cm); s > best {
			best = s
		}
	}
	return best, nil
}

// item is one key: value of a dict literal: the key's repr (which tells
// 3 from '3', as Python's dict does), the key and the value.
type item struct {
	id         string
	key, value any
}

// dictItems parses a dict literal (ast.literal_eval of "{...}") keeping
// its keys' order and types; a repeated key keeps its first place and
// its last value. ok is false when src is not a dict literal.
func dictItems(src string) ([]item, bool) {
	v, err := pyval.LiteralEval(src)
	if err != nil {
		return nil, false
	}
	if _, isDict := v.(map[string]any); !isDict {
		return nil, false
	}
	body := strings.TrimSpace(src)
	body = strings.TrimSpace(body[1 : len(body)-1])
	var parts []string
	depth, start := 0, 0
	quote := ""
	for i := 0; i < len(body); i++ {
		c := body[i]
		if quote != "" {
			switch {
			case c == '\\':
				i++
			case strings.HasPrefix(body[i:], quote):
				i += len(quote) - 1
				quote = ""
			}
			continue
		}
		switch c {
		case '\'', '"':
			q := string(c)
			if strings.HasPrefix(body[i:], q+q+q) {
				q += q + q
			}
			quote = q
			i += len(q) - 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',', ':':
			if depth == 0 {
				parts = append(parts, body[start:i], string(c))
				start = i + 1
			}
		}
	}
	if rest := strings.TrimSpace(body[start:]); rest != "" {
		parts = append(parts, body[start:])
	}
	var out []item
	idx := map[string]int{}
	for i := 0; i+2 < len(parts); i += 4 {
		if parts[i+1] != ":" {
			return nil, false
		}
		k, err1 := pyval.LiteralEval(strings.TrimSpace(parts[i]))
		val, err2 := pyval.LiteralEval(strings.TrimSpace(parts[i+2]))
		if err1 != nil || err2 != nil {
			return nil, false
		}
		id := pyval.Repr(k)
		if j, seen := idx[id]; seen {
			out[j].value = val
			continue
		}
		idx[id] = len(out)
		out = append(out, item{id, k, val})
	}
	return out, true
}

// ExactMatch is script.py's exact_match: one score per answer part.
func ExactMatch(refs, preds []any) (any, error) {
	if len(refs) == 0 || len(preds) == 0 {
		return nil, errors.New("lingoly exact_match: list index out of range")
	}
	rs, ok := refs[0].(string)
	if !ok {
		return nil, fmt.Errorf("lingoly exact_match: reference is %T", refs[0])
	}
	ref, ok := dictItems(rs)
	if !ok {
		return nil, fmt.Errorf("lingoly exact_match: reference %s is not a dict literal", pyval.Repr(rs))
	}
	pred := pyval.Str(preds[0])
	predDict := map[string]any{}
	parsed := false
	if i := strings.Index(pred, "{"); i >= 0 {
		src := pred[i:]
		if !strings.HasSuffix(pred, "}") {
			src += "}"
		}
		if items, ok := dictItems(src); ok {
			for _, it := range items {
				predDict[it.id] = it.value
			}
			parsed = true
		}
	}
	if !parsed {
		for _, it := range ref {
			e := pyre.Escape(pyval.Str(it.key))
			if m := pyre.MustCompile(e + `': ([^']+)'[,\}]`).Search(pred); m != nil {
				predDict[it.id] = m.Group(0)[:len(m.Group(0))-1]
			} else if n := pyre.MustCompile(e + `": ([^"]+)"[,\}]`).Search(pred); n != nil {
				predDict[it.id] = n.Group(0)[:len(n.Group(0))-1]
			} else {
				predDict[it.id] = ""
			}
		}
	}
	scores := make([]any, len(ref))
	for i, it := range ref {
		p, ok := predDict[it.id]
		if !ok {
			p = ""
		}
		var err error
		if scores[i], err = parseStrListScore(p, it.value); err != nil {
			return nil, err
		}
	}
	return scores, nil
}

func num(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case int:
		return float64(x), nil
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("unsupported operand type %T", v)
}

// AggregateScores is aggregate_scores: all right parts over all parts.
var AggregateScores = &metrics.Aggregation{Name: "lingoly.aggregate_scores", Fn: func(items []any) (float64, error) {
	total, n := 0.0, 0
	for i, it := range items {
		l, ok := it.([]any)
		if !ok {
			return 0, fmt.Errorf("aggregate_scores: item %d is %T, want a list of scores", i, it)
		}
		s := 0.0
		for _, x := range l {
			f, err := num(x)
			if err != nil {
				return 0, err
			}
			s += f
		}
		total += s
		n += len(l)
	}
	if n == 0 {
		return 0, errors.New("aggregate_scores: division by zero")
	}
	return total / float64(n), nil
}}
