// Package scrolls ports lm-eval's scrolls/task.py: the SCROLLS classes
// (ContractNLI, GovReport, NarrativeQA, QMSum, Qasper, QuALITY,
// SummScreenFD) as native class tasks, with the SCROLLS metric script's
// f1 and ROUGE (tau/scrolls metrics/scrolls.py) for the generative ones.
package scrolls

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// Version is _SCROLLSTask.VERSION.
const Version = 2

// zipURL is _SCROLLSTask.ZIP_URL for tau/scrolls: each subset ships as
// "<name>/<split>.jsonl" inside "<name>.zip".
func zipURL(name string) string {
	return "https://huggingface.co/datasets/tau/scrolls/resolve/main/" + name + ".zip"
}

// dataFiles is what _SCROLLSTask.download hands load_dataset("json"):
// the train and validation splits (the test split has no labels).
func dataFiles(name string) map[string]any {
	out := map[string]any{}
	for _, split := range []string{"train", "validation"} {
		out[split] = "zip://" + name + "/" + split + ".jsonl::" + zipURL(name)
	}
	return out
}

func strs(doc task.Doc, key string) ([]string, error) {
	l, ok := doc[key].([]any)
	if !ok {
		return nil, fmt.Errorf("document field %q is %s, not a list", key, pyval.Repr(doc[key]))
	}
	out := make([]string, len(l))
	for i, e := range l {
		if out[i], ok = e.(string); !ok {
			return nil, fmt.Errorf("%s[%d] is %s, not a string", key, i, pyval.Repr(e))
		}
	}
	return out, nil
}

// DropDuplicatesInInput is _drop_duplicates_in_input: one document per
// id, the first, whose "output" column becomes "outputs", the outputs of
// every document with that id (the column goes last).
func DropDuplicatesInInput(docs []task.Doc) ([]task.Doc, error) {
	var out []task.Doc
	index := map[any]int{}
	for _, d := range docs {
		id, output := d["id"], d["output"]
		key := pyval.Repr(id)
		if i, ok := index[key]; ok {
			out[i]["outputs"] = append(out[i]["outputs"].([]any), output)
			continue
		}
		nd := make(task.Doc, len(d))
		for k, v := range d {
			if k != "output" {
				nd[k] = v
			}
		}
		nd["outputs"] = []any{output}
		index[key] = len(out)
		out = append(out, nd)
	}
	return out, nil
}

// pyFind is Python's str.find(sub, start) in code points, as a byte
// offset into s (-1 when absent); a negative start counts from the end.
func pyFind(s, sub string, start int) int {
	n := utf8.RuneCountInString(s)
	if start < 0 {
		start = max(start+n, 0)
	}
	if start > n {
		return -1
	}
	off := byteOffset(s, start)
	if i := strings.Index(s[off:], sub); i >= 0 {
		return off + i
	}
	return -1
}

// byteOffset is the byte offset of code point i of s.
func byteOffset(s string, i int) int {
	for off := range s {
		if i == 0 {
			return off
		}
		i--
	}
	return len(s)
}

// pySlice is s[from:to] of Python for byte offsets in s that may be -1
// (Python's index -1: the last code point) as str.find returns them.
func pyIndex(s string, i int) int {
	if i >= 0 {
		return i
	}
	_, size := utf8.DecodeLastRuneInString(s)
	return max(len(s)-size, 0)
}

// ProcessDocPrependedQuestion is _process_doc_prepended_question: the
// question is the input up to the first blank line, the text what follows.
func ProcessDocPrependedQuestion(doc task.Doc) (task.Doc, error) {
	input, err := pydoc.String(doc, "input")
	if err != nil {
		return nil, err
	}
	split := strings.Index(input, "\n\n")
	// input[0:split] and input[split + 2:] with Python's indices: a
	// missing blank line (-1) drops the last character from the question
	// and starts the text at the second.
	var question, text string
	if split < 0 {
		question = input[:pyIndex(input, -1)]
		if _, size := utf8.DecodeRuneInString(input); size < len(input) {
			text = input[size:]
		}
	} else {
		question, text = input[:split], input[split+2:]
	}
	return task.Doc{
		"id": doc["id"], "pid": doc["pid"], "input": input, "outputs": doc["outputs"],
		"question": question, "text": text,
	}, nil
}

// prepended are the columns _process_doc_prepended_question makes, in
// its dict's order.
var prepended = []string{"id", "pid", "input", "outputs", "question", "text"}

// kind is one class's behaviour.
type kind struct {
	name, dataset string
	// processDoc is the class's _process_doc; columns the keys it adds
	// after the deduplicated dataset's (id, pid, input, outputs).
	processDoc func(task.Doc) (task.Doc, error)
	columns    []string
	docToText  func(task.Doc) (string, error)
	requests   func(task.Doc, task.RequestOptions) ([]task.ClassRequest, error)
	process    func(task.Doc, []any) (map[string]any, error)
	metrics    [][2]string // name, aggregation, in process_results' order
}

// processDocs is download's deduplication followed by training_docs /
// validation_docs' _process_doc of every document.
func (k *kind) processDocs(docs []task.Doc) ([]task.Doc, error) {
	docs, err := DropDuplicatesInInput(docs)
	if err != nil {
		return nil, err
	}
	if k.processDoc == nil {
		return docs, nil
	}
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		if out[i], err = k.processDoc(d); err != nil {
			return nil, fmt.Errorf("%s._process_doc, document %d: %w", k.name, i, err)
		}
	}
	return out, nil
}

// docToTarget is _SCROLLSTask.doc_to_target: the outputs joined by ", ",
// after a space.
func docToTarget(doc task.Doc) (any, error) {
	outs, err := strs(doc, "outputs")
	if err != nil {
		return nil, err
	}
	return " " + strings.Join(outs, ", "), nil
}

// questionAnswer is _SCROLLSTask.doc_to_text.
func questionAnswer(doc task.Doc) (string, error) {
	text, err := pydoc.String(doc, "text")
	if err != nil {
		return "", err
	}
	q, err := pydoc.String(doc, "question")
	if err != nil {
		return "", err
	}
	return text + "\n\nQuestion: " + q + "\nAnswer:", nil
}

// summaryPrompt is _SCROLLSSummaryTask.doc_to_text.
func summaryPrompt(doc task.Doc) (string, error) {
	input, err := pydoc.String(doc, "input")
	if err != nil {
		return "", err
	}
	return input + "\n\nQuestion: What is a summary of the preceding text?\nAnswer:", nil
}

// hypothesis is ContractNLI.doc_to_text.
func hypothesis(doc task.Doc) (string, error) {
	text, err := pydoc.String(doc, "text")
	if err != nil {
		return "", err
	}
	q, err := pydoc.String(doc, "question")
	if err != nil {
		return "", err
	}
	return text + "\n\nHypothesis: " + q + "\nConclusion:", nil
}

func generateUntilNewline(task.Doc, task.RequestOptions) ([]task.ClassRequest, error) {
	return []task.ClassRequest{{Type: task.OutputGenerateUntil, GenKwargs: map[string]any{"until": []any{"\n"}}}}, nil
}

// mcRequests is _SCROLLSMultipleChoiceTask.construct_requests: one
// log-likelihood per choice, after a space unless a chat template is
// applied.
func mcRequests(doc task.Doc, o task.RequestOptions) ([]task.ClassRequest, error) {
	choices, err := strs(doc, "choices")
	if err != nil {
		return nil, err
	}
	out := make([]task.ClassRequest, len(choices))
	for i, c := range choices {
		if !o.ChatTemplate {
			c = " " + c
		}
		out[i] = task.ClassRequest{Type: task.OutputLoglikelihood, Idx: i, Continuation: c}
	}
	return out, nil
}

func logliks(res []any) ([]model.LoglikelihoodResult, error) {
	out := make([]model.LoglikelihoodResult, len(res))
	for i, r := range res {
		ll, ok := r.(model.LoglikelihoodResult)
		if !ok {
			return nil, fmt.Errorf("result %d is %T, not a log-likelihood", i, r)
		}
		out[i] = ll
	}
	return out, nil
}

// mcProcessResults is _SCROLLSMultipleChoiceTask.process_results.
func mcProcessResults(doc task.Doc, res []any) (map[string]any, error) {
	gold, ok := doc["gold"].(int)
	if !ok {
		if g, ok64 := doc["gold"].(int64); ok64 {
			gold, ok = int(g), true
		}
	}
	if !ok {
		return nil, fmt.Errorf("document field \"gold\" is %s, not an int", pyval.Repr(doc["gold"]))
	}
	choices, err := strs(doc, "choices")
	if err != nil {
		return nil, err
	}
	lls, err := logliks(res)
	if err != nil {
		return nil, err
	}
	if len(lls) != len(choices) {
		return nil, fmt.Errorf("%d results for %d choices", len(lls), len(choices))
	}
	raw := make([]float64, len(lls))
	norm := make([]float64, len(lls))
	for i, ll := range lls {
		raw[i] = ll.LogProb
		norm[i] = ll.LogProb / float64(utf8.RuneCountInString(choices[i]))
	}
	acc, accNorm := 0.0, 0.0
	if metrics.Argmax(raw) == gold {
		acc = 1
	}
	if metrics.Argmax(norm) == gold {
		accNorm = 1
	}
	return map[string]any{"acc": acc, "acc_norm": accNorm, "em": accNorm * 100.0}, nil
}

var mcMetrics = [][2]string{{"acc", "mean"}, {"acc_norm", "mean"}, {"em", "mean"}}

// normalizeAnswer is QuALITY._normalize_answer: whitespace runs become one
// space.
func normalizeAnswer(s string) string { return strings.Join(strings.FieldsFunc(s, pyre.IsSpace), " ") }

var multipleChoicePattern = regexp.MustCompile(` *\([A-D]\) *`)

// qualityProcessDoc is QuALITY._process_doc: the choices (A) to (D)
// follow the question in the text, up to the blank line after "(D)".
func qualityProcessDoc(d task.Doc) (task.Doc, error) {
	doc, err := ProcessDocPrependedQuestion(d)
	if err != nil {
		return nil, err
	}
	text := doc["text"].(string)
	split := pyFind(text, "\n\n", runeIndex(text, pyFind(text, "(D)", 0)))
	cut := pyIndex(text, split)
	choicesText := text[:cut]
	doc["text"] = pyre.Strip(text[cut:])
	parts := multipleChoicePattern.Split(choicesText, -1)
	choices := make([]any, 0, len(parts))
	for _, p := range parts[1:] {
		choices = append(choices, normalizeAnswer(p))
	}
	doc["choices"] = choices
	outs, err := strs(doc, "outputs")
	if err != nil {
		return nil, err
	}
	if len(outs) == 0 {
		return nil, fmt.Errorf("IndexError: no outputs")
	}
	want := normalizeAnswer(outs[0])
	gold := -1
	for i, c := range choices {
		if c == want {
			gold = i
			break
		}
	}
	if gold < 0 {
		return nil, fmt.Errorf("ValueError: %s is not in the choices %s", pyval.Repr(want), pyval.Repr(choices))
	}
	doc["gold"] = gold
	return doc, nil
}

// runeIndex turns a byte offset from pyFind back into a code point index
// (-1 stays -1), for a str.find start argument.
func runeIndex(s string, off int) int {
	if off < 0 {
		return off
	}
	return utf8.RuneCountInString(s[:off])
}

// ContractNLIChoices is ContractNLI.CHOICES.
var ContractNLIChoices = []any{"Not mentioned", "Entailment", "Contradiction"}

func contractNLIProcessDoc(d task.Doc) (task.Doc, error) {
	doc, err := ProcessDocPrependedQuestion(d)
	if err != nil {
		return nil, err
	}
	doc["choices"] = pyval.DeepCopy(ContractNLIChoices)
	outs, err := strs(doc, "outputs")
	if err != nil {
		return nil, err
	}
	if len(outs) == 0 {
		return nil, fmt.Errorf("IndexError: no outputs")
	}
	gold := -1
	for i, c := range ContractNLIChoices {
		if c == outs[0] {
			gold = i
			break
		}
	}
	if gold < 0 {
		return nil, fmt.Errorf("ValueError: %s is not in list", pyval.Repr(outs[0]))
	}
	doc["gold"] = gold
	return doc, nil
}

// qasperProcessDoc is Qasper._process_doc: is_yes_no when every output
// normalizes (squad_metrics.normalize_answer) to yes or no.
func qasperProcessDoc(d task.Doc) (task.Doc, error) {
	doc, err := ProcessDocPrependedQuestion(d)
	if err != nil {
		return nil, err
	}
	outs, err := strs(doc, "outputs")
	if err != nil {
		return nil, err
	}
	yesNo := true
	for _, o := range outs {
		n := metrics.NormalizeSQuAD(o)
		yesNo = yesNo && (n == "yes" || n == "no")
	}
	doc["is_yes_no"] = yesNo
	return doc, nil
}

func qasperRequests(doc task.Doc, o task.RequestOptions) ([]task.ClassRequest, error) {
	if yn, _ := doc["is_yes_no"].(bool); yn {
		yes, no := " yes", " no"
		if o.ChatTemplate {
			yes, no = "yes", "no"
		}
		return []task.ClassRequest{
			{Type: task.OutputLoglikelihood, Idx: 0, Continuation: yes},
			{Type: task.OutputLoglikelihood, Idx: 1, Continuation: no},
		}, nil
	}
	return generateUntilNewline(doc, o)
}

// Pair is a generative document's (prediction, references), the value of
// its f1 or ROUGE metrics.
type Pair struct {
	Pred string
	Refs []string
}

// SampleValue is the pair as lm-eval logs the tuple.
func (p Pair) SampleValue() any {
	refs := make([]any, len(p.Refs))
	for i, r := range p.Refs {
		refs[i] = r
	}
	return []any{p.Pred, refs}
}

func pairOf(doc task.Doc, pred string) (Pair, error) {
	outs, err := strs(doc, "outputs")
	return Pair{Pred: pred, Refs: outs}, err
}

func generation(res []any) (string, error) {
	if len(res) == 0 {
		return "", fmt.Errorf("no results")
	}
	s, ok := res[0].(string)
	if !ok {
		return "", fmt.Errorf("result is %T, not a generation", res[0])
	}
	return s, nil
}

// qasperProcessResults is Qasper.process_results: yes/no questions by
// comparing the (log-likelihood, is_greedy) tuples, empty generations as
// "Unanswerable".
func qasperProcessResults(doc task.Doc, res []any) (map[string]any, error) {
	var pred string
	if yn, _ := doc["is_yes_no"].(bool); yn {
		lls, err := logliks(res)
		if err != nil {
			return nil, err
		}
		if len(lls) != 2 {
			return nil, fmt.Errorf("%d results for a yes/no question", len(lls))
		}
		yes, no := lls[0], lls[1]
		if yes.LogProb > no.LogProb || yes.LogProb == no.LogProb && yes.IsGreedy && !no.IsGreedy {
			pred = " yes"
		} else {
			pred = " no"
		}
	} else {
		g, err := generation(res)
		if err != nil {
			return nil, err
		}
		pred = g
		if pyre.Strip(g) == "" {
			pred = "Unanswerable"
		}
	}
	p, err := pairOf(doc, pred)
	return map[string]any{"f1": p}, err
}

func f1ProcessResults(doc task.Doc, res []any) (map[string]any, error) {
	g, err := generation(res)
	if err != nil {
		return nil, err
	}
	p, err := pairOf(doc, g)
	return map[string]any{"f1": p}, err
}

func rougeProcessResults(doc task.Doc, res []any) (map[string]any, error) {
	g, err := generation(res)
	if err != nil {
		return nil, err
	}
	p, err := pairOf(doc, g)
	return map[string]any{"rouge1": p, "rouge2": p, "rougeL": p}, err
}

var (
	f1Metrics    = [][2]string{{"f1", "scrolls:f1"}}
	rougeMetrics = [][2]string{{"rouge1", "scrolls:rouge/rouge1"}, {"rouge2", "scrolls:rouge/rouge2"}, {"rougeL", "scrolls:rouge/rougeL"}}
)

func summary(name, dataset string) *kind {
	return &kind{name: name, dataset: dataset, docToText: summaryPrompt,
		requests: generateUntilNewline, process: rougeProcessResults, metrics: rougeMetrics}
}

var kinds = []*kind{
	{name: "Qasper", dataset: "qasper", processDoc: qasperProcessDoc, columns: slices.Concat(prepended, []string{"is_yes_no"}),
		docToText: questionAnswer, requests: qasperRequests, process: qasperProcessResults, metrics: f1Metrics},
	{name: "QuALITY", dataset: "quality", processDoc: qualityProcessDoc, columns: slices.Concat(prepended, []string{"choices", "gold"}),
		docToText: questionAnswer, requests: mcRequests, process: mcProcessResults, metrics: mcMetrics},
	{name: "NarrativeQA", dataset: "narrative_qa", processDoc: ProcessDocPrependedQuestion, columns: prepended,
		docToText: questionAnswer, requests: generateUntilNewline, process: f1ProcessResults, metrics: f1Metrics},
	{name: "ContractNLI", dataset: "contract_nli", processDoc: contractNLIProcessDoc, columns: slices.Concat(prepended, []string{"choices", "gold"}),
		docToText: hypothesis, requests: mcRequests, process: mcProcessResults, metrics: mcMetrics},
	summary("GovReport", "gov_report"),
	summary("SummScreenFD", "summ_screen_fd"),
	{name: "QMSum", dataset: "qmsum", processDoc: ProcessDocPrependedQuestion, columns: prepended,
		docToText: questionAnswer, requests: generateUntilNewline, process: rougeProcessResults, metrics: rougeMetrics},
}

// class is the kind's native class port.
func (k *kind) class(sha256 string) *task.Class {
	prefix := "task." + k.name + "."
	cols := k.columns
	if cols == nil {
		cols = []string{"outputs"} // the deduplicated dataset's
	}
	return &task.Class{
		File: "scrolls/task.py", Name: k.name, SHA256: sha256, Version: Version,
		Setup: func(c *task.Config) error {
			c.DatasetPath, c.DatasetName = "json", ""
			c.DatasetKwargs = map[string]any{"data_files": dataFiles(k.dataset)}
			c.TrainingSplit, c.ValidationSplit = "train", "validation"
			c.ProcessDocs = task.ClassProcessDocs(prefix+"_process_doc", task.MapDocs{Fn: k.processDocs, Columns: cols})
			c.DocToText = task.ClassDocFunc(prefix+"doc_to_text", func(d task.Doc) (any, error) { return k.docToText(d) })
			c.DocToTarget = task.ClassDocFunc(prefix+"doc_to_target", docToTarget)
			c.ProcessResults = task.ClassProcessResults(prefix+"process_results", k.process)
			c.Metrics = nil
			for _, m := range k.metrics {
				s, err := task.ClassMetric(m[0], m[1], true)
				if err != nil {
					return err
				}
				c.Metrics = append(c.Metrics, s)
			}
			return nil
		},
		Requests: func(doc task.Doc, _ string, o task.RequestOptions) ([]task.ClassRequest, error) {
			return k.requests(doc, o)
		},
	}
}
