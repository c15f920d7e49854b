// Package nerel_bench ports lm_eval/tasks/nerel-bench/utils.py: the
// documents (the instruction formatted with the context's JSON fields),
// the few-shot samples (samples.json, made from the module's own
// functions by gen_samples.py), and the scores: chrF and a set F1 over
// answers normalized as the module does (lower-cased, nltk's
// wordpunct_tokenize, alphanumeric tokens, nltk's Russian Snowball
// stemmer), following nltk 3.10.4, what pip installs today.
package nerel_bench

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// PyFormat is str.format(**fields) for templates of {name} fields and
// {{ }} escapes.
func PyFormat(template string, fields map[string]any) (string, error) {
	var b strings.Builder
	r := []rune(template)
	for i := 0; i < len(r); i++ {
		switch c := r[i]; {
		case c == '{' && i+1 < len(r) && r[i+1] == '{':
			b.WriteRune('{')
			i++
		case c == '}' && i+1 < len(r) && r[i+1] == '}':
			b.WriteRune('}')
			i++
		case c == '{':
			j := i + 1
			for j < len(r) && r[j] != '}' {
				j++
			}
			if j == len(r) {
				return "", fmt.Errorf("ValueError: expected '}' before end of string")
			}
			name := string(r[i+1 : j])
			if strings.ContainsAny(name, "!:[.{") {
				return "", fmt.Errorf("format field %q: only plain names are supported", name)
			}
			v, ok := fields[name]
			if !ok {
				return "", fmt.Errorf("KeyError: %s", pyval.Repr(name))
			}
			b.WriteString(pyval.Str(v))
			i = j
		case c == '}':
			return "", fmt.Errorf("ValueError: Single '}' encountered in format string")
		default:
			b.WriteRune(c)
		}
	}
	return b.String(), nil
}

// jsonFields is json.loads of an object: whole numbers as ints.
func jsonFields(s string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("json.decoder.JSONDecodeError: %v", err)
	}
	for k, v := range m {
		if n, ok := v.(json.Number); ok {
			if i, err := n.Int64(); err == nil && !strings.ContainsAny(n.String(), ".eE") {
				m[k] = i
			} else {
				f, _ := n.Float64()
				m[k] = f
			}
		}
	}
	return m, nil
}

// Columns are the keys process_docs's _process_doc returns.
var Columns = []string{"input_task", "true_answer"}

// ProcessDocs is process_docs.
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	return pyfn.MapDocs(docs, func(_ int, d task.Doc) error {
		ins, err := pyfn.Str(d, "instruction")
		if err != nil {
			return err
		}
		ctx, err := pyfn.Str(d, "context")
		if err != nil {
			return err
		}
		fields, err := jsonFields(ctx)
		if err != nil {
			return err
		}
		in, err := PyFormat(ins, fields)
		if err != nil {
			return err
		}
		ta, err := pydoc.Field(d, "true_answer")
		if err != nil {
			return err
		}
		d["input_task"], d["true_answer"] = in, ta
		return nil
	})
}

//go:embed samples.json
var samplesJSON []byte

// Samples is fewshot_samples_for_<kind>() ("ner", "re", "rd", "ned").
func Samples(kind string) ([]task.Doc, error) {
	var all map[string][]task.Doc
	if err := json.NewDecoder(bytes.NewReader(samplesJSON)).Decode(&all); err != nil {
		return nil, err
	}
	s, ok := all[kind]
	if !ok {
		return nil, fmt.Errorf("nerel-bench: no samples for %q", kind)
	}
	return s, nil
}

// wordpunct is nltk's WordPunctTokenizer pattern, which nltk >= 3.10.3
// compiles with the regex module (nltk/redos.py).
var wordpunct = pyre.RegexModule.MustCompile(`\w+|[^\w\s]+`)

// NormalizeAnswer is normalize_answer(sentence, apply_stemmer=True).
func NormalizeAnswer(sentence string) string {
	s := pyre.Strip(pyre.Lower(sentence))
	if s == "" {
		return ""
	}
	var words []string
	for _, m := range wordpunct.FindAll(s) {
		w := pyre.Strip(m.Group(0))
		if w != "" && pyfn.IsAlnum(w) {
			words = append(words, w)
		}
	}
	var stems []string
	for _, w := range words {
		if st := RussianStem(w); st != "" {
			stems = append(stems, st)
		}
	}
	if len(stems) == 0 {
		return ""
	}
	return pyre.Strip(strings.Join(stems, " "))
}

func strs(refs, preds []any) ([]string, []string, error) {
	if len(refs) != len(preds) {
		return nil, nil, fmt.Errorf("ValueError: The predictions do not correspond to the references! %d != %d", len(preds), len(refs))
	}
	r, err := pyfn.Strings(refs)
	if err != nil {
		return nil, nil, err
	}
	p, err := pyfn.Strings(preds)
	if err != nil {
		return nil, nil, err
	}
	return r, p, nil
}

// ChrF is chrf(predictions, references): the mean sentence chrF (0-1) of
// the normalized answers.
var ChrF = metrics.Func(func(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
	r, p, err := strs(refs, preds)
	if err != nil {
		return nil, err
	}
	if len(p) == 0 {
		return 0.0, nil
	}
	total := 0.0
	for i := range p {
		hyp, ref := NormalizeAnswer(p[i]), NormalizeAnswer(r[i])
		if hyp == "" || ref == "" {
			continue // no n-gram order on both sides: chrF 0
		}
		s, err := metrics.CorpusCHRF([]string{hyp}, [][]string{{ref}})
		if err != nil {
			return nil, err
		}
		total += s / 100.0
	}
	return total / float64(len(p)), nil
})

// entitySet is the set of non-empty normalized lines.
func entitySet(s string) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(s, "\n") {
		if n := NormalizeAnswer(line); n != "" {
			out[n] = true
		}
	}
	return out
}

// F1 is f1(predictions, references): the F1 of the sets of normalized
// lines, pooled over the samples.
var F1 = metrics.Func(func(_ context.Context, refs, preds []any, _ map[string]any) (any, error) {
	r, p, err := strs(refs, preds)
	if err != nil {
		return nil, err
	}
	same, np, nr := 0, 0, 0
	for i := range p {
		ps, rs := entitySet(p[i]), entitySet(r[i])
		for e := range ps {
			if rs[e] {
				same++
			}
		}
		np, nr = np+len(ps), nr+len(rs)
	}
	if same == 0 {
		return 0.0, nil
	}
	precision := float64(same) / float64(np)
	recall := float64(same) / float64(nr)
	return (2.0 * precision * recall) / (precision + recall), nil
})

func init() {

	task.RegisterMapDocs(task.Helper{File: "nerel-bench/utils.py", Function: "process_docs", SHA256: "bff5eb47270797d9bd8fd2f75b697e6831611df49a8a0a846f7568df97da3c10"}, task.MapDocs{Fn: ProcessDocs, Columns: Columns})
	task.RegisterMetric(task.Helper{File: "nerel-bench/utils.py", Function: "chrf", SHA256: "de3feaa252c0224e6ee1da623a28034642a6659c6e6edc67b62d1de4c1d1d2f2"}, ChrF)
	task.RegisterMetric(task.Helper{File: "nerel-bench/utils.py", Function: "f1", SHA256: "ddc3d417420000beeac57b441cd05e204e0780ae402a9484ca5e908d81d31fd9"}, F1)
	for kind, sha := range map[string]string{
		"ner": "6c176830b44c3a5287fc645ef3a4de28cf9bfd90acd854fea1e7afd7ff52c36b",
		"re":  "efcd8e7518ae61bab8c56912b7beea9ccd8a0d83c0d402bcdf241f03a4860fb8",
		"rd":  "6c3da6dff05c79a0146702de2e1573ba021de0510b032aaf7f55721e578d8a8b",
		"ned": "a355c58aa41ee0912fc6afc283a5248c8b839e712ff73407bd6c75214f250eef",
	} {
		task.RegisterSamples(task.Helper{File: "nerel-bench/utils.py", Function: "fewshot_samples_for_" + kind, SHA256: sha}, func() ([]task.Doc, error) { return Samples(kind) })
	}
}
