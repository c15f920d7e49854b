package filters

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/lmeval/lmeval/python/pyre"
)

func init() {
	Register("take_first", noArgs("take_first", FilterFunc(takeFirst)))
	Register("take_first_k", newTakeFirstK)
	Register("majority_vote", noArgs("majority_vote", FilterFunc(majorityVote)))
	Register("identity", noArgs("identity", FilterFunc(func(r []any, _ []map[string]any) ([]any, error) { return r, nil })))
	Register("lowercase", noArgs("lowercase", textMap(pyre.Lower)))
	Register("uppercase", noArgs("uppercase", textMap(pyre.Upper)))
	Register("remove_whitespace", noArgs("remove_whitespace", textMap(pyre.Strip)))
	Register("map", newMap)
	Register("regex", func(args map[string]any) (Filter, error) { return NewRegex(args) })
	Register("multi_choice_regex", newMultiChoiceRegex)
	Register("custom", newCustom)
}

func noArgs(name string, f Filter) Factory {
	return func(args map[string]any) (Filter, error) {
		for k := range args {
			return nil, fmt.Errorf("%s takes no arguments, got %q", name, k)
		}
		return f, nil
	}
}

func checkArgs(name string, args map[string]any, known ...string) error {
	for k := range args {
		ok := false
		for _, kn := range known {
			ok = ok || k == kn
		}
		if !ok {
			return fmt.Errorf("%s: unknown argument %q (known: %s)", name, k, strings.Join(known, ", "))
		}
	}
	return nil
}

func argString(args map[string]any, key, def string) (string, error) {
	v, ok := args[key]
	if !ok || v == nil {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("argument %s: want a string, got %T", key, v)
	}
	return s, nil
}

func argInt(args map[string]any, key string, def int, required bool) (int, error) {
	v, ok := args[key]
	if !ok || v == nil {
		if required {
			return 0, fmt.Errorf("missing argument %s", key)
		}
		return def, nil
	}
	switch n := v.(type) {
	case int:
		return n, nil
	case int64:
		return int(n), nil
	case uint64:
		return int(n), nil
	case float64:
		if n == float64(int(n)) {
			return int(n), nil
		}
	}
	return 0, fmt.Errorf("argument %s: want an integer, got %v", key, v)
}

func argBool(args map[string]any, key string) (bool, error) {
	v, ok := args[key]
	if !ok || v == nil {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("argument %s: want true or false, got %v", key, v)
	}
	return b, nil
}

func argStrings(args map[string]any, key string) ([]string, error) {
	v, ok := args[key]
	if !ok || v == nil {
		return nil, nil
	}
	switch l := v.(type) {
	case []string:
		return l, nil
	case []any:
		out := make([]string, len(l))
		for i, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("argument %s[%d]: want a string, got %T", key, i, e)
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("argument %s: want a list of strings, got %T", key, v)
}

// takeFirst keeps each document's first response (TakeFirstFilter).
func takeFirst(resps []any, _ []map[string]any) ([]any, error) {
	out := make([]any, len(resps))
	for i, v := range resps {
		l, err := list(v, i)
		if err != nil {
			return nil, err
		}
		if len(l) == 0 {
			return nil, fmt.Errorf("document %d: no responses", i)
		}
		out[i] = l[0]
	}
	return out, nil
}

func newTakeFirstK(args map[string]any) (Filter, error) {
	if err := checkArgs("take_first_k", args, "k"); err != nil {
		return nil, err
	}
	k, err := argInt(args, "k", 0, true)
	if err != nil {
		return nil, err
	}
	return FilterFunc(func(resps []any, _ []map[string]any) ([]any, error) {
		out := make([]any, len(resps))
		for i, v := range resps {
			l, err := list(v, i)
			if err != nil {
				return nil, err
			}
			// lm-eval checks the first document only; every document has
			// the same number of repeats.
			if len(l) < k {
				return nil, fmt.Errorf("need at least %d responses per document to take the first %d, document %d has %d: increase repeats", k, k, i, len(l))
			}
			out[i] = l[:k]
		}
		return out, nil
	}), nil
}

// key makes a response usable as a map key (responses are strings, numbers
// or small structs; anything else is compared through its printed form).
func key(v any) any {
	switch v.(type) {
	case string, bool, int, int64, float64, nil:
		return v
	}
	return fmt.Sprintf("%T:%#v", v, v)
}

// majorityVote keeps each document's most frequent response, the first seen
// among equally frequent ones (Counter.most_common(1)), as a one-element list.
func majorityVote(resps []any, _ []map[string]any) ([]any, error) {
	out := make([]any, len(resps))
	for i, v := range resps {
		l, err := list(v, i)
		if err != nil {
			return nil, err
		}
		if len(l) == 0 {
			return nil, fmt.Errorf("document %d: no responses to vote on", i)
		}
		counts := map[any]int{}
		best, bestN := l[0], 0
		for _, r := range l {
			k := key(r)
			counts[k]++
		}
		for _, r := range l { // first-seen order breaks ties
			if n := counts[key(r)]; n > bestN {
				best, bestN = r, n
			}
		}
		out[i] = []any{best}
	}
	return out, nil
}

func textMap(fn func(string) string) Filter {
	return FilterFunc(func(resps []any, _ []map[string]any) ([]any, error) {
		return perResponse(resps, func(r any, doc int) (any, error) {
			s, err := text(r, doc)
			if err != nil {
				return nil, err
			}
			return fn(s), nil
		})
	})
}

func newMap(args map[string]any) (Filter, error) {
	if err := checkArgs("map", args, "mapping_dict", "default_value"); err != nil {
		return nil, err
	}
	mapping := map[any]any{}
	switch m := args["mapping_dict"].(type) {
	case nil:
	case map[string]any:
		for k, v := range m {
			mapping[k] = v
		}
	case map[any]any:
		for k, v := range m {
			mapping[key(k)] = v
		}
	default:
		return nil, fmt.Errorf("map: mapping_dict must be a mapping, got %T", m)
	}
	def := args["default_value"]
	return FilterFunc(func(resps []any, _ []map[string]any) ([]any, error) {
		// MapFilter iterates each document's value: after take_first that
		// is a string, whose characters Python maps one by one (polemo2's
		// regex, take_first, map, take_first maps the matched letter).
		copied := false
		for i, r := range resps {
			if s, ok := r.(string); ok {
				chars := []any{}
				for _, c := range s {
					chars = append(chars, string(c))
				}
				if !copied {
					resps, copied = append([]any(nil), resps...), true
				}
				resps[i] = chars
			}
		}
		return perResponse(resps, func(r any, _ int) (any, error) {
			if v, ok := mapping[key(r)]; ok {
				return v, nil
			}
			return def, nil
		})
	}), nil
}

func newCustom(args map[string]any) (Filter, error) {
	if err := checkArgs("custom", args, "filter_fn"); err != nil {
		return nil, err
	}
	switch fn := args["filter_fn"].(type) {
	case string:
		regMu.RLock()
		f, ok := funcs[fn]
		regMu.RUnlock()
		if !ok {
			return nil, fmt.Errorf("custom: no filter function registered as %q", fn)
		}
		return f, nil
	case nil:
		return nil, fmt.Errorf("custom: missing argument filter_fn")
	default:
		return nil, fmt.Errorf("custom: filter_fn must name a registered function, got %T", fn)
	}
}

// Regex is lm-eval's RegexFilter: each response becomes the group_select-th
// element of findall(regex_pattern) (negative counts from the end); when
// that element is a tuple of groups, its first non-empty group; stripped.
// Responses without a match become the fallback.
type Regex struct {
	Pattern     *pyre.Regexp
	GroupSelect int
	Fallback    string
}

// NewRegex builds a Regex from regex_pattern, group_select and fallback,
// with lm-eval's defaults ("#### (\-?[0-9\.\,]+)", 0, "[invalid]").
func NewRegex(args map[string]any) (*Regex, error) {
	if err := checkArgs("regex", args, "regex_pattern", "group_select", "fallback"); err != nil {
		return nil, err
	}
	return newRegexFields(args)
}

func newRegexFields(args map[string]any) (*Regex, error) {
	pat, err := argString(args, "regex_pattern", `#### (\-?[0-9\.\,]+)`)
	if err != nil {
		return nil, err
	}
	re, err := pyre.Compile(pat)
	if err != nil {
		return nil, err
	}
	gs, err := argInt(args, "group_select", 0, false)
	if err != nil {
		return nil, err
	}
	fb, err := argString(args, "fallback", "[invalid]")
	if err != nil {
		return nil, err
	}
	return &Regex{Pattern: re, GroupSelect: gs, Fallback: fb}, nil
}

// pick selects the group_select-th findall element. ok is false when there
// was no match; an index outside the matches is an error, as in Python.
func pick(re *pyre.Regexp, groupSelect int, s string) (elem []string, ok bool, err error) {
	all := re.FindAllStrings(s)
	if len(all) == 0 {
		return nil, false, nil
	}
	i := groupSelect
	if i < 0 {
		i += len(all)
	}
	if i < 0 || i >= len(all) {
		return nil, false, fmt.Errorf("group_select %d out of range: %q has %d matches in %q", groupSelect, re.String(), len(all), s)
	}
	return all[i], true, nil
}

// firstNonEmpty is [m for m in match if m][0] on a findall tuple.
func firstNonEmpty(elem []string) (string, bool) {
	for _, g := range elem {
		if g != "" {
			return g, true
		}
	}
	return "", false
}

// Extract applies the filter to one response.
func (f *Regex) Extract(s string) (string, error) {
	elem, ok, err := pick(f.Pattern, f.GroupSelect, s)
	if err != nil || !ok {
		return f.Fallback, err
	}
	m := elem[0]
	if f.Pattern.NumGroups() > 1 {
		if m, ok = firstNonEmpty(elem); !ok {
			return f.Fallback, nil
		}
	}
	return pyre.Strip(m), nil
}

// Apply implements Filter.
func (f *Regex) Apply(resps []any, _ []map[string]any) ([]any, error) {
	return perResponse(resps, func(r any, doc int) (any, error) {
		s, err := text(r, doc)
		if err != nil {
			return nil, err
		}
		return f.Extract(s)
	})
}

// MultiChoiceRegex is lm-eval's MultiChoiceRegexFilter for letter-answer
// multiple choice: first the regex (as Regex); failing that, the text of
// one of the document's "choices" (after ignore_case, ignore_punctuation and
// regexes_to_ignore are applied to both) mapped to its letter "(A)", "(B)",
// ...; failing that, a bare letter after a colon (": B" -> "(B)"); failing
// that, the fallback.
type MultiChoiceRegex struct {
	Regex
	IgnoreCase, IgnorePunctuation bool
	Ignore                        []*pyre.Regexp
}

func newMultiChoiceRegex(args map[string]any) (Filter, error) {
	if err := checkArgs("multi_choice_regex", args, "regex_pattern", "group_select", "fallback",
		"ignore_case", "ignore_punctuation", "regexes_to_ignore"); err != nil {
		return nil, err
	}
	base, err := newRegexFields(args)
	if err != nil {
		return nil, err
	}
	f := &MultiChoiceRegex{Regex: *base}
	if f.IgnoreCase, err = argBool(args, "ignore_case"); err != nil {
		return nil, err
	}
	if f.IgnorePunctuation, err = argBool(args, "ignore_punctuation"); err != nil {
		return nil, err
	}
	pats, err := argStrings(args, "regexes_to_ignore")
	if err != nil {
		return nil, err
	}
	for _, p := range pats {
		re, err := pyre.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("regexes_to_ignore: %w", err)
		}
		f.Ignore = append(f.Ignore, re)
	}
	return f, nil
}

func (f *MultiChoiceRegex) normalize(s string) string {
	return FilterIgnores(s, f.Ignore, f.IgnoreCase, f.IgnorePunctuation)
}

// FilterIgnores is lm-eval's filter_ignores (MultiChoiceRegexFilter and
// the task helpers that copy it): remove every match of ignore, then
// lowercase and drop punctuation when asked.
func FilterIgnores(s string, ignore []*pyre.Regexp, ignoreCase, ignorePunctuation bool) string {
	for _, re := range ignore {
		s, _ = re.Sub("", s, 0)
	}
	if ignoreCase {
		s = pyre.Lower(s)
	}
	if ignorePunctuation {
		s = strings.Map(func(r rune) rune {
			if unicode.IsPunct(r) {
				return -1
			}
			return r
		}, s)
	}
	return s
}

// findMatch is the filter's find_match: "" when nothing matched.
func (f *MultiChoiceRegex) findMatch(re *pyre.Regexp, s string, convert map[string]string) (string, error) {
	elem, ok, err := pick(re, f.GroupSelect, s)
	if err != nil || !ok {
		return "", err
	}
	m := elem[0]
	if re.NumGroups() > 1 {
		if m, ok = firstNonEmpty(elem); !ok {
			return "", nil
		}
	}
	m = pyre.Strip(m)
	if c, ok := convert[m]; ok && m != "" {
		m = c
	}
	return m, nil
}

// Apply implements Filter.
func (f *MultiChoiceRegex) Apply(resps []any, docs []map[string]any) ([]any, error) {
	if len(docs) != len(resps) {
		return nil, fmt.Errorf("multi_choice_regex needs the documents: %d responses, %d documents", len(resps), len(docs))
	}
	out := make([]any, len(resps))
	for i, v := range resps {
		choices, err := docChoices(docs[i])
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		var alts, letters []string
		toAlpha := map[string]string{}
		letterTo := map[string]string{}
		for j, c := range choices {
			m := f.normalize(pyre.Strip(c))
			alts = append(alts, pyre.Escape(m))
			letter := string(rune('A' + j))
			toAlpha[m] = "(" + letter + ")"
			letters = append(letters, letter)
			letterTo[letter] = "(" + letter + ")"
		}
		choiceRe, err := pyre.Compile(strings.Join(alts, "|"))
		if err != nil {
			return nil, fmt.Errorf("document %d: choices pattern: %w", i, err)
		}
		letterRe, err := pyre.Compile(`:[\s]*(` + strings.Join(letters, "|") + `)`)
		if err != nil {
			return nil, fmt.Errorf("document %d: letters pattern: %w", i, err)
		}
		l, err := list(v, i)
		if err != nil {
			return nil, err
		}
		res := make([]any, len(l))
		for j, r := range l {
			s, _ := r.(string) // lm-eval treats a non-text response as ""
			m, err := f.findMatch(f.Pattern, s, nil)
			if err == nil && m == "" {
				m, err = f.findMatch(choiceRe, f.normalize(s), toAlpha)
				if err == nil && m == "" {
					m, err = f.findMatch(letterRe, s, letterTo)
				}
			}
			if err != nil {
				return nil, fmt.Errorf("document %d: %w", i, err)
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

func docChoices(doc map[string]any) ([]string, error) {
	switch c := doc["choices"].(type) {
	case []string:
		return c, nil
	case []any:
		out := make([]string, len(c))
		for i, e := range c {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("choices[%d] is %T, want text", i, e)
			}
			out[i] = s
		}
		return out, nil
	case nil:
		return nil, fmt.Errorf("multi_choice_regex needs a \"choices\" field in the document")
	default:
		return nil, fmt.Errorf("\"choices\" is %T, want a list", c)
	}
}
