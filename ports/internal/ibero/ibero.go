// Package ibero holds what the helpers of lm-eval's Iberian-language
// benchmarks (catalan_bench, galician_bench, spanish_bench, basque_bench,
// and paws-x, which they copy) share: the paraphrase and NLI document
// cleaning, COPA's lower-cased choices and the double-space collapse of
// the summarisation sets.
package ibero

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
)

// Paraphrases is process_docs_paraphrases (and paws_process_docs): the
// documents whose k1 and k2 are neither None nor "", with k1 (and k2)
// detokenized (when detok) and stripped, k1's final . , or ; dropped and
// k2's first letter lower-cased.
func Paraphrases(docs []task.Doc, k1, k2 string, detok bool) ([]task.Doc, error) {
	kept, err := pyfn.FilterDocs(docs, func(d task.Doc) (bool, error) {
		a, err := pydoc.Field(d, k1)
		if err != nil {
			return false, err
		}
		if pyfn.NoneOrEmpty(a) {
			return false, nil
		}
		b, err := pydoc.Field(d, k2)
		if err != nil {
			return false, err
		}
		return !pyfn.NoneOrEmpty(b), nil
	})
	if err != nil {
		return nil, err
	}
	return pyfn.MapDocs(kept, func(_ int, d task.Doc) error {
		s1, err := pyfn.Str(d, k1)
		if err != nil {
			return err
		}
		s2, err := pyfn.Str(d, k2)
		if err != nil {
			return err
		}
		if detok {
			s1 = pyre.Strip(pyfn.GeneralDetokenize(s1))
			s2 = pyre.Strip(pyfn.GeneralDetokenize(s2))
		}
		if pyfn.EndsWithAny(s1, ".", ",", ";") {
			s1 = pyfn.DropLast(s1)
		}
		if s2, err = pyfn.LowercaseFirstLetter(s2); err != nil {
			return err
		}
		d[k1], d[k2] = s1, s2
		return nil
	})
}

// NLI is process_doc_nli: premise and hypothesis (k1, k2) detokenized and
// stripped, the premise's final . , ! or ? dropped, the hypothesis
// starting lower-case and ending with a period; labels, when given, maps
// the label column's names to ints.
func NLI(docs []task.Doc, k1, k2, labelKey string, labels map[string]int64) ([]task.Doc, error) {
	return pyfn.MapDocs(docs, func(_ int, d task.Doc) error {
		p, err := pyfn.Str(d, k1)
		if err != nil {
			return err
		}
		h, err := pyfn.Str(d, k2)
		if err != nil {
			return err
		}
		p = pyre.Strip(pyfn.GeneralDetokenize(p))
		h = pyre.Strip(pyfn.GeneralDetokenize(h))
		if pyfn.EndsWithAny(p, ".", ",", "!", "?") {
			p = pyfn.DropLast(p)
		}
		if h, err = pyfn.LowercaseFirstLetter(h); err != nil {
			return err
		}
		if !pyfn.EndsWithAny(h, ".") {
			h += "."
		}
		d[k1], d[k2] = p, h
		if labels != nil {
			l, err := pydoc.Field(d, labelKey)
			if err != nil {
				return err
			}
			s, _ := l.(string)
			n, ok := labels[s]
			if _, isStr := l.(string); !ok || !isStr {
				return fmt.Errorf("KeyError: %v", l)
			}
			d[labelKey] = n
		}
		return nil
	})
}

// CopaLower is process_docs_copa_<lang>: choice1 and choice2 start
// lower-case.
func CopaLower(docs []task.Doc) ([]task.Doc, error) {
	return pyfn.MapDocs(docs, func(_ int, d task.Doc) error {
		for _, k := range []string{"choice1", "choice2"} {
			s, err := pyfn.Str(d, k)
			if err != nil {
				return err
			}
			if d[k], err = pyfn.LowercaseFirstLetter(s); err != nil {
				return err
			}
		}
		return nil
	})
}

var spaces = pyre.MustCompile(` +`)

// CollapseSpaces is re.sub(r" +", " ", s).
func CollapseSpaces(s string) string { return pyfn.Sub(spaces, " ", s) }

// Summaries is process_xlsum / process_summarization: runs of spaces in
// each of keys become one.
func Summaries(docs []task.Doc, keys ...string) ([]task.Doc, error) {
	return pyfn.MapDocs(docs, func(_ int, d task.Doc) error {
		for _, k := range keys {
			s, err := pyfn.Str(d, k)
			if err != nil {
				return err
			}
			d[k] = CollapseSpaces(s)
		}
		return nil
	})
}

// FormatAnswers is the truthfulqa helpers' _format_answers: each answer
// stripped, empty ones dropped, a period added where missing.
func FormatAnswers(doc task.Doc, key string) ([]any, error) {
	l, err := pyfn.StrList(doc, key)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, a := range l {
		a = pyre.Strip(a)
		if a == "" {
			continue
		}
		if !strings.HasSuffix(a, ".") {
			a += "."
		}
		out = append(out, a)
	}
	return out, nil
}

func contains(l []any, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// GenColumns are the keys preprocess_function_gen returns.
var GenColumns = []string{"question", "correct_answers", "incorrect_answers"}

// ProcessDocsGen is galician_bench's (and catalan_bench/truthfulqa_va's)
// process_docs_gen: the answers formatted, noComment added to the correct
// ones when missing, the question stripped.
func ProcessDocsGen(docs []task.Doc, noComment string) ([]task.Doc, error) {
	return pyfn.MapDocs(docs, func(_ int, d task.Doc) error {
		inc, err := FormatAnswers(d, "incorrect_answers")
		if err != nil {
			return err
		}
		cor, err := FormatAnswers(d, "correct_answers")
		if err != nil {
			return err
		}
		if !contains(cor, noComment) {
			cor = append(cor, noComment)
		}
		q, err := pyfn.Str(d, "question")
		if err != nil {
			return err
		}
		d["question"], d["correct_answers"], d["incorrect_answers"] = pyre.Strip(q), cor, inc
		return nil
	})
}

// MultiColumns are the keys truthfulqa-multi's preprocess_function returns.
var MultiColumns = []string{"question", "correct_answers", "incorrect_answers", "best_answer"}

// noComments are truthfulqa-multi's "I have no comment." by language.
var noComments = []struct{ lang, text string }{
	{"en", "I have no comment."}, {"ca", "No tinc cap comentari."}, {"es", "No tengo ningún comentario."},
	{"eu", "Iruzkinik ez."}, {"gl", "Non teño ningún comentario."},
}

// ProcessDocsGenMulti is truthfulqa-multi's process_docs_gen: as
// ProcessDocsGen with the document's language's no-comment answer, and
// best_answer kept.
func ProcessDocsGenMulti(docs []task.Doc) ([]task.Doc, error) {
	return pyfn.MapDocs(docs, func(_ int, d task.Doc) error {
		if _, ok := d["correct_answers"]; !ok {
			return fmt.Errorf("UnboundLocalError: correct_answers")
		}
		inc, err := FormatAnswers(d, "incorrect_answers")
		if err != nil {
			return err
		}
		cor, err := FormatAnswers(d, "correct_answers")
		if err != nil {
			return err
		}
		lang, err := pydoc.Field(d, "lang")
		if err != nil {
			return err
		}
		for _, nc := range noComments {
			if lang == nc.lang && !contains(cor, nc.text) {
				cor = append(cor, nc.text)
				break
			}
		}
		q, err := pyfn.Str(d, "question")
		if err != nil {
			return err
		}
		best, err := pydoc.Field(d, "best_answer")
		if err != nil {
			return err
		}
		d["question"], d["correct_answers"], d["incorrect_answers"], d["best_answer"] = pyre.Strip(q), cor, inc, best
		return nil
	})
}
