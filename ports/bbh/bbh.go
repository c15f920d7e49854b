// Package bbh ports the filter classes of lm_eval/tasks/bbh/zeroshot/
// utils.py (the same file as bbh/cot_zeroshot/utils.py), which the
// zero-shot variants' "flexible-extract" pipelines use:
// MultiChoiceRegexFilter and WordSortFilter (and ExtendedRegexFilter,
// their base).
package bbh

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// ExtendedRegex is ExtendedRegexFilter: lm-eval's RegexFilter (pattern,
// group_select, fallback) with the normalisation filter_ignores applies
// (regexes_to_ignore removed, then lower case, then Unicode punctuation
// removed).
type ExtendedRegex struct {
	Pattern           *pyre.Regexp
	GroupSelect       int
	Fallback          string
	IgnoreCase        bool
	IgnorePunctuation bool
	Ignore            []*pyre.Regexp
}

// NewExtendedRegex reads the constructor's keyword arguments.
func NewExtendedRegex(name string, args map[string]any) (*ExtendedRegex, error) {
	f := &ExtendedRegex{GroupSelect: 0, Fallback: "[invalid]"}
	pattern := `#### (\-?[0-9\.\,]+)`
	for k, v := range args {
		var err error
		switch k {
		case "regex_pattern":
			pattern, err = argString(v)
		case "group_select":
			f.GroupSelect, err = argInt(v)
		case "fallback":
			f.Fallback, err = argString(v)
		case "ignore_case":
			f.IgnoreCase, err = argBool(v)
		case "ignore_punctuation":
			f.IgnorePunctuation, err = argBool(v)
		case "regexes_to_ignore":
			if v == nil {
				continue
			}
			l, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("%s: regexes_to_ignore: want a list, got %T", name, v)
			}
			for _, e := range l {
				s, err := argString(e)
				if err != nil {
					return nil, fmt.Errorf("%s: regexes_to_ignore: %w", name, err)
				}
				re, err := pyre.Compile(s)
				if err != nil {
					return nil, fmt.Errorf("%s: regexes_to_ignore: %w", name, err)
				}
				f.Ignore = append(f.Ignore, re)
			}
		default:
			return nil, fmt.Errorf("%s: unknown argument %q", name, k)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, k, err)
		}
	}
	re, err := pyre.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("%s: regex_pattern: %w", name, err)
	}
	f.Pattern = re
	return f, nil
}

func argString(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("want text, got %T", v)
	}
	return s, nil
}

func argInt(v any) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		return int(x), nil
	}
	return 0, fmt.Errorf("want an integer, got %T", v)
}

func argBool(v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("want true or false, got %T", v)
	}
	return b, nil
}

// FilterIgnores is filter_ignores.
func (f *ExtendedRegex) FilterIgnores(s string) string {
	return filters.FilterIgnores(s, f.Ignore, f.IgnoreCase, f.IgnorePunctuation)
}

// FindMatch is find_match: the group_select-th findall element (the first
// non-empty group of a tuple), stripped, mapped through convert. "" is
// Python's falsy results (no match, an empty match); an index outside
// the matches, or a tuple of empty groups, is Python's IndexError.
func (f *ExtendedRegex) FindMatch(re *pyre.Regexp, s string, convert map[string]string) (string, error) {
	all := re.FindAllStrings(s)
	if len(all) == 0 {
		return "", nil
	}
	i := f.GroupSelect
	if i < 0 {
		i += len(all)
	}
	if i < 0 || i >= len(all) {
		return "", fmt.Errorf("group_select %d: list index out of range (%d matches of %q)", f.GroupSelect, len(all), re.String())
	}
	elem := all[i]
	m := elem[0]
	if re.NumGroups() > 1 {
		m = ""
		for _, g := range elem {
			if g != "" {
				m = g
				break
			}
		}
		if m == "" {
			return "", fmt.Errorf("list index out of range: every group of %q's match is empty", re.String())
		}
	}
	m = pyre.Strip(m)
	if c, ok := convert[m]; ok && m != "" {
		m = c
	}
	return m, nil
}

var choiceRe = pyre.MustCompile(`\([A-Z]\)([^\n^(]*)`)

// MultiChoiceRegex is bbh's MultiChoiceRegexFilter: the pattern's match;
// failing that, the text of one of the choices listed "(A) ..." in the
// document's input (both normalised by filter_ignores), mapped to its
// letter "(A)"; failing that, a letter after a colon; failing that, the
// fallback.
type MultiChoiceRegex struct{ *ExtendedRegex }

// NewMultiChoiceRegex is the filter's factory.
func NewMultiChoiceRegex(args map[string]any) (filters.Filter, error) {
	f, err := NewExtendedRegex("MultiChoiceRegexFilter", args)
	if err != nil {
		return nil, err
	}
	return MultiChoiceRegex{f}, nil
}

// Apply implements filters.Filter.
func (f MultiChoiceRegex) Apply(resps []any, docs []map[string]any) ([]any, error) {
	if len(docs) != len(resps) {
		return nil, fmt.Errorf("MultiChoiceRegexFilter: %d responses for %d documents", len(resps), len(docs))
	}
	out := make([]any, len(resps))
	for i, r := range resps {
		input, ok := docs[i]["input"].(string)
		if !ok {
			return nil, fmt.Errorf("MultiChoiceRegexFilter: document %d: input is %T, want text", i, docs[i]["input"])
		}
		var alts, letters []string
		toAlpha, letterTo := map[string]string{}, map[string]string{}
		next := 'A'
		for _, m := range choiceRe.FindAllStrings(input) {
			c := f.FilterIgnores(pyre.Strip(m[0]))
			alts = append(alts, pyre.Escape(c))
			toAlpha[c] = fmt.Sprintf("(%c)", next)
			letters = append(letters, string(next))
			letterTo[string(next)] = fmt.Sprintf("(%c)", next)
			next++
		}
		fallbackRe, err := pyre.Compile(strings.Join(alts, "|"))
		if err != nil {
			return nil, fmt.Errorf("MultiChoiceRegexFilter: document %d: choices: %w", i, err)
		}
		letterRe, err := pyre.Compile(`:[\s]*(` + strings.Join(letters, "|") + `)`)
		if err != nil {
			return nil, fmt.Errorf("MultiChoiceRegexFilter: document %d: %w", i, err)
		}
		l, ok := r.([]any)
		if !ok {
			return nil, fmt.Errorf("MultiChoiceRegexFilter: document %d: want a list of responses, got %T", i, r)
		}
		res := make([]any, len(l))
		for j, v := range l {
			s, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("MultiChoiceRegexFilter: document %d: response is %T, want text", i, v)
			}
			m, err := f.FindMatch(f.Pattern, s, nil)
			if err == nil && m == "" {
				m, err = f.FindMatch(fallbackRe, f.FilterIgnores(s), toAlpha)
				if err == nil && m == "" {
					m, err = f.FindMatch(letterRe, s, letterTo)
				}
			}
			if err != nil {
				return nil, fmt.Errorf("MultiChoiceRegexFilter: document %d: %w", i, err)
			}
			if m == "" {
				m = f.Fallback
			}
			res[j] = m
		}
		out[i] = res
	}
	return out, nil
}

// WordSort is bbh's WordSortFilter: the words of the document's list
// ("List: ...") in the order the response mentions them last, each once.
type WordSort struct{}

// NewWordSort is the filter's factory; it takes no arguments.
func NewWordSort(args map[string]any) (filters.Filter, error) {
	for k := range args {
		return nil, fmt.Errorf("WordSortFilter: unknown argument %q", k)
	}
	return WordSort{}, nil
}

// Apply implements filters.Filter.
func (WordSort) Apply(resps []any, docs []map[string]any) ([]any, error) {
	if len(docs) != len(resps) {
		return nil, fmt.Errorf("WordSortFilter: %d responses for %d documents", len(resps), len(docs))
	}
	out := make([]any, len(resps))
	for i, r := range resps {
		input := pyval.Str(docs[i]["input"])
		_, after, ok := strings.Cut(input, "List:")
		if !ok {
			return nil, fmt.Errorf("WordSortFilter: document %d: input has no \"List:\" (list index out of range)", i)
		}
		if j := strings.Index(after, "List:"); j >= 0 {
			after = after[:j] // split("List:")[1]
		}
		words := strings.Fields(pyre.Strip(after))
		alts := make([]string, len(words))
		for k, w := range words {
			alts[k] = `\b` + w + `\b`
		}
		re, err := pyre.Compile(strings.Join(alts, "|"))
		if err != nil {
			return nil, fmt.Errorf("WordSortFilter: document %d: %w", i, err)
		}
		l, ok := r.([]any)
		if !ok {
			return nil, fmt.Errorf("WordSortFilter: document %d: want a list of responses, got %T", i, r)
		}
		res := make([]any, len(l))
		for j, v := range l {
			s, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("WordSortFilter: document %d: response is %T, want text", i, v)
			}
			ms := re.FindAllStrings(s)
			// reversed(OrderedDict(zip(reversed(match), ...))): the distinct
			// words by their first place in the reversed list, reversed.
			seen := map[string]bool{}
			var order []string
			for k := len(ms) - 1; k >= 0; k-- {
				if w := ms[k][0]; !seen[w] {
					seen[w] = true
					order = append(order, w)
				}
			}
			for a, b := 0, len(order)-1; a < b; a, b = a+1, b-1 {
				order[a], order[b] = order[b], order[a]
			}
			res[j] = strings.Join(order, " ")
		}
		out[i] = res
	}
	return out, nil
}
