package pynum

import (
	"math"
	"testing"
)

// Cases checked with CPython 3.11's int() and float().
func TestIntFloat(t *testing.T) {
	for _, c := range []struct {
		s  string
		v  string
		ok bool
	}{{" 42 ", "42", true}, {"-0_7", "-7", true}, {"٣٤", "34", true}, {"1__0", "", false}, {"_1", "", false},
		{"+", "", false}, {"1.0", "", false}, {"\u2003-12\n", "-12", true}, {"007", "7", true}} {
		v, ok := Int(c.s)
		if ok != c.ok || (ok && v.String() != c.v) {
			t.Errorf("Int(%q) = %v, %v; want %s, %v", c.s, v, ok, c.v, c.ok)
		}
	}
	for _, c := range []struct {
		s  string
		v  float64
		ok bool
	}{{"1.5", 1.5, true}, {" -2e3 ", -2000, true}, {"1_0.2_5", 10.25, true}, {".5", 0.5, true}, {"5.", 5, true},
		{"1e400", math.Inf(1), true}, {"-Infinity", math.Inf(-1), true}, {"0x10", 0, false}, {"1e", 0, false},
		{".", 0, false}, {"١.٥", 1.5, true}, {"1_e5", 0, false}, {"e5", 0, false}} {
		v, ok := Float(c.s)
		if ok != c.ok || (ok && v != c.v) {
			t.Errorf("Float(%q) = %v, %v; want %v, %v", c.s, v, ok, c.v, c.ok)
		}
	}
	if v, ok := Float("nan"); !ok || !math.IsNaN(v) {
		t.Errorf("Float(nan) = %v, %v", v, ok)
	}
}
