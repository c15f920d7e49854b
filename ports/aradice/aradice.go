// Package aradice ports lm_eval/tasks/aradice's utils.py files: the
// ArabicMMLU prompts in Egyptian and Levantine Arabic, the BoolQ
// questions and answers, the Culture choices and OpenBookQA's fields.
// (metrics.py's micro_f1_score is ports/f1score's; winogrande/utils.py
// is lmeval/tasks'.)
package aradice

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

var get = pydoc.Field

// Dialect is what ArabicMMLU/EGY and LEV's utils.py differ in.
type Dialect struct {
	Prompt                  string // PROMPT, answer cue included
	Level, Country, Subject map[string]string
}

var (
	// EGY is ArabicMMLU/EGY/utils.py's.
	EGY = Dialect{"ده سؤال [MAIN_META_DATA]. اختار الإجابة الصحيحة!\n\nسؤال: [INPUT]\n[OPTION]" + "\n\nإجابة:", levelEGY, countryEGY, subjectEGY}
	// LEV is ArabicMMLU/LEV/utils.py's.
	LEV = Dialect{"هيدا سؤال [MAIN_META_DATA]. نقي الجواب الصح!\n\nسؤال: [INPUT]\n[OPTION]" + "\n\nالجواب:", levelLEV, countryLEV, subjectLEV}
)

var (
	alpaAR     = []string{"أ-", "ب-", "ج-", "د-", "و-"}
	allChoices = []string{"أ", "ب", "ج", "د", "و"}
	optionKeys = []string{"A", "B", "C", "D", "E"}
)

func lookup(m map[string]string, v any) (string, error) {
	if s, ok := v.(string); ok {
		if out, ok := m[s]; ok {
			return out, nil
		}
	}
	return "", fmt.Errorf("KeyError: %s", pyval.Repr(v))
}

// MMLUDoc is ArabicMMLU's _helper: it sets the document's prompt (the
// metadata sentence, the question, the options lettered أ- to و-),
// choices (the letters) and target (the index of Answer Key).
func (d Dialect) MMLUDoc(doc task.Doc) error {
	v, err := get(doc, "Subject")
	if err != nil {
		return err
	}
	subject, err := lookup(d.Subject, v)
	if err != nil {
		return err
	}
	// " " + level_ar[doc["Level"]] if doc["Level"] else "", and Country's
	meta := subject
	for _, c := range []struct {
		key string
		m   map[string]string
	}{{"Level", d.Level}, {"Country", d.Country}} {
		v, err := get(doc, c.key)
		if err != nil {
			return err
		}
		if pyval.Truthy(v) {
			s, err := lookup(c.m, v)
			if err != nil {
				return err
			}
			meta += " " + s
		}
	}
	ctx, err := get(doc, "context")
	if err != nil {
		return err
	}
	q, err := get(doc, "question")
	if err != nil {
		return err
	}
	var question string
	if pyval.Truthy(ctx) {
		question = pyval.Str(ctx) + "\n\n" + pyval.Str(q)
	} else if s, ok := q.(string); ok {
		question = s
	} else {
		return fmt.Errorf("TypeError: replace() argument 2 must be str, not %s", pyval.Repr(q))
	}
	o, err := get(doc, "options")
	if err != nil {
		return err
	}
	opts, ok := o.(map[string]any)
	if !ok {
		return fmt.Errorf("options is %s, want a dict", pyval.Repr(o))
	}
	var options []string
	for i, k := range optionKeys {
		v, ok := opts[k]
		if !ok || v == nil {
			break
		}
		options = append(options, alpaAR[i]+" "+pyval.Str(v))
	}
	prompt := strings.ReplaceAll(d.Prompt, "[MAIN_META_DATA]", meta)
	prompt = strings.ReplaceAll(prompt, "[INPUT]", question)
	prompt = strings.ReplaceAll(prompt, "[OPTION]", strings.Join(options, "\n"))
	doc["prompt"] = prompt
	choices := make([]any, len(options))
	for i := range options {
		choices[i] = allChoices[i]
	}
	doc["choices"] = choices
	ak, err := get(doc, "Answer Key")
	if err != nil {
		return err
	}
	s, _ := ak.(string)
	t := slices.Index(optionKeys, s)
	if t < 0 {
		return fmt.Errorf("ValueError: %s is not in list", pyval.Repr(ak))
	}
	doc["target"] = int64(t)
	return nil
}

// MMLUDocs is ArabicMMLU's process_docs.
func (d Dialect) MMLUDocs(docs []task.Doc) ([]task.Doc, error) { return pydoc.Update(docs, d.MMLUDoc) }

// removeQuestionMark is boolq's remove_question_mark.
func removeQuestionMark(text string) string {
	text = pyre.Strip(text)
	if strings.HasSuffix(text, "?") || strings.HasSuffix(text, "؟") {
		_, n := utf8.DecodeLastRuneInString(text)
		text = text[:len(text)-n]
	}
	return pyre.Strip(text)
}

// Answers is a boolq utils.py's answer mapping: {"true": yes, "false": no,
// True: yes, False: no}.
type Answers struct{ Yes, No string }

var (
	// ArabicAnswers is boolq/EGY, LEV and MSA's mapping.
	ArabicAnswers = Answers{"نعم", "لا"}
	// EnglishAnswers is boolq/ENG's.
	EnglishAnswers = Answers{"yes", "no"}
)

// lookup is the dict lookup, where True == 1 == 1.0 and False == 0.
func (a Answers) lookup(v any) (string, error) {
	switch x := v.(type) {
	case string:
		switch x {
		case "true":
			return a.Yes, nil
		case "false":
			return a.No, nil
		}
	case bool:
		if x {
			return a.Yes, nil
		}
		return a.No, nil
	case int64:
		if x == 1 || x == 0 {
			return a.lookup(x == 1)
		}
	case float64:
		if x == 1 || x == 0 {
			return a.lookup(x == 1)
		}
	}
	return "", fmt.Errorf("KeyError: %s", pyval.Repr(v))
}

// BoolQDoc is boolq's _helper: the question without its question mark,
// and target the answer in words.
func (a Answers) BoolQDoc(doc task.Doc) error {
	q, err := get(doc, "question")
	if err != nil {
		return err
	}
	s, ok := q.(string)
	if !ok {
		return fmt.Errorf("AttributeError: question is %s, want a string", pyval.Repr(q))
	}
	doc["question"] = removeQuestionMark(s)
	ans, err := get(doc, "answer")
	if err != nil {
		return err
	}
	if doc["target"], err = a.lookup(ans); err != nil {
		return err
	}
	return nil
}

// BoolQDocs is boolq's process_docs.
func (a Answers) BoolQDocs(docs []task.Doc) ([]task.Doc, error) {
	return pydoc.Update(docs, a.BoolQDoc)
}

// CultureDocs is cultural-benchmark's process_docs: choices are Option A,
// B and C.
func CultureDocs(docs []task.Doc) ([]task.Doc, error) {
	return pydoc.Update(docs, func(doc task.Doc) error {
		c := make([]any, 3)
		for i, k := range []string{"Option A", "Option B", "Option C"} {
			v, err := get(doc, k)
			if err != nil {
				return err
			}
			c[i] = v
		}
		doc["choices"] = c
		return nil
	})
}

func obqaChoices(doc task.Doc) ([]map[string]any, error) {
	q, err := get(doc, "question")
	if err != nil {
		return nil, err
	}
	qm, ok := q.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("question is %s, want a dict", pyval.Repr(q))
	}
	cs, ok := qm["choices"]
	if !ok {
		return nil, fmt.Errorf("KeyError: 'choices'")
	}
	list, ok := cs.([]any)
	if !ok {
		return nil, fmt.Errorf("question.choices is %s, want a list", pyval.Repr(cs))
	}
	out := make([]map[string]any, len(list))
	for i, c := range list {
		if out[i], ok = c.(map[string]any); !ok {
			return nil, fmt.Errorf("question.choices[%d] is %s, want a dict", i, pyval.Repr(c))
		}
	}
	return out, nil
}

func field(m map[string]any, k string) (any, error) {
	v, ok := m[k]
	if !ok {
		return nil, fmt.Errorf("KeyError: %s", pyval.Repr(k))
	}
	return v, nil
}

// OBQATarget is openbookqa's doc_to_target: the index of answerKey
// (without leading whitespace) among the choices' labels, or None (which
// Python prints "Failed" for) when it is none of them.
func OBQATarget(doc task.Doc) (any, error) {
	cs, err := obqaChoices(doc)
	if err != nil {
		return nil, err
	}
	labels := make([]any, len(cs))
	for i, c := range cs {
		if labels[i], err = field(c, "label"); err != nil {
			return nil, err
		}
	}
	key, ok := doc["answerKey"].(string)
	if !ok {
		return nil, nil // KeyError or AttributeError, caught
	}
	key = pyre.LStrip(key)
	for i, l := range labels {
		if pyval.Equal(l, key) {
			return i, nil
		}
	}
	return nil, nil // ValueError, caught
}

// OBQAChoice is openbookqa's doc_to_choice: the choices' texts.
func OBQAChoice(doc task.Doc) (any, error) {
	cs, err := obqaChoices(doc)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(cs))
	for i, c := range cs {
		if out[i], err = field(c, "text"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// OBQAText is openbookqa's doc_to_text: the question's stem, stripped.
func OBQAText(doc task.Doc) (any, error) {
	q, err := get(doc, "question")
	if err != nil {
		return nil, err
	}
	qm, ok := q.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("question is %s, want a dict", pyval.Repr(q))
	}
	stem, err := field(qm, "stem")
	if err != nil {
		return nil, err
	}
	s, ok := stem.(string)
	if !ok {
		return nil, fmt.Errorf("AttributeError: question.stem is %s, want a string", pyval.Repr(stem))
	}
	return pyre.Strip(s), nil
}
