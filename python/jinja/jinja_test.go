package jinja

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// gapDoc is the document of TestPythonGaps; its expectations were produced
// by Python's jinja2 3.1.6 in lm-eval's configuration.
var gapDoc = map[string]any{
	"s": "\u00a0 Héllo wörld \u3000", "t": "a,b;c d", "cjk": "東京は日本の首都です",
	"l": []any{"a", "it's", `say "x"`}, "n": int64(7), "f": 0.1, "i": int64(3), "none": nil, "b": true,
	"ans": "Natalia sold 48 clips.\n#### 72", "key": "C",
	"d":   map[string]any{"x": int64(1), "y": []any{1.5, nil}},
	"big": 12345678901234567890.0, "tiny": 0.00001, "neg": int64(-7),
}

// TestPythonGaps covers, one row per gap, where plain gonja and Python's
// Jinja2 disagree on real lm-eval templates.
func TestPythonGaps(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"strip unicode", "[{{ s.strip() }}]", "[Héllo wörld]"},
		{"lstrip", "[{{ s.lstrip() }}]", "[Héllo wörld 　]"},
		{"rstrip", "[{{ s.rstrip() }}]", "[  Héllo wörld]"},
		{"replace no count", "{{ t.replace(',', ' ') }}", "a b;c d"},
		{"split no arg", "{{ s.split() }}", "['Héllo', 'wörld']"},
		{"find chars", "{{ cjk.find('日本') }} {{ s.index('w') }}", "3 8"},
		{"endswith tuple", "{{ t.endswith(('x', 'd')) }} {{ t.startswith(('a',)) }}", "True True"},
		{"methods", "{{ t.upper() }} {{ 'ab cd'.title() }} {{ 'aB'.capitalize() }} {{ '-'.join(l) }} {{ '{}+{}'.format(1, 2) }} {{ t.count(',') }} {{ '12'.isdigit() }}", "A,B;C D Ab Cd Ab a-it's-say \"x\" 1+2 1 True"},
		{"list.index", "{{ ['1','2','3','4'].index('3') }} {{ l.index(\"it's\") }}", "2 1"},
		{"list repr", "{{ l }}", "['a', \"it's\", 'say \"x\"']"},
		{"dict repr", "{{ d }}", "{'x': 1, 'y': [1.5, None]}"},
		{"None True", "{{ none }} {{ b }} {{ None }}", "None True None"},
		{"chained if", "{{ 'A' if i == 1 else 'B' if i == 2 else 'C' if i == 3 else 'D' }}", "C"},
		{"neg index boundary", "{{ ans.split('####')[-1] }}|{{ l[-3] }}", " 72|a"},
		{"string index by char", "{{ cjk[1] }}{{ cjk[-1] }}{{ cjk[2:4] }}", "京すは日"},
		{"percent", "{{ '%s|%d|%.2f|%5s' % (t, n, f, 'x') }}", "a,b;c d|7|0.10|    x"},
		{"tilde", "{{ n ~ '/' ~ f ~ '/' ~ none }}", "7/0.1/None"},
		{"filters", "{{ l|join(', ') }}|{{ s|trim }}|{{ t|replace(',', '') }}|{{ l|length }}|{{ '42'|int + 1 }}|{{ '2.5'|float }}|{{ n|string }}|{{ 'AbC'|lower }}", "a, it's, say \"x\"|Héllo wörld|ab;c d|3|43|2.5|7|abc"},
		{"loop", "{% for x in l %}{{ loop.index }}{{ loop.index0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }};{% endfor %}", "10TrueFalse3;21FalseFalse3;32FalseTrue3;"},
		{"dict methods", "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}{{ d.keys()|list }}{{ d.values()|list }}", "x=1;y=[1.5, None];['x', 'y'][1, [1.5, None]]"},
		{"range", "{{ range(3)|list }}{% for j in range(1, 7, 2) %}{{ j }}{% endfor %}", "[0, 1, 2]135"},
		{"in", "{{ 'a' in l }} {{ 'x' in t }} {{ 'x' in d }} {{ 4 not in [1, 2] }}", "True False True True"},
		{"int division", "{{ n // 2 }} {{ neg // 2 }} {{ neg % 3 }} {{ n / 2 }} {{ 6 / 3 }}", "3 -4 2 3.5 2.0"},
		{"float format", "{{ 1.0 }} {{ f }} {{ tiny }} {{ big }} {{ f * 3 }} {{ 2.5e-3 }}", "1.0 0.1 1e-05 1.2345678901234567e+19 0.30000000000000004 0.0025"},
		{"int vs float", "{{ i + 1 }} {{ i + 1.0 }} {{ i * f }}", "4 4.0 0.30000000000000004"},
	}
	e := New()
	for _, tt := range tests {
		got, err := e.Render(tt.src, gapDoc)
		if err != nil || got != tt.want {
			t.Errorf("%s: Render(%q) = %q, %v; want %q", tt.name, tt.src, got, err, tt.want)
		}
	}
}

func TestStrictUndefined(t *testing.T) {
	e := New()
	doc := map[string]any{"question": "q", "choices": map[string]any{"text": []any{"a"}}}
	for _, tt := range []struct{ src, names string }{
		{"{{ answer }}", "answer"},
		{"Q: {{ question }} {{ choices.label }}", "label"},
		{"{{ choices.text[3] }}", "index out of range"},
		{"{% if answer %}x{% endif %}", "answer"},
		{"{{ answer.strip() }}", "answer"},
		{"{{ question ~ answer }}", "answer"},
		{"{% for c in answer %}{% endfor %}", "answer"},
	} {
		_, err := e.Render(tt.src, doc)
		if err == nil || !errors.Is(err, ErrUndefined) || !strings.Contains(err.Error(), tt.names) {
			t.Errorf("Render(%q) error = %v; want ErrUndefined naming %q", tt.src, err, tt.names)
		}
	}
	// Undefined is fine where Jinja2's StrictUndefined allows it.
	for src, want := range map[string]string{
		"{{ answer is defined }}":                   "False",
		"{{ answer|default('none') }}":              "none",
		"{{ 'y' if answer is undefined else 'n' }}": "y",
		"{{ choices.label is defined }}":            "False",
	} {
		if got, err := e.Render(src, doc); err != nil || got != want {
			t.Errorf("Render(%q) = %q, %v; want %q", src, got, err, want)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	e := New()
	for _, src := range []string{
		"{{ 'a' + 1 }}", "{{ 1 / 0 }}", "{{ 1 // 0 }}", "{{ [1].index(2) }}", "{{ 'abc'.index('z') }}",
		"{{ '%d' % 'x' }}", "{{ '%s %s' % ('a',) }}", "{{ len(x) }}", "{% if %}", "{{ x", "{% for %}",
		"{% endfor %}", "{{ 'a'|nosuchfilter }}", "{{ 1 is nosuchtest }}",
	} {
		if out, err := e.Render(src, map[string]any{"x": "q"}); err == nil {
			t.Errorf("Render(%q) = %q, want an error", src, out)
		}
	}
	if err := e.Compile("{% if x %}"); err == nil {
		t.Error("Compile accepted an unclosed if")
	}
	if err := e.Compile("{{ a.b(c)[1:2] | join(', ') }}"); err != nil {
		t.Errorf("Compile: %v", err)
	}
}

func TestKeepTrailingNewlineAndWhitespaceControl(t *testing.T) {
	e := New()
	for src, want := range map[string]string{
		"Answer: {{ a }}\n":                           "Answer: x\n",
		"{{ a }}\n\n":                                 "x\n\n",
		"A  {%- if true %} B {% endif -%}  \nC":       "A B C",
		"{# c #}\n{{- a }}":                           "x",
		"{% for i in [1,2] %}\n{{ i }}\n{% endfor %}": "\n1\n\n2\n",
	} {
		if got, err := e.Render(src, map[string]any{"a": "x"}); err != nil || got != want {
			t.Errorf("Render(%q) = %q, %v; want %q", src, got, err, want)
		}
	}
}

func TestEval(t *testing.T) {
	e := New()
	doc := map[string]any{"sol1": "a", "sol2": "it's", "choices": map[string]any{"text": []string{"x", "y"}}, "n": 2}
	for _, tt := range []struct {
		expr string
		want any
	}{
		{"[sol1, sol2]", []any{"a", "it's"}},
		{"choices.text", []any{"x", "y"}},
		{"n + 1", int64(3)},
		{"n / 4", 0.5},
		{"(sol1, n)", []any{"a", int64(2)}},
		{"none", nil},
		{"{'k': [1, 2.5]}", map[string]any{"k": []any{int64(1), 2.5}}},
	} {
		got, err := e.Eval(tt.expr, doc)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Eval(%q) = %#v, %v; want %#v", tt.expr, got, err, tt.want)
		}
	}
	for _, expr := range []string{"missing", "[sol1, missing]", "{'k': choices.label}", "'x' if false"} {
		if v, err := e.Eval(expr, doc); !errors.Is(err, ErrUndefined) {
			t.Errorf("Eval(%q) = %#v, %v; want ErrUndefined", expr, v, err)
		}
	}
}

func TestRenderValue(t *testing.T) {
	e := New()
	doc := map[string]any{
		"sentence_good": "It's fine.", "sentence_bad": `He said "no"`, "answer": "A\nB",
		"choices": "['x', 'y']", "labels": []any{"1", int64(2), 3.5, nil, true},
	}
	for _, tt := range []struct {
		src  string
		want any
	}{
		{"{{[sentence_good, sentence_bad]}}", []any{"It's fine.", `He said "no"`}},
		{"{{ labels }}", []any{"1", int64(2), 3.5, nil, true}},
		{"{{ choices }}", []any{"x", "y"}}, // a string field holding a list literal
		{"['''{{answer}}\\nIs the answer correct? yes''', '''{{answer}}\\nIs the answer correct? no''']",
			[]any{"A\nB\nIs the answer correct? yes", "A\nB\nIs the answer correct? no"}},
		{"{{ [sentence_good] + ['z'] }}", []any{"It's fine.", "z"}},
	} {
		got, err := e.RenderValue(tt.src, doc)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("RenderValue(%q) = %#v, %v; want %#v", tt.src, got, err, tt.want)
		}
	}
	if _, err := e.RenderValue("{{ sentence_good }}", doc); !errors.Is(err, ErrNotLiteral) {
		t.Errorf("RenderValue of plain text: error = %v, want ErrNotLiteral", err)
	}
}

func TestParseLiteral(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want any
	}{
		{`['a', "b'c", 'd\'e', 'f\\g', '\x41\u00e9\n']`, []any{"a", "b'c", "d'e", `f\g`, "Aé\n"}},
		{" [1, -2, 3.5, 1e-05, True, False, None]\n", []any{int64(1), int64(-2), 3.5, 1e-05, true, false, nil}},
		{"('a',)", []any{"a"}},
		{"('a')", "a"},
		{"{'k': (1, 2)}", map[string]any{"k": []any{int64(1), int64(2)}}},
		{"'ab' 'cd'", "abcd"},
		{"[\n 'a',\n 'b',\n]", []any{"a", "b"}},
		{"r'\\d'", `\d`},
	} {
		got, err := ParseLiteral(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseLiteral(%q) = %#v, %v; want %#v", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"", "abc", "[1, 2", "'x", "1 2", "01", "[a]", "f(1)"} {
		if v, err := ParseLiteral(in); err == nil {
			t.Errorf("ParseLiteral(%q) = %#v, want an error", in, v)
		}
	}
}

func TestRegisterFunc(t *testing.T) {
	e := New()
	e.RegisterFunc("raise_exception", func(msg string) (string, error) { return "", errors.New(msg) })
	e.RegisterFunc("twice", func(args []any, _ map[string]any) (any, error) { return fmt.Sprint(args[0], args[0]), nil })
	if got, err := e.Render("{{ twice('ab') }}", nil); err != nil || got != "abab" {
		t.Errorf("twice = %q, %v", got, err)
	}
	_, err := e.Render("{% if x %}{{ raise_exception('bad role') }}{% endif %}", map[string]any{"x": true})
	if err == nil || !strings.Contains(err.Error(), "bad role") {
		t.Errorf("raise_exception error = %v", err)
	}
	// A chat-template style loop.
	src := "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] | trim }}\n{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}"
	msgs := []any{map[string]any{"role": "user", "content": " hi "}}
	if got, err := e.Render(src, map[string]any{"messages": msgs, "add_generation_prompt": true}); err != nil || got != "<|user|>hi\n<|assistant|>" {
		t.Errorf("chat template = %q, %v", got, err)
	}
}

func TestConcurrentRender(t *testing.T) {
	e := New()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				q := fmt.Sprintf("q%d-%d", g, i)
				got, err := e.Render("Question: {{ question.strip() }}\nAnswer:", map[string]any{"question": " " + q + " "})
				if err != nil || got != "Question: "+q+"\nAnswer:" {
					errs <- fmt.Errorf("got %q, %v", got, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func BenchmarkRender(b *testing.B) {
	e := New()
	src := "Given the following question and four candidate answers (A, B, C and D), choose the best answer.\nQuestion: {{question.strip()}}\nA. {{choices.text[0]}}\nB. {{choices.text[1]}}\nC. {{choices.text[2]}}{% if choices.text|length > 3 %}\nD. {{choices.text[3]}}{% endif %}\nAnswer:"
	doc := map[string]any{"question": " Which is largest? ", "choices": map[string]any{"text": []any{"ant", "cat", "horse", "whale"}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Render(src, doc); err != nil {
			b.Fatal(err)
		}
	}
}

// TestVariables checks Variables against jinja2.meta.find_undeclared_variables
// on every corpus template (testdata/undeclared.jsonl, from gen_corpus.py).
func TestVariables(t *testing.T) {
	f, err := os.Open("testdata/undeclared.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e := New()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	n := 0
	for sc.Scan() {
		var c struct {
			Template string   `json:"template"`
			Names    []string `json:"names"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		got, err := e.Variables(c.Template)
		if err != nil {
			t.Errorf("Variables(%q): %v", c.Template, err)
			continue
		}
		if len(got) == 0 && len(c.Names) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, c.Names) {
			t.Errorf("Variables(%q) = %q; want %q", c.Template, got, c.Names)
		}
	}
	if n < 100 {
		t.Fatalf("only %d templates in testdata/undeclared.jsonl", n)
	}
}

// TestDictOrder pins down the one deliberate difference from Python for
// dicts: documents are Go maps, which keep no insertion order, so dicts
// print and iterate in sorted key order (Python: insertion order).
func TestDictOrder(t *testing.T) {
	e := New()
	doc := map[string]any{"d": map[string]any{"b": int64(1), "a": int64(2)}}
	for src, want := range map[string]string{
		"{{ d }}":                             "{'a': 2, 'b': 1}",
		"{% for k in d %}{{ k }}{% endfor %}": "ab",
		"{{ d.items()|list }}":                "[('a', 2), ('b', 1)]",
		"{{ d|tojson }}":                      `{"a": 2, "b": 1}`,
	} {
		if got, err := e.Render(src, doc); err != nil || got != want {
			t.Errorf("Render(%q) = %q, %v; want %q", src, got, err, want)
		}
	}
}

func TestIntegerLimits(t *testing.T) {
	e := New()
	for src, want := range map[string]string{
		"{{ 2 ** 62 }}":                 "4611686018427387904",
		"{{ (-2) ** 63 }}":              "-9223372036854775808",
		"{{ 9223372036854775807 - 1 }}": "9223372036854775806",
		"{{ 3 ** 39 }}":                 "4052555153018976267",
	} {
		if got, err := e.Render(src, nil); err != nil || got != want {
			t.Errorf("Render(%q) = %q, %v; want %q", src, got, err, want)
		}
	}
	for _, src := range []string{"{{ 2 ** 64 }}", "{{ 9223372036854775807 + 1 }}", "{{ 4611686018427387904 * 2 }}", "{{ 2 ** 9999999999 }}", "{{ 'ab' * 999999999999 }}"} {
		if got, err := e.Render(src, nil); err == nil {
			t.Errorf("Render(%q) = %q; want an error", src, got)
		}
	}
}
