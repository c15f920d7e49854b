package pyrand

import "testing"

// Values from CPython 3.11: random.Random(s).random() and
// random.Random(s).randrange(n).
func TestSeedString(t *testing.T) {
	for _, c := range []struct {
		s    string
		want float64
	}{
		{"", 0.9602256525641875},
		{"a", 0.2720295377534757},
		{"I went to the store.", 0.716908427965176},
		{"café ☕", 0.48239959005619504},
		{"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 0.8500063097913054},
	} {
		if got := NewString(c.s).Random(); got != c.want {
			t.Errorf("Random(%q).random() = %v, want %v", c.s, got, c.want)
		}
	}
}
