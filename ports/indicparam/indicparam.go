// Package indicparam ports lm_eval/tasks/indicparam/utils.py: the
// question with its four lettered options, the letters as choices, the
// answer letter's index, and process_docs_<language>, each keeping one
// subject's documents.
package indicparam

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

var (
	choices = []string{"A", "B", "C", "D"}
	opts    = []string{"option_a", "option_b", "option_c", "option_d"}
)

// SubjectMap is SUBJECT_MAP: task suffix to the dataset's subject.
var SubjectMap = map[string]string{
	"bodo": "Bodo", "dogri": "Dogri", "gujarati": "Gujarati_surya", "konkani": "Konkani",
	"maithili": "Maithili", "marathi": "Marathi", "nepali": "Nepali", "oriya": "Oriya",
	"rajasthani": "Rajasthani", "sanskrit": "Sanskrit", "sanskrit_mix": "Sanskrit Mix", "santali": "Santali",
}

// DocToText is doc_to_text.
func DocToText(doc task.Doc) (any, error) {
	lines := make([]string, len(opts))
	for i, o := range opts {
		v, err := pydoc.Field(doc, o)
		if err != nil {
			return nil, err
		}
		lines[i] = choices[i] + ". " + pyval.Str(v)
	}
	q, err := pydoc.Field(doc, "question_text")
	if err != nil {
		return nil, err
	}
	return "Question: " + pyval.Str(q) + "\n" + strings.Join(lines, "\n") + "\nAnswer:", nil
}

// DocToChoice is doc_to_choice.
func DocToChoice(task.Doc) (any, error) { return append([]string(nil), choices...), nil }

// DocToTarget is doc_to_target: CHOICES.index(correct_answer.upper()).
func DocToTarget(doc task.Doc) (any, error) {
	a, err := pyfn.Str(doc, "correct_answer")
	if err != nil {
		return nil, err
	}
	u := pyre.Upper(a)
	for i, c := range choices {
		if c == u {
			return i, nil
		}
	}
	return nil, fmt.Errorf("ValueError: %s is not in list", pyval.Repr(u))
}

// Filter is _make_filter(subject): the documents of one subject.
func Filter(subject string) func([]task.Doc) ([]task.Doc, error) {
	return func(docs []task.Doc) ([]task.Doc, error) {
		return pyfn.FilterDocs(docs, func(d task.Doc) (bool, error) {
			v, err := pydoc.Field(d, "subject")
			if err != nil {
				return false, err
			}
			s, ok := v.(string)
			return ok && s == subject, nil
		})
	}
}

var filterSHA = map[string]string{
	"bodo":         "c1473a8f27cf84af80fa72e0ce8c682f77343072ac8267e28206be5c70151a38",
	"dogri":        "ecb21415d55dd694a3ecf4826d1dd967bb144c6fb02810393f5fcdb0cefb096d",
	"gujarati":     "f8f5338c0a2e08859860aa681d62ede6eaaacf6738cb85b992cc2da9ece98619",
	"konkani":      "b3866a997a2773e1e2d1775c7cdadd5e122b64ac8aa0711608f3d4c3f4495edf",
	"maithili":     "b450d82ebf068b77ddadd01c9a27fbd54abea5a86579dfe62e120a213b64d015",
	"marathi":      "6669a9995a6f160b1e896fd33baad157c9964b236f2c4a5cf4a95f7fe1f0ed33",
	"nepali":       "287add4d2018c422d5a9355f369694535dfd75d17b7dd23ca53ca2dd034ced04",
	"oriya":        "47e129706343d2dac02eb3397aec061c982d55dfbcf0e6baee9bb494ca773f7d",
	"rajasthani":   "a1ed5ee76ea556c96c60825a3d370c1da4fd72f3ae054ae7663b5e55b47b5ea5",
	"sanskrit":     "f11ca5bd3ca2b2e149ab4f0cf21dc3f6891b493b2778e900a96da7ce17c7901a",
	"sanskrit_mix": "a819301880f8058a4f3d0ba70f99ea8988af3101ded7a48adf950534c5ba429e",
	"santali":      "648d31f158df412b400cc2f319611fee1660537211c3951f792ba897fff7c083",
}

func init() {
	const f = "indicparam/utils.py"
	task.RegisterDocFunc(task.Helper{File: f, Function: "doc_to_text",
		SHA256: "997512a7d023ee6d600b9e362b1a5a2f3ab6827b7c40e2ee6a602017b3bf8d8f"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: f, Function: "doc_to_choice",
		SHA256: "ce7dd0c92520f0d585c4f7a8e0716bb87e492bc65388f164f87d07b163c64a03"}, DocToChoice)
	task.RegisterDocFunc(task.Helper{File: f, Function: "doc_to_target",
		SHA256: "d10038a2d659762762da662c766ee96778bf2c754f0b8100d0dece15749e8fd2"}, DocToTarget)
	for k, subject := range SubjectMap {
		task.RegisterProcessDocs(task.Helper{File: f, Function: "process_docs_" + k, SHA256: filterSHA[k]}, Filter(subject))
	}
}
