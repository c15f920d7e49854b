package pyre

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

type vector struct {
	Pattern   string     `json:"pattern"`
	Flags     int        `json:"flags"`
	Subject   string     `json:"subject"`
	Repl      string     `json:"repl"`
	Search    [][]int    `json:"search"`
	Match     [][]int    `json:"match"`
	FullMatch [][]int    `json:"fullmatch"`
	FindAll   [][]string `json:"findall"`
	Sub       string     `json:"sub"`
	Sub1      string     `json:"sub1"`
}

func spans(m *Match) [][]int {
	if m == nil {
		return nil
	}
	out := make([][]int, m.re.NumGroups()+1)
	for i := range out {
		s, e := m.Span(i)
		out[i] = []int{s, e}
	}
	return out
}

// TestPythonVectors checks every operation against Python's re module
// (testdata/vectors.json, produced by testdata/gen.py).
func TestPythonVectors(t *testing.T) { checkVectors(t, "testdata/vectors.json", Re) }

// TestRegexModuleVectors checks the RegexModule dialect against the regex
// module itself (testdata/regexmod_vectors.json, from
// testdata/gen_regexmod.py): nltk 3.10.4's patterns and the classes,
// boundaries, case rules and possessive quantifiers where it differs from re.
func TestRegexModuleVectors(t *testing.T) {
	checkVectors(t, "testdata/regexmod_vectors.json", RegexModule)
}

func checkVectors(t *testing.T, file string, d Dialect) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	type source struct {
		pattern string
		flags   int
	}
	compiled := map[source]*Regexp{}
	for _, v := range vs {
		key := source{v.Pattern, v.Flags}
		re, ok := compiled[key]
		if !ok {
			var err error
			if re, err = d.CompileFlags(v.Pattern, v.Flags); err != nil {
				t.Errorf("Compile(%q): %v", v.Pattern, err)
				continue
			}
			compiled[key] = re
		}
		name := v.Pattern + " on " + v.Subject
		if got := spans(re.Search(v.Subject)); !reflect.DeepEqual(got, v.Search) {
			t.Errorf("%q: Search = %v, want %v (backtracking %v)", name, got, v.Search, re.Backtracking())
		}
		if got := spans(re.Match(v.Subject)); !reflect.DeepEqual(got, v.Match) {
			t.Errorf("%q: Match = %v, want %v", name, got, v.Match)
		}
		if got := spans(re.FullMatch(v.Subject)); !reflect.DeepEqual(got, v.FullMatch) {
			t.Errorf("%q: FullMatch = %v, want %v", name, got, v.FullMatch)
		}
		got := re.FindAllStrings(v.Subject)
		if len(got) != 0 || len(v.FindAll) != 0 {
			if !reflect.DeepEqual(got, v.FindAll) {
				t.Errorf("%q: FindAllStrings = %q, want %q", name, got, v.FindAll)
			}
		}
		if got, err := re.Sub(v.Repl, v.Subject, 0); err != nil || got != v.Sub {
			t.Errorf("%q: Sub(%q) = %q, %v; want %q", name, v.Repl, got, err, v.Sub)
		}
		if got, err := re.Sub(v.Repl, v.Subject, 1); err != nil || got != v.Sub1 {
			t.Errorf("%q: Sub(%q, count=1) = %q, %v; want %q", name, v.Repl, got, err, v.Sub1)
		}
	}
}

func TestEngineChoice(t *testing.T) {
	for _, tc := range []struct {
		pattern   string
		backtrack bool
	}{
		{`#### (\-?[0-9\.\,]+)`, false},
		{`(-?[$0-9.,]{2,})|(-?[0-9]+)`, false},
		{`\d+`, false},
		{`foo(?=bar)`, true},
		{`(\w)\1`, true},
		{`end$`, true},
		{`(?m)^x$`, false},
		{`\bA\b`, true},
		{`(?a)\bA\b`, false},
		{`x*`, true}, // can match empty: Python's findall rules
	} {
		re, err := Compile(tc.pattern)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tc.pattern, err)
		}
		if re.Backtracking() != tc.backtrack {
			t.Errorf("Compile(%q).Backtracking() = %v, want %v", tc.pattern, re.Backtracking(), tc.backtrack)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for _, p := range []string{`(`, `[a`, `\q`, `(?P=x)`, `a(?i)b`, `\2(a)`, `a*+`, `(?<n>a)`} {
		if _, err := Compile(p); err == nil {
			t.Errorf("Compile(%q) succeeded, want an error as Python gives", p)
		}
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"a.b":        `a\.b`,
		"(A) 1+1":    `\(A\)\ 1\+1`,
		"naïve-x#~&": `naïve\-x\#\~\&`,
		"tab\tend":   "tab\\\tend",
		`q"'!,:<`:    `q"'!,:<`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		re := MustCompile(Escape(in))
		if m := re.FullMatch(in); m == nil {
			t.Errorf("escaped %q does not match itself", in)
		}
	}
}

func BenchmarkFindAllGo(b *testing.B) {
	re := MustCompile(`(-?[$0-9.,]{2,})|(-?[0-9]+)`)
	s := "Natalia sold 48/2 = 24 clips in May. She sold 48+24 = 72 clips altogether. #### 72"
	for b.Loop() {
		re.FindAllStrings(s)
	}
}

func BenchmarkFindAllBacktracking(b *testing.B) {
	re := MustCompile(`(?i)\b(A|B|C|D)\b`)
	s := "Let's think step by step. The answer is (C) because B is wrong."
	for b.Loop() {
		re.FindAllStrings(s)
	}
}

// Expected values from Python 3.11.
func TestStrMethods(t *testing.T) {
	for _, tc := range []struct{ in, lower, upper, strip string }{
		{"Straße", "straße", "STRASSE", "Straße"},
		{" ΟΔΟΣ\x1c", " οδος\x1c", " ΟΔΟΣ\x1c", "ΟΔΟΣ"},
		{"\u00a0İx\u3000", "\u00a0i̇x\u3000", "\u00a0İX\u3000", "İx"},
		{"ﬁ A", "ﬁ a", "FI A", "ﬁ A"},
	} {
		if got := Lower(tc.in); got != tc.lower {
			t.Errorf("Lower(%q) = %q, want %q", tc.in, got, tc.lower)
		}
		if got := Upper(tc.in); got != tc.upper {
			t.Errorf("Upper(%q) = %q, want %q", tc.in, got, tc.upper)
		}
		if got := Strip(tc.in); got != tc.strip {
			t.Errorf("Strip(%q) = %q, want %q", tc.in, got, tc.strip)
		}
	}
}

// TestWordBoundaryCombiningMarks: Python's \b and \B use str.isalnum(), so
// a combining mark (Mn) is not a word character; .NET's \b says it is.
// Expected values from CPython 3.11 re.findall.
func TestWordBoundaryCombiningMarks(t *testing.T) {
	for _, c := range []struct {
		pat, s string
		want   []string
	}{
		{`\b\w`, "'ต่อไป x\u0301y", []string{"ต", "อ", "x", "y"}},
		{`\w\b`, "ต่อไป", []string{"ต", "ป"}},
		{`\B.`, "ต่อ", nil},
	} {
		var got []string
		for _, m := range MustCompile(c.pat).FindAll(c.s) {
			got = append(got, m.Group(0))
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("findall(%q, %q) = %q, Python %q", c.pat, c.s, got, c.want)
		}
	}
}
