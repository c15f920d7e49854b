// Package mathvectors reads the reference vectors that
// ports/testdata/math/gen_math_vectors.py made by running lm-eval's MATH
// scorers, for the tests of the math ports.
package mathvectors

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Pair is one (model output, gold solution) pair and lm-eval's verdicts.
type Pair struct {
	Completion string `json:"c"` // the model output
	Solution   string `json:"s"` // the gold solution
	Answer     string `json:"a"` // the answer string inside the output
	Gold       string `json:"g"` // the boxed answer of the solution
	LB         int    `json:"lb"`
	MV         int    `json:"mv"`
	HM         int    `json:"hm"`
	EQ         int    `json:"eq"`
	// math_verify's verdicts (gen_mathverify_vectors.py): leaderboard's
	// exact_match and minerva's math_verify; -1 where it raised
	LBV int `json:"lbv"`
	MVV int `json:"mvv"`
}

// Path is the vectors file.
func Path() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "math", "math_pairs.jsonl.gz")
}

// Load reads every pair.
func Load() ([]Pair, error) {
	f, err := os.Open(Path())
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Path(), err)
	}
	var out []Pair
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		var p Pair
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", Path(), n, err)
		}
		out = append(out, p)
	}
	return out, sc.Err()
}
