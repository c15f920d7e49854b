package pyre

import "testing"

func TestPyCapitalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"he", "He"},
		{"the Lady", "The lady"},
		{"fill it up whenever it is EMPTY.", "Fill it up whenever it is empty."},
		{"", ""},
		{" x", " x"},
		{"éCOLE", "École"},
		{"ßa", "Ssa"},
		{"ǆx", "ǅx"}, // title case, not upper case
		{"aİ", "Ai\u0307"},
		{"xΣ", "Xς"},
		{"xΣy", "Xσy"},
	}
	for _, tt := range tests {
		if got := Capitalize(tt.in); got != tt.want {
			t.Errorf("Capitalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
