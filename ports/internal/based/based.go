// Package based holds what lm-eval's three "Based" information-extraction
// classes share (fda/task.py:FDA, swde/task.py:SWDE and
// squad_completion/task.py:SQUADCompletion, from HazyResearch's
// based-evaluation-harness): a zero-shot prompt that is the document's
// stripped text, one generation, and contains_score against the stripped
// value, averaged with np.mean.
package based

import (
	"fmt"

	"lmeval/harness/metrics"
	"lmeval/harness/pyre"
	"lmeval/harness/pyval"
	"lmeval/harness/task"
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
// labels occurs in the prediction, ignoring case (re.search of
// re.escape(label) with re.IGNORECASE), else 0.
func ContainsScore(prediction string, labels []string) (int, error) {
	if len(labels) == 0 {
		return 0, fmt.Errorf("contains_score: max() of no labels")
	}
	best := 0
	for _, l := range labels {
		re, err := pyre.CompileFlags(pyre.Escape(l), pyre.IGNORECASE)
		if err != nil {
			return 0, err
		}
		if re.Search(prediction) != nil {
			best = 1
		}
	}
	return best, nil
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
			c.DocToText = &task.Func{Name: prefix + "doc_to_text", Fn: task.DocFunc(DocToText)}
			c.DocToTarget = &task.Func{Name: prefix + "doc_to_target", Fn: task.DocFunc(DocToTarget)}
			c.ProcessResults = &task.Func{Name: prefix + "process_results", Fn: task.ProcessResultsFunc(ProcessResults)}
			c.MetricList = []map[string]any{{"metric": "contains", "aggregation": NPMean, "higher_is_better": true}}
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
