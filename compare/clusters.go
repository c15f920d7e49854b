package compare

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/results"
)

// Family is a task family whose documents come in natural clusters:
// several questions about one passage are not independent evidence, so
// their standard error is computed with the documents clustered by the
// passage (Miller, "Adding Error Bars to Evals", 2024).
type Family struct {
	// Task is the task name, or a prefix ending in "_" that names a
	// family of tasks ("belebele_" covers belebele_eng_Latn, ...).
	Task string
	// Field is the document field whose value names the cluster.
	Field string
	// Why the documents cluster.
	Why string
}

// Families are the cluster keys used without --cluster. Groups cluster
// their documents by the task they come from (MMLU: the subject), which
// needs no entry here.
var Families = []Family{
	{"boolq", "passage", "several questions per Wikipedia passage"},
	{"multirc", "paragraph", "several questions and answers per paragraph"},
	{"drop", "passage", "several questions per passage"},
	{"squadv2", "context", "several questions per Wikipedia paragraph"},
	{"belebele_", "flores_passage", "two questions per FLORES passage"},
	{"hellaswag", "activity_label", "contexts from the same ActivityNet/WikiHow activity"},
	{"mmlu_pro_", "src", "questions of one source subset within a category"},
}

// familyField returns the default cluster field of task, if any.
func familyField(task string) (Family, bool) {
	for _, f := range Families {
		if task == f.Task || (strings.HasSuffix(f.Task, "_") && strings.HasPrefix(task, f.Task)) {
			return f, true
		}
	}
	return Family{}, false
}

// clusterValue is the string naming doc's cluster under field, and
// whether the document has the field.
func clusterValue(doc any, field string) (string, bool) {
	var v any
	switch d := doc.(type) {
	case *results.OrderedMap[any]:
		x, ok := d.Get(field)
		if !ok {
			return "", false
		}
		v = x
	case map[string]any:
		x, ok := d[field]
		if !ok {
			return "", false
		}
		v = x
	default:
		return "", false
	}
	switch x := v.(type) {
	case string:
		return x, true
	case nil:
		return "null", true
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v), true
	}
	return string(b), true
}

// clusterIDs numbers the distinct values of field over docs. explicit
// reports whether the user named the field (--cluster): then a document
// without it is an error; for a family default the task is just not
// clustered. ok is false when no document has the field.
func clusterIDs(task string, docs []*results.Sample, field string, explicit bool) (ids []int, ok bool, err error) {
	seen := map[string]int{}
	missing := -1
	ids = make([]int, len(docs))
	for i, s := range docs {
		v, has := clusterValue(s.Doc, field)
		if !has {
			if missing < 0 {
				missing = s.DocID
			}
			continue
		}
		id, ok := seen[v]
		if !ok {
			id = len(seen)
			seen[v] = id
		}
		ids[i] = id
	}
	switch {
	case len(seen) == 0:
		return nil, false, nil
	case missing >= 0 && explicit:
		return nil, false, fmt.Errorf("--cluster %s: task %s, doc_id %d has no field %q", field, task, missing, field)
	case missing >= 0:
		return nil, false, nil
	}
	return ids, true, nil
}
