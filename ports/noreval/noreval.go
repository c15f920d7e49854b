// Package noreval ports lm_eval/tasks/noreval's helpers: the prompt
// functions p0..p4 of norquad, nortruthfulqa (multiple choice) and
// nrk_quiz_qa, norquad's and noridiom's documents and scores,
// noropenbookqa's filter, norec's macro F1 and nortruthfulqa's generation
// documents (its BLEU/ROUGE scores are truthfulqa's, lmeval/tasks).
// norsumm's process_results needs BERTScore (a BERT model run through
// Hugging Face evaluate), which lmeval does not reimplement.
package noreval

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/ibero"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/ports/internal/squad"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// Format is template.format(**fields) for templates of plain {name}
// fields: each value as str() gives it.
func Format(template string, fields map[string]any) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(template, '{')
		if i < 0 {
			b.WriteString(template)
			return b.String(), nil
		}
		j := strings.IndexByte(template[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("ValueError: Single '{' encountered in format string")
		}
		name := template[i+1 : i+j]
		v, ok := fields[name]
		if !ok {
			return "", fmt.Errorf("KeyError: %s", pyval.Repr(name))
		}
		b.WriteString(template[:i])
		b.WriteString(pyval.Str(v))
		template = template[i+j+1:]
	}
}

// choiceStyle says how a prompt lists the choices.
type choiceStyle int

const (
	noChoices  choiceStyle = iota
	dashMC1                // "\n- " + each of doc["mc1_targets"]["choices"]
	dashText               // "\n- " + each of doc["choices"]["text"]
	labelled               // "\n<label>: <text>" of zip(doc["choices"]["label"], ["text"])
	enumerated             // labelled, and {enumerated_choices}: "A, B, eller C"
)

// Prompt is one of the p<N>_<lang> functions.
type Prompt struct {
	Template string
	Style    choiceStyle
}

// Render is the prompt function.
func (p Prompt) Render(doc task.Doc) (string, error) {
	q, err := pydoc.Field(doc, "question")
	if err != nil {
		return "", err
	}
	fields := map[string]any{"question": q}
	switch p.Style {
	case dashMC1, dashText:
		path := []any{"choices", "text"}
		if p.Style == dashMC1 {
			path = []any{"mc1_targets", "choices"}
		}
		v, err := pyfn.Path(doc, path...)
		if err != nil {
			return "", err
		}
		l, ok := pyfn.AsList(v)
		if !ok {
			return "", fmt.Errorf("TypeError: choices are %s, not a list", pydoc.TypeName(v))
		}
		var b strings.Builder
		for _, c := range l {
			b.WriteString("\n- " + pyval.Str(c))
		}
		fields["choices"] = b.String()
	case labelled, enumerated:
		lv, err := pyfn.Path(doc, "choices", "label")
		if err != nil {
			return "", err
		}
		tv, err := pyfn.Path(doc, "choices", "text")
		if err != nil {
			return "", err
		}
		labels, ok1 := pyfn.AsList(lv)
		texts, ok2 := pyfn.AsList(tv)
		if !ok1 || !ok2 {
			return "", fmt.Errorf("TypeError: choices.label and choices.text must be lists")
		}
		var b strings.Builder
		for i := 0; i < len(labels) && i < len(texts); i++ {
			b.WriteString("\n" + pyval.Str(labels[i]) + ": " + pyval.Str(texts[i]))
		}
		fields["choices"] = b.String()
		if p.Style == enumerated {
			ls, err := pyfn.Strings(labels)
			if err != nil || len(ls) == 0 {
				if err == nil {
					err = fmt.Errorf("IndexError: list index out of range")
				}
				return "", err
			}
			e := strings.Join(ls[:len(ls)-1], ", ") + ", eller " + ls[len(ls)-1]
			if len(ls) == 2 {
				e = strings.ReplaceAll(e, ", eller", " eller")
			}
			fields["enumerated_choices"] = e
		}
	}
	return Format(p.Template, fields)
}

// NorquadPrompt is norquad's p<N>: an f-string of title, passage and
// question.
func NorquadPrompt(template string) func(task.Doc) (string, error) {
	return func(doc task.Doc) (string, error) {
		fields := map[string]any{}
		for _, k := range []string{"title", "passage", "question"} {
			v, err := pydoc.Field(doc, k)
			if err != nil {
				return "", err
			}
			fields[k] = v
		}
		return Format(template, fields)
	}
}

// NorquadColumns are the columns norquad's process_docs adds.
var NorquadColumns = []string{"title", "passage"}

// NorquadProcessDocs is norquad/utils.py process_docs: the context's first
// line is the title, the rest the passage; the question's whitespace runs
// become single spaces.
func NorquadProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	return pyfn.MapDocs(docs, func(_ int, d task.Doc) error {
		ctx, err := pyfn.Str(d, "context")
		if err != nil {
			return err
		}
		lines := strings.Split(pyre.Strip(ctx), "\n")
		d["title"] = pyre.Strip(lines[0])
		d["passage"] = pyre.Strip(strings.Join(lines[1:], "\n"))
		q, err := pyfn.Str(d, "question")
		if err != nil {
			return err
		}
		d["question"] = strings.Join(pyfn.Split(pyre.Strip(q)), " ")
		return nil
	})
}

// NorquadProcessResults is norquad/utils.py process_results: SQuAD exact
// match and F1 against doc["answers"]["text"][0].
func NorquadProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	ref, err := pyfn.PathStr(doc, "answers", "text", 0)
	if err != nil {
		return nil, err
	}
	return squad.Results(ref, results)
}

// pyLen is len(v).
func pyLen(v any) (int, error) {
	switch x := v.(type) {
	case string:
		return pyfn.Len(x), nil
	case []any:
		return len(x), nil
	case map[string]any:
		return len(x), nil
	}
	return 0, fmt.Errorf("TypeError: object of type '%s' has no len()", pydoc.TypeName(v))
}

// FilterFact is noropenbookqa/utils.py filter_dataset: documents with a
// non-empty fact.
func FilterFact(docs []task.Doc) ([]task.Doc, error) {
	return pyfn.FilterDocs(docs, func(d task.Doc) (bool, error) {
		v, err := pydoc.Field(d, "fact")
		if err != nil {
			return false, err
		}
		n, err := pyLen(v)
		return n > 0, err
	})
}

// FilterLanguage is noridiom/utils.py filter_dataset_nb/_nn.
func FilterLanguage(lang string) func([]task.Doc) ([]task.Doc, error) {
	return func(docs []task.Doc) ([]task.Doc, error) {
		return pyfn.FilterDocs(docs, func(d task.Doc) (bool, error) {
			v, err := pydoc.Field(d, "language")
			if err != nil {
				return false, err
			}
			s, ok := v.(string)
			return ok && s == lang, nil
		})
	}
}

// idiomNormalize is noridiom's normalize: punctuation removed, then lower
// case, then stripped.
func idiomNormalize(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 128 && strings.ContainsRune(squad.Punctuation, r) {
			return -1
		}
		return r
	}, s)
	return pyre.Strip(pyre.Lower(s))
}

// idiomF1 is noridiom's f1(prediction, completion).
func idiomF1(prediction, completion string) any {
	g, p := pyfn.Split(completion), pyfn.Split(prediction)
	same := squad.CommonCount(g, p)
	if len(g) == 0 || len(p) == 0 {
		if len(g) == len(p) {
			return int64(1)
		}
		return int64(0)
	}
	if same == 0 {
		return int64(0)
	}
	precision := float64(same) / float64(len(p))
	recall := float64(same) / float64(len(g))
	return (2 * precision * recall) / (precision + recall)
}

// nanmax is np.nanmax of a list of Python ints and floats: the maximum, a
// float when any item is one (numpy's array of them is float64).
func nanmax(xs []any) (any, error) {
	if len(xs) == 0 {
		return nil, fmt.Errorf("ValueError: zero-size array to reduction operation fmax which has no identity")
	}
	anyFloat := false
	best := 0.0
	for i, x := range xs {
		var f float64
		switch v := x.(type) {
		case int64:
			f = float64(v)
		case float64:
			f = v
			anyFloat = true
		}
		if i == 0 || f > best {
			best = f
		}
	}
	if anyFloat {
		return best, nil
	}
	return int64(best), nil
}

// IdiomProcessResults is noridiom/utils.py process_results: the best exact
// match ("em") and token F1 ("fscore") against the accepted completions.
func IdiomProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	r, err := pyfn.Result(results)
	if err != nil {
		return nil, err
	}
	pred := idiomNormalize(r)
	comps, err := pyfn.StrList(doc, "accepted_completions")
	if err != nil {
		return nil, err
	}
	ems := make([]any, len(comps))
	fs := make([]any, len(comps))
	for i, c := range comps {
		c = idiomNormalize(c)
		ems[i] = int64(0)
		if pred == c {
			ems[i] = int64(1)
		}
		fs[i] = idiomF1(pred, c)
	}
	em, err := nanmax(ems)
	if err != nil {
		return nil, err
	}
	f, err := nanmax(fs)
	if err != nil {
		return nil, err
	}
	return map[string]any{"em": em, "fscore": f}, nil
}

// GenColumns are the keys nortruthfulqa's preprocess_function returns
// (those of the Iberian benchmarks' preprocess_function_gen).
var GenColumns = ibero.GenColumns

// GenProcessDocs is nortruthfulqa/generation/utils.py process_docs: as
// ibero.ProcessDocsGen without the no-comment answer (its _format_answers
// is the Iberian helpers', ibero.FormatAnswers).
func GenProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	return pyfn.MapDocs(docs, func(_ int, d task.Doc) error {
		inc, err := ibero.FormatAnswers(d, "incorrect_answers")
		if err != nil {
			return err
		}
		cor, err := ibero.FormatAnswers(d, "correct_answers")
		if err != nil {
			return err
		}
		q, err := pyfn.Str(d, "question")
		if err != nil {
			return err
		}
		d["question"], d["correct_answers"], d["incorrect_answers"] = pyre.Strip(q), cor, inc
		return nil
	})
}
