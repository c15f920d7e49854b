package filters

import (
	"reflect"
	"strings"
	"testing"
)

func mustPipeline(t *testing.T, name string, steps ...Step) *Pipeline {
	t.Helper()
	p, err := NewPipeline(name, steps)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gsm8k's two pipelines; expected values computed with Python's re and
// lm-eval's RegexFilter logic.
func TestGSM8KPipelines(t *testing.T) {
	resps := []string{
		"Natalia sold 48/2 = 24 clips in May.\nShe sold 48+24 = 72 clips altogether.\n#### 72",
		"The total is $1,250.50 dollars. #### 1250.5 ",
		"I think the answer is 7",
		"no numbers here",
		"#### -3\n#### 4",
	}
	in := make([][]string, len(resps))
	for i, r := range resps {
		in[i] = []string{r}
	}
	strict := mustPipeline(t, "strict-match",
		Step{Function: "regex", Args: map[string]any{"regex_pattern": `#### (\-?[0-9\.\,]+)`}},
		Step{Function: "take_first", Args: nil})
	flex := mustPipeline(t, "flexible-extract",
		Step{Function: "regex", Args: map[string]any{"regex_pattern": `(-?[$0-9.,]{2,})|(-?[0-9]+)`, "group_select": -1}},
		Step{Function: "take_first", Args: nil})
	for _, tc := range []struct {
		p    *Pipeline
		want []any
	}{
		{strict, []any{"72", "1250.5", "[invalid]", "[invalid]", "-3"}},
		{flex, []any{"72", "1250.5", "7", "[invalid]", "4"}},
	} {
		got, err := tc.p.ApplyStrings(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.p.Name, got, tc.want)
		}
	}
}

// The cases of lm-eval's tests/test_filters.py for MultiChoiceRegexFilter,
// plus the other branches of its logic.
func TestMultiChoiceRegex(t *testing.T) {
	docs := []map[string]any{{"choices": []any{"alpha", "beta"}}}
	for _, tc := range []struct {
		name string
		args map[string]any
		resp string
		want string
	}{
		{"all-empty groups fall back to choice text", map[string]any{"regex_pattern": `()()`, "ignore_case": true, "ignore_punctuation": true}, "alpha", "(A)"},
		{"all-empty groups fall back to bare letter", map[string]any{"regex_pattern": `()()`}, ": B", "(B)"},
		{"regex wins", map[string]any{"regex_pattern": `answer is \(([A-D])\)`}, "the answer is (B) beta", "B"},
		{"choice text, case and punctuation ignored", map[string]any{"regex_pattern": `zzz`, "ignore_case": true, "ignore_punctuation": true}, "I pick B.E.T.A!", "(B)"},
		{"choice text is case sensitive by default", map[string]any{"regex_pattern": `zzz`}, "BETA", "[invalid]"},
		{"regexes_to_ignore", map[string]any{"regex_pattern": `zzz`, "regexes_to_ignore": []any{`\s+`}}, "al pha", "(A)"},
		{"letter after colon", map[string]any{"regex_pattern": `zzz`}, "Answer:\n  A", "(A)"},
		{"custom fallback", map[string]any{"regex_pattern": `zzz`, "fallback": "?"}, "gamma", "?"},
	} {
		p := mustPipeline(t, "mc", Step{Function: "multi_choice_regex", Args: tc.args}, Step{Function: "take_first", Args: nil})
		got, err := p.ApplyStrings([][]string{{tc.resp}}, docs)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got[0] != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got[0], tc.want)
		}
	}
}

func TestRegexTuplesAndGroups(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		group   int
		resp    string
		want    string
	}{
		{`(A)|(B)`, 0, "xx B A", "B"},                  // tuple ('', 'B') -> first non-empty
		{`(A)|(B)`, -1, "xx B A", "A"},                 // last match
		{`\d+`, 1, "1 22 333", "22"},                   // no groups: whole match
		{`([a-z])\1`, 0, " aa ", "a"},                  // backreference: backtracking engine
		{`answer: (.*)$`, 0, "answer:  yes \n", "yes"}, // $ before final newline, then strip
	} {
		r, err := NewRegex(map[string]any{"regex_pattern": tc.pattern, "group_select": tc.group})
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Extract(tc.resp)
		if err != nil || got != tc.want {
			t.Errorf("regex %q group %d on %q = %q, %v; want %q", tc.pattern, tc.group, tc.resp, got, err, tc.want)
		}
	}
	r, _ := NewRegex(map[string]any{"regex_pattern": `\d`, "group_select": 5})
	if _, err := r.Extract("1 2"); err == nil {
		t.Error("group_select beyond the matches: want an error (Python raises IndexError)")
	}
}

// Self-consistency (maj@k) as gsm8k-cot-self-consistency.yaml writes it.
func TestMajorityVotePipeline(t *testing.T) {
	p := mustPipeline(t, "maj@3",
		Step{Function: "take_first_k", Args: map[string]any{"k": 3}},
		Step{Function: "regex", Args: map[string]any{"regex_pattern": `The answer is (\-?[0-9\.\,]*[0-9]+)`}},
		Step{Function: "majority_vote", Args: nil},
		Step{Function: "take_first", Args: nil})
	resps := [][]string{
		{"The answer is 4.", "The answer is 5.", "The answer is 5.", "The answer is 4."}, // 4th dropped by k
		{"The answer is 1.", "The answer is 2.", "nothing"},                              // tie: first seen
		{"x", "y", "The answer is 9."},
	}
	got, err := p.ApplyStrings(resps, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []any{"5", "1", "[invalid]"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := p.ApplyStrings([][]string{{"a", "b"}}, nil); err == nil || !strings.Contains(err.Error(), "at least 3") {
		t.Errorf("too few responses for take_first_k: err = %v", err)
	}
}

func TestTransformations(t *testing.T) {
	in := [][]string{{"  Yes", "ß No"}, {"\tmaybe "}}
	for _, tc := range []struct {
		step Step
		want []any
	}{
		{Step{Function: "lowercase", Args: nil}, []any{[]any{"  yes", "ß no"}, []any{"\tmaybe "}}},
		{Step{Function: "uppercase", Args: nil}, []any{[]any{"  YES", "SS NO"}, []any{"\tMAYBE "}}},
		{Step{Function: "remove_whitespace", Args: nil}, []any{[]any{"Yes", "ß No"}, []any{"maybe"}}},
		{Step{Function: "map", Args: map[string]any{"mapping_dict": map[string]any{"  Yes": 1, "\tmaybe ": 0}, "default_value": -1}},
			[]any{[]any{1, -1}, []any{0}}},
		{Step{Function: "identity", Args: nil}, []any{[]any{"  Yes", "ß No"}, []any{"\tmaybe "}}},
	} {
		p := mustPipeline(t, "t", tc.step)
		got, err := p.ApplyStrings(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %#v, want %#v", tc.step.Function, got, tc.want)
		}
	}
}

// NewPipeline builds registered filters with their arguments (filter_list
// itself is parsed in harness/task: TestFilterSpecs).
func TestNewPipeline(t *testing.T) {
	p, err := NewPipeline("flexible-extract", []Step{
		{Function: "regex", Args: map[string]any{"group_select": -1, "regex_pattern": `(-?[$0-9.,]{2,})|(-?[0-9]+)`}},
		{Function: "take_first"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.ApplyStrings([][]string{{"so 3 then 14"}}, nil); err != nil || got[0] != "14" {
		t.Errorf("flexible-extract = %v, %v", got, err)
	}
	def := Default()
	if got, _ := def.Apply([][]any{{1.5, 2.5}}, nil); def.Name != "none" || got[0] != 1.5 {
		t.Errorf("none pipeline = %v, want first response", got)
	}
	rev := FilterFunc(func(r []any, _ []map[string]any) ([]any, error) { return r, nil })
	for _, bad := range [][]Step{
		{{Function: "nope"}},
		{{Function: "regex", Args: map[string]any{"regex_pattern": `(`}}},
		{{Function: "take_first_k"}},
		{{Function: "regex", Args: map[string]any{"bogus": 1}}},
		{{Function: "regex", Func: rev}},
		{{Function: "custom", Func: rev, Args: map[string]any{"bogus": 1}}},
	} {
		if _, err := NewPipeline("x", bad); err == nil {
			t.Errorf("NewPipeline(%+v): want an error", bad)
		}
	}
	if p, err := NewPipeline("x", []Step{{Function: "custom", Func: rev}}); err != nil || len(p.impl) != 1 {
		t.Errorf("custom with a native filter_fn: %v", err)
	}
}

func TestCustomAndRegister(t *testing.T) {
	RegisterFunc("test.reverse_all", func(resps []any, _ []map[string]any) ([]any, error) {
		out := make([]any, len(resps))
		for i := range resps {
			out[i] = resps[len(resps)-1-i]
		}
		return out, nil
	})
	p := mustPipeline(t, "c", Step{Function: "custom", Args: map[string]any{"filter_fn": "test.reverse_all"}}, Step{Function: "take_first", Args: nil})
	got, err := p.ApplyStrings([][]string{{"a"}, {"b"}}, nil)
	if err != nil || !reflect.DeepEqual(got, []any{"b", "a"}) {
		t.Errorf("custom = %v, %v", got, err)
	}
	Register("test_suffix", func(args map[string]any) (Filter, error) {
		suf, _ := args["suffix"].(string)
		return FilterFunc(func(resps []any, _ []map[string]any) ([]any, error) {
			return perResponse(resps, func(r any, _ int) (any, error) { return r.(string) + suf, nil })
		}), nil
	})
	p = mustPipeline(t, "r", Step{Function: "test_suffix", Args: map[string]any{"suffix": "!"}}, Step{Function: "take_first", Args: nil})
	if got, _ := p.ApplyStrings([][]string{{"hi"}}, nil); got[0] != "hi!" {
		t.Errorf("registered filter = %v", got)
	}
	// take_first then a per-response filter: a clear error, not characters.
	p = mustPipeline(t, "bad", Step{Function: "take_first", Args: nil}, Step{Function: "lowercase", Args: nil})
	if _, err := p.ApplyStrings([][]string{{"A"}}, nil); err == nil {
		t.Error("lowercase after take_first: want an error")
	}
}
