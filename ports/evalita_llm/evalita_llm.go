// Package evalita_llm ports lm_eval/tasks/evalita_llm's helpers (utils.py,
// metrics.py, sum_utils.py): the targets of sentiment analysis, FAQ,
// lexical substitution, NER and relation extraction, their
// process_results, the custom F1 aggregations, and the summaries'
// ROUGE-1.
package evalita_llm

import (
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"unicode"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// SADocToTarget is sa_doc_to_target (and sa_doc_to_target_v2): the class
// of the (opos, oneg) flags.
func SADocToTarget(doc task.Doc) (any, error) {
	opos, err := pydoc.Field(doc, "opos")
	if err != nil {
		return nil, err
	}
	oneg, err := pydoc.Field(doc, "oneg")
	if err != nil {
		return nil, err
	}
	switch {
	case opos == "1" && oneg == "0":
		return 0, nil
	case opos == "0" && oneg == "1":
		return 1, nil
	case opos == "0" && oneg == "0":
		return 2, nil
	case opos == "1" && oneg == "1":
		return 3, nil
	}
	return nil, nil // None, as the Python function falls through
}

// SADocToChoice is sa_doc_to_choice.
func SADocToChoice(task.Doc) (any, error) {
	return []string{"Positivo", "Negativo", "Neutrale", "Misto"}, nil
}

// FAQDocToTarget is faq_doc_to_target: the answer letter's index.
func FAQDocToTarget(doc task.Doc) (any, error) {
	a, err := pydoc.Field(doc, "correct_answer")
	if err != nil {
		return nil, err
	}
	for i, l := range []string{"A", "B", "C", "D"} {
		if a == l {
			return i, nil
		}
	}
	// None, after lm-eval's warning.
	slog.Warn(`WARNING: correct answer not found or not in ["A", "B", "C", "D"]`, "correct_answer", pyval.Repr(a))
	return nil, nil
}

const (
	noSyn = "&&NOSYN&&"
	noEnt = "&&NOENT&&"
	noRel = "&&NOREL&&"
)

func answers(doc task.Doc) ([]map[string]any, error) {
	l, err := pyfn.List(doc, "answers")
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, len(l))
	for i, a := range l {
		m, ok := a.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("TypeError: answers[%d] is %s", i, pydoc.TypeName(a))
		}
		out[i] = m
	}
	return out, nil
}

// lastTwo drops s's final two characters when the second to last is sep
// (`if len(s) != 0 and s[-2] == sep: s = s[:-2]`).
func lastTwo(s string, sep rune) string {
	r := []rune(s)
	if len(r) >= 2 && r[len(r)-2] == sep {
		return string(r[:len(r)-2])
	}
	return s
}

// LSDocToTarget is ls_doc_to_target: the annotators' words, ", "-joined.
func LSDocToTarget(doc task.Doc) (any, error) {
	as, err := answers(doc)
	if err != nil {
		return nil, err
	}
	if len(as) == 0 {
		return noSyn, nil
	}
	var b strings.Builder
	for _, a := range as {
		w, err := pyfn.PathStr(a, "word")
		if err != nil {
			return nil, err
		}
		b.WriteString(w + ", ")
	}
	return lastTwo(b.String(), ','), nil
}

// lsGold is _ls_gold_to_target then _ls_split_gold: the words and their
// counts.
func lsGold(doc task.Doc) ([]string, []int64, error) {
	as, err := answers(doc)
	if err != nil {
		return nil, nil, err
	}
	if len(as) == 0 {
		return nil, nil, nil
	}
	var b strings.Builder
	for _, a := range as {
		w, err := pyfn.PathStr(a, "word")
		if err != nil {
			return nil, nil, err
		}
		c, err := pyfn.Path(a, "count")
		if err != nil {
			return nil, nil, err
		}
		b.WriteString(w + "$$" + pyval.Str(c) + "::")
	}
	s := lastTwo(b.String(), ':')
	if s == noSyn {
		return nil, nil, nil
	}
	var words []string
	var freqs []int64
	for _, a := range strings.Split(s, "::") {
		if !strings.Contains(a, "$$") {
			continue
		}
		parts := strings.Split(a, "$$")
		if len(parts) != 2 {
			return nil, nil, fmt.Errorf("ValueError: too many values to unpack (expected 2)")
		}
		words = append(words, parts[0])
		n, err := pyval.Int(parts[1])
		if err != nil {
			n = 0
		}
		freqs = append(freqs, n)
	}
	return words, freqs, nil
}

var notComma = regexp.MustCompile(`[^,]+`)

// SplitTextWithRegex is split_text_with_regex(text, r"[^,]+"): the first
// line's comma-separated items (a quoted item split again inside its
// quotes), stripped, quotes removed.
func SplitTextWithRegex(text string) []string {
	text = strings.Split(text, "\n")[0]
	var out []string
	for _, m := range notComma.FindAllString(text, -1) {
		if strings.HasPrefix(m, `"`) && strings.HasSuffix(m, `"`) {
			inner := pyfn.Slice(m, 1, ptr(-1))
			out = append(out, notComma.FindAllString(inner, -1)...)
		} else {
			out = append(out, m)
		}
	}
	for i, e := range out {
		out[i] = strings.ReplaceAll(pyre.Strip(e), `"`, "")
	}
	return out
}

func ptr(i int) *int { return &i }

// LSProcessResults is ls_process_results: (the annotators' frequencies of
// the first ten answered synonyms over their total, has_answer,
// has_annotation).
func LSProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	words, freqs, err := lsGold(doc)
	if err != nil {
		return nil, err
	}
	r, err := pyfn.Result(results)
	if err != nil {
		return nil, err
	}
	res := SplitTextWithRegex(r)
	res = res[:min(10, len(res))]
	if len(res) > 0 {
		res[len(res)-1] = strings.Map(func(c rune) rune {
			if unicode.IsLetter(c) {
				return c
			}
			return -1
		}, res[len(res)-1])
	}
	hasAnsw, hasAnnot := int64(0), int64(0)
	if len(res) > 0 {
		hasAnsw = 1
	}
	if len(words) > 0 {
		hasAnnot = 1
	}
	index := func(w string) int {
		for i, x := range words {
			if x == w {
				return i
			}
		}
		return -1
	}
	var prec int64
	for _, x := range res {
		if index(x) >= 0 {
			i := index(pyre.Strip(x))
			if i < 0 {
				return nil, fmt.Errorf("ValueError: %s is not in list", pyval.Repr(pyre.Strip(x)))
			}
			prec += freqs[i]
		}
	}
	var hi int64
	for _, f := range freqs {
		hi += f
	}
	var p any = prec
	if hi != 0 {
		p = float64(prec) / float64(hi)
	}
	return map[string]any{"f1": []any{p, hasAnsw, hasAnnot}}, nil
}

// nerMapping is NER_MAPPING.
var nerMapping = map[string]int64{"PER": 0, "LOC": 1, "ORG": 2, "O": 3}

type entity struct{ text, typ string }

func entities(doc task.Doc) ([]entity, error) {
	l, err := pyfn.List(doc, "entities")
	if err != nil {
		return nil, err
	}
	out := make([]entity, len(l))
	for i, e := range l {
		t, err := pyfn.PathStr(e, "entity_text")
		if err != nil {
			return nil, err
		}
		ty, err := pyfn.PathStr(e, "type")
		if err != nil {
			return nil, err
		}
		out[i] = entity{t, ty}
	}
	return out, nil
}

// NERDocToTarget is ner_doc_to_target: "Entità$Tipo,Entità$Tipo".
func NERDocToTarget(doc task.Doc) (any, error) {
	es, err := entities(doc)
	if err != nil {
		return nil, err
	}
	if len(es) == 0 {
		return noEnt, nil
	}
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.text + "$" + e.typ
	}
	return strings.Join(parts, ","), nil
}

// nerRawOutput is _ner_process_raw_output: (text, TYPE) pairs; an empty
// answer is the string "WRONG", whose first two characters then stand
// for text and type.
func nerRawOutput(s string) []entity {
	if strings.Contains(s, noEnt) {
		return nil
	}
	if s == "" {
		return []entity{{"W", "R"}}
	}
	var out []entity
	for _, res := range strings.Split(s, ",") {
		sp := strings.Split(pyre.Strip(res), "$")
		e := entity{text: sp[0]}
		if len(sp) >= 2 {
			e.typ = sp[1]
		}
		if e.text != "" {
			out = append(out, entity{e.text, pyre.Upper(e.typ)})
		}
	}
	return out
}

func int64s(xs []int64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// NERProcessResults is ner_process_results: {"f1": (predicted labels, gold
// labels)}, one label per gold entity (and a false positive per extra
// answer).
func NERProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	gold, err := entities(doc)
	if err != nil {
		return nil, err
	}
	r, err := pyfn.Result(results)
	if err != nil {
		return nil, err
	}
	res := nerRawOutput(r)
	goldLabels := make([]int64, len(gold))
	for i, g := range gold {
		n, ok := nerMapping[g.typ]
		if !ok {
			return nil, fmt.Errorf("KeyError: %s", pyval.Repr(g.typ))
		}
		goldLabels[i] = n
	}
	resLabels := make([]int64, len(gold))
	matched := map[int]bool{}
	match := func() {
		for _, x := range res {
			for i, g := range gold {
				if x.text == g.text && x.typ == g.typ {
					resLabels[i] = nerMapping[x.typ]
					matched[i] = true
				}
			}
		}
	}
	switch {
	case len(res) > len(gold):
		match()
		for range len(res) - len(gold) {
			goldLabels = append(goldLabels, 3)
			resLabels = append(resLabels, 2)
		}
	case len(res) == 0 && len(gold) == 0:
		resLabels = []int64{3}
		goldLabels = resLabels
	default:
		match()
		for i := range goldLabels {
			if !matched[i] {
				resLabels[i] = 3
			}
		}
	}
	return map[string]any{"f1": []any{int64s(resLabels), int64s(goldLabels)}}, nil
}

type relation struct{ a, b string }

func relations(doc task.Doc) ([]relation, error) {
	l, err := pyfn.List(doc, "relations")
	if err != nil {
		return nil, err
	}
	out := make([]relation, len(l))
	for i, e := range l {
		a, err := pyfn.PathStr(e, 0)
		if err != nil {
			return nil, err
		}
		b, err := pyfn.PathStr(e, 1)
		if err != nil {
			return nil, err
		}
		out[i] = relation{a, b}
	}
	return out, nil
}

// REDocToTarget is re_doc_to_target: "a$b%c$d" (NOENT when empty).
func REDocToTarget(doc task.Doc) (any, error) {
	rs, err := relations(doc)
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return noEnt, nil
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.a + "$" + r.b
	}
	return strings.Join(parts, "%"), nil
}

// RelProcessResultsV3 is rel_process_results_v3: {"f1": (predicted,
// gold)} binary labels, one per gold relation found in the answer (in any
// order), plus a false positive per extra answered relation.
func RelProcessResultsV3(doc task.Doc, results []any) (map[string]any, error) {
	gold, err := relations(doc)
	if err != nil {
		return nil, err
	}
	raw, err := pyfn.Result(results)
	if err != nil {
		return nil, err
	}
	hasResults := !strings.Contains(raw, noRel)
	hasGold := len(gold) > 0
	goldLabels := []int64{0}
	if hasGold {
		goldLabels = make([]int64, len(gold))
		for i := range goldLabels {
			goldLabels[i] = 1
		}
	}
	var resLabels []int64
	switch {
	case !hasResults && hasGold:
		resLabels = make([]int64, len(goldLabels))
	case !hasResults && !hasGold:
		resLabels = goldLabels
	case hasResults && !hasGold:
		resLabels = make([]int64, len(goldLabels))
		for i := range resLabels {
			resLabels[i] = 1
		}
	default:
		// _rel_process_raw_output: "" is the string "WRONG"; a pair
		// otherwise. deleted marks the results matched already.
		var rs []relation
		wrong := false
		if raw == "" {
			wrong = true
			rs = []relation{{"W", "R"}}
		} else {
			for _, res := range strings.Split(raw, "%") {
				sp := strings.Split(res, "$")
				r := relation{a: pyre.Strip(sp[0])}
				if len(sp) >= 2 {
					r.b = pyre.Strip(sp[1])
				}
				rs = append(rs, r)
			}
		}
		deleted := make([]bool, len(rs))
		resLabels = make([]int64, len(gold))
		for i, g := range gold {
			for j, r := range rs {
				if deleted[j] {
					r = relation{"DELETED", "DELETED"}
				}
				if r.a == g.a && r.b == g.b {
					resLabels[i] = 1
					deleted[j] = true
				}
			}
		}
		for i := range max(0, len(rs)-len(gold)) {
			if deleted[i] || (!wrong && rs[i] == relation{"DELETED", "DELETED"}) {
				continue
			}
			resLabels = append(resLabels, 1)
			goldLabels = append(goldLabels, 0)
		}
	}
	return map[string]any{"f1": []any{int64s(resLabels), int64s(goldLabels)}}, nil
}

// ProcessResultsSum is sum_utils.process_results_sum: ROUGE-1 (evaluate's,
// one document: no resampling) of the answer against the summary (or
// target).
func ProcessResultsSum(doc task.Doc, results []any) (map[string]any, error) {
	ref, ok := doc["summary"]
	if !ok {
		ref = doc["target"]
	}
	rs, ok := ref.(string)
	if !ok {
		return nil, fmt.Errorf("AttributeError: the reference summary is %s", pydoc.TypeName(ref))
	}
	r, err := pyfn.Result(results)
	if err != nil {
		return nil, err
	}
	// The bootstrap of a single score draws nothing and its median mean is
	// the score itself.
	s := metrics.RougeN(metrics.RougeTokenize(rs), metrics.RougeTokenize(r), 1)
	return map[string]any{"rouge1": s.FMeasure}, nil
}
