package language

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// Lang is one language of a task: an ISO 639-3 code and, when the files
// say or the language has one usual script, an ISO 15924 script code.
type Lang struct {
	Code   string // ISO 639-3: "hin"
	Script string // ISO 15924: "Deva"; "" when unknown
}

// String is "hin" or "hin_Deva", the form belebele and FLORES name
// languages with.
func (l Lang) String() string {
	if l.Script == "" {
		return l.Code
	}
	return l.Code + "_" + l.Script
}

// Matches reports whether a task in l is in want: the same language, and
// the same script when want names one.
func (l Lang) Matches(want Lang) bool {
	return l.Code == want.Code && (want.Script == "" || l.Script == want.Script)
}

// Info describes one ISO 639-3 code.
type Info struct {
	Code   string // ISO 639-3
	Code1  string // ISO 639-1, "" when none
	Code2B string // ISO 639-2/B when it differs from Code
	// Scope is I (individual), M (macrolanguage) or S (special); Type is
	// L (living), E (extinct), A (ancient), H (historical) or C
	// (constructed), as ISO 639-3 has them.
	Scope, Type byte
	Name        string   // English name (CLDR's, else ISO's)
	Other       []string // other English names (ISO's reference name, CLDR's variants)
	// Script is the script the language is usually written in (CLDR's
	// likely subtags), "" when CLDR has none.
	Script string
	// Macro is the macrolanguage CLDR folds this code into when it is the
	// dominant member (arb -> ara, npi -> nep, cmn -> zho); "" otherwise.
	Macro string

	cldr bool // CLDR has an English name for it
}

// Major reports whether the language has an ISO 639-1 or 639-2 code or a
// CLDR English name: the languages whose English names the index accepts
// in task names (the names of the other 639-3 languages include common
// English words).
func (i *Info) Major() bool { return i.Code1 != "" || i.Code2B != "" || i.cldr }

type tables struct {
	byCode   map[string]*Info // 639-3, 639-1 and 639-2/B codes
	byName   map[string]*Info // normalised English names (major languages and aliases)
	allNames map[string]*Info // also the minor languages' names, for user input
	scripts  map[string]string
	scriptCI map[string]string // lower-case script code -> its code
}

var (
	tablesOnce sync.Once
	tab        *tables
)

// nameAliases are English names lm-eval's files use that neither ISO 639
// nor CLDR has (README language columns, task names), as code or
// code_Script: the only hand-written name table.
var nameAliases = map[string]string{
	"farsi":               "fas",
	"darija":              "ary",
	"moroccan darija":     "ary",
	"north macedonian":    "mkd",
	"kirundi":             "run",
	"simplified chinese":  "zho_Hans",
	"traditional chinese": "zho_Hant",
}

// loadTables parses the generated ISO tables once.
func loadTables() *tables {
	tablesOnce.Do(func() {
		t := &tables{byCode: map[string]*Info{}, byName: map[string]*Info{}, allNames: map[string]*Info{},
			scripts: map[string]string{}, scriptCI: map[string]string{}}
		var infos []*Info
		for _, line := range strings.Split(strings.TrimSpace(isoLanguages), "\n") {
			f := strings.Split(line, "\t")
			for len(f) < 8 {
				f = append(f, "")
			}
			in := &Info{Code: f[0], Code1: f[1], Code2B: f[2], Scope: f[3][0], Type: f[3][1],
				Script: f[4], Macro: f[5], Name: f[6]}
			if f[7] != "" {
				in.Other = strings.Split(f[7], ";")
			}
			in.cldr = strings.HasSuffix(f[3], "c")
			infos = append(infos, in)
			t.byCode[in.Code] = in
		}
		for _, in := range infos {
			if in.Code1 != "" {
				t.byCode[in.Code1] = in
			}
			if in.Code2B != "" {
				t.byCode[in.Code2B] = in
			}
		}
		// Names: a major language's name wins over a minor one's, a
		// macrolanguage's over its members', and a name two languages of
		// one rank share is dropped (ambiguous).
		rank := func(in *Info) int {
			r := 0
			if in.Major() {
				r += 4
			}
			if in.Code1 != "" {
				r += 2
			}
			if in.Scope == 'M' {
				r++
			}
			return r
		}
		type cand struct {
			in        *Info
			r         int
			ambiguous bool
		}
		cands := map[string]*cand{}
		for _, in := range infos {
			for _, n := range append([]string{in.Name}, in.Other...) {
				k := normName(n)
				if k == "" {
					continue
				}
				r := rank(in)
				switch c := cands[k]; {
				case c == nil || r > c.r:
					cands[k] = &cand{in: in, r: r}
				case r == c.r && c.in != in:
					c.ambiguous = true
				}
			}
		}
		for k, c := range cands {
			if c.ambiguous {
				continue
			}
			t.allNames[k] = c.in
			if c.in.Major() {
				t.byName[k] = c.in
			}
		}
		for n, l := range nameAliases {
			code, _, _ := strings.Cut(l, "_")
			t.byName[n] = t.byCode[code]
			t.allNames[n] = t.byCode[code]
		}
		for _, line := range strings.Split(strings.TrimSpace(isoScripts), "\n") {
			code, name, _ := strings.Cut(line, "\t")
			t.scripts[code] = name
			t.scriptCI[strings.ToLower(code)] = code
		}
		tab = t
	})
	return tab
}

// normName is the lookup form of an English language name: lower case,
// parenthesised parts dropped, words joined by single spaces ("Modern
// Greek (1453-)" -> "modern greek", "north_macedonian" -> "north
// macedonian").
func normName(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '(':
			depth++
		case r == ')':
			if depth > 0 {
				depth--
			}
		case depth > 0:
		case unicode.IsLetter(r):
			b.WriteRune(r)
		default:
			b.WriteByte(' ')
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// LookupCode returns the language of an ISO 639-1, 639-2/B or 639-3 code
// (case-insensitive).
func LookupCode(code string) (*Info, bool) {
	in, ok := loadTables().byCode[strings.ToLower(code)]
	return in, ok
}

// readmeOnly are the aliases read in README language columns only: in
// task names they are subjects (cmmlu_traditional_chinese_medicine).
var readmeOnly = map[string]bool{"simplified chinese": true, "traditional chinese": true}

// aliasScript is the script an alias name implies ("traditional
// chinese" -> Hant), "" for most.
func aliasScript(name string) string {
	_, s, _ := strings.Cut(nameAliases[normName(name)], "_")
	return s
}

// LookupName returns the language an English name stands for ("Hindi",
// "north_macedonian"); minor reports whether minor languages' names are
// searched too (user input) or only the major languages' (task names).
func LookupName(name string, minor bool) (*Info, bool) {
	t := loadTables()
	k := normName(name)
	if minor {
		in, ok := t.allNames[k]
		return in, ok
	}
	in, ok := t.byName[k]
	return in, ok
}

// Canonical is the code the index records for a code: CLDR's
// macrolanguage for a dominant member (arb -> ara), the code itself
// otherwise.
func (i *Info) Canonical() string {
	if i.Macro != "" {
		return i.Macro
	}
	return i.Code
}

// ScriptCode returns the ISO 15924 code s spells in any case ("deva" ->
// "Deva"); ok is false for codes that are not scripts and for the
// special codes (Z*, private use Q*).
func ScriptCode(s string) (string, bool) {
	if len(s) != 4 {
		return "", false
	}
	c, ok := loadTables().scriptCI[strings.ToLower(s)]
	if !ok || c[0] == 'Z' || c[0] == 'Q' {
		return "", false
	}
	return c, true
}

// ScriptName is the English name of an ISO 15924 code, or the code.
func ScriptName(code string) string {
	if n, ok := loadTables().scripts[code]; ok {
		return n
	}
	return code
}

// Name is the English name of an ISO 639-3 code, or the code.
func Name(code string) string {
	if in, ok := LookupCode(code); ok {
		return in.Name
	}
	return code
}

// Parse reads a language as a user gives it: an ISO 639-1, 639-2 or
// 639-3 code ("hi", "hin"), an English name ("hindi", "Modern Greek"),
// either followed by a script ("hin_Deva", "hi-Latn", "hindi_Latn").
func Parse(s string) (Lang, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Lang{}, fmt.Errorf("empty language")
	}
	base, script := s, ""
	if i := strings.LastIndexAny(s, "_-"); i > 0 {
		if c, ok := ScriptCode(s[i+1:]); ok {
			base, script = s[:i], c
		}
	}
	if in, ok := LookupCode(base); ok && len(base) <= 3 {
		return Lang{Code: in.Canonical(), Script: script}, nil
	}
	if in, ok := LookupName(base, true); ok {
		if script == "" {
			script = aliasScript(base)
		}
		return Lang{Code: in.Canonical(), Script: script}, nil
	}
	return Lang{}, fmt.Errorf("unknown language %q: give an ISO 639 code (hi, hin), an English name (hindi), optionally with a script (hin_Deva)%s", s, suggestName(base))
}

// suggestName lists English names close to a misspelt one.
func suggestName(s string) string {
	k := normName(s)
	if len(k) < 3 {
		return ""
	}
	var out []string
	for n, in := range loadTables().byName {
		if strings.HasPrefix(n, k[:3]) {
			out = append(out, fmt.Sprintf("%s (%s)", n, in.Canonical()))
		}
	}
	if len(out) == 0 {
		return ""
	}
	sort.Strings(out)
	if len(out) > 6 {
		out = out[:6]
	}
	return "; did you mean " + strings.Join(out, ", ") + "?"
}
