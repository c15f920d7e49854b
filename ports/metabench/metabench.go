// Package metabench ports lm_eval/tasks/metabench's process_docs.py and
// process_docs_permute.py: per benchmark, a process_docs that turns the
// few-shot columns each metabench row carries into one preprompt (popping
// them), records the sha256 of the original question, and, in the
// permute variants, shuffles the choices with the module-level
// random.shuffle until the correct answer moves; and winogrande's
// doc_to_text, doc_to_target and doc_to_choice.
//
// The functions mutate the row datasets' map hands them and return it, so
// popped columns leave the dataset and new ones are appended in the order
// they are set (the Columns lists).
package metabench

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/hellaswag"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// doc is one row under mutation, with Python's errors.
type doc struct {
	task.Doc
	err error
}

func (d *doc) get(k string) any {
	if d.err != nil {
		return nil
	}
	v, err := pydoc.Field(d.Doc, k)
	if err != nil {
		d.err = err
	}
	return v
}

func (d *doc) str(k string) string {
	if d.err != nil {
		return ""
	}
	s, err := pydoc.String(d.Doc, k)
	if err != nil {
		d.err = err
	}
	return s
}

func (d *doc) pop(k string) {
	if d.err != nil {
		return
	}
	if _, err := pydoc.Pop(d.Doc, k); err != nil {
		d.err = err
	}
}

func (d *doc) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *doc) list(v any, what string) []any {
	if d.err != nil {
		return nil
	}
	l, err := pydoc.AsList(v, what)
	if err != nil {
		d.err = err
	}
	return l
}

func (d *doc) dict(v any, what string) map[string]any {
	if d.err != nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		d.err = fmt.Errorf("TypeError: %s is %s, not a dict", what, pydoc.TypeName(v))
	}
	return m
}

func (d *doc) index(l []any, v any) int {
	if d.err != nil {
		return 0
	}
	i, err := pydoc.Index(l, v)
	if err != nil {
		d.err = err
	}
	return i
}

func (d *doc) int(v any) int64 {
	if d.err != nil {
		return 0
	}
	n, err := pyval.Int(v)
	if err != nil {
		d.err = err
	}
	return n
}

// at is l[i] with Python's IndexError (negative indices from the end).
func (d *doc) at(l []any, i int64, what string) any {
	if d.err != nil {
		return nil
	}
	if i < 0 {
		i += int64(len(l))
	}
	if i < 0 || i >= int64(len(l)) {
		d.err = fmt.Errorf("IndexError: %s: list index out of range", what)
		return nil
	}
	return l[i]
}

// Mapper is a process_docs's per-row function; rnd is the module-level
// generator (nil for the functions that draw nothing).
type Mapper func(d *doc, rnd *pyrand.Rand)

// mapDocs is dataset.map(fn) for a function that mutates its row.
func mapDocs(name string, docs []task.Doc, rnd *pyrand.Rand, fn Mapper) ([]task.Doc, error) {
	out, err := pydoc.Map(docs, func(row task.Doc) (task.Doc, error) {
		d := &doc{Doc: row}
		fn(d, rnd)
		return d.Doc, d.err
	})
	if err != nil {
		return nil, fmt.Errorf("metabench %s: %w", name, err)
	}
	return out, nil
}

// arcPreprompt pops the 25 ARC shots and sets twentyfive_shot_preprompt.
func arcPreprompt(d *doc) {
	long := ""
	for shot := 1; shot <= 25; shot++ {
		question := d.get(fmt.Sprintf("arc_question_shot_%d", shot))
		d.pop(fmt.Sprintf("arc_question_shot_%d", shot))
		lab := d.get(fmt.Sprintf("arc_answerKey_shot_%d", shot))
		d.pop(fmt.Sprintf("arc_answerKey_shot_%d", shot))
		ch := d.dict(d.get(fmt.Sprintf("arc_choices_shot_%d", shot)), "arc_choices")
		idx := d.index(d.list(ch["label"], "label"), lab)
		answer := d.at(d.list(ch["text"], "text"), int64(idx), "text")
		d.pop(fmt.Sprintf("arc_choices_shot_%d", shot))
		d.pop(fmt.Sprintf("arc_idx_shot_%d", shot))
		long += "Question: " + pyval.Str(question) + "\nAnswer: " + pyval.Str(answer) + "\n\n"
	}
	if d.err == nil {
		d.Doc["twentyfive_shot_preprompt"] = long
	}
}

// ProcessARC is process_docs.process_arc.
func ProcessARC(d *doc, _ *pyrand.Rand) {
	arcPreprompt(d)
	q := d.str("question")
	if d.err == nil {
		d.Doc["original_hash"] = results.HashString(q)
	}
	d.pop("alltwentyfiveshot_longprompt")
}

// ProcessARCPermute is process_docs_permute.process_arc.
func ProcessARCPermute(d *doc, rnd *pyrand.Rand) {
	arcPreprompt(d)
	d.pop("alltwentyfiveshot_longprompt")
	q := d.str("question")
	if d.err == nil {
		d.Doc["original_hash"] = results.HashString(q)
	}
	choices := d.dict(d.get("choices"), "choices")
	if d.err != nil {
		return
	}
	choices = copyDict(choices)
	d.Doc["choices"] = choices
	labels := d.list(choices["label"], "choices['label']")
	orig := d.index(labels, d.get("answerKey"))
	text := d.list(choices["text"], "choices['text']")
	if d.err != nil {
		return
	}
	text = append([]any(nil), text...)
	choices["text"] = text
	correct := d.at(text, int64(orig), "choices['text']")
	newIdx := permute(d, rnd, text, correct, orig)
	if d.err == nil {
		d.Doc["answerKey"] = d.at(labels, int64(newIdx), "choices['label']")
	}
}

// permute is the permute variants' loop: random.shuffle(l) until the
// correct text's first index is no longer orig. Python loops forever
// when it cannot move (one choice, or every choice the correct text):
// that is an error here.
func permute(d *doc, rnd *pyrand.Rand, l []any, correct any, orig int) int {
	if d.err != nil {
		return 0
	}
	// It ends once the correct text's first index differs from orig:
	// possible when orig > 0 (the text can come first) or when another
	// text can come before it.
	movable := orig > 0
	for _, e := range l {
		if !pyval.Equal(e, correct) {
			movable = true
		}
	}
	if !movable {
		d.err = fmt.Errorf("the permutation loop never ends: the correct answer cannot change place among %d choices", len(l))
		return 0
	}
	idx := orig
	for idx == orig {
		rnd.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
		idx = d.index(l, correct)
		if d.err != nil {
			return 0
		}
	}
	return idx
}

func copyDict(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// ProcessGSM8K is process_docs.process_gsm8k.
func ProcessGSM8K(d *doc, _ *pyrand.Rand) {
	long := ""
	for shot := 1; shot <= 5; shot++ {
		q := d.get(fmt.Sprintf("gsm8k_prompt_shot_%d", shot))
		d.pop(fmt.Sprintf("gsm8k_prompt_shot_%d", shot))
		a := d.get(fmt.Sprintf("gsm8k_answer_shot_%d", shot))
		d.pop(fmt.Sprintf("gsm8k_answer_shot_%d", shot))
		d.pop(fmt.Sprintf("gsm8k_idx_shot_%d", shot))
		long += "Question: " + pyval.Str(q) + "\nAnswer: " + pyval.Str(a) + "\n\n"
	}
	q := d.str("question")
	if d.err == nil {
		d.Doc["original_hash"] = results.HashString(q)
		d.Doc["five_shot_preprompt"] = long
	}
	d.pop("allfiveshot_longprompt")
}

// processTxt is process_hellaswag's process_txt (hellaswag/utils.py's
// preprocess).
func processTxt(s string) string { return hellaswag.Preprocess(s) }

// hellaswagCtx is ctx_a + " " + ctx_b.capitalize().
func hellaswagCtx(d *doc, a, b string) string {
	x, y := d.str(a), d.str(b)
	return x + " " + pyre.Capitalize(y)
}

func hellaswagShots(d *doc) {
	long := ""
	for shot := 1; shot <= 10; shot++ {
		ctx := hellaswagCtx(d, fmt.Sprintf("hellaswag_ctx_a_shot_%d", shot), fmt.Sprintf("hellaswag_ctx_b_shot_%d", shot))
		d.pop(fmt.Sprintf("hellaswag_ctx_a_shot_%d", shot))
		d.pop(fmt.Sprintf("hellaswag_ctx_b_shot_%d", shot))
		d.pop(fmt.Sprintf("hellaswag_ctx_shot_%d", shot))
		question := processTxt(d.str(fmt.Sprintf("hellaswag_activity_labels_shot_%d", shot)) + ": " + ctx)
		endings := d.list(d.get(fmt.Sprintf("hellaswag_endings_shot_%d", shot)), "hellaswag_endings")
		e := d.at(endings, d.int(d.get(fmt.Sprintf("hellaswag_label_shot_%d", shot))), "hellaswag_endings")
		es, ok := e.(string)
		if !ok && d.err == nil {
			d.fail(fmt.Errorf("AttributeError: '%s' object has no attribute 'strip'", pydoc.TypeName(e)))
		}
		ending := processTxt(es)
		for _, k := range []string{"hellaswag_activity_labels_shot_%d", "hellaswag_endings_shot_%d", "hellaswag_label_shot_%d"} {
			d.pop(fmt.Sprintf(k, shot))
		}
		long += question + " " + ending + "\n\n"
		for _, k := range []string{"hellaswag_ind_shot_%d", "hellaswag_source_id_shot_%d", "hellaswag_split_shot_%d", "hellaswag_split_type_shot_%d"} {
			d.pop(fmt.Sprintf(k, shot))
		}
	}
	q := d.str("query")
	if d.err == nil {
		d.Doc["original_hash"] = results.HashString(q)
		d.Doc["ten_shot_preprompt"] = long
	}
	d.pop("alltenshot_longprompt")
}

func processEndings(d *doc, endings []any) []any {
	out := make([]any, len(endings))
	for i, e := range endings {
		s, ok := e.(string)
		if !ok {
			d.fail(fmt.Errorf("AttributeError: '%s' object has no attribute 'strip'", pydoc.TypeName(e)))
			return nil
		}
		out[i] = processTxt(s)
	}
	return out
}

// ProcessHellaswag is process_docs.process_hellaswag.
func ProcessHellaswag(d *doc, _ *pyrand.Rand) {
	ctx := hellaswagCtx(d, "ctx_a", "ctx_b")
	d.pop("ctx_a")
	d.pop("ctx_b")
	d.pop("ctx")
	label := d.str("activity_label")
	if d.err != nil {
		return
	}
	d.Doc["query"] = processTxt(label + ": " + ctx)
	choices := processEndings(d, d.list(d.get("endings"), "endings"))
	gold := d.int(d.get("label"))
	if d.err != nil {
		return
	}
	d.Doc["choices"] = choices
	d.Doc["gold"] = gold
	d.pop("activity_label")
	d.pop("endings")
	hellaswagShots(d)
}

// ProcessHellaswagPermute is process_docs_permute.process_hellaswag.
func ProcessHellaswagPermute(d *doc, rnd *pyrand.Rand) {
	ctx := hellaswagCtx(d, "ctx_a", "ctx_b")
	d.pop("ctx_a")
	d.pop("ctx_b")
	d.pop("ctx")
	label := d.str("activity_label")
	if d.err != nil {
		return
	}
	d.Doc["query"] = processTxt(label + ": " + ctx)
	orig := d.int(d.get("label"))
	endings := d.list(d.get("endings"), "endings")
	if d.err != nil {
		return
	}
	endings = append([]any(nil), endings...)
	d.Doc["endings"] = endings
	correct := d.at(endings, orig, "endings")
	if orig < 0 && d.err == nil {
		// endings[-1] is the correct text, but the loop compares the
		// index (never negative) with -1: one shuffle, whatever it gives.
		rnd.Shuffle(len(endings), func(i, j int) { endings[i], endings[j] = endings[j], endings[i] })
		d.Doc["label"] = fmt.Sprint(d.index(endings, correct))
	} else {
		d.Doc["label"] = fmt.Sprint(permute(d, rnd, endings, correct, int(orig)))
	}
	choices := processEndings(d, endings)
	gold := d.int(d.Doc["label"])
	if d.err != nil {
		return
	}
	d.Doc["choices"] = choices
	d.Doc["gold"] = gold
	d.pop("activity_label")
	d.pop("endings")
	hellaswagShots(d)
}

var abcd = []string{"A", "B", "C", "D"}

func mmluPreprompt(d *doc) {
	subject := d.str("subject")
	long := "The following are multiple choice questions (with answers) about " + strings.Join(strings.Split(subject, "_"), " ") + ".\n\n"
	for shot := 1; shot <= 5; shot++ {
		question := pyre.Strip(d.str(fmt.Sprintf("mmlu_question_shot_%d", shot)))
		d.pop(fmt.Sprintf("mmlu_question_shot_%d", shot))
		n := d.int(d.get(fmt.Sprintf("mmlu_answers_shot_%d", shot)))
		answer := ""
		if d.err == nil {
			if n < -4 || n >= 4 {
				d.fail(fmt.Errorf("IndexError: list index out of range"))
			} else {
				answer = abcd[(n+4)%4]
			}
		}
		ch := d.list(d.get(fmt.Sprintf("mmlu_choices_shot_%d", shot)), "mmlu_choices")
		var c [4]any
		for i := range c {
			c[i] = d.at(ch, int64(i), "mmlu_choices")
		}
		d.pop(fmt.Sprintf("mmlu_choices_shot_%d", shot))
		d.pop(fmt.Sprintf("mmlu_answers_shot_%d", shot))
		d.pop(fmt.Sprintf("mmlu_ind_shot_%d", shot))
		long += question + "\nA. " + pyval.Str(c[0]) + "\nB. " + pyval.Str(c[1]) + "\nC. " + pyval.Str(c[2]) + "\nD. " + pyval.Str(c[3]) + "\nAnswer: " + answer + "\n\n"
	}
	q := d.str("question")
	if d.err == nil {
		d.Doc["original_hash"] = results.HashString(q)
		d.Doc["five_shot_preprompt"] = long
	}
	d.pop("allfiveshot_longprompt")
}

// ProcessMMLU is process_docs.process_mmlu.
func ProcessMMLU(d *doc, _ *pyrand.Rand) { mmluPreprompt(d) }

// ProcessMMLUPermute is process_docs_permute.process_mmlu.
func ProcessMMLUPermute(d *doc, rnd *pyrand.Rand) {
	mmluPreprompt(d)
	orig := d.int(d.get("answer"))
	choices := d.list(d.get("choices"), "choices")
	if d.err != nil {
		return
	}
	choices = append([]any(nil), choices...)
	d.Doc["choices"] = choices
	correct := d.at(choices, orig, "choices")
	if orig < 0 && d.err == nil {
		rnd.Shuffle(len(choices), func(i, j int) { choices[i], choices[j] = choices[j], choices[i] })
		d.Doc["answer"] = int64(d.index(choices, correct))
		return
	}
	idx := permute(d, rnd, choices, correct, int(orig))
	if d.err == nil {
		d.Doc["answer"] = int64(idx)
	}
}

// ProcessTruthfulQA is process_docs.process_truthfulqa.
func ProcessTruthfulQA(d *doc, _ *pyrand.Rand) {
	q := d.str("question")
	if d.err == nil {
		d.Doc["original_hash"] = results.HashString(q)
	}
}

// ProcessTruthfulQAPermute is process_docs_permute.process_truthfulqa:
// the mc1 choices shuffled until the correct one (the first) moves, the
// labels rewritten, and "answer" its new index.
func ProcessTruthfulQAPermute(d *doc, rnd *pyrand.Rand) {
	mc1 := d.dict(d.get("mc1_targets"), "mc1_targets")
	if d.err != nil {
		return
	}
	mc1 = copyDict(mc1)
	choices := d.list(mc1["choices"], "mc1_targets['choices']")
	labels := d.list(mc1["labels"], "mc1_targets['labels']")
	if d.err != nil {
		return
	}
	choices = append([]any(nil), choices...)
	mc1["choices"] = choices
	correct := d.at(choices, 0, "mc1_targets['choices']")
	idx := permute(d, rnd, choices, correct, 0)
	if d.err != nil {
		return
	}
	nl := make([]any, len(labels))
	for i := range nl {
		nl[i] = int64(0)
	}
	if idx >= len(nl) {
		d.fail(fmt.Errorf("IndexError: list assignment index out of range"))
		return
	}
	nl[idx] = int64(1)
	q := d.str("question")
	if d.err != nil {
		return
	}
	d.Doc["original_hash"] = results.HashString(q)
	mc1["labels"] = nl
	d.Doc["mc1_targets"] = mc1
	d.Doc["answer"] = int64(idx)
}

func winograndeShots(d *doc) {
	long := ""
	for shot := 1; shot <= 5; shot++ {
		var answer string
		switch a := d.get(fmt.Sprintf("winogrande_answer_shot_%d", shot)); {
		case d.err != nil:
			return
		case pyval.Equal(a, "1"):
			answer = d.str(fmt.Sprintf("winogrande_option1_shot_%d", shot))
		case pyval.Equal(a, "2"):
			answer = d.str(fmt.Sprintf("winogrande_option2_shot_%d", shot))
		default:
			d.fail(fmt.Errorf("ValueError: Answer not recognised."))
			return
		}
		question := strings.ReplaceAll(d.str(fmt.Sprintf("winogrande_prompt_shot_%d", shot)), "_", answer)
		for _, k := range []string{"winogrande_prompt_shot_%d", "winogrande_answer_shot_%d", "winogrande_idx_shot_%d", "winogrande_option1_shot_%d", "winogrande_option2_shot_%d"} {
			d.pop(fmt.Sprintf(k, shot))
		}
		long += question + "\n\n"
	}
	sentence := d.get("sentence")
	s := d.str("sentence")
	if d.err != nil {
		return
	}
	d.Doc["original_hash"] = results.HashString(s)
	d.Doc["sentence"] = long + pyval.Str(sentence)
	d.pop("allfiveshot_longprompt")
}

// ProcessWinogrande is process_docs.process_winogrande.
func ProcessWinogrande(d *doc, _ *pyrand.Rand) { winograndeShots(d) }

// ProcessWinograndePermute is process_docs_permute.process_winogrande:
// the two options swapped, and the answer with them.
func ProcessWinograndePermute(d *doc, _ *pyrand.Rand) {
	winograndeShots(d)
	o1, o2, a := d.get("option1"), d.get("option2"), d.get("answer")
	if d.err != nil {
		return
	}
	d.Doc["option1"], d.Doc["option2"] = o2, o1
	if pyval.Equal(a, "1") {
		d.Doc["answer"] = "2"
	} else if pyval.Equal(a, "2") {
		d.Doc["answer"] = "1"
	}
}

// WinograndeDocToText is winogrande_doc_to_text: {"1": 0, "2": 1}[answer].
func WinograndeDocToText(doc task.Doc) (any, error) {
	a, err := pydoc.Field(doc, "answer")
	if err != nil {
		return nil, err
	}
	switch {
	case pyval.Equal(a, "1"):
		return int64(0), nil
	case pyval.Equal(a, "2"):
		return int64(1), nil
	}
	return nil, fmt.Errorf("KeyError: %s", pyval.Repr(a))
}

// WinograndeDocToTarget is winogrande_doc_to_target: the sentence after
// its first "_", stripped.
func WinograndeDocToTarget(doc task.Doc) (any, error) {
	s, err := pydoc.String(doc, "sentence")
	if err != nil {
		return nil, err
	}
	i := strings.Index(s, "_")
	if i < 0 {
		return nil, fmt.Errorf("ValueError: substring not found")
	}
	return pyre.Strip(s[i+1:]), nil
}

// WinograndeDocToChoice is winogrande_doc_to_choice: the sentence up to
// its first "_" followed by each option.
func WinograndeDocToChoice(doc task.Doc) (any, error) {
	s, err := pydoc.String(doc, "sentence")
	if err != nil {
		return nil, err
	}
	i := strings.Index(s, "_")
	if i < 0 {
		return nil, fmt.Errorf("ValueError: substring not found")
	}
	out := make([]any, 2)
	for j, k := range []string{"option1", "option2"} {
		o, err := pydoc.String(doc, k)
		if err != nil {
			return nil, err
		}
		out[j] = s[:i] + o
	}
	return out, nil
}
