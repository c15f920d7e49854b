// Package winogender ports lm_eval/tasks/winogender/utils.py: the subsets
// of one pronoun gender.
package winogender

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// FilterDataset is filter_dataset(dataset, gender): the documents whose
// gender equals gender.
func FilterDataset(docs []task.Doc, gender string) ([]task.Doc, error) {
	return pydoc.Filter(docs, func(d task.Doc) (bool, error) {
		v, err := pydoc.Field(d, "gender")
		if err != nil {
			return false, err
		}
		return pyval.Equal(v, gender), nil
	})
}

func init() {
	const file = "winogender/utils.py"
	for _, f := range []struct{ fn, gender, sha string }{
		{"filter_male", "male", "c03b935bfa9d90ccadae71452ac2c3d476be70601be24484ed200d78237a6e05"},
		{"filter_female", "female", "aaee30ebe7cc5d1b08c617a5839119c8b509776bb21dc4511b52858a42f22f39"},
		{"filter_neutral", "neutral", "b2ef1aa29da7ff84dbce8e3de270c6daa806f2283b3c7fd341cf02c89c0788ba"},
	} {
		g := f.gender
		task.RegisterProcessDocs(task.Helper{File: file, Function: f.fn, SHA256: f.sha}, func(docs []task.Doc) ([]task.Doc, error) { return FilterDataset(docs, g) })
	}
}
