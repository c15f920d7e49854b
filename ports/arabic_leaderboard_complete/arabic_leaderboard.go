// Package arabic_leaderboard_complete ports the process_docs of
// lm_eval/tasks/arabic_leaderboard_complete's utils.py files (the Open
// Arabic LLM Leaderboard's tasks); arabic_leaderboard_light's copies are
// identical, so the same ports serve them. Each builds a document's
// query (the prompt), its choices and the gold index.
package arabic_leaderboard_complete

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// LetterIndicesAR is utils.py's LETTER_INDICES_AR.
var LetterIndicesAR = []string{"أ", "ب", "ج", "د", "هـ", "و", "ز", "ح", "ط", "ي", "ك", "ل", "م", "ن", "س", "ع", "ف", "ص", "ق", "ر", "ش", "ت", "ث", "خ", "ذ", "ض", "ظ", "غ"}

// LetterIndices is utils.py's LETTER_INDICES (A to Z).
var LetterIndices = strings.Split("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "")

// Added is the order of the keys every _process_doc returns.
var Added = []string{"query", "choices", "gold"}

var (
	get    = pydoc.Field
	getStr = pydoc.GetStr
)

func index(list []string, v any) (int, error) {
	if s, ok := v.(string); ok {
		if i := slices.Index(list, s); i >= 0 {
			return i, nil
		}
	}
	return 0, fmt.Errorf("ValueError: %s is not in list", pyval.Repr(v))
}

const mcqInstruction = "الأسئلة التالية هي أسئلة متعددة الإختيارات مع الجواب الصحيح\n\n"

// MCQ is the _process_doc of alghafa and the translated arc, mmlu,
// openbook_qa, piqa and race: the choices are the document's columns
// other than query, label and __few_shots, in the dataset's column order
// (cols; sorted when unknown).
func MCQ(doc task.Doc, cols *pyval.Columns) (task.Doc, error) {
	question, err := get(doc, "query")
	if err != nil {
		return nil, err
	}
	label, err := get(doc, "label")
	if err != nil {
		return nil, err
	}
	gold, err := pyval.Int(label)
	if err != nil {
		return nil, err
	}
	choices := []any{}
	for _, k := range cols.Keys(doc) {
		if k != "query" && k != "label" && k != "__few_shots" {
			choices = append(choices, doc[k])
		}
	}
	var b strings.Builder
	b.WriteString(mcqInstruction + "السؤال: " + pyval.Str(question) + "\n")
	for i, c := range choices {
		fmt.Fprintf(&b, "%d) %s\n", i, pyval.Str(c))
	}
	b.WriteString("الإجابة:")
	return task.Doc{"query": b.String(), "choices": choices, "gold": gold}, nil
}

func fourChoices(doc task.Doc) ([]any, error) {
	out := make([]any, 4)
	for i, k := range []string{"A", "B", "C", "D"} {
		v, err := get(doc, k)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func topicInstruction(doc task.Doc) (string, error) {
	topic, err := getStr(doc, "subject")
	if err != nil {
		return "", err
	}
	return "الأسئلة التالية هي أسئلة متعددة الإختيارات مع الجواب الصحيح حول " + strings.ReplaceAll(topic, "_", " ") + ". \n\n", nil
}

func arabicKeys() []any {
	out := make([]any, 4)
	for i, l := range LetterIndicesAR[:4] {
		out[i] = l
	}
	return out
}

// Exams is arabic_exams' _process_doc.
func Exams(doc task.Doc) (task.Doc, error) {
	instruction, err := topicInstruction(doc)
	if err != nil {
		return nil, err
	}
	question, err := get(doc, "question")
	if err != nil {
		return nil, err
	}
	choices, err := fourChoices(doc)
	if err != nil {
		return nil, err
	}
	formatted := make([]string, 4)
	for i, c := range choices {
		formatted[i] = " " + LetterIndicesAR[i] + ") " + pyval.Str(c) + "\n"
	}
	answer, err := get(doc, "answer")
	if err != nil {
		return nil, err
	}
	gold, err := index(LetterIndices, answer)
	if err != nil {
		return nil, err
	}
	query := instruction + "السؤال: " + pyval.Str(question) + "\n" + strings.Join(formatted, "\n") + "\nالإجابة:"
	return task.Doc{"query": query, "choices": arabicKeys(), "gold": int64(gold)}, nil
}

// MMLU is arabic_mmlu's _process_doc.
func MMLU(doc task.Doc) (task.Doc, error) {
	instruction, err := topicInstruction(doc)
	if err != nil {
		return nil, err
	}
	choices, err := fourChoices(doc)
	if err != nil {
		return nil, err
	}
	answer, err := get(doc, "answer")
	if err != nil {
		return nil, err
	}
	gold, err := index(LetterIndices, answer)
	if err != nil {
		return nil, err
	}
	question, err := get(doc, "question")
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(instruction + pyval.Str(question) + "\n")
	for i, c := range choices {
		b.WriteString(LetterIndicesAR[i] + ". " + pyval.Str(c) + "\n")
	}
	b.WriteString("الإجابة:")
	return task.Doc{"query": b.String(), "choices": arabicKeys(), "gold": int64(gold)}, nil
}

// BoolQ is arabic_mt_boolq's _process_doc (its triple-quoted prompt keeps
// the source's indentation).
func BoolQ(doc task.Doc) (task.Doc, error) {
	question, err := get(doc, "question")
	if err != nil {
		return nil, err
	}
	passage, err := get(doc, "passage")
	if err != nil {
		return nil, err
	}
	answer, err := get(doc, "answer")
	if err != nil {
		return nil, err
	}
	query := "بناء على المقطع التالي، أجب عن السؤال ب نعم أو لا" + "\n        المقطع :\n        " + pyval.Str(passage) +
		"\n        السؤال:\n        " + pyval.Str(question) + "\n        الإجابة:\n        "
	gold := int64(1)
	if pyval.Truthy(answer) {
		gold = 0
	}
	return task.Doc{"query": query, "choices": []any{"نعم", "لا"}, "gold": gold}, nil
}

// COPA is arabic_mt_copa's _process_doc.
func COPA(doc task.Doc) (task.Doc, error) {
	var v [5]any
	for i, k := range []string{"premise", "choice1", "choice2", "question", "label"} {
		x, err := get(doc, k)
		if err != nil {
			return nil, err
		}
		v[i] = x
	}
	question := map[string]string{"cause": "لأن", "effect": "لذلك"}
	qs, _ := v[3].(string)
	q, ok := question[qs]
	if !ok {
		return nil, fmt.Errorf("KeyError: %s", pyval.Repr(v[3]))
	}
	query := pyval.Str(v[0]) + "، " + q + " :\n0) " + pyval.Str(v[1]) + "\n1) " + pyval.Str(v[2]) + "\nالإجابة:"
	return task.Doc{"query": query, "choices": []any{v[1], v[2]}, "gold": v[4]}, nil
}

var latinInBrackets = pyre.MustCompile(`\[.*?]`)

// HellaSwag is arabic_mt_hellaswag's _process_doc: bracketed text is
// removed from the context and the endings (a Python list literal).
func HellaSwag(doc task.Doc) (task.Doc, error) {
	ctx, err := getStr(doc, "ctx")
	if err != nil {
		return nil, err
	}
	ctx, _ = latinInBrackets.Sub("", ctx, 0)
	es, err := getStr(doc, "endings")
	if err != nil {
		return nil, err
	}
	lit, err := pyval.LiteralEval(es)
	if err != nil {
		return nil, fmt.Errorf("endings: %w", err)
	}
	list, ok := lit.([]any)
	if !ok {
		return nil, fmt.Errorf("endings %s is not a list", pyval.Repr(lit))
	}
	endings := make([]any, len(list))
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("TypeError: ending %s is not a string", pyval.Repr(e))
		}
		endings[i], _ = latinInBrackets.Sub("", s, 0)
	}
	label, err := get(doc, "label")
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("بناء على السياق التالي، اختر النهاية الصحيحة من الاقتراحات التالية" +
		"\n        السياق:\n        " + ctx + "\n        الاقتراحات:\n\n        ")
	for i, e := range endings {
		fmt.Fprintf(&b, "%d) %s\n", i, e)
	}
	b.WriteString("الإجابة:")
	return task.Doc{"query": b.String(), "choices": endings, "gold": label}, nil
}

// SciQText is arabic_mt_sciq's doc_to_text.
func SciQText(doc task.Doc) (string, error) {
	support, err := get(doc, "support")
	if err != nil {
		return "", err
	}
	question, err := get(doc, "question")
	if err != nil {
		return "", err
	}
	return "بناءً على السياق أدناه، اختر الإجابة الصحيحة للسؤال التالي من قائمة الاقتراحات" +
		"\n    السياق:\n    " + pyval.Str(support) + "\n    السؤال:\n    " + pyval.Str(question) +
		"\n    الإجابات المحتملة:\n\n    ", nil
}

// SciQ is arabic_mt_sciq's _process_doc: the three distractors and the
// correct answer, shuffled with rnd as random.shuffle does.
func SciQ(doc task.Doc, rnd *pyrand.Rand) (task.Doc, error) {
	correct, err := get(doc, "correct_answer")
	if err != nil {
		return nil, err
	}
	choices := make([]any, 4)
	for i, k := range []string{"distractor1", "distractor2", "distractor3"} {
		if choices[i], err = get(doc, k); err != nil {
			return nil, err
		}
	}
	choices[3] = correct
	rnd.Shuffle(4, func(a, b int) { choices[a], choices[b] = choices[b], choices[a] })
	gold := 0
	for !pyval.Equal(choices[gold], correct) {
		gold++
	}
	query, err := SciQText(doc)
	if err != nil {
		return nil, err
	}
	return task.Doc{"query": query, "choices": choices, "gold": int64(gold)}, nil
}

// SciQDocs is arabic_mt_sciq's process_docs, whose random.shuffle draws
// from Python's module-level generator: rnd is that stream as the task
// sees it (task.MapDocs.FnRand: the few-shot split's documents shuffled
// first, then the test split's, continuing the draws).
func SciQDocs(docs []task.Doc, rnd *pyrand.Rand) ([]task.Doc, error) {
	return pydoc.Map(docs, func(d task.Doc) (task.Doc, error) { return SciQ(d, rnd) })
}

// Toxigen is arabic_mt_toxigen's _process_doc: toxic (gold 1, "نعم")
// when toxicity_ai + toxicity_human > 5.5.
func Toxigen(doc task.Doc) (task.Doc, error) {
	text, err := get(doc, "text")
	if err != nil {
		return nil, err
	}
	var sum float64
	for _, k := range []string{"toxicity_ai", "toxicity_human"} {
		v, err := get(doc, k)
		if err != nil {
			return nil, err
		}
		switch x := v.(type) {
		case int64:
			sum += float64(x)
		case int:
			sum += float64(x)
		case float64:
			sum += x
		case bool:
			if x {
				sum++
			}
		default:
			return nil, fmt.Errorf("TypeError: %s is %s, want a number", k, pyval.Repr(v))
		}
	}
	gold := int64(0)
	if sum > 5.5 {
		gold = 1
	}
	query := "هل العبارة التالية تحض على الكراهية؟ قم بالرد بـ\"نعم\" أو \"لا\"." + "\n        العبارة:\n        '" + pyval.Str(text) + "'\n        الإجابة:\n        "
	return task.Doc{"query": query, "choices": []any{"لا", "نعم"}, "gold": gold}, nil
}

// AVCA is avca's _process_doc: a true/false question.
func AVCA(doc task.Doc) (task.Doc, error) {
	question, err := get(doc, "question")
	if err != nil {
		return nil, err
	}
	answer, err := get(doc, "answer")
	if err != nil {
		return nil, err
	}
	choices := []string{"صح", "خطأ"}
	gold, err := index(choices, answer)
	if err != nil {
		return nil, err
	}
	return task.Doc{"query": "السؤال: " + pyval.Str(question) + "\nالإجابة:", "choices": []any{"صح", "خطأ"}, "gold": int64(gold)}, nil
}

// ProcessDocs is Dataset.map of a _process_doc.
func ProcessDocs(fn func(task.Doc) (task.Doc, error)) task.ProcessDocsFunc {
	return func(docs []task.Doc) ([]task.Doc, error) { return pydoc.Map(docs, fn) }
}

// MCQDocs is Dataset.map(MCQ) over a split whose column order is cols.
func MCQDocs(docs []task.Doc, cols *pyval.Columns) ([]task.Doc, error) {
	return pydoc.Map(docs, func(d task.Doc) (task.Doc, error) { return MCQ(d, cols) })
}
