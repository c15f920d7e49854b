// Package based holds what lm-eval's three "Based" information-extraction
// classes share (fda/task.py:FDA, swde/task.py:SWDE and
// squad_completion/task.py:SQUADCompletion, from HazyResearch's
// based-evaluation-harness): a zero-shot prompt that is the document's
// stripped text, one generation, and contains_score against the stripped
// value, averaged with np.mean.
package based

import (
	"fmt"
	"unicode"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// NPMean is the classes' aggregation, np.mean: the mean, with no
// standard error (lm-eval's stderr_for_metric knows only its own mean).
const NPMean = "based:np.mean"

func init() {
	metrics.RegisterAggregation(&metrics.Aggregation{Name: NPMean, Fn: func(items []any) (float64, error) {
		xs := make([]float64, len(items))
		for i, v := range items {
			f, err := metrics.Float(v)
			if err != nil {
				return 0, fmt.Errorf("np.mean: value %d: %w", i, err)
			}
			xs[i] = f
		}
		return metrics.Mean(xs), nil
	}})
}

// ContainsScore is contains_score(prediction, labels): 1 when one of the
// labels occurs in the prediction, ignoring case, else 0. The Python
// searches re.escape(label) with re.IGNORECASE, a literal whose
// characters match as sre matches them: equal simple lowercase
// mappings, or lowercase forms that sre's ignore-case table pairs (i
// and dotless ı, s and long ſ, Greek letter variants, ...). (Go's (?i)
// folds otherwise: İ, whose lowercase is i, would not match i.)
func ContainsScore(prediction string, labels []string) (int, error) {
	if len(labels) == 0 {
		return 0, fmt.Errorf("contains_score: max() of no labels")
	}
	pred := []rune(prediction)
	for _, l := range labels {
		if containsFold(pred, []rune(l)) {
			return 1, nil
		}
	}
	return 0, nil
}

func containsFold(s, sub []rune) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && sameIgnoreCase(s[i+j], sub[j]) {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}

// ignoreCaseFixes is sre's _ignorecase_fixes: lowercase characters that
// match each other under IGNORECASE though their lowercase mappings
// differ (CPython's re._compiler _equivalences).
var ignoreCaseFixes = func() map[rune][]rune {
	eq := [][]rune{
		{0x69, 0x131}, {0x73, 0x17f}, {0xb5, 0x3bc}, {0x345, 0x3b9, 0x1fbe},
		{0x390, 0x1fd3}, {0x3b0, 0x1fe3}, {0x3b2, 0x3d0}, {0x3b5, 0x3f5},
		{0x3b8, 0x3d1}, {0x3ba, 0x3f0}, {0x3c0, 0x3d6}, {0x3c1, 0x3f1},
		{0x3c2, 0x3c3}, {0x3c6, 0x3d5}, {0x1e61, 0x1e9b}, {0xfb05, 0xfb06},
	}
	m := map[rune][]rune{}
	for _, t := range eq {
		for _, a := range t {
			for _, b := range t {
				if a != b {
					m[a] = append(m[a], b)
				}
			}
		}
	}
	return m
}()

// sameIgnoreCase is sre's ignore-case comparison of a text character c
// with a pattern character p.
func sameIgnoreCase(c, p rune) bool {
	lc, lp := unicode.ToLower(c), unicode.ToLower(p)
	if lc == lp {
		return true
	}
	for _, f := range ignoreCaseFixes[lp] {
		if lc == f {
			return true
		}
	}
	return false
}

func field(doc task.Doc, key string) (string, error) {
	v, ok := doc[key]
	if !ok {
		return "", fmt.Errorf("document has no field %q", key)
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("document field %q is %s, not a string", key, pyval.Repr(v))
	}
	return s, nil
}

// DocToText is doc["text"].strip().
func DocToText(doc task.Doc) (any, error) {
	s, err := field(doc, "text")
	return pyre.Strip(s), err
}

// DocToTarget is doc["value"].strip().
func DocToTarget(doc task.Doc) (any, error) {
	s, err := field(doc, "value")
	return pyre.Strip(s), err
}

// ProcessResults is the classes' process_results: contains_score of the
// generation against the stripped value.
func ProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) == 0 {
		return nil, fmt.Errorf("no results")
	}
	pred, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("result is %T, not a generation", results[0])
	}
	target, err := DocToTarget(doc)
	if err != nil {
		return nil, err
	}
	c, err := ContainsScore(pred, []string{target.(string)})
	if err != nil {
		return nil, err
	}
	return map[string]any{"contains": c}, nil
}

// Class is the port of one of the classes: name is its Python name,
// datasetPath its DATASET_PATH (DATASET_NAME is "default"), and genKwargs
// makes its generate_until arguments from the config's generation_kwargs
// (with --gen_kwargs) for construct_requests, whose keys are logged in
// order's order (nil: the config's).
func Class(file, name, sha256, datasetPath string, genKwargs func(config map[string]any) map[string]any, order []string) *task.Class {
	prefix := "task." + name + "."
	return &task.Class{
		File: file, Name: name, SHA256: sha256, Version: 1,
		Setup: func(c *task.Config) error {
			c.DatasetPath, c.DatasetName = datasetPath, "default"
			c.ValidationSplit = "validation" // has_validation_docs only
			c.DocToText = task.ClassDocFunc(prefix+"doc_to_text", DocToText)
			c.DocToTarget = task.ClassDocFunc(prefix+"doc_to_target", DocToTarget)
			c.ProcessResults = task.ClassProcessResults(prefix+"process_results", ProcessResults)
			s, err := task.ClassMetric("contains", NPMean, true)
			if err != nil {
				return err
			}
			c.Metrics = []metrics.Spec{s}
			if order != nil {
				c.GenKwargsOrder = order
			}
			return nil
		},
		Requests: func(_ task.Doc, _ string, o task.RequestOptions) ([]task.ClassRequest, error) {
			return []task.ClassRequest{{Type: task.OutputGenerateUntil, GenKwargs: genKwargs(o.GenKwargs)}}, nil
		},
	}
}

// FixedGenKwargs is FDA's and SWDE's {"until": ["\n"], "max_gen_toks":
// 48}, whatever the config says.
func FixedGenKwargs(map[string]any) map[string]any {
	return map[string]any{"until": []any{"\n"}, "max_gen_toks": 48}
}

// FixedGenKwargsOrder is their key order.
var FixedGenKwargsOrder = []string{"until", "max_gen_toks"}

// ConfigGenKwargs is SQUADCompletion's: a copy of the config's
// generation_kwargs, with until ["\n"] and max_gen_toks 48 where it has
// none (it always has both: TaskConfig's defaults).
func ConfigGenKwargs(config map[string]any) map[string]any {
	out := pyval.DeepCopy(config).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	if _, ok := out["until"]; !ok {
		out["until"] = []any{"\n"}
	}
	if _, ok := out["max_gen_toks"]; !ok {
		out["max_gen_toks"] = 48
	}
	return out
}
