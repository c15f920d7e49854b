// Package ifeval ports lm-eval's ifeval task helpers (lm_eval/tasks/ifeval:
// instructions.py, instructions_registry.py, instructions_util.py, utils.py;
// leaderboard/ifeval uses the same code): the 25 registered instruction
// checkers, strict and loose following, process_results and
// agg_inst_level_acc.
//
// Where lm-eval would draw a missing checker argument at random (the
// dataset gives every argument the checkers read, so this only happens with
// hand-made documents), New returns an error instead.
package ifeval

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lmeval/lmeval/ports/ifeval/langdetect"
	"github.com/lmeval/lmeval/ports/ifeval/punkt"
	"github.com/lmeval/lmeval/python/pyre"
)

// Checker is one built instruction (an Instruction after build_description).
type Checker interface {
	// Check is check_following(value).
	Check(value string) (bool, error)
}

const (
	relLess    = "less than"
	relAtLeast = "at least"
)

// IDs lists the instruction ids of instructions_registry.INSTRUCTION_DICT.
func IDs() []string {
	ids := make([]string, 0, len(builders))
	for id := range builders {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

type args struct {
	id   string
	kw   map[string]any
	used map[string]bool
}

func (a *args) get(k string) (any, bool) {
	a.used[k] = true
	v, ok := a.kw[k]
	return v, ok
}

func (a *args) missing(k string) error {
	return fmt.Errorf("instruction %s: argument %s is missing; lm-eval would draw it at random", a.id, k)
}

// num is an integer argument; ok is false when absent.
func (a *args) num(k string) (float64, bool, error) {
	v, ok := a.get(k)
	if !ok {
		return 0, false, nil
	}
	switch x := v.(type) {
	case int:
		return float64(x), true, nil
	case int64:
		return float64(x), true, nil
	case float64:
		return x, true, nil
	}
	return 0, false, fmt.Errorf("instruction %s: argument %s: want a number, got %T", a.id, k, v)
}

func (a *args) str(k string) (string, bool, error) {
	v, ok := a.get(k)
	if !ok {
		return "", false, nil
	}
	s, isStr := v.(string)
	if !isStr {
		return "", false, fmt.Errorf("instruction %s: argument %s: want a string, got %T", a.id, k, v)
	}
	return s, true, nil
}

func (a *args) strs(k string) ([]string, bool, error) {
	v, ok := a.get(k)
	if !ok {
		return nil, false, nil
	}
	var out []string
	switch x := v.(type) {
	case []string:
		out = append(out, x...)
	case []any:
		for _, e := range x {
			s, isStr := e.(string)
			if !isStr {
				return nil, false, fmt.Errorf("instruction %s: argument %s: want strings, got %T", a.id, k, e)
			}
			out = append(out, s)
		}
	default:
		return nil, false, fmt.Errorf("instruction %s: argument %s: want a list of strings, got %T", a.id, k, v)
	}
	return out, true, nil
}

// count is a count threshold: absent or negative means random in lm-eval.
func (a *args) count(k string) (float64, error) {
	n, ok, err := a.num(k)
	if err != nil {
		return 0, err
	}
	if !ok || n < 0 {
		return 0, a.missing(k)
	}
	return n, nil
}

func (a *args) relation(k string) (string, error) {
	r, ok, err := a.str(k)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", a.missing(k)
	}
	if r != relLess && r != relAtLeast {
		return "", fmt.Errorf("instruction %s: The supported relation for comparison must be in ('less than', 'at least'), but %s is given", a.id, r)
	}
	return r, nil
}

func compare(rel string, n int, threshold float64) bool {
	if rel == relLess {
		return float64(n) < threshold
	}
	return float64(n) >= threshold
}

type builder func(a *args) (Checker, error)

var builders = map[string]builder{
	"keywords:existence":                            buildKeywordExistence,
	"keywords:frequency":                            buildKeywordFrequency,
	"keywords:forbidden_words":                      buildForbiddenWords,
	"keywords:letter_frequency":                     buildLetterFrequency,
	"language:response_language":                    buildResponseLanguage,
	"length_constraints:number_sentences":           buildNumberOfSentences,
	"length_constraints:number_paragraphs":          buildParagraphs,
	"length_constraints:number_words":               buildNumberOfWords,
	"length_constraints:nth_paragraph_first_word":   buildParagraphFirstWord,
	"detectable_content:number_placeholders":        buildPlaceholders,
	"detectable_content:postscript":                 buildPostscript,
	"detectable_format:number_bullet_lists":         buildBulletLists,
	"detectable_format:constrained_response":        func(*args) (Checker, error) { return constrainedResponse{}, nil },
	"detectable_format:number_highlighted_sections": buildHighlights,
	"detectable_format:multiple_sections":           buildSections,
	"detectable_format:json_format":                 func(*args) (Checker, error) { return jsonFormat{}, nil },
	"detectable_format:title":                       func(*args) (Checker, error) { return title{}, nil },
	"combination:two_responses":                     func(*args) (Checker, error) { return twoResponses{}, nil },
	"combination:repeat_prompt":                     buildRepeatPrompt,
	"startend:end_checker":                          buildEndChecker,
	"change_case:capital_word_frequency":            buildCapitalWordFrequency,
	"change_case:english_capital":                   func(*args) (Checker, error) { return englishCase{upper: true}, nil },
	"change_case:english_lowercase":                 func(*args) (Checker, error) { return englishCase{}, nil },
	"punctuation:no_comma":                          func(*args) (Checker, error) { return noComma{}, nil },
	"startend:quotation":                            func(*args) (Checker, error) { return quotation{}, nil },
}

// parameters of each build_description, for the unexpected-keyword check.
var parameters = map[string][]string{
	"keywords:existence":                            {"keywords"},
	"keywords:frequency":                            {"keyword", "frequency", "relation"},
	"keywords:forbidden_words":                      {"forbidden_words"},
	"keywords:letter_frequency":                     {"letter", "let_frequency", "let_relation"},
	"language:response_language":                    {"language"},
	"length_constraints:number_sentences":           {"num_sentences", "relation"},
	"length_constraints:number_paragraphs":          {"num_paragraphs"},
	"length_constraints:number_words":               {"num_words", "relation"},
	"length_constraints:nth_paragraph_first_word":   {"num_paragraphs", "nth_paragraph", "first_word"},
	"detectable_content:number_placeholders":        {"num_placeholders"},
	"detectable_content:postscript":                 {"postscript_marker"},
	"detectable_format:number_bullet_lists":         {"num_bullets"},
	"detectable_format:number_highlighted_sections": {"num_highlights"},
	"detectable_format:multiple_sections":           {"section_spliter", "num_sections"},
	"combination:repeat_prompt":                     {"prompt_to_repeat"},
	"startend:end_checker":                          {"end_phrase"},
	"change_case:capital_word_frequency":            {"capital_frequency", "capital_relation"},
}

// truthy is Python's bool(v) for the JSON-like values of a document.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case int:
		return x != 0
	case int64:
		return x != 0
	case float64:
		return x != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case []string:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// New builds the checker for instruction id from a document's kwargs entry,
// as test_instruction_following_* do: falsy values are dropped, then
// build_description(**kwargs) runs.
func New(id string, kwargs map[string]any) (Checker, error) {
	b, ok := builders[id]
	if !ok {
		return nil, fmt.Errorf("unknown instruction id %q", id)
	}
	kw := map[string]any{}
	for k, v := range kwargs {
		if truthy(v) {
			kw[k] = v
		}
	}
	allowed := map[string]bool{}
	for _, p := range parameters[id] {
		allowed[p] = true
	}
	var unexpected []string
	for k := range kw {
		if !allowed[k] {
			unexpected = append(unexpected, k)
		}
	}
	if len(unexpected) > 0 {
		sort.Strings(unexpected)
		return nil, fmt.Errorf("instruction %s: build_description got unexpected keyword argument(s) %s", id, strings.Join(unexpected, ", "))
	}
	return b(&args{id: id, kw: kw, used: map[string]bool{}})
}

// ---- keywords

type keywordExistence struct{ res []*pyre.Regexp }

func buildKeywordExistence(a *args) (Checker, error) {
	kws, ok, err := a.strs("keywords")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, a.missing("keywords")
	}
	sort.Strings(kws) // sorted(): code point order, as Go's byte order for UTF-8
	c := keywordExistence{}
	for _, k := range kws {
		re, err := pyre.CompileFlags(k, pyre.IGNORECASE)
		if err != nil {
			return nil, fmt.Errorf("instruction %s: keyword %q: %w", a.id, k, err)
		}
		c.res = append(c.res, re)
	}
	return c, nil
}

func (c keywordExistence) Check(v string) (bool, error) {
	for _, re := range c.res {
		if re.Search(v) == nil {
			return false, nil
		}
	}
	return true, nil
}

type keywordFrequency struct {
	re        *pyre.Regexp
	frequency float64
	rel       string
}

func buildKeywordFrequency(a *args) (Checker, error) {
	kw, ok, err := a.str("keyword")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, a.missing("keyword")
	}
	c := keywordFrequency{}
	if c.frequency, err = a.count("frequency"); err != nil {
		return nil, err
	}
	if c.rel, err = a.relation("relation"); err != nil {
		return nil, err
	}
	if c.re, err = pyre.CompileFlags(pyre.Strip(kw), pyre.IGNORECASE); err != nil {
		return nil, fmt.Errorf("instruction %s: keyword %q: %w", a.id, kw, err)
	}
	return c, nil
}

func (c keywordFrequency) Check(v string) (bool, error) {
	return compare(c.rel, len(c.re.FindAll(v)), c.frequency), nil
}

type forbiddenWords struct{ res []*pyre.Regexp }

func buildForbiddenWords(a *args) (Checker, error) {
	words, ok, err := a.strs("forbidden_words")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, a.missing("forbidden_words")
	}
	set := map[string]bool{}
	var uniq []string
	for _, w := range words {
		if !set[w] {
			set[w] = true
			uniq = append(uniq, w)
		}
	}
	sort.Strings(uniq)
	c := forbiddenWords{}
	for _, w := range uniq {
		re, err := pyre.CompileFlags(`\b`+w+`\b`, pyre.IGNORECASE)
		if err != nil {
			return nil, fmt.Errorf("instruction %s: word %q: %w", a.id, w, err)
		}
		c.res = append(c.res, re)
	}
	return c, nil
}

func (c forbiddenWords) Check(v string) (bool, error) {
	for _, re := range c.res {
		if re.Search(v) != nil {
			return false, nil
		}
	}
	return true, nil
}

type letterFrequency struct {
	letter    string
	frequency float64
	rel       string
}

func buildLetterFrequency(a *args) (Checker, error) {
	l, ok, err := a.str("letter")
	if err != nil {
		return nil, err
	}
	if !ok || utf8.RuneCountInString(l) > 1 {
		return nil, a.missing("letter")
	}
	low := pyre.Lower(l)
	if utf8.RuneCountInString(low) != 1 {
		return nil, fmt.Errorf("instruction %s: letter %q: ord() expected a character", a.id, l)
	}
	if r, _ := utf8.DecodeRuneInString(low); r < 97 || r > 122 {
		return nil, a.missing("letter")
	}
	c := letterFrequency{letter: pyre.Lower(pyre.Strip(l))}
	if c.frequency, err = a.count("let_frequency"); err != nil {
		return nil, err
	}
	// let_relation: anything but "less than" counts as "at least" in check.
	if c.rel, err = a.relation("let_relation"); err != nil {
		return nil, err
	}
	return c, nil
}

func (c letterFrequency) Check(v string) (bool, error) {
	n := 0
	want, _ := utf8.DecodeRuneInString(c.letter)
	for _, r := range pyre.Lower(v) {
		if r == want {
			n++
		}
	}
	return compare(c.rel, n, c.frequency), nil
}

// ---- language

type responseLanguage struct{ lang string }

// languageCodes are the keys of instructions_util.LANGUAGE_CODES.
var languageCodes = map[string]bool{
	"en": true, "es": true, "pt": true, "ar": true, "hi": true, "fr": true, "ru": true, "de": true,
	"ja": true, "it": true, "bn": true, "uk": true, "th": true, "ur": true, "ta": true, "te": true,
	"bg": true, "ko": true, "pl": true, "he": true, "fa": true, "vi": true, "ne": true, "sw": true,
	"kn": true, "mr": true, "gu": true, "pa": true, "ml": true, "fi": true,
}

func buildResponseLanguage(a *args) (Checker, error) {
	l, ok, err := a.str("language")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, a.missing("language")
	}
	if !languageCodes[l] {
		// build_description formats the description with LANGUAGE_CODES[l].
		return nil, fmt.Errorf("instruction %s: language %q is not in instructions_util.LANGUAGE_CODES", a.id, l)
	}
	return responseLanguage{l}, nil
}

// detect is langdetect.detect with LangDetectException reported as ok=false.
func detect(v string) (lang string, ok bool, err error) {
	l, err := langdetect.Detect(v)
	if err == langdetect.ErrNoFeatures {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return l, true, nil
}

func (c responseLanguage) Check(v string) (bool, error) {
	l, ok, err := detect(v)
	if err != nil || !ok {
		return true, err // "Count as instruction is followed."
	}
	return l == c.lang, nil
}

// ---- length constraints

type numberOfSentences struct {
	threshold float64
	rel       string
}

func buildNumberOfSentences(a *args) (Checker, error) {
	c := numberOfSentences{}
	var err error
	if c.threshold, err = a.count("num_sentences"); err != nil {
		return nil, err
	}
	if c.rel, err = a.relation("relation"); err != nil {
		return nil, err
	}
	return c, nil
}

func (c numberOfSentences) Check(v string) (bool, error) {
	n, err := CountSentences(v)
	if err != nil {
		return false, err
	}
	return compare(c.rel, n, c.threshold), nil
}

var reParagraphDivider = pyre.MustCompile(`\s?\*\*\*\s?`)

// split is re.split for a pattern without groups.
func split(re *pyre.Regexp, s string) []string {
	var out []string
	last := 0
	for _, m := range re.FindAll(s) {
		out = append(out, s[last:m.Start()])
		last = m.End()
	}
	return append(out, s[last:])
}

type paragraphs struct{ n float64 }

func buildParagraphs(a *args) (Checker, error) {
	n, err := a.count("num_paragraphs")
	return paragraphs{n}, err
}

func (c paragraphs) Check(v string) (bool, error) {
	ps := split(reParagraphDivider, v)
	n := len(ps)
	for i, p := range ps {
		if pyre.Strip(p) == "" {
			if i == 0 || i == len(ps)-1 {
				n--
			} else {
				return false, nil
			}
		}
	}
	return float64(n) == c.n, nil
}

type numberOfWords struct {
	n   float64
	rel string
}

func buildNumberOfWords(a *args) (Checker, error) {
	c := numberOfWords{}
	var err error
	if c.n, err = a.count("num_words"); err != nil {
		return nil, err
	}
	if c.rel, err = a.relation("relation"); err != nil {
		return nil, err
	}
	return c, nil
}

func (c numberOfWords) Check(v string) (bool, error) {
	return compare(c.rel, CountWords(v), c.n), nil
}

type paragraphFirstWord struct {
	num, nth  float64
	firstWord string
}

func buildParagraphFirstWord(a *args) (Checker, error) {
	c := paragraphFirstWord{}
	var err error
	if c.num, err = a.count("num_paragraphs"); err != nil {
		return nil, err
	}
	nth, ok, err := a.num("nth_paragraph")
	if err != nil {
		return nil, err
	}
	if !ok || nth <= 0 || nth > c.num || nth != math.Trunc(nth) {
		return nil, a.missing("nth_paragraph")
	}
	c.nth = nth
	fw, ok, err := a.str("first_word")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, a.missing("first_word")
	}
	c.firstWord = pyre.Lower(fw)
	return c, nil
}

func (c paragraphFirstWord) Check(v string) (bool, error) {
	ps := strings.Split(v, "\n\n")
	n := len(ps)
	for _, p := range ps {
		if pyre.Strip(p) == "" {
			n--
		}
	}
	nth := int(c.nth)
	if nth > n {
		return false, nil
	}
	p := pyre.Strip(ps[nth-1])
	if p == "" {
		return false, nil
	}
	word := strings.FieldsFunc(p, pyre.IsSpace)[0]
	word = strings.TrimLeft(word, "'")
	word = strings.TrimLeft(word, `"`)
	var first strings.Builder
	for _, r := range word {
		if strings.ContainsRune(`.,?!'"`, r) {
			break
		}
		first.WriteString(pyre.Lower(string(r)))
	}
	return float64(n) == c.num && first.String() == c.firstWord, nil
}

// ---- detectable content

var rePlaceholder = pyre.MustCompile(`\[.*?\]`)

type placeholders struct{ n float64 }

func buildPlaceholders(a *args) (Checker, error) {
	n, err := a.count("num_placeholders")
	return placeholders{n}, err
}

func (c placeholders) Check(v string) (bool, error) {
	return float64(len(rePlaceholder.FindAll(v))) >= c.n, nil
}

type postscript struct{ re *pyre.Regexp }

func buildPostscript(a *args) (Checker, error) {
	m, ok, err := a.str("postscript_marker")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, a.missing("postscript_marker")
	}
	m = pyre.Strip(m)
	var pat string
	switch m {
	case "P.P.S":
		pat = `\s*p\.\s?p\.\s?s.*$`
	case "P.S.":
		pat = `\s*p\.\s?s\..*$`
	default:
		pat = `\s*` + pyre.Lower(m) + `.*$`
	}
	re, err := pyre.CompileFlags(pat, pyre.MULTILINE)
	if err != nil {
		return nil, fmt.Errorf("instruction %s: marker %q: %w", a.id, m, err)
	}
	return postscript{re}, nil
}

func (c postscript) Check(v string) (bool, error) {
	return len(c.re.FindAll(pyre.Lower(v))) > 0, nil
}

// ---- detectable format

var (
	reBullet      = pyre.MustCompile(`(?m)^\s*\*[^\*].*$`)
	reDash        = pyre.MustCompile(`(?m)^\s*-.*$`)
	reHighlight   = pyre.MustCompile(`\*[^\n\*]*\*`)
	reDoubleHigh  = pyre.MustCompile(`\*\*[^\n\*]*\*\*`)
	reTitle       = pyre.MustCompile(`<<[^\n]+>>`)
	constrainedOK = []string{"My answer is yes.", "My answer is no.", "My answer is maybe."}
)

type bulletLists struct{ n float64 }

func buildBulletLists(a *args) (Checker, error) {
	n, err := a.count("num_bullets")
	return bulletLists{n}, err
}

func (c bulletLists) Check(v string) (bool, error) {
	return float64(len(reBullet.FindAll(v))+len(reDash.FindAll(v))) == c.n, nil
}

type constrainedResponse struct{}

func (constrainedResponse) Check(v string) (bool, error) {
	v = pyre.Strip(v)
	for _, o := range constrainedOK {
		if strings.Contains(v, o) {
			return true, nil
		}
	}
	return false, nil
}

type highlights struct{ n float64 }

func buildHighlights(a *args) (Checker, error) {
	n, err := a.count("num_highlights")
	return highlights{n}, err
}

func (c highlights) Check(v string) (bool, error) {
	n := 0
	for _, m := range reHighlight.FindAll(v) {
		if pyre.Strip(strings.Trim(m.Group(0), "*")) != "" {
			n++
		}
	}
	for _, m := range reDoubleHigh.FindAll(v) {
		h := strings.TrimSuffix(strings.TrimPrefix(m.Group(0), "**"), "**")
		if pyre.Strip(h) != "" {
			n++
		}
	}
	return float64(n) >= c.n, nil
}

type sections struct {
	re *pyre.Regexp
	n  float64
}

func buildSections(a *args) (Checker, error) {
	s, ok, err := a.str("section_spliter")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, a.missing("section_spliter")
	}
	c := sections{}
	if c.n, err = a.count("num_sections"); err != nil {
		return nil, err
	}
	if c.re, err = pyre.Compile(`\s?` + pyre.Strip(s) + `\s?\d+\s?`); err != nil {
		return nil, fmt.Errorf("instruction %s: splitter %q: %w", a.id, s, err)
	}
	return c, nil
}

func (c sections) Check(v string) (bool, error) {
	// len(re.split(p, v)) - 1: each match adds one piece and one per group.
	n := len(c.re.FindAll(v)) * (1 + c.re.NumGroups())
	return float64(n) >= c.n, nil
}

type jsonFormat struct{}

func (jsonFormat) Check(v string) (bool, error) {
	v = pyre.Strip(v)
	for _, p := range []string{"```json", "```Json", "```JSON", "```"} {
		v = strings.TrimPrefix(v, p) // str.removeprefix, one after the other
	}
	v = strings.TrimSuffix(v, "```")
	return PyJSONValid(pyre.Strip(v)), nil
}

type title struct{}

func (title) Check(v string) (bool, error) {
	for _, m := range reTitle.FindAll(v) {
		t := strings.TrimRight(strings.TrimLeft(m.Group(0), "<"), ">")
		if pyre.Strip(t) != "" {
			return true, nil
		}
	}
	return false, nil
}

// ---- combination

type twoResponses struct{}

func (twoResponses) Check(v string) (bool, error) {
	var valid []string
	rs := strings.Split(v, "******")
	for i, r := range rs {
		if pyre.Strip(r) == "" {
			if i != 0 && i != len(rs)-1 {
				return false, nil
			}
		} else {
			valid = append(valid, r)
		}
	}
	return len(valid) == 2 && pyre.Strip(valid[0]) != pyre.Strip(valid[1]), nil
}

type repeatPrompt struct{ prompt string }

func buildRepeatPrompt(a *args) (Checker, error) {
	p, ok, err := a.str("prompt_to_repeat")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("instruction %s: prompt_to_repeat must be set", a.id)
	}
	return repeatPrompt{pyre.Lower(pyre.Strip(p))}, nil
}

func (c repeatPrompt) Check(v string) (bool, error) {
	return strings.HasPrefix(pyre.Lower(pyre.Strip(v)), c.prompt), nil
}

// ---- start/end

type endChecker struct{ phrase string }

func buildEndChecker(a *args) (Checker, error) {
	p, ok, err := a.str("end_phrase")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, a.missing("end_phrase")
	}
	return endChecker{pyre.Lower(pyre.Strip(pyre.Strip(p)))}, nil
}

func (c endChecker) Check(v string) (bool, error) {
	v = pyre.Lower(strings.Trim(pyre.Strip(v), `"`))
	return strings.HasSuffix(v, c.phrase), nil
}

type quotation struct{}

func (quotation) Check(v string) (bool, error) {
	v = pyre.Strip(v)
	return utf8.RuneCountInString(v) > 1 && v[0] == '"' && v[len(v)-1] == '"', nil
}

// ---- change case

type capitalWordFrequency struct {
	n   float64
	rel string
}

func buildCapitalWordFrequency(a *args) (Checker, error) {
	n, ok, err := a.num("capital_frequency")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, a.missing("capital_frequency")
	}
	c := capitalWordFrequency{n: n}
	if c.rel, err = a.relation("capital_relation"); err != nil {
		return nil, err
	}
	return c, nil
}

func (c capitalWordFrequency) Check(v string) (bool, error) {
	words, err := WordTokenize(v)
	if err != nil {
		return false, err
	}
	n := 0
	for _, w := range words {
		if pyre.IsUpper(w) {
			n++
		}
	}
	return compare(c.rel, n, c.n), nil
}

type englishCase struct{ upper bool }

func (c englishCase) Check(v string) (bool, error) {
	cased := pyre.IsLower(v)
	if c.upper {
		cased = pyre.IsUpper(v)
	}
	if !cased {
		return false, nil
	}
	l, ok, err := detect(v)
	if err != nil || !ok {
		return true, err
	}
	return l == "en", nil
}

// ---- punctuation

type noComma struct{}

func (noComma) Check(v string) (bool, error) { return !strings.Contains(v, ","), nil }

// ---- instructions_util

// reWord is RegexpTokenizer(r"\w+")'s pattern, which nltk >= 3.10.3
// compiles with the regex module (nltk/redos.py).
var reWord = pyre.RegexModule.MustCompile(`\w+`)

// CountWords is instructions_util.count_words: RegexpTokenizer(r"\w+").
func CountWords(text string) int { return len(reWord.FindAll(text)) }

// CountSentences is instructions_util.count_sentences: NLTK's English
// Punkt sentence tokenizer.
func CountSentences(text string) (int, error) {
	z, err := punkt.English()
	if err != nil {
		return 0, err
	}
	return len(z.Tokenize(text)), nil
}

// WordTokenize is nltk.word_tokenize(text).
func WordTokenize(text string) ([]string, error) {
	z, err := punkt.English()
	if err != nil {
		return nil, err
	}
	return z.WordTokenize(text), nil
}
