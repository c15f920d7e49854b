package pyval

import "testing"

// TestTruthy checks bool() of each kind of value (Python: bool(x)).
func TestTruthy(t *testing.T) {
	for _, c := range []struct {
		v    any
		want bool
	}{
		{nil, false}, {false, false}, {true, true},
		{"", false}, {" ", true}, {"0", true},
		{0, false}, {int64(0), false}, {int64(-1), true}, {int32(3), true}, {uint8(0), false},
		{0.0, false}, {float32(0.5), true}, {-0.0, false},
		{[]any{}, false}, {[]any{nil}, true}, {[]string{}, false}, {[]string{""}, true},
		{map[string]any{}, false}, {map[string]any{"a": nil}, true},
	} {
		if got := Truthy(c.v); got != c.want {
			t.Errorf("Truthy(%#v) = %v, want %v", c.v, got, c.want)
		}
	}
}

// TestInt checks int(x) against Python 3's results.
func TestInt(t *testing.T) {
	for _, c := range []struct {
		v    any
		want int64
		err  bool
	}{
		{"7", 7, false}, {" -12 ", -12, false}, {"+3", 3, false}, {"1_000", 1000, false},
		{"\u0663", 3, false}, {"\u06f1\u06f2", 12, false}, {"\u0967", 1, false}, {"\u00a05\u3000", 5, false},
		{"1__0", 0, true}, {"_1", 0, true}, {"1_", 0, true}, {"1.5", 0, true}, {"", 0, true}, {"-", 0, true}, {"0x1", 0, true},
		{true, 1, false}, {false, 0, false}, {3, 3, false}, {int64(-4), -4, false},
		{2.9, 2, false}, {-2.9, -2, false}, {nil, 0, true}, {[]any{}, 0, true},
	} {
		got, err := Int(c.v)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("Int(%#v) = %d, %v; want %d, error %v", c.v, got, err, c.want, c.err)
		}
	}
}
