package pyval

import (
	"math"
	"testing"
)

// Expected values are Python 3.11's int() and float().
func TestIntFloat(t *testing.T) {
	ints := map[string]any{" 7 ": int64(7), "1_000": int64(1000), "\u0663": int64(3), "1__0": nil, "_1": nil,
		"+5": int64(5), "-0": int64(0), "2.0": nil, "": nil, "\u0661\u0662": int64(12), "12_": nil}
	for s, want := range ints {
		got, err := Int(s)
		if want == nil {
			if err == nil {
				t.Errorf("Int(%q) = %d, want an error", s, got)
			}
		} else if err != nil || got != want {
			t.Errorf("Int(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	if n, _ := Int(-2.9); n != -2 {
		t.Errorf("Int(-2.9) = %d", n)
	}
	if n, _ := Int(true); n != 1 {
		t.Errorf("Int(true) = %d", n)
	}
	floats := map[string]any{"1_0.5": 10.5, " inf ": math.Inf(1), "1e3": 1000.0, "1e": nil, "0x10": nil, ".5": 0.5,
		"5.": 5.0, "1_e3": nil, "-Infinity": math.Inf(-1), "1e-2": 0.01, "1.5e+3": 1500.0, "+.5e1": 5.0, "1.2.3": nil, "\u0663.5": 3.5}
	for s, want := range floats {
		got, err := Float(s)
		if want == nil {
			if err == nil {
				t.Errorf("Float(%q) = %v, want an error", s, got)
			}
		} else if err != nil || got != want {
			t.Errorf("Float(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if f, err := Float("nan"); err != nil || !math.IsNaN(f) {
		t.Errorf("Float(nan) = %v, %v", f, err)
	}
}
