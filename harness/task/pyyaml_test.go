package task

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"testing"
)

// pyCanon is testdata/pyyaml/pycanon.py's canonical form of a value
// parseYAML made, decoded from JSON as encoding/json decodes it.
func pyCanon(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		return map[string]any{"b": x}
	case int:
		return map[string]any{"i": strconv.Itoa(x)}
	case float64:
		if math.IsNaN(x) {
			return map[string]any{"f": "nan"}
		}
		return map[string]any{"f": strconv.FormatUint(math.Float64bits(x), 10)}
	case string:
		return map[string]any{"s": x}
	case FuncRef:
		return map[string]any{"fn": x.Name}
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = pyCanon(e)
		}
		return map[string]any{"l": l}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := make([]any, len(keys))
		for i, k := range keys {
			m[i] = []any{k, pyCanon(x[k])}
		}
		return map[string]any{"m": m}
	}
	return map[string]any{"unknown": reflect.TypeOf(v).String()}
}

type pyOutcome struct {
	Value any    `json:"value"`
	Error string `json:"error"`
}

// TestPyYAMLVectors checks parseYAML against how yaml.safe_load and
// lm-eval's own task loader read YAML on which YAML 1.1 and 1.2 differ
// (vectors from testdata/pyyaml/gen.py).
func TestPyYAMLVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/pyyaml/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name     string    `json:"name"`
		YAML     string    `json:"yaml"`
		SafeLoad pyOutcome `json:"safe_load"`
		LMEval   pyOutcome `json:"lm_eval"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 30 {
		t.Fatalf("only %d vectors", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := parseYAML([]byte(c.YAML), "dir")
			if c.LMEval.Error != "" {
				if err == nil {
					t.Fatalf("lm-eval refuses %q (%s); parseYAML gave %v", c.YAML, c.LMEval.Error, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseYAML(%q): %v; lm-eval reads it", c.YAML, err)
			}
			canon := roundTrip(t, pyCanon(got))
			// A timestamp is the string Python's str() gives it.
			c.LMEval.Value = datesAsStrings(c.LMEval.Value)
			c.SafeLoad.Value = datesAsStrings(c.SafeLoad.Value)
			if !reflect.DeepEqual(canon, c.LMEval.Value) {
				t.Errorf("parseYAML(%q)\n got %v\nwant %v (lm-eval's loader)", c.YAML, canon, c.LMEval.Value)
			}
			if c.SafeLoad.Error == "" && !reflect.DeepEqual(canon, c.SafeLoad.Value) {
				t.Errorf("parseYAML(%q)\n got %v\nwant %v (yaml.safe_load)", c.YAML, canon, c.SafeLoad.Value)
			}
		})
	}
}

func datesAsStrings(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if d, ok := x["date"]; ok && len(x) == 1 {
			return map[string]any{"s": d}
		}
		out := map[string]any{}
		for k, e := range x {
			out[k] = datesAsStrings(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = datesAsStrings(e)
		}
		return out
	}
	return v
}

func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPyYAMLScan compares parseYAML with lm-eval's loader on every file of
// a scan made by testdata/pyyaml/scan.py (scripts/pyyaml-scan.sh runs
// both). It runs only when LMEVAL_PYYAML_SCAN names the scan's output.
func TestPyYAMLScan(t *testing.T) {
	path := os.Getenv("LMEVAL_PYYAML_SCAN")
	if path == "" {
		t.Skip("LMEVAL_PYYAML_SCAN not set (scripts/pyyaml-scan.sh sets it)")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	files, differ := 0, 0
	for sc.Scan() {
		var rec struct {
			Path string `json:"path"`
			pyOutcome
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		files++
		data, err := os.ReadFile(rec.Path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := parseYAML(data, filepath.Dir(rec.Path))
		switch {
		case rec.Error != "" && err == nil:
			differ++
			t.Errorf("%s: lm-eval refuses it (%s); lmeval reads it", rec.Path, rec.Error)
		case rec.Error == "" && err != nil:
			differ++
			t.Errorf("%s: lmeval: %v; lm-eval reads it", rec.Path, err)
		case rec.Error == "":
			if canon := roundTrip(t, pyCanon(got)); !reflect.DeepEqual(canon, rec.Value) {
				differ++
				t.Errorf("%s: lmeval reads\n %v\nlm-eval\n %v", rec.Path, canon, rec.Value)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files, %d read differently from lm-eval", files, differ)
	if files == 0 {
		t.Fatal("empty scan")
	}
}
