// Package basqueglue ports lm_eval/tasks/basqueglue/utils.py: WiC's
// document cleaning (HTML entities, detokenization, and the latin-1 to
// UTF-8 re-decoding), EPEC-KORREF's prompt with the marked spans, and
// VaxxStance's F1 (the mean of the "against" and "favour" classes'). Its
// micro_f1_score is lmeval/ports/f1score's.
package basqueglue

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	_ "github.com/lmeval/lmeval/ports/f1score" // micro_f1_score
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

var detok = []struct {
	re   *pyre.Regexp
	repl string
}{
	{pyre.MustCompile(`\s+([.,;:!?)])`), `\1`},
	{pyre.MustCompile(`(\s+|^)\(\s+([^)]+)\s+\)`), `\1(\2)`},
	{pyre.MustCompile(`(\s+|^)\[\s+([^)]+)\s+\]`), `\1[\2]`},
	{pyre.MustCompile(`(\s+|^)"\s+([^"]+)\s+"`), `\1"\2"`},
	{pyre.MustCompile(`(\s+|^)'\s+([^']+)\s+'`), `\1'\2'`},
}

// GeneralDetokenize is basqueglue's own general_detokenize.
func GeneralDetokenize(s string) string {
	for _, d := range detok {
		s = pyfn.Sub(d.re, d.repl, s)
	}
	return s
}

// ProcessDoc is process_doc: html.unescape, then GeneralDetokenize. (Go's
// html.UnescapeString follows HTML5 as Python's does; it keeps the control
// characters numeric references name where Python drops them.)
func ProcessDoc(s string) string { return GeneralDetokenize(html.UnescapeString(s)) }

// latin1ToUTF8 is s.encode("latin-1").decode("utf-8").
func latin1ToUTF8(s string) (string, error) {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			return "", fmt.Errorf("UnicodeEncodeError: 'latin-1' codec can't encode character %U", r)
		}
		b = append(b, byte(r))
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("UnicodeDecodeError: 'utf-8' codec can't decode the re-encoded text")
	}
	return string(b), nil
}

// ProcessWicDocs is process_wic_docs.
func ProcessWicDocs(docs []task.Doc) ([]task.Doc, error) {
	return pyfn.MapDocs(docs, func(_ int, d task.Doc) error {
		for _, k := range []string{"sentence1", "sentence2"} {
			s, err := pyfn.Str(d, k)
			if err != nil {
				return err
			}
			if d[k], err = latin1ToUTF8(ProcessDoc(s)); err != nil {
				return err
			}
		}
		return nil
	})
}

// CorefDocToText is coref_doc_to_text: the two spans starred in the text
// (span2_index counted from 1), and the question whether they corefer.
func CorefDocToText(doc task.Doc) (any, error) {
	text, err := pyfn.Str(doc, "text")
	if err != nil {
		return nil, err
	}
	tokens := strings.Split(text, " ")
	at := func(i int) (int, error) {
		if i < 0 {
			i += len(tokens)
		}
		if i < 0 || i >= len(tokens) {
			return 0, fmt.Errorf("IndexError: list index out of range")
		}
		return i, nil
	}
	span := func(idxKey, textKey string, shift int64) (string, error) {
		iv, err := pydoc.Field(doc, idxKey)
		if err != nil {
			return "", err
		}
		start, err := pyval.Int(iv)
		if err != nil {
			return "", err
		}
		start += shift
		st, err := pyfn.Str(doc, textKey)
		if err != nil {
			return "", err
		}
		end := start + int64(len(strings.Split(st, " "))) - 1
		s, err := at(int(start))
		if err != nil {
			return "", err
		}
		tokens[s] = "*" + tokens[s]
		e, err := at(int(end))
		if err != nil {
			return "", err
		}
		tokens[e] = tokens[e] + "*"
		return st, nil
	}
	s1, err := span("span1_index", "span1_text", 0)
	if err != nil {
		return nil, err
	}
	s2, err := span("span2_index", "span2_text", -1)
	if err != nil {
		return nil, err
	}
	context := ProcessDoc(strings.Join(tokens, " "))
	return "Testua: " + context + "\n" +
		`Galdera: Aurreko testuan, "*` + ProcessDoc(s1) + `*" eta "*` + ProcessDoc(s2) + `*" gauza bera dira?` + "\n" +
		"Erantzuna:", nil
}

// VaxxF1 is vaxx_f1_score: the mean F1 of labels 0 and 2 (sklearn's
// f1_score with labels=[0, 2], average=None, through evaluate's f1).
var VaxxF1 = &metrics.Aggregation{Name: "vaxx_f1_score", Fn: func(items []any) (float64, error) {
	var f [2]float64
	for k, l := range []int{0, 2} {
		var tp, fp, fn float64
		for i, it := range items {
			p, ok := it.(metrics.Pair)
			if !ok {
				l, ok := it.([]any)
				if !ok || len(l) != 2 {
					return 0, fmt.Errorf("vaxx_f1_score: value %d is %T, want (gold, pred)", i, it)
				}
				g, err1 := pyval.Int(l[0])
				q, err2 := pyval.Int(l[1])
				if err1 != nil || err2 != nil {
					return 0, fmt.Errorf("vaxx_f1_score: value %d: %s", i, pyval.Repr(l))
				}
				p = metrics.Pair{Gold: int(g), Pred: int(q)}
			}
			switch {
			case p.Gold == l && p.Pred == l:
				tp++
			case p.Pred == l:
				fp++
			case p.Gold == l:
				fn++
			}
		}
		if d := 2*tp + fp + fn; d > 0 {
			f[k] = 2 * tp / d
		}
	}
	return (0 + f[0] + f[1]) / 2, nil
}}

func init() {
	metrics.RegisterAggregation(VaxxF1)

	task.RegisterDocFunc(task.Helper{File: "basqueglue/utils.py", Function: "coref_doc_to_text", SHA256: "3891605bd372736eef7d3dfcb09873feac96a37a453577abab92ce58c07df829"}, CorefDocToText)
	task.RegisterProcessDocs(task.Helper{File: "basqueglue/utils.py", Function: "process_wic_docs", SHA256: "557c7be22a988d07e021757da934bdb423c9046865884e4175a8c3a1dbd0fb00"}, ProcessWicDocs)
	task.RegisterAggregation(task.Helper{File: "basqueglue/utils.py", Function: "vaxx_f1_score", SHA256: "12dfe22e3ec162ecc7d60fd172ad150b1805503c33999e4e622c18645cbae33f"}, VaxxF1)
}
