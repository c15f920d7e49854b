package jinja

import (
	"strings"
	"testing"

	"github.com/nikolalohinski/gonja/v2/config"
)

// FuzzRender checks that no template, however malformed, makes the parser
// or the renderer panic. Render turns panics into errors; this test calls
// the parser and renderer without that net (gonja's lexer, which can panic
// on malformed input, stays behind parseTemplateSafe's).
func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"{{ a.b[0]|join(', ') }}", "{% for x in l if x %}{{ loop.index }}{% else %}e{% endfor %}",
		"{{ 'a' if b else c if d }}", "{% set x, y = 1, 2 %}{{ x ~ y }}", "{{ '%s %d' % (a, 1) }}",
		"{{ s[1:-1:2] }}", "{% macro m(a, b=1) %}{{ a }}{% endmacro %}{{ m(1, b=2) }}",
		"{{ {'a': [1, (2,)]} }}", "{{ x is divisibleby 3 }}", "{{ '\\\\' }}", "{%- if a -%}{%- endif -%}",
		"{{ -a ** 2 // 3 % 4 }}", "{{ a|regex_replace('(a)', '\\\\1') }}",
	} {
		f.Add(s)
	}
	cfg := config.New()
	cfg.KeepTrailingNewline = true
	doc := map[string]any{"a": "x", "b": int64(0), "c": 1.5, "d": nil, "l": []any{"p", int64(1)}, "s": "héllo", "x": int64(7)}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Count(src, "range") > 0 {
			return // huge ranges are slow, not wrong
		}
		body, err := parseTemplateSafe(src, cfg, syntax{loopControls: true, generation: true})
		if err != nil {
			return
		}
		r := &renderer{env: New()}
		var b strings.Builder
		_ = r.render(&b, body, r.env.scope(doc))
	})
}
