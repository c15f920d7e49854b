package nerel_bench

import (
	"encoding/json"
	"os"
	"testing"
)

// TestRussianStem replays nltk's RussianStemmer().stem (testdata/stems.json,
// written by testdata/gen_vectors.py).
func TestRussianStem(t *testing.T) {
	b, err := os.ReadFile("testdata/stems.json")
	if err != nil {
		t.Fatal(err)
	}
	var stems map[string]string
	if err := json.Unmarshal(b, &stems); err != nil {
		t.Fatal(err)
	}
	if len(stems) < 40 {
		t.Fatalf("%d stems", len(stems))
	}
	for w, want := range stems {
		if got := RussianStem(w); got != want {
			t.Errorf("RussianStem(%q) = %q, nltk %q", w, got, want)
		}
	}
}
