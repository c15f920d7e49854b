package porter

import (
	"encoding/json"
	"os"
	"testing"
)

func TestVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs [][2]string
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) < 500 {
		t.Fatalf("%d vectors", len(vs))
	}
	for _, v := range vs {
		if got := Stem(v[0]); got != v[1] {
			t.Errorf("Stem(%q) = %q, want %q", v[0], got, v[1])
		}
	}
}
