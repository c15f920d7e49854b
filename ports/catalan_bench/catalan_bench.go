// Package catalan_bench ports lm_eval/tasks/catalan_bench's helpers
// (utils.py and truthfulqa_va/utils.py): the NLI, paraphrase, COPA and
// caBreu document cleaning, the QA scores of CatalanQA/XQuAD-ca and
// CoQCat, ROUGE-1 (rouge1/rouge1_agg, shared with spanish, galician and
// french_bench) and TruthfulQA-va's documents and scores.
package catalan_bench

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/ibero"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/ports/internal/rouge"
	"github.com/lmeval/lmeval/ports/internal/squad"
	"github.com/lmeval/lmeval/ports/truthfulqa"
	"github.com/lmeval/lmeval/python/pyre"
)

// ProcessDocNLI is process_doc_nli (premise, hypothesis).
func ProcessDocNLI(docs []task.Doc) ([]task.Doc, error) {
	return ibero.NLI(docs, "premise", "hypothesis", "", nil)
}

// ProcessDocsParaphrases is process_docs_paraphrases.
func ProcessDocsParaphrases(docs []task.Doc) ([]task.Doc, error) {
	return ibero.Paraphrases(docs, "sentence1", "sentence2", true)
}

// ProcessDocCabreu is process_doc_cabreu: runs of spaces collapsed in the
// content and in each of the nine summaries.
func ProcessDocCabreu(docs []task.Doc) ([]task.Doc, error) {
	return pyfn.MapDocs(docs, func(_ int, d task.Doc) error {
		c, err := pyfn.Str(d, "content")
		if err != nil {
			return err
		}
		d["content"] = ibero.CollapseSpaces(c)
		sums, err := pyfn.Map(d, "summaries")
		if err != nil {
			return err
		}
		out := make(map[string]any, len(sums))
		for k, v := range sums {
			out[k] = v
		}
		for _, typ := range []string{"abstractive", "extractive", "extreme"} {
			m, ok := out[typ].(map[string]any)
			if !ok {
				return fmt.Errorf("KeyError: summaries[%q]", typ)
			}
			nm := make(map[string]any, len(m))
			for k, v := range m {
				nm[k] = v
			}
			for _, idx := range []string{"a1", "a2", "a3"} {
				s, err := pyfn.PathStr(nm, idx)
				if err != nil {
					return err
				}
				nm[idx] = ibero.CollapseSpaces(s)
			}
			out[typ] = nm
		}
		d["summaries"] = out
		return nil
	})
}

// ProcessResultsQA is process_results_qa: reference doc["answers"][0]["text"].
func ProcessResultsQA(doc task.Doc, results []any) (map[string]any, error) {
	ref, err := pyfn.PathStr(doc, "answers", 0, "text")
	if err != nil {
		return nil, err
	}
	return squad.Results(ref, results)
}

func num(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// maxScore is Python's max over the golds (the first of equal values).
func maxScore(golds []string, fn func(g string) any) any {
	var best any
	for i, g := range golds {
		s := fn(g)
		if i == 0 || num(s) > num(best) {
			best = s
		}
	}
	return best
}

// ProcessResultsCoqcat is process_results_coqcat: the answer to the last
// question (and the additional answers not equal to one already taken,
// case-insensitively), scored leave-one-out when there are several.
// additional_answers' keys are taken in sorted order (a document's map
// keeps no order of its own; CoQA's are "0", "1", "2").
func ProcessResultsCoqcat(doc task.Doc, results []any) (map[string]any, error) {
	qs, err := pyfn.List(doc, "questions")
	if err != nil {
		return nil, err
	}
	turn := len(qs) - 1
	first, err := pyfn.PathStr(doc, "answers", "input_text", turn)
	if err != nil {
		return nil, err
	}
	answers := []string{first}
	if add, ok := doc["additional_answers"].(map[string]any); ok && len(add) > 0 {
		keys := make([]string, 0, len(add))
		for k := range add {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			a, err := pyfn.PathStr(add[k], "input_text", turn)
			if err != nil {
				return nil, err
			}
			dup := false
			for _, x := range answers {
				dup = dup || pyre.Lower(x) == pyre.Lower(a)
			}
			if !dup {
				answers = append(answers, a)
			}
		}
	}
	r, err := pyfn.Result(results)
	if err != nil {
		return nil, err
	}
	pred := strings.Split(pyre.Strip(r), "\n")[0]
	emSum, f1Sum := 0.0, 0.0
	exact := func(g string) any { return squad.ComputeExact(g, pred) }
	f1 := func(g string) any { return squad.ComputeF1(g, pred) }
	if len(answers) > 1 {
		for i := range answers {
			rest := append(append([]string{}, answers[:i]...), answers[i+1:]...)
			emSum += num(maxScore(rest, exact))
			f1Sum += num(maxScore(rest, f1))
		}
	} else {
		emSum += num(maxScore(answers, exact))
		f1Sum += num(maxScore(answers, f1))
	}
	n := float64(max(1, len(answers)))
	return map[string]any{"em": emSum / n, "f1": f1Sum / n}, nil
}

func init() {

	const f = "catalan_bench/utils.py"
	// rouge1 serves galician, spanish, french_bench and noticia too;
	// rouge1_agg french_bench's (galician's and spanish's is another
	// source, the same computation).
	task.RegisterMetric(task.Helper{File: f, Function: "rouge1", SHA256: "7f960226c8fd8c795041c396d4147431375c901ec68703af1e39702a71124e9a"}, rouge.Passthrough)
	task.RegisterAggregation(task.Helper{File: f, Function: "rouge1_agg", SHA256: "a0e246459ac18d242c67bf1b37c4f1b6748b6ed3a87f547db23b72a2b451376c"}, rouge.Agg)
	task.RegisterProcessDocs(task.Helper{File: f, Function: "process_doc_nli", SHA256: "bfb6e71d592834253677830416cad8088e56f19a51b2d7aa70ce2152ea7ba8ee"}, ProcessDocNLI)
	task.RegisterProcessDocs(task.Helper{File: f, Function: "process_doc_cabreu", SHA256: "d3081146a91cfc8abb4204d2fd832df4a11c1d82bf625bead192f403c9c56009"}, ProcessDocCabreu)
	task.RegisterProcessDocs(task.Helper{File: f, Function: "process_docs_paraphrases", SHA256: "c5ae06eaea708fc26e5ba09123ba22a124c27439a14b586911de647025822592"}, ProcessDocsParaphrases)
	task.RegisterProcessDocs(task.Helper{File: f, Function: "process_docs_copa_ca", SHA256: "1ac4f3a9518917409b2ad3094c6d0544067ede8ec5a6b8b3d41bead6433f6e1c"}, ibero.CopaLower)
	task.RegisterProcessResults(task.Helper{File: f, Function: "process_results_coqcat", SHA256: "03a9d9a745cf88caa51c3ef80c1f5b1b5fa21d3117ec9faf5533e045b3dc3f69"}, ProcessResultsCoqcat)
	task.RegisterProcessResults(task.Helper{File: f, Function: "process_results_qa", SHA256: "7db6281da1abc36bb54171ec9992d055ddde8fb90c2bc8a9c1d98c16785eea5e"}, ProcessResultsQA)
	const va = "catalan_bench/truthfulqa_va/utils.py"
	// galician_bench's process_docs_gen is the same source (and appends
	// the Galician "Non teño ningún comentario." here too).
	task.RegisterMapDocs(task.Helper{File: va, Function: "process_docs_gen", SHA256: "ddcb43a2788eeb832150edc934282807835921efde36034e90dd0cd6cbddae2e"}, task.MapDocs{Fn: func(d []task.Doc) ([]task.Doc, error) {
		return ibero.ProcessDocsGen(d, "Non teño ningún comentario.")
	},
		Columns: ibero.GenColumns})
	// truthfulqa's process_results_gen, word for word.
	task.RegisterProcessResults(task.Helper{File: va, Function: "process_results_gen", SHA256: "9aa9c0b6e2453fd08860d8245e40a231557193c196688799d3830a8b76101995"}, truthfulqa.ProcessResultsGen)
}
