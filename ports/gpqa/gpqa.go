// Package gpqa ports lm_eval/tasks/gpqa's and lm_eval/tasks/leaderboard/
// gpqa's utils.py: process_docs, which shuffles each question's four
// answers and records the letter of the correct one.
package gpqa

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyre"
)

var brackets = pyre.MustCompile(`\[.*?\]`)

// Preprocess is utils.py's preprocess: None becomes " "; otherwise strip,
// " [title]" becomes ". ", (leaderboard and zeroshot only: bracketed text
// removed when dropBrackets) and double spaces become one.
func Preprocess(text any, dropBrackets bool) (string, error) {
	if text == nil {
		return " ", nil
	}
	s, ok := text.(string)
	if !ok {
		return "", fmt.Errorf("answer is %T, want text", text)
	}
	s = pyre.Strip(s)
	s = strings.ReplaceAll(s, " [title]", ". ")
	if dropBrackets {
		s, _ = brackets.Sub("", s, 0)
	}
	return strings.ReplaceAll(s, "  ", " "), nil
}

// Options are what the copies of process_docs differ in.
type Options struct {
	DropBrackets bool // re.sub("\\[.*?\\]", "", text) in preprocess
	ChoicesList  bool // out_doc also has "choices": the four answers
}

// ProcessDocs is process_docs: each document becomes {choice1..choice4,
// [choices,] answer: "(A)".."(D)"}, the answers (three incorrect, then
// the correct one) shuffled with rnd as random.shuffle does. Like
// datasets.map, it keeps the document's other columns.
func ProcessDocs(docs []task.Doc, rnd *pyrand.Rand, o Options) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		var choices [4]string
		for j, k := range []string{"Incorrect Answer 1", "Incorrect Answer 2", "Incorrect Answer 3", "Correct Answer"} {
			s, err := Preprocess(d[k], o.DropBrackets)
			if err != nil {
				return nil, fmt.Errorf("gpqa process_docs: document %d: %q: %w", i, k, err)
			}
			choices[j] = s
		}
		correct := choices[3]
		rnd.Shuffle(4, func(a, b int) { choices[a], choices[b] = choices[b], choices[a] })
		idx := 0
		for choices[idx] != correct {
			idx++
		}
		nd := make(task.Doc, len(d)+6)
		for k, v := range d {
			nd[k] = v
		}
		nd["choice1"], nd["choice2"], nd["choice3"], nd["choice4"] = choices[0], choices[1], choices[2], choices[3]
		if o.ChoicesList {
			nd["choices"] = []any{choices[0], choices[1], choices[2], choices[3]}
		}
		nd["answer"] = fmt.Sprintf("(%c)", 'A'+idx)
		out[i] = nd
	}
	return out, nil
}

// ProcessDocsGlobal is process_docs for the copies that call the module's
// random.shuffle, which draws from Python's module-level generator.
//
// lm-eval calls process_docs several times per split (few-shot documents,
// evaluation documents, requests, scoring), and datasets' map cache gives
// every call after the first the first one's rows: one shuffle per split,
// drawn when lm-eval constructs the task. The draws come from the module
// generator as random.seed(seed) (--seed's first value) left it, after
// the draws of the tasks constructed before (leaderboard_gpqa's diamond,
// extended, main in a row): the evaluator builds tasks marked GlobalRandom
// one by one in lm-eval's order, and this shuffles with the run's shared
// generator (task.MapDocs.FnModule). The result is cached by the input
// documents for the rest of the run (another run starts a new cache), so
// every use of the split sees the same shuffle.
func ProcessDocsGlobal(o Options) task.MapDocs {
	return task.MapDocs{GlobalRandom: true, FnModule: pydoc.MemoModule(func(docs []task.Doc, m *pyrand.Module) (out []task.Doc, err error) {
		m.With(func(r *pyrand.Rand) { out, err = ProcessDocs(docs, r, o) })
		return out, err
	})}
}

// NShotProcessDocs is process_docs for gpqa/n_shot, whose module creates
// rng = random.Random(42) at import and shuffles with it: as for
// ProcessDocsGlobal, each distinct split is shuffled with the draws of a
// fresh Random(42) (the first call after the import) and cached.
func NShotProcessDocs() task.ProcessDocsFunc {
	return pydoc.Memo(func(docs []task.Doc) ([]task.Doc, error) {
		return ProcessDocs(docs, pyrand.New(42), Options{})
	})
}
