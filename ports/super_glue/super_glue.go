// Package super_glue ports the helpers of lm_eval/tasks/super_glue: cb's
// three-class F1 aggregations (aggregate.py, t5_utils.py), copa's prompt
// (utils.py), multirc's T5 metrics, record's prompts, documents and
// metrics (util.py, t5_utils.py) and wsc's prompts and T5 scoring
// (preprocess_wsc.py, t5_utils.py).
package super_glue

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/npmath"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pystr"
	"github.com/lmeval/lmeval/ports/internal/squad"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// ---- binary and three-class F1

// binaryF1 is sklearn's f1_score of boolean labels (0 when undefined).
func binaryF1(gold, pred []bool) float64 {
	tp, fp, fn := 0.0, 0.0, 0.0
	for i := range gold {
		switch {
		case gold[i] && pred[i]:
			tp++
		case pred[i]:
			fp++
		case gold[i]:
			fn++
		}
	}
	if d := 2*tp + fp + fn; d > 0 {
		return 2 * tp / d
	}
	return 0
}

// threeClassF1 is the mean of the binary F1 of classes 0, 1 and 2
// (cb_multi_fi; fbeta_score(beta=1, labels=range(3), average="macro")).
func threeClassF1(gold, pred []int) float64 {
	fs := make([]float64, 3)
	for k := range fs {
		g, p := make([]bool, len(gold)), make([]bool, len(pred))
		for i := range gold {
			g[i], p[i] = gold[i] == k, pred[i] == k
		}
		fs[k] = binaryF1(g, p)
	}
	return npmath.Mean(fs)
}

// CBMultiF1 is cb/aggregate.py's cb_multi_fi over the f1 metric's
// (gold, prediction) pairs.
var CBMultiF1 = &metrics.Aggregation{Name: "super_glue.cb.cb_multi_fi", Fn: func(items []any) (float64, error) {
	gold, pred := make([]int, len(items)), make([]int, len(items))
	for i, it := range items {
		p, ok := it.(metrics.Pair)
		if !ok {
			return 0, fmt.Errorf("cb_multi_fi: item %d is %T, want a (gold, prediction) pair", i, it)
		}
		gold[i], pred[i] = p.Gold, p.Pred
	}
	return threeClassF1(gold, pred), nil
}}

var cbLabels = []string{"entailment", "contradiction", "neutral"}

func index(list []string, s any) int {
	for i, l := range list {
		if pyval.Equal(l, s) {
			return i
		}
	}
	return -1
}

func first(name string, l []any) (any, error) {
	if len(l) == 0 {
		return nil, fmt.Errorf("%s: list index out of range", name)
	}
	return l[0], nil
}

// Mean3ClassF1 is cb/t5_utils.py's mean_3class_f1: (prediction index, 0
// for an unknown label; reference index).
func Mean3ClassF1(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
	p, err := first("mean_3class_f1", preds)
	if err != nil {
		return nil, err
	}
	r, err := first("mean_3class_f1", refs)
	if err != nil {
		return nil, err
	}
	pi := max(index(cbLabels, p), 0)
	ri := index(cbLabels, r)
	if ri < 0 {
		return nil, fmt.Errorf("mean_3class_f1: %s is not in list", pyval.Repr(r))
	}
	return []any{pi, ri}, nil
}

func intsOf(name string, items []any, n int) ([][]any, error) {
	out := make([][]any, len(items))
	for i, it := range items {
		l, ok := it.([]any)
		if !ok || len(l) != n {
			return nil, fmt.Errorf("%s: item %d is %T, want a %d-tuple", name, i, it, n)
		}
		out[i] = l
	}
	return out, nil
}

func asInt(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case bool:
		if x {
			return 1
		}
	}
	return 0
}

// AggMean3ClassF1 is agg_mean_3class_f1.
var AggMean3ClassF1 = &metrics.Aggregation{Name: "super_glue.cb.agg_mean_3class_f1", Fn: func(items []any) (float64, error) {
	ts, err := intsOf("agg_mean_3class_f1", items, 2)
	if err != nil {
		return 0, err
	}
	pred, ref := make([]int, len(ts)), make([]int, len(ts))
	for i, t := range ts {
		pred[i], ref[i] = asInt(t[0]), asInt(t[1])
	}
	return threeClassF1(ref, pred), nil
}}

// ---- copa

func convertChoice(c string) string {
	r, n := utf8.DecodeRuneInString(c)
	if r == utf8.RuneError && n == 0 {
		return c // Python: IndexError; copa's choices are never empty
	}
	return pyre.Lower(c[:n]) + c[n:]
}

// CopaDocToText is copa/utils.py's doc_to_text.
func CopaDocToText(doc task.Doc) (any, error) {
	q, _ := doc["question"].(string)
	conn, ok := map[string]string{"cause": "because", "effect": "therefore"}[q]
	if !ok {
		return nil, fmt.Errorf("copa doc_to_text: KeyError: %s", pyval.Repr(doc["question"]))
	}
	p, err := pydoc.String(doc, "premise")
	if err != nil {
		return nil, err
	}
	r := []rune(pyre.Strip(p))
	if len(r) > 0 {
		r = r[:len(r)-1]
	}
	return string(r) + " " + conn, nil
}

func choice(doc task.Doc, key string) (string, error) {
	s, err := pydoc.String(doc, key)
	if err != nil {
		return "", err
	}
	if s == "" {
		return "", fmt.Errorf("copa: %s is empty (IndexError)", key)
	}
	return " " + convertChoice(s), nil
}

// CopaDocToTarget is copa/utils.py's doc_to_target.
func CopaDocToTarget(doc task.Doc) (any, error) {
	if pyval.Equal(doc["label"], 0) {
		return choice(doc, "choice1")
	}
	return choice(doc, "choice2")
}

// CopaDocToChoice is copa/utils.py's doc_to_choice.
func CopaDocToChoice(doc task.Doc) (any, error) {
	a, err := choice(doc, "choice1")
	if err != nil {
		return nil, err
	}
	b, err := choice(doc, "choice2")
	if err != nil {
		return nil, err
	}
	return []string{a, b}, nil
}

// ---- multirc

var boolLabels = []string{"False", "True"}

func multircRef(name string, refs []any, whole bool) (group string, ref int, err error) {
	r, err := first(name, refs)
	if err != nil {
		return "", 0, err
	}
	s, ok := r.(string)
	if !ok {
		return "", 0, fmt.Errorf("%s: reference is %T, want text", name, r)
	}
	parts := strings.Split(s, "_")
	if whole && len(parts) != 2 {
		return "", 0, fmt.Errorf("%s: %s does not split into (group, label) on \"_\" (ValueError)", name, pyval.Repr(s))
	}
	ref = index(boolLabels, parts[len(parts)-1])
	if ref < 0 {
		return "", 0, fmt.Errorf("%s: %s is not in list", name, pyval.Repr(parts[len(parts)-1]))
	}
	return parts[0], ref, nil
}

// multircPred is the prediction: the label's index, or not bool(reference)
// (a bool) for an unknown label.
func multircPred(name string, preds []any, ref int) (any, error) {
	p, err := first(name, preds)
	if err != nil {
		return nil, err
	}
	if i := index(boolLabels, p); i >= 0 {
		return i, nil
	}
	return ref == 0, nil
}

// MultircF1 is multirc/t5_utils.py's f1: (prediction, reference).
func MultircF1(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
	_, ref, err := multircRef("f1", refs, false)
	if err != nil {
		return nil, err
	}
	p, err := multircPred("f1", preds, ref)
	if err != nil {
		return nil, err
	}
	return []any{p, ref}, nil
}

// MultircEM is multirc/t5_utils.py's em: (group, prediction, reference).
func MultircEM(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
	g, ref, err := multircRef("em", refs, true)
	if err != nil {
		return nil, err
	}
	p, err := multircPred("em", preds, ref)
	if err != nil {
		return nil, err
	}
	return []any{g, p, ref}, nil
}

// MultircAggF1 is agg_f1: sklearn's binary f1_score(references, predictions).
var MultircAggF1 = &metrics.Aggregation{Name: "super_glue.multirc.agg_f1", Fn: func(items []any) (float64, error) {
	ts, err := intsOf("agg_f1", items, 2)
	if err != nil {
		return 0, err
	}
	gold, pred := make([]bool, len(ts)), make([]bool, len(ts))
	for i, t := range ts {
		pred[i], gold[i] = asInt(t[0]) == 1, asInt(t[1]) == 1
	}
	return binaryF1(gold, pred), nil
}}

// MultircAggEM is agg_em: the share of questions (groups) whose answers
// are all right.
var MultircAggEM = &metrics.Aggregation{Name: "super_glue.multirc.agg_em", Fn: func(items []any) (float64, error) {
	ts, err := intsOf("agg_em", items, 3)
	if err != nil {
		return 0, err
	}
	var order []string
	allRight := map[string]bool{}
	for _, t := range ts {
		g := pyval.Str(t[0])
		if _, seen := allRight[g]; !seen {
			order = append(order, g)
			allRight[g] = true
		}
		if asInt(t[1]) != asInt(t[2]) {
			allRight[g] = false
		}
	}
	scores := make([]float64, len(order))
	for i, g := range order {
		if allRight[g] {
			scores[i] = 1
		}
	}
	return npmath.Mean(scores), nil
}}

// ---- record (t5_utils.py)

var (
	highlightPunct = pyre.MustCompile(`(\.|\?|\!|\"|\')\n@highlight\n`)
	highlight      = pyre.MustCompile(`\n@highlight\n`)
)

// RecordT5DocToText is record/t5_utils.py's doc_to_text.
func RecordT5DocToText(doc task.Doc) (any, error) {
	p, err := pydoc.String(doc, "passage")
	if err != nil {
		return nil, err
	}
	if p, err = highlightPunct.Sub(`\1 `, p, 0); err != nil {
		return nil, err
	}
	if p, err = highlight.Sub(". ", p, 0); err != nil {
		return nil, err
	}
	q, err := pydoc.String(doc, "query")
	if err != nil {
		return nil, err
	}
	ents, ok := doc["entities"].([]any)
	if !ok {
		return nil, fmt.Errorf("record: entities is %T, want a list", doc["entities"])
	}
	es := make([]string, len(ents))
	for i, e := range ents {
		if es[i], ok = e.(string); !ok {
			return nil, fmt.Errorf("record: entity %d is %T (str.join needs text)", i, e)
		}
	}
	return strings.Join([]string{"record query:", q, "entities:", strings.Join(es, ", "), "passage:", p}, " "), nil
}

// RecordT5ProcessDocs is record/t5_utils.py's process_docs: one document
// per answer, its answers column that answer.
func RecordT5ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := []task.Doc{}
	for i, d := range docs {
		answers, ok := d["answers"].([]any)
		if !ok {
			return nil, fmt.Errorf("record process_docs: document %d: answers is %T, want a list", i, d["answers"])
		}
		for _, a := range answers {
			nd := make(task.Doc, len(d))
			for k, v := range d {
				nd[k] = v
			}
			nd["answers"] = a
			out = append(out, nd)
		}
	}
	return out, nil
}

// RecordPassthrough is t5_utils.py's em and f1: (prediction, reference).
func RecordPassthrough(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
	p, err := first("record", preds)
	if err != nil {
		return nil, err
	}
	r, err := first("record", refs)
	if err != nil {
		return nil, err
	}
	return []any{p, r}, nil
}

// NormalizeSquad is normalize_squad.
func NormalizeSquad(s string) string {
	return squad.WhiteSpaceFix(squad.RemoveArticles(squad.RemovePunc(pyre.Lower(s))))
}

type recordGroup struct {
	preds, targets []string
}

// groups is the aggregations' grouping of (prediction, "group_reference")
// items; firstPred keeps only each group's first prediction.
func groups(name string, items []any, firstPred bool) ([]*recordGroup, error) {
	ts, err := intsOf(name, items, 2)
	if err != nil {
		return nil, err
	}
	var order []*recordGroup
	byName := map[string]*recordGroup{}
	for i, t := range ts {
		p, ok1 := t[0].(string)
		r, ok2 := t[1].(string)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%s: item %d is not (text, text)", name, i)
		}
		parts := strings.Split(r, "_")
		if len(parts) != 2 {
			return nil, fmt.Errorf("%s: reference %s does not split into (group, reference) on \"_\" (ValueError)", name, pyval.Repr(r))
		}
		g := byName[parts[0]]
		if g == nil {
			g = &recordGroup{}
			byName[parts[0]] = g
			order = append(order, g)
			g.preds = append(g.preds, NormalizeSquad(p))
		} else if !firstPred {
			g.preds = append(g.preds, NormalizeSquad(p))
		}
		g.targets = append(g.targets, NormalizeSquad(parts[1]))
	}
	return order, nil
}

// SquadEMAgg is squad_em_agg.
var SquadEMAgg = &metrics.Aggregation{Name: "super_glue.record.squad_em_agg", Fn: func(items []any) (float64, error) {
	gs, err := groups("squad_em_agg", items, false)
	if err != nil {
		return 0, err
	}
	var em []float64
	for _, g := range gs {
		for _, p := range g.preds {
			hit := 0.0
			for _, t := range g.targets {
				if t == p {
					hit = 1
				}
			}
			em = append(em, hit)
		}
	}
	return npmath.Mean(em), nil
}}

// tokenF1 is squad_f1_agg's _f1_score of two normalised answers.
func tokenF1(pred, target string) float64 {
	return metrics.TokenF1(pystr.Fields(pred), pystr.Fields(target))
}

// SquadF1Agg is squad_f1_agg: each group's first prediction against its
// references, the best token F1.
var SquadF1Agg = &metrics.Aggregation{Name: "super_glue.record.squad_f1_agg", Fn: func(items []any) (float64, error) {
	gs, err := groups("squad_f1_agg", items, true)
	if err != nil {
		return 0, err
	}
	f1 := make([]float64, len(gs))
	for i, g := range gs {
		for j, t := range g.targets {
			if v := tokenF1(g.preds[0], t); j == 0 || v > f1[i] {
				f1[i] = v
			}
		}
	}
	return npmath.Mean(f1), nil
}}

// ---- record (util.py)

// RecordDocToText is util.py's doc_to_text: the passage, then its
// highlights as a list.
func RecordDocToText(doc task.Doc) (any, error) {
	p, err := pydoc.String(doc, "passage")
	if err != nil {
		return nil, err
	}
	parts := strings.Split(pyre.Strip(p), "\n@highlight\n")
	text := parts[0] + "\n\n"
	for _, h := range parts[1:] {
		text += "  - " + h + ".\n"
	}
	return text, nil
}

func formatAnswer(query, entity string) string {
	return strings.ReplaceAll("  - "+query, "@placeholder", entity)
}

func strList(doc task.Doc, key string) ([]string, error) {
	l, ok := doc[key].([]any)
	if !ok {
		return nil, fmt.Errorf("record: %s is %T, want a list", key, doc[key])
	}
	out := make([]string, len(l))
	for i, e := range l {
		if out[i], ok = e.(string); !ok {
			return nil, fmt.Errorf("record: %s[%d] is %T, want text", key, i, e)
		}
	}
	return out, nil
}

// RecordDocToTarget is util.py's doc_to_target: the query with the first
// answer in place of @placeholder.
func RecordDocToTarget(doc task.Doc) (any, error) {
	q, err := pydoc.String(doc, "query")
	if err != nil {
		return nil, err
	}
	a, err := strList(doc, "answers")
	if err != nil {
		return nil, err
	}
	if len(a) == 0 {
		return nil, errors.New("record doc_to_target: no answers (IndexError)")
	}
	return formatAnswer(q, a[0]), nil
}

// RecordDocToChoice is util.py's doc_to_choice: the query with each entity.
func RecordDocToChoice(doc task.Doc) (any, error) {
	q, err := pydoc.String(doc, "query")
	if err != nil {
		return nil, err
	}
	es, err := strList(doc, "entities")
	if err != nil {
		return nil, err
	}
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = formatAnswer(q, e)
	}
	return out, nil
}

func sortedSet(l []string) []any {
	seen := map[string]bool{}
	var u []string
	for _, s := range l {
		if !seen[s] {
			seen[s] = true
			u = append(u, s)
		}
	}
	sort.Strings(u)
	out := make([]any, len(u))
	for i, s := range u {
		out[i] = s
	}
	return out
}

// RecordProcessDocs is util.py's process_docs: entities and answers
// deduplicated and sorted.
func RecordProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		es, err := strList(d, "entities")
		if err != nil {
			return nil, err
		}
		as, err := strList(d, "answers")
		if err != nil {
			return nil, err
		}
		nd := make(task.Doc, len(d))
		for k, v := range d {
			nd[k] = v
		}
		nd["entities"], nd["answers"] = sortedSet(es), sortedSet(as)
		out[i] = nd
	}
	return out, nil
}

// RecordProcessResults is util.py's process_results: the most likely
// entity's best SQuAD f1 and exact match against the answers.
func RecordProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	lls := make([]float64, len(results))
	for i, r := range results {
		l, ok := r.(model.LoglikelihoodResult)
		if !ok {
			return nil, fmt.Errorf("record process_results: result %d is %T, want a log-likelihood", i, r)
		}
		lls[i] = l.LogProb
	}
	es, err := strList(doc, "entities")
	if err != nil {
		return nil, err
	}
	golds, err := strList(doc, "answers")
	if err != nil {
		return nil, err
	}
	if len(lls) == 0 || metrics.Argmax(lls) >= len(es) {
		return nil, errors.New("record process_results: no entity for the best choice (IndexError)")
	}
	if len(golds) == 0 {
		return nil, errors.New("record process_results: max() arg is an empty sequence")
	}
	pred := es[metrics.Argmax(lls)]
	f1s, ems := make([]any, len(golds)), make([]any, len(golds))
	for i, g := range golds {
		f1s[i] = squad.ComputeF1(pred, g)
		ems[i] = squad.ComputeExact(pred, g)
	}
	return map[string]any{"f1": squad.Max(f1s), "em": squad.Max(ems)}, nil
}

// ---- wsc

// GeneralDetokenize is lm_eval.utils.general_detokenize.
func GeneralDetokenize(s string) string {
	for _, r := range [][2]string{{" n't", "n't"}, {" )", ")"}, {"( ", "("}, {"\" ", "\""}, {" \"", "\""}} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	out, _ := detokPunct.Sub(`\1`, s, 0)
	return out
}

var detokPunct = pyre.MustCompile(` (['.,])`)

func intField(doc task.Doc, key string) (int, error) {
	switch x := doc[key].(type) {
	case int:
		return x, nil
	case int64:
		return int(x), nil
	}
	return 0, fmt.Errorf("wsc: %s is %T, want an int", key, doc[key])
}

// WSCDocToText is wsc/preprocess_wsc.py's default_doc_to_text: the
// passage with the pronoun starred, and the question.
func WSCDocToText(doc task.Doc) (any, error) {
	raw, err := pydoc.String(doc, "text")
	if err != nil {
		return nil, err
	}
	idx, err := intField(doc, "span2_index")
	if err != nil {
		return nil, err
	}
	s2, err := pydoc.String(doc, "span2_text")
	if err != nil {
		return nil, err
	}
	noun, err := pydoc.String(doc, "span1_text")
	if err != nil {
		return nil, err
	}
	words := pystr.Fields(raw)
	if idx < 0 {
		idx = max(len(words)+idx, 0)
	}
	pre := strings.Join(words[:min(idx, len(words))], " ")
	r := []rune(raw)
	start := utf8.RuneCountInString(pre) + utf8.RuneCountInString(s2) + 1
	post := ""
	if start < len(r) {
		post = string(r[start:])
	}
	passage := GeneralDetokenize(pre + " *" + s2 + "*" + post)
	return "Passage: " + passage + "\n" +
		"Question: In the passage above, does the pronoun \"*" + s2 + "*\" refer to \"*" + noun + "*\"?\n" +
		"Answer:", nil
}

const (
	wscSpecial1     = "The boy continued to whip the pony , and eventually the pony threw him over. John laughed out quite loud. \"Good for him,\" he said. "
	wscSpecial1Out  = "The boy continued to whip the pony , and eventually the pony threw him over. John laughed out quite loud. \"Good for X ,\" he said."
	wscSpecial2     = "When they had eventually calmed down a bit , and had gotten home, Mr. Farley put the magic pebble in an iron safe . Some day they might want to use it , but really for now, what more could they wish for?"
	wscSpecial2Out  = "When they had eventually calmed down a bit , and had gotten home, Mr. Farley put the magic pebble in an iron safe . Some day they might want to use X , but really for now, what more could they wish for?"
	errWSCAssertion = "wsc: AssertionError"
)

func wscInputs(doc task.Doc) (string, error) {
	text, err := pydoc.String(doc, "text")
	if err != nil {
		return "", err
	}
	words := strings.Split(text, " ")
	idx, err := intField(doc, "span2_index")
	if err != nil {
		return "", err
	}
	if idx <= 0 || idx >= len(words) {
		return "", fmt.Errorf("%s: span2_index %d", errWSCAssertion, idx)
	}
	switch text {
	case wscSpecial1:
		return wscSpecial1Out, nil
	case wscSpecial2:
		return wscSpecial2Out, nil
	}
	s2, err := pydoc.String(doc, "span2_text")
	if err != nil {
		return "", err
	}
	if words[idx] != s2 {
		return "", fmt.Errorf("%s: word %d is %q, not span2_text %q", errWSCAssertion, idx, words[idx], s2)
	}
	return strings.Join([]string{strings.Join(words[:idx], " "), "X", strings.Join(words[idx+1:], " ")}, " "), nil
}

var spacedX = pyre.MustCompile(` X `)

// WSCT5DocToText is wsc/t5_utils.py's doc_to_text.
func WSCT5DocToText(doc task.Doc) (any, error) {
	in, err := wscInputs(doc)
	if err != nil {
		return nil, err
	}
	s2, err := pydoc.String(doc, "span2_text")
	if err != nil {
		return nil, err
	}
	out, err := spacedX.Sub(" *"+s2+"* ", in, 0)
	if err != nil {
		return nil, err
	}
	return "wsc: " + out, nil
}

var determiners = map[string]bool{}

func init() {
	for _, w := range strings.Fields("a an few her his each every many much my our some that the their these this those which whose your") {
		determiners[w] = true
	}
}

func clean(s string) string {
	var keep []string
	for _, w := range strings.Split(pyre.Lower(pyre.Strip(s)), " ") {
		if !determiners[w] {
			keep = append(keep, w)
		}
	}
	return strings.Join(keep, " ")
}

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Split(s, " ") {
		out[w] = true
	}
	return out
}

func subset(a, b map[string]bool) bool {
	for w := range a {
		if !b[w] {
			return false
		}
	}
	return true
}

// WSCT5ProcessResults is wsc/t5_utils.py's process_results: accuracy 1
// when whether the answer names the referent agrees with the label.
func WSCT5ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) == 0 {
		return nil, errors.New("wsc process_results: no results")
	}
	resp, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("wsc process_results: result is %T, want the generated string", results[0])
	}
	s1, err := pydoc.String(doc, "span1_text")
	if err != nil {
		return nil, err
	}
	pred, ref := clean(resp), clean(s1)
	referent := false
	if strings.Contains(pred, "'") == strings.Contains(ref, "'") {
		pw, rw := wordSet(pred), wordSet(ref)
		referent = subset(pw, rw) || subset(rw, pw)
	}
	acc := 0.0
	if pyval.Equal(referent, doc["label"]) {
		acc = 1
	}
	return map[string]any{"accuracy": acc}, nil
}
