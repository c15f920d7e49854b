package ifeval

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/lmeval/lmeval/ports/ifeval/langdetect"
	"github.com/lmeval/lmeval/ports/ifeval/punkt"
)

// vectors are lm-eval's own verdicts (testdata/gen_vectors.py runs
// lm_eval/tasks/ifeval with nltk 3.10.4 and langdetect 1.0.9; see
// testdata/refsetup.py).
type vectors struct {
	Texts      []string `json:"texts"`
	NResponses int      `json:"n_responses"`
	TokIdx     []int    `json:"tok_idx"`
	Checks     []struct {
		ID     string         `json:"id"`
		Kwargs map[string]any `json:"kwargs"`
		R      int            `json:"r"`
		OK     any            `json:"ok"`
	} `json:"checks"`
	Punkt        [][]string `json:"punkt"`
	WordTokenize [][]string `json:"word_tokenize"`
	CountWords   []int      `json:"count_words"`
	Langdetect   []*string  `json:"langdetect"`
	Docs         []struct {
		Doc    map[string]any `json:"doc"`
		R      int            `json:"r"`
		Result map[string]any `json:"result"`
	} `json:"docs"`
	AggInstLevelAcc float64 `json:"agg_inst_level_acc"`
}

var (
	vecOnce sync.Once
	vec     *vectors
	vecErr  error
)

// readVectors reads testdata/vectors-*.json.gz, parts of one JSON object
// (kept under 2 MiB each); the texts are split over several, in order.
func readVectors() (*vectors, error) {
	files, err := filepath.Glob("testdata/vectors-*.json.gz")
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no testdata/vectors-*.json.gz (%v)", err)
	}
	sort.Slice(files, func(i, j int) bool {
		return len(files[i]) < len(files[j]) || len(files[i]) == len(files[j]) && files[i] < files[j]
	})
	var v vectors
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		d := json.NewDecoder(zr)
		d.UseNumber()
		texts := v.Texts
		v.Texts = nil
		err = d.Decode(&v)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		v.Texts = append(texts, v.Texts...)
	}
	return &v, nil
}

func loadVectors(t *testing.T) *vectors {
	t.Helper()
	vecOnce.Do(func() { vec, vecErr = readVectors() })
	if vecErr != nil {
		t.Fatalf("vectors: %v", vecErr)
	}
	return vec
}

// jsonValue turns json.Number into int64 or float64 as the harness' JSON
// reader does.
func jsonValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = jsonValue(e)
		}
	case []any:
		for i, e := range x {
			x[i] = jsonValue(e)
		}
	}
	return v
}

func TestCheckersMatchLMEval(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	type tally struct{ n, bad int }
	per := map[string]*tally{}
	var examples []string
	for i, c := range v.Checks {
		tl := per[c.ID]
		if tl == nil {
			tl = &tally{}
			per[c.ID] = tl
		}
		tl.n++
		kw := jsonValue(c.Kwargs).(map[string]any)
		text := v.Texts[c.R]
		ch, err := New(c.ID, kw)
		var got any
		if err != nil {
			got = "error: build: " + err.Error()
		} else if ok, err := ch.Check(text); err != nil {
			got = "error: " + err.Error()
		} else {
			got = ok
		}
		want := c.OK
		match := got == want
		if s, isStr := want.(string); isStr && strings.HasPrefix(s, "error") {
			g, _ := got.(string)
			match = strings.HasPrefix(g, "error")
		}
		if !match {
			tl.bad++
			if len(examples) < 30 {
				examples = append(examples, fmt.Sprintf("check %d %s %v on %q: got %v, lm-eval %v", i, c.ID, kw, text, got, want))
			}
		}
	}
	ids := make([]string, 0, len(per))
	for id := range per {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if len(ids) != len(IDs()) {
		t.Errorf("vectors cover %d instruction ids, the registry has %d", len(ids), len(IDs()))
	}
	for _, id := range ids {
		if per[id].bad > 0 {
			t.Errorf("%s: %d of %d verdicts differ from lm-eval", id, per[id].bad, per[id].n)
		}
	}
	for _, e := range examples {
		t.Log(e)
	}
}

func TestPunktMatchesNLTK(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	z, err := punkt.English()
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i, ti := range v.TokIdx {
		text := v.Texts[ti]
		if got := z.Tokenize(text); !reflect.DeepEqual(nonNil(got), nonNil(v.Punkt[i])) {
			bad++
			if bad < 10 {
				t.Errorf("text %d %q:\n got %q\nwant %q", i, text, got, v.Punkt[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("punkt: %d of %d texts split differently from NLTK", bad, len(v.TokIdx))
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestWordTokenizeMatchesNLTK(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	bad := 0
	for i, ti := range v.TokIdx {
		text := v.Texts[ti]
		got, err := WordTokenize(text)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(nonNil(got), nonNil(v.WordTokenize[i])) {
			bad++
			if bad < 10 {
				t.Errorf("text %d %q:\n got %q\nwant %q", i, text, got, v.WordTokenize[i])
			}
		}
		if n := CountWords(text); n != v.CountWords[i] {
			t.Errorf("count_words(%q) = %d, lm-eval %d", text, n, v.CountWords[i])
		}
	}
	if bad > 0 {
		t.Errorf("word_tokenize: %d of %d texts differ from NLTK", bad, len(v.TokIdx))
	}
}

func TestLangdetectMatchesPython(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	bad := 0
	for i, ti := range v.TokIdx {
		text := v.Texts[ti]
		got, err := langdetect.Detect(text)
		var g *string
		if err == nil {
			g = &got
		} else if err != langdetect.ErrNoFeatures {
			t.Fatal(err)
		}
		want := v.Langdetect[i]
		if (g == nil) != (want == nil) || (g != nil && *g != *want) {
			bad++
			if bad < 10 {
				t.Errorf("text %d %q: got %v, langdetect %v", i, text, show(g), show(want))
			}
		}
	}
	if bad > 0 {
		t.Errorf("langdetect: %d of %d texts differ", bad, len(v.TokIdx))
	}
}

func show(s *string) string {
	if s == nil {
		return "LangDetectException"
	}
	return *s
}

func TestProcessResultsMatchesLMEval(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	var items []any
	for i, d := range v.Docs {
		doc := jsonValue(d.Doc).(map[string]any)
		got, err := ProcessResults(doc, []any{v.Texts[d.R]})
		if _, isErr := d.Result["error"]; isErr {
			if err == nil {
				t.Errorf("doc %d: lm-eval raised %v, got %v", i, d.Result["error"], got)
			}
			continue
		}
		if err != nil {
			t.Errorf("doc %d: %v", i, err)
			continue
		}
		want := map[string]any{}
		for k, x := range d.Result {
			switch y := x.(type) {
			case []any:
				bs := make([]bool, len(y))
				for j, e := range y {
					bs[j] = e.(bool)
				}
				want[k] = bs
			default:
				want[k] = y
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("doc %d %v on %q:\n got %v\nwant %v", i, doc, v.Texts[d.R], got, want)
		}
		items = append(items, got["inst_level_strict_acc"])
	}
	agg, err := AggInstLevelAcc(items)
	if err != nil {
		t.Fatal(err)
	}
	if agg != v.AggInstLevelAcc {
		t.Errorf("agg_inst_level_acc = %v, lm-eval %v", agg, v.AggInstLevelAcc)
	}
}
