package bbh

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/python/pyre"
)

// MapRegex is bbh's MapRegexFilter: the patterns of regex_pattern_to_value
// joined with "|" find the answer; the first pattern (in the YAML's order)
// that matches it gives the value; otherwise the fallback.
type MapRegex struct {
	*ExtendedRegex
	patterns []*pyre.Regexp
	values   []string
}

// NewMapRegex is the filter's factory. regex_pattern_to_value is a mapping
// as the task layer reads it: its [pattern, value] pairs in order.
func NewMapRegex(args map[string]any) (filters.Filter, error) {
	const name = "MapRegexFilter"
	rest := map[string]any{}
	var pairs [][2]string
	for k, v := range args {
		if k != "regex_pattern_to_value" {
			rest[k] = v
			continue
		}
		l, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%s: regex_pattern_to_value: want a mapping, got %T", name, v)
		}
		for _, e := range l {
			p, ok := e.([]any)
			if !ok || len(p) != 2 {
				return nil, fmt.Errorf("%s: regex_pattern_to_value: want pattern: value pairs, got %v", name, e)
			}
			k, ok1 := p[0].(string)
			val, ok2 := p[1].(string)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("%s: regex_pattern_to_value: %v: want text patterns and values", name, p)
			}
			pairs = append(pairs, [2]string{k, val})
		}
	}
	keys := make([]string, len(pairs))
	for i, p := range pairs {
		keys[i] = p[0]
	}
	rest["regex_pattern"] = strings.Join(keys, "|")
	base, err := NewExtendedRegex(name, rest)
	if err != nil {
		return nil, err
	}
	f := MapRegex{ExtendedRegex: base}
	for _, p := range pairs {
		re, err := pyre.Compile(p[0])
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %w", name, p[0], err)
		}
		f.patterns = append(f.patterns, re)
		f.values = append(f.values, p[1])
	}
	if len(f.patterns) == 0 {
		return nil, fmt.Errorf("%s: regex_pattern_to_value is empty", name)
	}
	return f, nil
}

// Apply implements filters.Filter.
func (f MapRegex) Apply(resps []any, _ []map[string]any) ([]any, error) {
	return eachResponse("MapRegexFilter", resps, func(s string) (string, error) {
		whole, err := f.FindMatch(f.Pattern, f.FilterIgnores(s), nil)
		if err != nil || whole == "" {
			return f.Fallback, err
		}
		for i, re := range f.patterns {
			m, err := f.FindMatch(re, f.FilterIgnores(whole), nil)
			if err != nil {
				return "", err
			}
			if m != "" {
				return f.values[i], nil
			}
		}
		return f.Fallback, nil
	})
}

func eachResponse(name string, resps []any, fn func(string) (string, error)) ([]any, error) {
	out := make([]any, len(resps))
	for i, r := range resps {
		l, ok := r.([]any)
		if !ok {
			return nil, fmt.Errorf("%s: document %d: want a list of responses, got %T", name, i, r)
		}
		res := make([]any, len(l))
		for j, v := range l {
			s, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("%s: document %d: response is %T, want text", name, i, v)
			}
			m, err := fn(s)
			if err != nil {
				return nil, fmt.Errorf("%s: document %d: %w", name, i, err)
			}
			res[j] = m
		}
		out[i] = res
	}
	return out, nil
}

// englishNumber is NumberParseRegexFilter's english_number_regex, for
// the `regex` module: its branch-reset groups (?|...) hold no captures, so
// they are written (?:...) here.
var englishNumber = pyre.MustCompile(strings.ReplaceAll(
	"((?:(?:zero|one|two|three|four|five|(?:twen|thir|for|fif|six|seven|nine)(?|teen|ty)|eight(?:|een|y)|ten|eleven|twelve|fourteen|hundred|thousand|(?:m|b|tr)illion)(?:zero|one|two|three|four|five|(?:twen|thir|for|fif|six|seven|nine)(?:|teen|ty)|eight(?|een|y)|ten|eleven|twelve|fourteen|hundred|thousand|(?:m|b|tr)illion|[^\\S\r\n]|,|and|&)+)?(?:zero|one|two|three|four|five|(?:twen|thir|for|fif|six|seven|nine)(?|teen|ty)|eight(?|een|y)|ten|eleven|twelve|fourteen|hundred|thousand|(?:m|b|tr)illion))",
	"(?|", "(?:"))

// NumberParse is bbh's NumberParseRegexFilter: the pattern's match;
// failing that, English number words in the lower-cased response, as
// word2number's w2n.word_to_num reads them; failing that, the fallback.
type NumberParse struct{ *ExtendedRegex }

// NewNumberParse is the filter's factory.
func NewNumberParse(args map[string]any) (filters.Filter, error) {
	f, err := NewExtendedRegex("NumberParseRegexFilter", args)
	if err != nil {
		return nil, err
	}
	return NumberParse{f}, nil
}

// Apply implements filters.Filter.
func (f NumberParse) Apply(resps []any, _ []map[string]any) ([]any, error) {
	return eachResponse("NumberParseRegexFilter", resps, func(s string) (string, error) {
		m, err := f.FindMatch(f.Pattern, s, nil)
		if err != nil || m != "" {
			return m, err
		}
		words, err := f.FindMatch(englishNumber, pyre.Lower(s), nil)
		if err != nil {
			return "", err
		}
		if words == "" {
			return f.Fallback, nil
		}
		n, err := WordToNum(words)
		if err != nil {
			return "", err
		}
		return strconv.FormatInt(n, 10), nil
	})
}

// americanNumbers is word2number's american_number_system (without
// "point": the number regex never matches it).
var americanNumbers = map[string]int64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
	"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
	"million": 1000000, "billion": 1000000000,
}

// numberFormation is word2number's number_formation.
func numberFormation(words []string) (int64, error) {
	n := make([]int64, len(words))
	for i, w := range words {
		n[i] = americanNumbers[w]
	}
	switch len(n) {
	case 0:
		return 0, fmt.Errorf("word2number: list index out of range")
	case 4:
		return n[0]*n[1] + n[2] + n[3], nil
	case 3:
		return n[0]*n[1] + n[2], nil
	case 2:
		if n[0] == 100 || n[1] == 100 {
			return n[0] * n[1], nil
		}
		return n[0] + n[1], nil
	}
	return n[0], nil
}

// WordToNum is word2number 1.1's w2n.word_to_num for the integer words
// the number regex finds. word2number is not installable on the machine
// the reference vectors were made on, so this follows the library's
// published source; its errors (repeated "thousand", misordered scales)
// are the library's ValueErrors, which stop lm-eval's run too.
func WordToNum(s string) (int64, error) {
	s = pyre.Lower(strings.ReplaceAll(s, "-", " "))
	if isDigits(s) {
		return strconv.ParseInt(s, 10, 64)
	}
	var clean []string
	for _, w := range strings.Fields(s) {
		if _, ok := americanNumbers[w]; ok {
			clean = append(clean, w)
		}
	}
	if len(clean) == 0 {
		return 0, fmt.Errorf("word2number: no valid number words found in %q", s)
	}
	count := func(w string) int {
		c := 0
		for _, x := range clean {
			if x == w {
				c++
			}
		}
		return c
	}
	if count("thousand") > 1 || count("million") > 1 || count("billion") > 1 {
		return 0, fmt.Errorf("word2number: redundant number word in %q", s)
	}
	index := func(w string) int {
		for i, x := range clean {
			if x == w {
				return i
			}
		}
		return -1
	}
	bi, mi, ti := index("billion"), index("million"), index("thousand")
	if ti > -1 && (ti < mi || ti < bi) || mi > -1 && mi < bi {
		return 0, fmt.Errorf("word2number: malformed number %q", s)
	}
	if len(clean) == 1 {
		return americanNumbers[clean[0]], nil
	}
	var total int64
	add := func(words []string, scale int64) error {
		v, err := numberFormation(words)
		total += v * scale
		return err
	}
	if bi > -1 {
		if err := add(clean[:bi], 1000000000); err != nil {
			return 0, err
		}
	}
	if mi > -1 {
		from := 0
		if bi > -1 {
			from = bi + 1
		}
		if err := add(clean[from:mi], 1000000); err != nil {
			return 0, err
		}
	}
	if ti > -1 {
		from := 0
		switch {
		case mi > -1:
			from = mi + 1
		case bi > -1:
			from = bi + 1
		}
		if err := add(clean[from:ti], 1000); err != nil {
			return 0, err
		}
	}
	last := len(clean) - 1
	var err error
	switch {
	case ti > -1 && ti != last:
		err = add(clean[ti+1:], 1)
	case mi > -1 && mi != last:
		err = add(clean[mi+1:], 1)
	case bi > -1 && bi != last:
		err = add(clean[bi+1:], 1)
	case ti == -1 && mi == -1 && bi == -1:
		err = add(clean, 1)
	}
	return total, err
}

// isDigits is str.isdigit for the ASCII digits the input can hold.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
