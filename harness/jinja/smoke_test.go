package jinja

import "testing"

func TestSmoke(t *testing.T) {
	e := New()
	tests := []struct {
		src  string
		vars map[string]any
		want string
	}{
		{"Question: {{question}}\nAnswer:", map[string]any{"question": "Why?"}, "Question: Why?\nAnswer:"},
		{"{{ text | regex_replace('(a)b', '\\\\1c') }}\n", map[string]any{"text": "abab"}, "acac\n"},
	}
	for _, tt := range tests {
		got, err := e.Render(tt.src, tt.vars)
		if err != nil || got != tt.want {
			t.Errorf("Render(%q) = %q, %v; want %q", tt.src, got, err, tt.want)
		}
	}
	if _, err := e.Render("{{ missing }}", map[string]any{}); err == nil {
		t.Errorf("undefined variable rendered without error")
	}
	v, err := e.Eval("['a', b]", map[string]any{"b": "c"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%#v", v)
}
