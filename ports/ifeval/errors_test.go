package ifeval

import (
	"strings"
	"testing"
)

// TestBuildErrors: documents on which lm-eval's process_results raises
// (KeyError, TypeError, ValueError, re.error; checked with CPython 3.11)
// give an error naming the instruction and the cause.
func TestBuildErrors(t *testing.T) {
	for _, c := range []struct {
		id     string
		kwargs map[string]any
		want   string
	}{
		{"keywords:nope", nil, `unknown instruction id "keywords:nope"`},
		{"keywords:existence", map[string]any{"keywords": []any{"a"}, "num_words": int64(5)}, "unexpected keyword argument(s) num_words"},
		{"keywords:frequency", map[string]any{"keyword": "a", "frequency": int64(2), "relation": "more than"}, "but more than is given"},
		{"language:response_language", map[string]any{"language": "cy"}, `language "cy" is not in`},
		{"keywords:existence", map[string]any{"keywords": []any{"("}}, `keyword "("`},
		{"combination:repeat_prompt", map[string]any{"prompt_to_repeat": nil}, "prompt_to_repeat must be set"},
		{"length_constraints:number_words", map[string]any{"relation": "at least"}, "argument num_words is missing"},
	} {
		doc := map[string]any{"key": int64(1), "prompt": "p", "instruction_id_list": []any{c.id}, "kwargs": []any{c.kwargs}}
		if c.kwargs == nil {
			doc["kwargs"] = []any{map[string]any{}}
		}
		_, err := ProcessResults(doc, []any{"response text"})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: error %v, want one containing %q", c.id, c.kwargs, err, c.want)
		}
	}
}

// TestNoneKwargsDropped: the dataset gives every argument of every checker,
// None where unused; those (and other falsy values) are dropped before
// build_description, as test_instruction_following_* do.
func TestNoneKwargsDropped(t *testing.T) {
	kw := map[string]any{"num_words": int64(3), "relation": "at least", "keywords": nil, "language": "", "frequency": int64(0), "forbidden_words": []any{}}
	c, err := New("length_constraints:number_words", kw)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Check("one two three"); !ok {
		t.Error("three words are at least 3")
	}
}
