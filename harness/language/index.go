package language

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
)

// Evidence says where a name's languages were read from, strongest first.
type Evidence int

const (
	FromName    Evidence = iota + 1 // the name spells a language: hin_Deva, eng_Latn-fra_Latn, ro-en, hindi
	FromDataset                     // dataset_name is a language: hi, PT_BR, hin_Deva
	FromPath                        // a folder names it: global_mmlu/full/hi, include/.../Kazakh
	FromVariant                     // the token that varies among sibling files: xnli_{ar,bg,...}
	FromToken                       // a code in the name that the family's README lists: bertaqa_en_mt_madlad
	FromFamily                      // the README's language column names one language for the folder
	FromTable                       // the committed table (files say nothing)
	FromMembers                     // a tag or group: the language all its members share
)

func (e Evidence) String() string {
	switch e {
	case FromName:
		return "name"
	case FromDataset:
		return "dataset_name"
	case FromPath:
		return "folder"
	case FromVariant:
		return "variants"
	case FromToken:
		return "name+README"
	case FromFamily:
		return "README"
	case FromTable:
		return "table"
	case FromMembers:
		return "members"
	}
	return "none"
}

// Index maps the registry's tasks, groups and tags to their languages.
// It is built from what the registry indexed (names, files, dataset_name,
// tags) and the task trees' README.md, reading no task file.
type Index struct {
	langs map[string][]Lang
	from  map[string]Evidence
	kinds map[string]task.Kind
	files map[string]string // task or group -> family folder, for listings
}

// Of returns the languages of a task, group or tag (nil when the index
// has none).
func (ix *Index) Of(name string) []Lang { return ix.langs[name] }

// From says where name's languages were read from.
func (ix *Index) From(name string) Evidence { return ix.from[name] }

// In reports whether name is in language want (any of its languages).
func (ix *Index) In(name string, want Lang) bool {
	for _, l := range ix.langs[name] {
		if l.Matches(want) {
			return true
		}
	}
	return false
}

// Names lists the registered names in language want, sorted.
func (ix *Index) Names(want Lang) []string {
	var out []string
	for n := range ix.langs {
		if ix.In(n, want) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Count is one language's line of the index's summary.
type Count struct {
	Lang     Lang // Script "" (all scripts)
	Scripts  []string
	Tasks    int
	Groups   int
	Tags     int
	Families []string // the folders (first path element) its tasks are in
}

// Counts summarises the index per language (scripts together), sorted by
// code.
func (ix *Index) Counts() []Count {
	by := map[string]*Count{}
	fams := map[string]map[string]bool{}
	for n, ls := range ix.langs {
		seen := map[string]bool{}
		for _, l := range ls {
			c := by[l.Code]
			if c == nil {
				c = &Count{Lang: Lang{Code: l.Code}}
				by[l.Code] = c
				fams[l.Code] = map[string]bool{}
			}
			if l.Script != "" && !contains(c.Scripts, l.Script) {
				c.Scripts = append(c.Scripts, l.Script)
			}
			if seen[l.Code] {
				continue
			}
			seen[l.Code] = true
			switch ix.kinds[n] {
			case task.KindTask, task.KindPythonTask:
				c.Tasks++
				if f := ix.files[n]; f != "" {
					fams[l.Code][f] = true
				}
			case task.KindGroup:
				c.Groups++
			case task.KindTag:
				c.Tags++
			}
		}
	}
	out := make([]Count, 0, len(by))
	for code, c := range by {
		sort.Strings(c.Scripts)
		for f := range fams[code] {
			c.Families = append(c.Families, f)
		}
		sort.Strings(c.Families)
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Lang.Code < out[j].Lang.Code })
	return out
}

// NewIndex indexes the languages of every task, group and tag of r.
func NewIndex(r *task.Registry) *Index {
	ix := &Index{langs: map[string][]Lang{}, from: map[string]Evidence{}, kinds: map[string]task.Kind{}, files: map[string]string{}}
	entries := r.Entries(task.KindTask, task.KindPythonTask, task.KindGroup)
	b := newBuilder()
	for _, e := range entries {
		root, rel := e.Place()
		b.add(e.Name, e.Dataset, root, rel)
	}
	b.siblings()
	for i, e := range entries {
		ls, ev := b.derive(i, e.Kind == task.KindGroup)
		ix.kinds[e.Name] = e.Kind
		if _, rel := e.Place(); rel != "" {
			ix.files[e.Name], _, _ = strings.Cut(rel, "/")
		}
		if len(ls) > 0 {
			ix.langs[e.Name], ix.from[e.Name] = ls, ev
		}
	}
	// A tag is in the languages all its tasks share.
	for _, e := range r.Entries(task.KindTag) {
		ix.kinds[e.Name] = task.KindTag
		if ls := shared(ix, e.Tags); len(ls) > 0 {
			ix.langs[e.Name], ix.from[e.Name] = ls, FromMembers
		}
	}
	return ix
}

// AddGroups gives the groups the index has no language for the languages
// all their members share (recursively), from members: each group's
// direct members (tasks and groups), as the ls listing computes them.
func (ix *Index) AddGroups(members map[string][]string) {
	done := map[string]bool{}
	var visit func(g string, stack int) []Lang
	visit = func(g string, depth int) []Lang {
		if ls, ok := ix.langs[g]; ok || done[g] || depth > 32 {
			return ls
		}
		done[g] = true
		ms := members[g]
		for _, m := range ms {
			if ix.kinds[m] == task.KindGroup {
				visit(m, depth+1)
			}
		}
		if ls := shared(ix, ms); len(ls) > 0 {
			ix.langs[g], ix.from[g] = ls, FromMembers
		}
		return ix.langs[g]
	}
	for g, k := range ix.kinds {
		if k == task.KindGroup {
			visit(g, 0)
		}
	}
}

// shared are the languages every one of names has (by code; a script
// only when all agree).
func shared(ix *Index, names []string) []Lang {
	if len(names) == 0 {
		return nil
	}
	var out []Lang
	for i, n := range names {
		ls := ix.langs[n]
		if len(ls) == 0 {
			return nil
		}
		if i == 0 {
			out = append([]Lang(nil), ls...)
			continue
		}
		var keep []Lang
		for _, a := range out {
			for _, l := range ls {
				if l.Code == a.Code {
					if l.Script != a.Script {
						a.Script = ""
					}
					keep = addLang(keep, a)
					break
				}
			}
		}
		out = keep
	}
	return out
}

// OfTask returns the languages of a loaded task: the index's when it is
// registered, else (a task defined inline in a group file) those its name,
// dataset_name and file say.
func (ix *Index) OfTask(name, dataset, file string) []Lang {
	if ls, ok := ix.langs[name]; ok {
		return ls
	}
	if _, ok := ix.kinds[name]; ok {
		return nil
	}
	b := newBuilder()
	b.add(name, dataset, "", "")
	ls, _ := b.derive(0, false)
	return ls
}

// builder derives languages from the entries' names, dataset names and
// places, with their siblings and the trees' READMEs.
type builder struct {
	items   []item
	readmes map[string]*families // by tree root
	// variants: index of item -> languages its varying tokens give.
	variant map[int][]Lang
	dirLang map[string][]Lang // root \x00 folder -> languages its name gives among its siblings
}

type item struct {
	name, dataset, root, rel string
	tokens                   []string
}

func newBuilder() *builder {
	return &builder{readmes: map[string]*families{}, variant: map[int][]Lang{}, dirLang: map[string][]Lang{}}
}

func (b *builder) add(name, dataset, root, rel string) {
	b.items = append(b.items, item{name: name, dataset: dataset, root: root, rel: rel, tokens: tokens(name)})
}

// readme returns the README families of a tree root: the root's
// README.md, lm-eval's pinned one for the built-in tree.
func (b *builder) readme(root string) *families {
	if fs, ok := b.readmes[root]; ok {
		return fs
	}
	var fs *families
	if root == "" {
		fs = parseFamilies(pinnedFamilies)
	} else if data, err := os.ReadFile(filepath.Join(root, "README.md")); err == nil {
		fs = parseFamilies(string(data))
	} else {
		fs = parseFamilies("")
	}
	b.readmes[root] = fs
	return fs
}

// tokens splits a name at _, -, ., / and spaces.
func tokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == '_' || r == '-' || r == '.' || r == '/' || r == ' '
	})
}

// siblings finds, among the names of each folder and among the folders
// of each parent, the token that varies over language codes: xnli_ar,
// xnli_bg, ...; global_mmlu/full/{am,ar,...}; multiblimp_{aqz,apu,...}.
func (b *builder) siblings() {
	type slot struct {
		item int
		val  string
	}
	shapes := map[string][]slot{}
	closed := map[string][]Lang{} // shape -> its family's closed language list
	for i, it := range b.items {
		if it.rel == "" {
			continue
		}
		// Siblings are the names of one family (the first folder of the
		// path): llama3's mmlu_hi_llama_* and mmlu_de_llama_* lie in
		// folders of their own.
		top, _, _ := strings.Cut(it.rel, "/")
		fam := closedSet(b.readme(it.root).of(it.rel))
		for j := range it.tokens {
			key := shapeKey(it.root+"\x00"+top, it.tokens, j)
			shapes[key] = append(shapes[key], slot{i, it.tokens[j]})
			closed[key] = fam
		}
	}
	for key, slots := range shapes {
		vals := make([]string, len(slots))
		confirmed := map[string]bool{}
		for i, s := range slots {
			vals[i] = s.val
			if contains(tokens(b.items[s.item].dataset), s.val) {
				confirmed[s.val] = true
			}
		}
		ok := variantCodes(vals, confirmed, closed[key])
		if ok == nil {
			continue
		}
		for _, s := range slots {
			if l, found := ok[s.val]; found {
				b.variant[s.item] = addLang(b.variant[s.item], l)
			}
		}
	}
	// Folders: the children of one parent folder, per tree.
	kids := map[string]map[string]bool{}
	fam := map[string][]Lang{}
	for _, it := range b.items {
		if it.rel == "" {
			continue
		}
		for d := path.Dir(it.rel); d != "." && d != "/"; d = path.Dir(d) {
			p := it.root + "\x00" + path.Dir(d)
			if kids[p] == nil {
				kids[p] = map[string]bool{}
				fam[p] = closedSet(b.readme(it.root).of(d + "/x"))
			}
			kids[p][path.Base(d)] = true
		}
	}
	for p, set := range kids {
		var vals []string
		for v := range set {
			vals = append(vals, v)
		}
		ok := variantCodes(vals, nil, fam[p])
		for v := range set {
			if l, found := ok[v]; found {
				b.dirLang[p+"/"+v] = []Lang{l}
			}
		}
	}
}

func shapeKey(prefix string, toks []string, j int) string {
	var sb strings.Builder
	sb.WriteString(prefix)
	for i, t := range toks {
		sb.WriteByte(0)
		if i == j {
			sb.WriteByte('*')
		} else {
			sb.WriteString(t)
		}
	}
	return sb.String()
}

// variantCodes decides whether values that vary among siblings are
// language codes, and returns the language of each value that is one;
// nil when they are not. Two-letter values must be ISO 639-1 codes;
// three-letter ones (ISO 639-3 holds nearly half of all three-letter
// strings: max, min, sum, cot are languages) need four or more distinct
// three-letter codes, or each a dataset_name holding the same code
// (global_mmlu's fil among am, ar, ...; naijarc_{hau,ibo,yor}), and a
// family whose README lists its languages must list each of them. At
// least three quarters of the values must be codes, and at least two
// distinct languages.
func variantCodes(vals []string, confirmed map[string]bool, family []Lang) map[string]Lang {
	distinct := map[string]bool{}
	for _, v := range vals {
		distinct[v] = true
	}
	if len(distinct) < 2 {
		return nil
	}
	codes := map[string]Lang{}
	n2, n3, inFamily := 0, 0, 0
	three := 0 // distinct three-letter codes, before the family check
	for v := range distinct {
		if in, ok := LookupCode(v); ok && len(v) == 3 && in.Code == strings.ToLower(v) {
			three++
		}
	}
	for v := range distinct {
		in, ok := LookupCode(v)
		switch {
		case !ok || !caseConsistent(v):
			continue
		case len(v) == 2 && in.Code1 == strings.ToLower(v):
			n2++
		case len(v) == 3 && in.Code == strings.ToLower(v):
			if family != nil && !familyHas(family, in) {
				continue
			}
			n3++
		default:
			continue
		}
		l := langOf(in)
		codes[v] = l
		if familyHas(family, in) {
			inFamily++
		}
	}
	if len(codes) < 2 || 4*len(codes) < 3*len(distinct) {
		return nil
	}
	// Few three-letter codes are words (cot among mmlu_{cot,de,es,...}_llama)
	// unless their dataset_name says them too (fil, nso).
	if three < 4 {
		for v := range codes {
			if len(v) == 3 && !confirmed[v] {
				delete(codes, v)
			}
		}
		if n2 < 4 && len(codes) < 2 {
			return nil
		}
	}
	// A family that lists its languages must list at least half of the
	// codes (a README list may miss one, as mgsm's misses English).
	if family != nil && 2*inFamily < len(codes) {
		return nil
	}
	return codes
}

// caseConsistent accepts "hi", "HI", not "Hi" (a capitalised word).
func caseConsistent(v string) bool {
	return v == strings.ToLower(v) || v == strings.ToUpper(v)
}

// familyHas reports whether a README's list holds the language, or one
// whose English name it is a variety of (Norwegian Nynorsk of Norwegian,
// Moroccan Arabic of Arabic).
func familyHas(family []Lang, in *Info) bool {
	for _, f := range family {
		if f.Code == in.Canonical() {
			return true
		}
		if fn := Name(f.Code); fn != "" && containsWord(in.Name, fn) {
			return true
		}
	}
	return false
}

func containsWord(s, w string) bool {
	s, w = " "+normName(s)+" ", " "+normName(w)+" "
	return strings.Contains(s, w)
}

// langOf is the index's Lang for a code: canonical, with the usual
// script.
func langOf(in *Info) Lang {
	if in.Macro != "" {
		if m, ok := LookupCode(in.Macro); ok {
			return Lang{Code: m.Code, Script: defaultScript(m)}
		}
	}
	return Lang{Code: in.Code, Script: defaultScript(in)}
}

func defaultScript(in *Info) string { return in.Script }

func addLang(ls []Lang, l Lang) []Lang {
	for _, e := range ls {
		if e == l {
			return ls
		}
	}
	return append(ls, l)
}

func dedupe(ls []Lang) []Lang {
	var out []Lang
	for _, l := range ls {
		out = addLang(out, l)
	}
	return out
}

func contains(s []string, v string) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

// derive gives item i its languages and where they come from.
func (b *builder) derive(i int, group bool) ([]Lang, Evidence) {
	it := b.items[i]
	if ls, ok := fromTable(table, it.name); ok {
		if len(ls) == 0 {
			return nil, 0
		}
		return ls, FromTable
	}
	var rows []*family
	fs := b.readme(it.root)
	if it.rel != "" {
		rows = fs.of(it.rel)
	}
	if ls := append(spelled(it.tokens), pairs(it.name)...); len(ls) > 0 {
		// A language name in a name that is a variety of the family's
		// one language is the family's: darijammlu_arabic_language is
		// in Moroccan Arabic, tmmluplus_chinese_... in Traditional
		// Chinese script.
		if f, ok := single(rows); ok {
			for k, l := range ls {
				if l.Code == f.Code || containsWord(Name(f.Code), Name(l.Code)) {
					ls[k] = f
				}
			}
		}
		return dedupe(ls), FromName
	}
	if ls := datasetLangs(it.dataset); len(ls) > 0 {
		return ls, FromDataset
	}
	if it.rel != "" {
		var ls []Lang
		for d := path.Dir(it.rel); d != "." && d != "/"; d = path.Dir(d) {
			if l, ok := b.dirLang[it.root+"\x00"+d]; ok {
				ls = l
				break
			}
			if l := spelled(tokens(path.Base(d))); len(l) > 0 {
				ls = l
				break
			}
		}
		if len(ls) > 0 {
			return ls, FromPath
		}
	}
	if ls := b.variant[i]; len(ls) > 0 {
		return ls, FromVariant
	}
	if fam := closedSet(rows); fam != nil {
		var ls []Lang
		for _, t := range it.tokens {
			in, ok := LookupCode(t)
			if !ok || !caseConsistent(t) || !(len(t) == 2 && in.Code1 == strings.ToLower(t) || len(t) == 3 && in.Code == strings.ToLower(t)) {
				continue
			}
			if familyHas(fam, in) {
				ls = addLang(ls, langOf(in))
			}
		}
		if len(ls) > 0 {
			return ls, FromToken
		}
	}
	if f, ok := fs.byName[it.name]; ok && f.closed && len(f.langs) == 1 {
		return f.langs, FromFamily
	}
	if l, ok := single(rows); ok {
		return []Lang{l}, FromFamily
	}
	if ls, ok := fromTable(fallbacks, it.name); ok && len(ls) > 0 {
		return ls, FromTable
	}
	return nil, 0
}

// spelled finds languages a name spells out in forms that are not
// ordinary words: a code followed by a script (hin_Deva, cls_deva,
// eng_Latn-plt_Latn), a hyphenated pair of codes (ro-en, fon-fr: the
// two sides of a translation), and English language names (hindi,
// north_macedonian).
func spelled(toks []string) []Lang {
	var out []Lang
	used := make([]bool, len(toks))
	for j := 0; j+1 < len(toks); j++ {
		sc, ok := ScriptCode(toks[j+1])
		if !ok || !caseConsistentScript(toks[j+1]) {
			continue
		}
		if in, ok := LookupCode(toks[j]); ok && len(toks[j]) <= 3 && toks[j] == strings.ToLower(toks[j]) {
			l := langOf(in)
			l.Script = sc
			out = addLang(out, l)
			used[j], used[j+1] = true, true
		}
	}
	for j := 0; j < len(toks); j++ {
		if used[j] {
			continue
		}
		for w := 3; w >= 1; w-- {
			if j+w > len(toks) {
				continue
			}
			phrase := strings.ToLower(strings.Join(toks[j:j+w], " "))
			if stopNames[phrase] {
				j += w - 1
				break
			}
			if len(phrase) < 4 {
				continue
			}
			if readmeOnly[normName(phrase)] {
				continue
			}
			if in, ok := LookupName(phrase, false); ok {
				out = addLang(out, langOf(in))
				j += w - 1
				break
			}
		}
	}
	return out
}

// pairs finds hyphenated code pairs in a raw string: the two sides of a
// translation (ro-en, fon-fr, eng_Latn-fra_Latn is spelled's). A pair
// counts when it is the whole of a part between underscores or dots, or
// when every other side of its hyphen chain has a digit (wmt16-ro-en,
// iwslt2017-en-ar): hyphenated English (desire-to-be-more) has pairs of
// two-letter codes too.
func pairs(s string) []Lang {
	var out []Lang
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '.' || r == '/' || r == ' ' }) {
		sides := strings.Split(part, "-")
		for k := 0; k+1 < len(sides); k++ {
			a, okA := codeToken(sides[k])
			c, okC := codeToken(sides[k+1])
			if !okA || !okC || a == c {
				continue
			}
			if len(sides) > 2 {
				if len(sides[k]) != 2 || len(sides[k+1]) != 2 {
					continue
				}
				others := true
				for m, o := range sides {
					if m != k && m != k+1 && !strings.ContainsAny(o, "0123456789") {
						others = false
					}
				}
				if !others {
					continue
				}
			}
			out = addLang(addLang(out, langOf(a)), langOf(c))
		}
	}
	return out
}

// codeToken accepts a lower-case ISO 639-1 code or ISO 639-3 code.
func codeToken(t string) (*Info, bool) {
	if t != strings.ToLower(t) {
		return nil, false
	}
	in, ok := LookupCode(t)
	if !ok || (len(t) == 2 && in.Code1 != t) || (len(t) == 3 && in.Code != t) || len(t) > 3 {
		return nil, false
	}
	return in, true
}

func caseConsistentScript(s string) bool {
	return s == strings.ToLower(s) || (s[0] >= 'A' && s[0] <= 'Z' && s[1:] == strings.ToLower(s[1:]))
}

// stopNames are phrases with a language name that do not name the
// task's language (paloma_m2d2_s2orc_meta: Meta' is a language of
// Cameroon; bigbench_chinese_remainder_theorem is in English;
// toksuite_farsi_arabic_keyboard is Farsi typed on an Arabic keyboard).
var stopNames = map[string]bool{"meta": true, "chinese remainder": true, "arabic keyboard": true, "english keyboard": true}

// datasetLangs reads a dataset_name that is a language: an ISO 639-1
// code (hi), a code with a region (PT_BR, es-419), a code with a script
// (hin_Deva), a pair of codes (ro-en), an English name. A bare
// three-letter dataset_name is not read: law, wic, lcc, all are ISO
// 639-3 codes too (multiblimp's aqz, apu are read as variants).
func datasetLangs(ds string) []Lang {
	if ds == "" {
		return nil
	}
	if ls := spelled(tokens(ds)); len(ls) > 0 {
		return ls
	}
	if ls := pairs(ds); len(ls) > 0 {
		return ls
	}
	base, region, hasRegion := strings.Cut(strings.ReplaceAll(ds, "-", "_"), "_")
	if hasRegion && !isRegion(region) {
		return nil
	}
	// Upper case only with a region: a bare "LI" or "WR" is an
	// abbreviation (csatqa's), "YO_NG" is Yoruba in Nigeria.
	if len(base) != 2 || !(base == strings.ToLower(base) || hasRegion && base == strings.ToUpper(base)) {
		return nil
	}
	if in, ok := LookupCode(base); ok && in.Code1 == strings.ToLower(base) {
		return []Lang{langOf(in)}
	}
	return nil
}

// isRegion accepts an ISO 3166 alpha-2 code in upper case, or a UN M.49
// number (419), or lm-eval's XY (any).
func isRegion(s string) bool {
	if len(s) == 3 && strings.Trim(s, "0123456789") == "" {
		return true
	}
	return len(s) == 2 && s == strings.ToUpper(s) && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}
