package nprand

import (
	"encoding/json"
	"os"
	"testing"
)

// numpy_vectors.json is numpy's own output (testdata/gen_numpy.py):
// raw 32-bit draws, and randint/choice draws with where the generator
// stands after them.
func TestNumPy(t *testing.T) {
	b, err := os.ReadFile("testdata/numpy_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Uint32 []struct {
			Seed   uint32   `json:"seed"`
			Values []uint32 `json:"values"`
		} `json:"uint32"`
		Choice []struct {
			Seed          uint32 `json:"seed"`
			N, M, Pos     int
			First, Second []int
		} `json:"choice"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, c := range v.Uint32 {
		r := New(c.Seed)
		for i, want := range c.Values {
			if got := r.Uint32(); got != want {
				t.Fatalf("seed %d: draw %d = %d, want %d", c.Seed, i, got, want)
			}
		}
	}
	if len(v.Choice) == 0 {
		t.Fatal("no choice vectors")
	}
	for _, c := range v.Choice {
		r := New(c.Seed)
		draw := func(k, n int) []int {
			out := make([]int, k)
			for i := range out {
				out[i] = r.Intn(n)
			}
			return out
		}
		var first []int
		if c.N == c.M {
			first = draw(c.M, c.M)
		} else {
			first = draw(20, c.N)
		}
		second := draw(20, c.N)
		if !equalInts(first, c.First) || !equalInts(second, c.Second) || r.mt.Pos() != c.Pos {
			t.Errorf("seed %d n %d: %v %v (pos %d), want %v %v (pos %d)", c.Seed, c.N, first, second, r.mt.Pos(), c.First, c.Second, c.Pos)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
