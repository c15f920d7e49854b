package language

import (
	_ "embed"
	"path"
	"regexp"
	"strings"
)

// lm-eval's lm_eval/tasks/README.md lists every task family with a link
// to its folder's README and a "Language(s)" column: "English", "Arabic
// (Some MT)", "Bengali/Bangla", "English, Chinese", "Multiple (122
// languages)". The index gives a family's language to the tasks of its
// folder that name none themselves, when the column names exactly one.

// pinnedFamilies are the family rows of lm-eval's README at the pinned
// commit (scripts/languages/gen_families.sh), for the built-in tasks,
// which come without a README.
//
//go:embed families.md
var pinnedFamilies string

// family is what one README row says.
type family struct {
	name  string // the row's family name ("ifeval_es"), often a task or group
	dir   string // the folder its README link points to, relative to the tree
	langs []Lang
	// closed is true when every item of the column is a language the
	// index knows ("English, Chinese"), false for "Multiple (31
	// languages)", "Image, Text", "Python".
	closed bool
}

// families indexes the rows of one README by folder and by name.
type families struct {
	byDir  map[string][]*family
	byName map[string]*family
}

var (
	readmeRow  = regexp.MustCompile(`^\|\s*\[([^\]]+)\]\(([^)]*)\)`)
	boldSpan   = regexp.MustCompile(`\*\*[^*]*\*\*`)
	parenSpan  = regexp.MustCompile(`\([^)]*\)`)
	itemSplits = regexp.MustCompile(`\s*(?:,|/|\band\b)\s*`)
)

// parseFamilies reads the family rows of a task tree's README.md.
func parseFamilies(readme string) *families {
	fs := &families{byDir: map[string][]*family{}, byName: map[string]*family{}}
	for _, line := range strings.Split(readme, "\n") {
		m := readmeRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		f := &family{name: strings.TrimSpace(m[1])}
		if link := m[2]; strings.HasSuffix(link, "/README.md") && !strings.Contains(link, "://") {
			f.dir = path.Clean(path.Dir(link))
		}
		f.langs, f.closed = parseLanguageColumn(cells[len(cells)-1])
		fs.byName[f.name] = f
		if f.dir != "" {
			fs.byDir[f.dir] = append(fs.byDir[f.dir], f)
		}
	}
	return fs
}

// parseLanguageColumn reads a README's language column: names separated
// by commas, slashes or "and", notes in parentheses or bold dropped
// ("Arabic (Some MT)", "Spanish **Human Translated**").
func parseLanguageColumn(s string) (langs []Lang, closed bool) {
	s = parenSpan.ReplaceAllString(boldSpan.ReplaceAllString(s, " "), " ")
	closed = true
	for _, item := range itemSplits.Split(s, -1) {
		item = strings.Trim(strings.TrimSpace(item), ".-")
		if item == "" {
			continue
		}
		in, ok := LookupName(item, false)
		if !ok {
			closed = false
			continue
		}
		l := Lang{Code: in.Canonical(), Script: aliasScript(item)}
		if l.Script == "" {
			l.Script = defaultScript(in)
		}
		langs = addLang(langs, l)
	}
	return langs, closed && len(langs) > 0
}

// of returns the family of a file: the row of the deepest folder above it
// that the README links to; nil when none does.
func (fs *families) of(rel string) []*family {
	for d := path.Dir(rel); d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if f, ok := fs.byDir[d]; ok {
			return f
		}
	}
	return nil
}

// single is the one language all rows of a folder name, if they agree.
func single(rows []*family) (Lang, bool) {
	var out []Lang
	for _, f := range rows {
		if !f.closed {
			return Lang{}, false
		}
		for _, l := range f.langs {
			out = addLang(out, l)
		}
	}
	if len(out) != 1 {
		return Lang{}, false
	}
	return out[0], true
}

// closedSet is the languages the rows of a folder list, when every row's
// list is closed; nil otherwise.
func closedSet(rows []*family) []Lang {
	var out []Lang
	for _, f := range rows {
		if !f.closed {
			return nil
		}
		for _, l := range f.langs {
			out = addLang(out, l)
		}
	}
	return out
}
