package pyre

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// everyRune is every code point but the surrogates, which a Go string
// cannot hold.
func everyRune() string {
	var b strings.Builder
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if r < 0xd800 || r > 0xdfff {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// edgeRunes is every code point where a table's answer can change (each
// range's ends and their neighbours) and the first 768, in order.
func edgeRunes() string {
	var rs []rune
	for r := rune(0); r < 0x300; r++ {
		rs = append(rs, r)
	}
	for _, t := range []runeSet{regexmodWord, regexmodSpace, regexmodDigit} {
		for _, r := range t {
			rs = append(rs, r[0]-1, r[0], r[1], r[1]+1)
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i] < rs[j] })
	var b strings.Builder
	for i, r := range rs {
		if (i == 0 || r != rs[i-1]) && r >= 0 && r <= utf8.MaxRune && (r < 0xd800 || r > 0xdfff) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// runsOf is what findall(X+) gives on s when X matches exactly in: the
// maximal runs of members, as byte spans.
func runsOf(s string, in func(rune) bool) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		switch {
		case in(r) && start < 0:
			start = i
		case !in(r) && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

// TestRegexModuleClasses checks the shorthands, plain and negated, alone
// and inside classes, and \b against the regex module's tables
// (regexmod_tables.go, which testdata/gen_regexmod.py takes from the module
// over every code point): on Go's regexp over every code point, on the
// backtracking engine (which scans a class's ranges one by one, too slow for
// a million characters in a unit test) over every code point where a table
// changes, which the same ranges decide.
func TestRegexModuleClasses(t *testing.T) {
	word, space, digit := regexmodWord.contains, regexmodSpace.contains, regexmodDigit.contains
	not := func(f func(rune) bool) func(rune) bool { return func(r rune) bool { return !f(r) } }
	asciiW := asciiWord.contains
	subjects := []string{everyRune(), edgeRunes()}
	for _, c := range []struct {
		pattern string
		in      func(rune) bool
	}{
		{`\w+`, word},
		{`\W+`, not(word)},
		{`\s+`, space},
		{`\S+`, not(space)},
		{`\d+`, digit},
		{`\D+`, not(digit)},
		{`[\w]+`, word},
		{`[^\w]+`, not(word)},
		{`[^\W]+`, word},
		{`[^\W\d]+`, func(r rune) bool { return word(r) && !digit(r) }},
		{`[\W\d]+`, func(r rune) bool { return !word(r) || digit(r) }},
		{`[^\s\d]+`, func(r rune) bool { return !space(r) && !digit(r) }},
		{`[\S\d]+`, not(space)},
		{`(?a)\w+`, asciiW},
		{`(?a)[^\W\d]+`, func(r rune) bool { return asciiW(r) && (r < '0' || r > '9') }},
		{`(?a)\s+`, asciiSpace.contains},
	} {
		for i, backtrack := range []bool{false, true} {
			all := subjects[i]
			want := runsOf(all, c.in)
			re, err := compile(c.pattern, 0, RegexModule, backtrack)
			if err != nil {
				t.Fatal(err)
			}
			if re.Backtracking() != backtrack {
				t.Fatalf("%s: Backtracking() = %v", c.pattern, re.Backtracking())
			}
			var got [][2]int
			for _, m := range re.FindAll(all) {
				got = append(got, [2]int{m.Start(), m.End()})
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s (backtracking %v): %d runs, the regex module's tables give %d; first difference %s",
					c.pattern, backtrack, len(got), len(want), firstDiff(all, got, want))
			}
		}
	}
	// \b: every change between \w and not \w, the ends included.
	all := subjects[1]
	var want []int
	prev := false
	for i, r := range all {
		if word(r) != prev {
			want = append(want, i)
		}
		prev = word(r)
	}
	if prev {
		want = append(want, len(all))
	}
	var got []int
	for _, m := range RegexModule.MustCompile(`\b`).FindAll(all) {
		got = append(got, m.Start())
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf(`\b: %d boundaries, the tables give %d`, len(got), len(want))
	}
}

func firstDiff(s string, got, want [][2]int) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			r, _ := utf8.DecodeRuneInString(s[min(got[i][0], want[i][0]):])
			return fmt.Sprintf("near U+%04X", r)
		}
	}
	return "in the number of runs"
}

// TestRegexModuleCases: under (?i) each character of a case pair matches
// the other, alone and in a class, and a negated class refuses it.
func TestRegexModuleCases(t *testing.T) {
	for _, p := range regexmodCasePairs {
		for _, q := range [][2]rune{p, {p[1], p[0]}} {
			a, b := Escape(string(q[0])), string(q[1])
			for _, c := range []struct {
				pattern string
				match   bool
			}{{"(?i)" + a, true}, {"(?i)[" + a + "]", true}, {"(?i)[^" + a + "]", false}} {
				if got := RegexModule.MustCompile(c.pattern).FullMatch(b) != nil; got != c.match {
					t.Errorf("%q on %q (U+%04X): match %v, the regex module %v", c.pattern, b, q[1], got, c.match)
				}
			}
		}
	}
}

func TestRegexModuleEngineChoice(t *testing.T) {
	for _, tc := range []struct {
		pattern   string
		backtrack bool
	}{
		{`\w+`, false},
		{`[^\W\d]+`, false},
		{`\w+|[^\w\s]+`, false},
		{`\bx`, true},
		{`(?a)\bx`, false},
		{`a*+b`, true},
		{`(?>a)b`, true},
		{`[^\W\d]\.$`, true},
		{`(?i)k+`, false},
	} {
		re, err := RegexModule.Compile(tc.pattern)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tc.pattern, err)
		}
		if re.Backtracking() != tc.backtrack {
			t.Errorf("Compile(%q).Backtracking() = %v, want %v", tc.pattern, re.Backtracking(), tc.backtrack)
		}
	}
}

// TestRegexModuleRefuses: the regex module's own extensions are errors, not
// guesses; so is what re refuses.
func TestRegexModuleRefuses(t *testing.T) {
	for _, p := range []string{
		`\p{L}`, `[\p{L}]`, `[[:alpha:]]`, `\X`, `\N{DIGIT ONE}`, `(?i:a)b`, `(?-i:a)b`,
		`(?i)(a)\1`, `a(?i)b`, `(?V1)a`, `[a--b]`, `[z-a]`, `a{e<=1}`, `(ab){1<=e<=2,s}`, `a{d}`,
		`(`, `[a`, `\q`, `(?P=x)`,
	} {
		if _, err := RegexModule.Compile(p); err == nil {
			t.Errorf("RegexModule.Compile(%q) succeeded, want an error", p)
		} else if !strings.Contains(err.Error(), "for the regex module") {
			t.Errorf("RegexModule.Compile(%q): %v, without the dialect", p, err)
		}
	}
}
