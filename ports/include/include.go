// Package include ports lm_eval/tasks/include's utils.py (the same file in
// each of the 132 default/, few_shot_en/ and few_shot_og/ language
// directories): process_<category>, which the module makes at import time
// with functools.partial and globals().update, keeps the documents of one
// domain.
package include

import (
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/global_mmlu"
	"github.com/lmeval/lmeval/python/pyre"
)

// Categories is utils.py's CATEGORIES.
var Categories = []string{
	"Applied Science",
	"Arts & Humanities",
	"Business & Commerce",
	"Driving License",
	"General knowledge",
	"Health oriented education",
	"Marine License",
	"Medical License",
	"Professional certification",
	"STEM",
	"Social Science",
}

// FuncName is the name utils.py gives a category's filter:
// f"process_{category.lower().replace(' & ', '_').replace(' ', '_')}".
func FuncName(category string) string {
	s := strings.ReplaceAll(pyre.Lower(category), " & ", "_")
	return "process_" + strings.ReplaceAll(s, " ", "_")
}

// ProcessDocs is process_docs(dataset, category): the documents whose
// "domain" equals category.
func ProcessDocs(docs []task.Doc, category string) []task.Doc {
	return global_mmlu.Filter(docs, "domain", category)
}
