package jinja

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/dlclark/regexp2"
)

// regexCache holds compiled patterns; templates apply the same few patterns
// to millions of documents.
var regexCache sync.Map // pattern -> *regexp2.Regexp

var pyGroupRef = regexp.MustCompile(`\(\?P=(\w+)\)`)

func compileRegex(pattern string) (*regexp2.Regexp, error) {
	if r, ok := regexCache.Load(pattern); ok {
		return r.(*regexp2.Regexp), nil
	}
	// RE2 off: Python's re supports lookaround and backreferences, as
	// regexp2 does; Python's (?P<name>...) and (?P=name) are spelled
	// (?<name>...) and \k<name> there.
	translated := strings.ReplaceAll(pattern, "(?P<", "(?<")
	translated = pyGroupRef.ReplaceAllString(translated, `\k<$1>`)
	r, err := regexp2.Compile(translated, regexp2.Unicode)
	if err != nil {
		return nil, fmt.Errorf("regex %q: %w", pattern, err)
	}
	regexCache.Store(pattern, r)
	return r, nil
}

// pySub implements Python's re.sub(pattern, repl, s, count=count), with
// Python's replacement syntax (\1, \g<1>, \g<name>, \n escapes).
func pySub(s, pattern, repl string, count int) (string, error) {
	re, err := compileRegex(pattern)
	if err != nil {
		return "", err
	}
	var expandErr error
	out, err := re.ReplaceFunc(s, func(m regexp2.Match) string {
		r, err := expandPython(repl, &m)
		if err != nil && expandErr == nil {
			expandErr = err
		}
		return r
	}, -1, countOrAll(count))
	if err != nil {
		return "", err
	}
	return out, expandErr
}

func countOrAll(count int) int {
	if count <= 0 {
		return -1
	}
	return count
}

// expandPython expands a Python re replacement template against a match.
func expandPython(repl string, m *regexp2.Match) (string, error) {
	if !strings.Contains(repl, `\`) {
		return repl, nil
	}
	var b strings.Builder
	group := func(ref string) error {
		var g *regexp2.Group
		if n, err := strconv.Atoi(ref); err == nil {
			g = m.GroupByNumber(n)
		} else {
			g = m.GroupByName(ref)
		}
		if g == nil {
			return fmt.Errorf("invalid group reference %s", ref)
		}
		b.WriteString(g.String())
		return nil
	}
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '\\' || i+1 == len(repl) {
			b.WriteByte(c)
			continue
		}
		i++
		switch d := repl[i]; {
		case d >= '0' && d <= '9':
			j := i + 1
			if j < len(repl) && repl[j] >= '0' && repl[j] <= '9' {
				j++
			}
			if err := group(repl[i:j]); err != nil {
				return "", err
			}
			i = j - 1
		case d == 'g' && i+1 < len(repl) && repl[i+1] == '<':
			end := strings.IndexByte(repl[i:], '>')
			if end < 0 {
				return "", fmt.Errorf("missing > in group reference")
			}
			if err := group(repl[i+2 : i+end]); err != nil {
				return "", err
			}
			i += end
		case d == 'n':
			b.WriteByte('\n')
		case d == 't':
			b.WriteByte('\t')
		case d == 'r':
			b.WriteByte('\r')
		case d == '\\':
			b.WriteByte('\\')
		default:
			// Python keeps unknown ASCII-letter escapes as an error, others verbatim.
			b.WriteByte('\\')
			b.WriteByte(d)
		}
	}
	return b.String(), nil
}
