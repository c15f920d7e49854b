package mathequiv

import "testing"

// LastBoxed against last_boxed_only_string's brace scan, worked by hand.
func TestLastBoxed(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{`so \boxed{1}.`, `\boxed{1}`, true},
		{`\boxed{a} then \boxed{\frac{1}{2}} end`, `\boxed{\frac{1}{2}}`, true},
		{`\fbox{3} and no other`, `\fbox{3}`, true},
		{`\fbox{3} \boxed{4}`, `\boxed{4}`, true},
		{`\boxed{never closed`, "", false},
		{`no answer`, "", false},
	} {
		got, ok := LastBoxed(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("LastBoxed(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
