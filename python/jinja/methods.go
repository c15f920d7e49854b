package jinja

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// Python's str, list, tuple and dict methods, as templates call them
// (`question.strip()`, `choices.label.index(answerKey)`). Indices count
// characters, as in Python, not bytes.

func argErr(name string, min, max int, args []any) error {
	if len(args) < min || len(args) > max {
		if min == max {
			return fmt.Errorf("%s() takes exactly %d argument(s) (%d given)", name, min, len(args))
		}
		return fmt.Errorf("%s() takes from %d to %d arguments (%d given)", name, min, max, len(args))
	}
	for _, a := range args {
		if u, ok := a.(*undefined); ok {
			return u.err()
		}
	}
	return nil
}

func strArg(name string, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s() argument must be str, not %s", name, typeName(v))
	}
	return s, nil
}

// optStr returns the optional chars argument of strip & co.: nil for None.
func optChars(name string, args []any) (*string, error) {
	if len(args) == 0 || args[0] == nil {
		return nil, nil
	}
	s, err := strArg(name, args[0])
	if err != nil {
		return nil, err
	}
	return &s, nil
}

func pyStrip(s string, chars *string, left, right bool) string {
	var f func(rune) bool
	if chars == nil {
		f = pyre.IsSpace
	} else {
		set := *chars
		f = func(r rune) bool { return strings.ContainsRune(set, r) }
	}
	if left {
		s = strings.TrimLeftFunc(s, f)
	}
	if right {
		s = strings.TrimRightFunc(s, f)
	}
	return s
}

// pySplitWhitespace is str.split() without a separator.
func pySplitWhitespace(s string, maxsplit int) []any {
	out := []any{}
	i := 0
	rs := []rune(s)
	for i < len(rs) {
		for i < len(rs) && pyre.IsSpace(rs[i]) {
			i++
		}
		if i == len(rs) {
			break
		}
		if maxsplit >= 0 && len(out) == maxsplit {
			return append(out, string(rs[i:]))
		}
		j := i
		for j < len(rs) && !pyre.IsSpace(rs[j]) {
			j++
		}
		out = append(out, string(rs[i:j]))
		i = j
	}
	return out
}

func pyRSplitWhitespace(s string, maxsplit int) []any {
	var rev []any
	rs := []rune(s)
	i := len(rs)
	for i > 0 {
		for i > 0 && pyre.IsSpace(rs[i-1]) {
			i--
		}
		if i == 0 {
			break
		}
		if maxsplit >= 0 && len(rev) == maxsplit {
			rev = append(rev, string(rs[:i]))
			break
		}
		j := i
		for j > 0 && !pyre.IsSpace(rs[j-1]) {
			j--
		}
		rev = append(rev, string(rs[j:i]))
		i = j
	}
	out := make([]any, len(rev))
	for k := range rev {
		out[k] = rev[len(rev)-1-k]
	}
	return out
}

func toAnyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func intArg(name string, v any) (int64, error) {
	i, ok := asInt(v)
	if !ok {
		return 0, fmt.Errorf("%s(): '%s' object cannot be interpreted as an integer", name, typeName(v))
	}
	return i, nil
}

// runeRange resolves Python's optional [start[, end]] arguments of find,
// count, startswith and friends, in characters, to byte offsets of s.
func runeRange(name string, s string, args []any) (string, int, error) {
	n := int64(utf8.RuneCountInString(s))
	start, end := int64(0), n
	var hasStart, hasEnd bool
	if len(args) > 0 && args[0] != nil {
		v, err := intArg(name, args[0])
		if err != nil {
			return "", 0, err
		}
		start, hasStart = v, true
	}
	if len(args) > 1 && args[1] != nil {
		v, err := intArg(name, args[1])
		if err != nil {
			return "", 0, err
		}
		end, hasEnd = v, true
	}
	lo, hi := sliceIndices(n, start, end, 1, hasStart, hasEnd)
	if hi < lo {
		return "", -1, nil
	}
	rs := []rune(s)
	return string(rs[lo:hi]), int(lo), nil
}

// strMethodFunc implements a str method on the receiver s; name is the
// method's (the messages name it, and methods of one family share an
// implementation).
type strMethodFunc func(r *renderer, s, name string, args []any, kwargs map[string]any) (any, error)

// strMethods are the str methods templates may call, by name; set by init
// (str.format reaches getattr, which looks methods up here).
var strMethods map[string]strMethodFunc

func init() {
	strMethods = map[string]strMethodFunc{
		"capitalize":   strCapitalizeMethod,
		"casefold":     strCasefoldMethod,
		"center":       strJustifyMethod,
		"count":        strSearchMethod,
		"endswith":     strStartsEndsMethod,
		"find":         strSearchMethod,
		"format":       strFormatMethod,
		"index":        strSearchMethod,
		"isalnum":      strIsMethod,
		"isalpha":      strIsMethod,
		"isascii":      strIsMethod,
		"isdecimal":    strIsMethod,
		"isdigit":      strIsMethod,
		"islower":      strIsMethod,
		"isnumeric":    strIsMethod,
		"isspace":      strIsMethod,
		"istitle":      strIsMethod,
		"isupper":      strIsMethod,
		"join":         strJoinMethod,
		"ljust":        strJustifyMethod,
		"lower":        strLowerMethod,
		"lstrip":       strStripMethod,
		"partition":    strPartitionMethod,
		"removeprefix": strRemoveAffixMethod,
		"removesuffix": strRemoveAffixMethod,
		"replace":      strReplaceMethod,
		"rfind":        strSearchMethod,
		"rindex":       strSearchMethod,
		"rjust":        strJustifyMethod,
		"rpartition":   strPartitionMethod,
		"rsplit":       strSplitMethod,
		"rstrip":       strStripMethod,
		"split":        strSplitMethod,
		"splitlines":   strSplitlinesMethod,
		"startswith":   strStartsEndsMethod,
		"strip":        strStripMethod,
		"swapcase":     strSwapcaseMethod,
		"title":        strTitleMethod,
		"upper":        strUpperMethod,
		"zfill":        strZfillMethod,
	}
}

// strMethod is s.name bound, as Python's getattr gives it.
func strMethod(r *renderer, s string, name string) (callable, bool) {
	m, ok := strMethods[name]
	if !ok {
		return nil, false
	}
	return func(args []any, kwargs map[string]any) (any, error) {
		return m(r, s, name, args, kwargs)
	}, true
}

// strStripMethod is str.strip, lstrip and rstrip.
func strStripMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := argErr(name, 0, 1, args); err != nil {
		return nil, err
	}
	chars, err := optChars(name, args)
	if err != nil {
		return nil, err
	}
	return pyStrip(s, chars, name != "rstrip", name != "lstrip"), nil
}

// strSplitMethod is str.split and rsplit.
func strSplitMethod(r *renderer, s, name string, args []any, kwargs map[string]any) (any, error) {
	args = withKwargs(args, kwargs, "sep", "maxsplit")
	if err := argErr(name, 0, 2, args); err != nil {
		return nil, err
	}
	maxsplit := int64(-1)
	if len(args) > 1 {
		var err error
		if maxsplit, err = intArg(name, args[1]); err != nil {
			return nil, err
		}
	}
	if len(args) == 0 || args[0] == nil {
		if name == "rsplit" {
			return pyRSplitWhitespace(s, int(maxsplit)), nil
		}
		return pySplitWhitespace(s, int(maxsplit)), nil
	}
	sep, err := strArg(name, args[0])
	if err != nil {
		return nil, err
	}
	if sep == "" {
		return nil, errors.New("empty separator")
	}
	n := int(maxsplit)
	if n >= 0 {
		n++
	}
	if name == "rsplit" && n > 0 {
		parts := strings.Split(s, sep)
		if len(parts) > n {
			head := strings.Join(parts[:len(parts)-n+1], sep)
			parts = append([]string{head}, parts[len(parts)-n+1:]...)
		}
		return toAnyList(parts), nil
	}
	return toAnyList(strings.SplitN(s, sep, n)), nil
}

// strSplitlinesMethod is str.splitlines.
func strSplitlinesMethod(r *renderer, s, name string, args []any, kwargs map[string]any) (any, error) {
	args = withKwargs(args, kwargs, "keepends")
	if err := argErr(name, 0, 1, args); err != nil {
		return nil, err
	}
	keep := false
	if len(args) == 1 {
		keep, _ = truth(args[0])
	}
	return splitLines(s, keep), nil
}

// strReplaceMethod is str.replace.
func strReplaceMethod(r *renderer, s, name string, args []any, kwargs map[string]any) (any, error) {
	args = withKwargs(args, kwargs, "old", "new", "count")
	if err := argErr(name, 2, 3, args); err != nil {
		return nil, err
	}
	old, err := strArg(name, args[0])
	if err != nil {
		return nil, err
	}
	repl, err := strArg(name, args[1])
	if err != nil {
		return nil, err
	}
	n := int64(-1)
	if len(args) == 3 {
		if n, err = intArg(name, args[2]); err != nil {
			return nil, err
		}
	}
	return strings.Replace(s, old, repl, int(n)), nil
}

// strUpperMethod is str.upper.
func strUpperMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := noArgsErr(name, args); err != nil {
		return nil, err
	}
	return pyUpper(s), nil
}

// strLowerMethod is str.lower.
func strLowerMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := noArgsErr(name, args); err != nil {
		return nil, err
	}
	return pyLower(s), nil
}

// strCasefoldMethod is str.casefold.
func strCasefoldMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := noArgsErr(name, args); err != nil {
		return nil, err
	}
	return pyCasefold(s), nil
}

// strTitleMethod is str.title.
func strTitleMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := noArgsErr(name, args); err != nil {
		return nil, err
	}
	return pyTitle(s), nil
}

// strCapitalizeMethod is str.capitalize.
func strCapitalizeMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := noArgsErr(name, args); err != nil {
		return nil, err
	}
	return pyCapitalize(s), nil
}

// strSwapcaseMethod is str.swapcase.
func strSwapcaseMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := noArgsErr(name, args); err != nil {
		return nil, err
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s), nil
}

// strStartsEndsMethod is str.startswith and endswith.
func strStartsEndsMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := argErr(name, 1, 3, args); err != nil {
		return nil, err
	}
	sub, _, err := runeRange(name, s, args[1:])
	if err != nil {
		return nil, err
	}
	var cands []any
	switch x := args[0].(type) {
	case string:
		cands = []any{x}
	case tuple:
		cands = x
	default:
		return nil, fmt.Errorf("%s first arg must be str or a tuple of str, not %s", name, typeName(args[0]))
	}
	for _, c := range cands {
		p, ok := c.(string)
		if !ok {
			return nil, fmt.Errorf("tuple for %s must only contain str, not %s", name, typeName(c))
		}
		if (name == "startswith" && strings.HasPrefix(sub, p)) || (name == "endswith" && strings.HasSuffix(sub, p)) {
			return true, nil
		}
	}
	return false, nil
}

// strSearchMethod is str.find, rfind, index, rindex and count.
func strSearchMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := argErr(name, 1, 3, args); err != nil {
		return nil, err
	}
	sub, err := strArg(name, args[0])
	if err != nil {
		return nil, err
	}
	hay, offset, err := runeRange(name, s, args[1:])
	if err != nil {
		return nil, err
	}
	if name == "count" {
		if offset < 0 {
			return int64(0), nil
		}
		if sub == "" {
			return int64(utf8.RuneCountInString(hay) + 1), nil
		}
		return int64(strings.Count(hay, sub)), nil
	}
	i := -1
	if offset >= 0 {
		if name == "find" || name == "index" {
			i = strings.Index(hay, sub)
		} else {
			i = strings.LastIndex(hay, sub)
		}
	}
	if i < 0 {
		if name == "index" || name == "rindex" {
			return nil, errors.New("substring not found")
		}
		return int64(-1), nil
	}
	return int64(offset + utf8.RuneCountInString(hay[:i])), nil
}

// strJoinMethod is str.join.
func strJoinMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := argErr(name, 1, 1, args); err != nil {
		return nil, err
	}
	items, err := iterate(r, args[0])
	if err != nil {
		return nil, err
	}
	parts := make([]string, len(items))
	for i, it := range items {
		p, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("sequence item %d: expected str instance, %s found", i, typeName(it))
		}
		parts[i] = p
	}
	return strings.Join(parts, s), nil
}

// strFormatMethod is str.format.
func strFormatMethod(_ *renderer, s, _ string, args []any, kwargs map[string]any) (any, error) {
	return strFormat(s, args, kwargs)
}

// strZfillMethod is str.zfill.
func strZfillMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := argErr(name, 1, 1, args); err != nil {
		return nil, err
	}
	w, err := intArg(name, args[0])
	if err != nil {
		return nil, err
	}
	n := utf8.RuneCountInString(s)
	if int(w) <= n {
		return s, nil
	}
	pad := strings.Repeat("0", int(w)-n)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[:1] + pad + s[1:], nil
	}
	return pad + s, nil
}

// strJustifyMethod is str.center, ljust and rjust.
func strJustifyMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := argErr(name, 1, 2, args); err != nil {
		return nil, err
	}
	w, err := intArg(name, args[0])
	if err != nil {
		return nil, err
	}
	fill := " "
	if len(args) == 2 {
		if fill, err = strArg(name, args[1]); err != nil {
			return nil, err
		}
	}
	return pad(s, int(w), fill, map[string]byte{"center": '^', "ljust": '<', "rjust": '>'}[name]), nil
}

// strPartitionMethod is str.partition and rpartition.
func strPartitionMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := argErr(name, 1, 1, args); err != nil {
		return nil, err
	}
	sep, err := strArg(name, args[0])
	if err != nil {
		return nil, err
	}
	var i int
	if name == "partition" {
		i = strings.Index(s, sep)
		if i < 0 {
			return tuple{s, "", ""}, nil
		}
	} else {
		i = strings.LastIndex(s, sep)
		if i < 0 {
			return tuple{"", "", s}, nil
		}
	}
	return tuple{s[:i], sep, s[i+len(sep):]}, nil
}

// strRemoveAffixMethod is str.removeprefix and removesuffix.
func strRemoveAffixMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := argErr(name, 1, 1, args); err != nil {
		return nil, err
	}
	a, err := strArg(name, args[0])
	if err != nil {
		return nil, err
	}
	if name == "removeprefix" {
		return strings.TrimPrefix(s, a), nil
	}
	return strings.TrimSuffix(s, a), nil
}

// strIsMethod is str.isdigit, isalpha & co. (strIs).
func strIsMethod(r *renderer, s, name string, args []any, _ map[string]any) (any, error) {
	if err := noArgsErr(name, args); err != nil {
		return nil, err
	}
	return strIs(name, s), nil
}

func withKwargs(args []any, kwargs map[string]any, names ...string) []any {
	if len(kwargs) == 0 {
		return args
	}
	out := append([]any(nil), args...)
	for i, n := range names {
		if v, ok := kwargs[n]; ok {
			for len(out) < i {
				out = append(out, nil)
			}
			if len(out) == i {
				out = append(out, v)
			} else {
				out[i] = v
			}
		}
	}
	return out
}

func noArgs(name string, f func() any) func([]any, map[string]any) (any, error) {
	return func(args []any, _ map[string]any) (any, error) {
		if err := noArgsErr(name, args); err != nil {
			return nil, err
		}
		return f(), nil
	}
}

// noArgsErr is the error of a method that takes no arguments given args.
func noArgsErr(name string, args []any) error {
	if len(args) > 0 {
		return fmt.Errorf("%s() takes no arguments (%d given)", name, len(args))
	}
	return nil
}

// pyUpper and pyLower are Python's str.upper and str.lower: Unicode's full
// case mappings (ß -> SS, ligatures) and the final-sigma rule, which
// x/text/cases implements for the root locale. A Caser is not safe for
// concurrent use, so each call makes its own; ASCII takes the fast path.
func pyUpper(s string) string {
	if isASCII(s) {
		return strings.ToUpper(s)
	}
	return cases.Upper(language.Und).String(s)
}

func pyLower(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	return cases.Lower(language.Und).String(s)
}

// pyCasefold is Python's str.casefold.
func pyCasefold(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	return cases.Fold().String(s)
}

// pyTitle is Python's str.title: in each run of cased characters the first
// is title-cased (full mapping: ﬁ -> Fi) and the others lowercased.
func pyTitle(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isCased(r) {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		j := i + n
		for j < len(s) {
			r2, n2 := utf8.DecodeRuneInString(s[j:])
			if !isCased(r2) {
				break
			}
			j += n2
		}
		b.WriteString(titleRune(r))
		b.WriteString(lowerTail(s[i:j], n))
		i = j
	}
	return b.String()
}

// pyCapitalize is Python's str.capitalize.
func pyCapitalize(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return titleRune(r) + lowerTail(s, n)
}

// isCased is Unicode's Cased property, which Python's title() uses.
func isCased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.In(r, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

func titleRune(r rune) string {
	if r < utf8.RuneSelf {
		return string(unicode.ToUpper(r))
	}
	return cases.Title(language.Und, cases.NoLower).String(string(r))
}

// lowerTail lowercases word[n:] in the context of the whole word, so that a
// final sigma is recognized as Python recognizes it.
func lowerTail(word string, n int) string {
	if isASCII(word) {
		return strings.ToLower(word[n:])
	}
	low, head := pyLower(word), pyLower(word[:n])
	if strings.HasPrefix(low, head) {
		return low[len(head):]
	}
	return pyLower(word[n:])
}

func strIs(name, s string) bool {
	if s == "" {
		return name == "isascii"
	}
	switch name {
	case "isupper", "islower":
		// Python: no character of the other case nor title case, and at
		// least one of this case (Unicode's Uppercase/Lowercase properties).
		cased := false
		for _, r := range s {
			upper := unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
			lower := unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
			switch {
			case unicode.IsTitle(r), name == "isupper" && lower, name == "islower" && upper:
				return false
			case upper || lower:
				cased = true
			}
		}
		return cased
	case "istitle":
		// Python: upper- and title-case characters only after uncased
		// ones, lowercase ones only after cased ones, and one cased at least.
		cased, prevCased := false, false
		for _, r := range s {
			upper := unicode.IsUpper(r) || unicode.IsTitle(r) || unicode.Is(unicode.Other_Uppercase, r)
			lower := unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
			switch {
			case upper:
				if prevCased {
					return false
				}
				prevCased, cased = true, true
			case lower:
				if !prevCased {
					return false
				}
				prevCased, cased = true, true
			default:
				prevCased = false
			}
		}
		return cased
	}
	for _, r := range s {
		var ok bool
		switch name {
		case "isdigit":
			ok = unicode.IsDigit(r) || unicode.Is(pyDigitNotDecimal, r)
		case "isdecimal":
			ok = unicode.IsDigit(r)
		case "isnumeric":
			ok = unicode.In(r, unicode.Nd, unicode.Nl, unicode.No, pyNumericLetter)
		case "isalpha":
			ok = unicode.IsLetter(r)
		case "isalnum":
			ok = unicode.IsLetter(r) || unicode.In(r, unicode.Nd, unicode.Nl, unicode.No)
		case "isspace":
			ok = pyre.IsSpace(r)
		case "isascii":
			ok = r < 0x80
		}
		if !ok {
			return false
		}
	}
	return true
}

func splitLines(s string, keep bool) []any {
	out := []any{}
	rs := []rune(s)
	start := 0
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch r {
		case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		default:
			continue
		}
		end := i + 1
		if r == '\r' && i+1 < len(rs) && rs[i+1] == '\n' {
			end = i + 2
		}
		if keep {
			out = append(out, string(rs[start:end]))
		} else {
			out = append(out, string(rs[start:i]))
		}
		i = end - 1
		start = end
	}
	if start < len(rs) {
		out = append(out, string(rs[start:]))
	}
	return out
}

func pad(s string, width int, fill string, align byte) string {
	n := utf8.RuneCountInString(s)
	if width <= n {
		return s
	}
	total := width - n
	left := 0
	switch align {
	case '>':
		left = total
	case '^':
		// CPython's str.center: the odd space goes left only when the
		// width is odd.
		left = total/2 + (total & width & 1)
	}
	return strings.Repeat(fill, left) + s + strings.Repeat(fill, total-left)
}

func listMethod(l []any, name string) (callable, bool) {
	switch name {
	case "index":
		return func(args []any, _ map[string]any) (any, error) {
			if err := argErr(name, 1, 3, args); err != nil {
				return nil, err
			}
			start, stop := int64(0), int64(len(l))
			var hasStart, hasStop bool
			if len(args) > 1 {
				v, err := intArg(name, args[1])
				if err != nil {
					return nil, err
				}
				start, hasStart = v, true
			}
			if len(args) > 2 {
				v, err := intArg(name, args[2])
				if err != nil {
					return nil, err
				}
				stop, hasStop = v, true
			}
			lo, hi := sliceIndices(int64(len(l)), start, stop, 1, hasStart, hasStop)
			for i := lo; i < hi; i++ {
				if pyval.Equal(l[i], args[0]) {
					return i, nil
				}
			}
			r, _ := repr(args[0])
			return nil, fmt.Errorf("%s is not in list", r)
		}, true
	case "count":
		return func(args []any, _ map[string]any) (any, error) {
			if err := argErr(name, 1, 1, args); err != nil {
				return nil, err
			}
			n := int64(0)
			for _, e := range l {
				if pyval.Equal(e, args[0]) {
					n++
				}
			}
			return n, nil
		}, true
	case "copy":
		return noArgs(name, func() any { return append([]any{}, l...) }), true
	}
	return nil, false
}

func tupleMethod(t tuple, name string) (callable, bool) {
	switch name {
	case "index", "count":
		m, _ := listMethod([]any(t), name)
		return func(args []any, kw map[string]any) (any, error) {
			v, err := m(args, kw)
			if err != nil && name == "index" {
				return nil, errors.New("tuple.index(x): x not in tuple")
			}
			return v, err
		}, true
	}
	return nil, false
}

func dictMethod(r *renderer, d map[string]any, name string) (callable, bool) {
	switch name {
	case "items":
		return noArgs(name, func() any {
			keys := r.keys(d)
			out := make([]any, len(keys))
			for i, k := range keys {
				out[i] = tuple{k, d[k]}
			}
			return out
		}), true
	case "keys":
		return noArgs(name, func() any { return toAnyList(r.keys(d)) }), true
	case "values":
		return noArgs(name, func() any {
			keys := r.keys(d)
			out := make([]any, len(keys))
			for i, k := range keys {
				out[i] = d[k]
			}
			return out
		}), true
	case "get":
		return dictGet(func(key any) (any, bool) {
			k, ok := key.(string)
			if !ok {
				return nil, false
			}
			v, ok := d[k]
			return v, ok
		}), true
	case "copy":
		return noArgs(name, func() any {
			m := make(map[string]any, len(d))
			for k, v := range d {
				m[k] = v
			}
			return m
		}), true
	}
	return nil, false
}

// dictGet is dict.get(key, default=None) over a dict's lookup.
func dictGet(lookup func(key any) (any, bool)) callable {
	return func(args []any, _ map[string]any) (any, error) {
		if len(args) < 1 || len(args) > 2 {
			return nil, fmt.Errorf("get expected 1 or 2 arguments, got %d", len(args))
		}
		if v, ok := lookup(args[0]); ok {
			return v, nil
		}
		if len(args) == 2 {
			return args[1], nil
		}
		return nil, nil
	}
}

// sortValues sorts items the way Python's sorted() does, or fails like it
// on mixed types.
func sortValues(items []any, key func(any) any, reverse bool) error {
	var err error
	sort.SliceStable(items, func(i, j int) bool {
		a, b := key(items[i]), key(items[j])
		if reverse {
			a, b = b, a
		}
		c, e := compare(a, b)
		if e != nil && err == nil {
			err = e
		}
		return c < 0
	})
	return err
}
