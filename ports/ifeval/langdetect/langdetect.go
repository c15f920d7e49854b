// Package langdetect is a port of the Python langdetect package (1.0.9,
// itself a port of Nakatani Shuyo's language-detection library), which
// lm-eval's ifeval checkers call as langdetect.detect(text).
//
// The language profiles and the character tables of langdetect's
// messages.properties are embedded (profiles.json.gz, written by
// gen_profiles.py from Debian's python3-langdetect; Apache License 2.0,
// Copyright 2010-2014 Cybozu Labs, Inc. and Nakatani Shuyo).
//
// langdetect draws random n-grams; Python's version is deterministic only
// with DetectorFactory.seed = 0, and lm-eval does not set it, so lm-eval's
// verdicts can change from run to run on texts near a tie. Detect uses seed
// 0 (pyrand reproduces CPython's generator) and the profiles in file-name
// order, which is what Python gives with DetectorFactory.seed = 0 and a
// sorted profile directory.
package langdetect

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyre"
)

//go:embed profiles.json.gz
var profilesGz []byte

// ErrNoFeatures is langdetect's LangDetectException "No features in text."
// (the text has no n-gram any profile knows).
var ErrNoFeatures = errors.New("langdetect: no features in text")

// Detector constants of langdetect.detector.Detector.
const (
	alphaDefault   = 0.5
	alphaWidth     = 0.05
	iterationLimit = 1000
	probThreshold  = 0.1
	convThreshold  = 0.99999
	baseFreq       = 10000
	nTrial         = 7
	maxTextLength  = 10000
	nGram          = 3
	seed           = 0
)

type model struct {
	langs    []string
	wordProb map[string][]float64

	latin1Excluded string
	cjkMap         map[rune]rune
	viNormalized   [][]rune
	viToNormalize  []rune
	dmarkClass     []rune
	alphabetDmark  *pyre.Regexp
	urlRE, mailRE  *pyre.Regexp
}

var (
	loadOnce sync.Once
	loaded   *model
	loadErr  error
)

func load() (*model, error) {
	loadOnce.Do(func() { loaded, loadErr = parse(profilesGz) })
	return loaded, loadErr
}

func parse(gz []byte) (*model, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("langdetect: profiles: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("langdetect: profiles: %w", err)
	}
	var data struct {
		Profiles []struct {
			Name   string         `json:"name"`
			Freq   map[string]int `json:"freq"`
			NWords []int          `json:"n_words"`
		} `json:"profiles"`
		Latin1Excluded     string   `json:"latin1_excluded"`
		NormalizedViChars  []string `json:"normalized_vi_chars"`
		ToNormalizeViChars string   `json:"to_normalize_vi_chars"`
		DmarkClass         string   `json:"dmark_class"`
		CJKClass           []string `json:"cjk_class"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, fmt.Errorf("langdetect: profiles: %w", err)
	}
	m := &model{wordProb: map[string][]float64{}, cjkMap: map[rune]rune{}}
	n := len(data.Profiles)
	// DetectorFactory.add_profile.
	for i, p := range data.Profiles {
		m.langs = append(m.langs, p.Name)
		for w, c := range p.Freq {
			probs, ok := m.wordProb[w]
			if !ok {
				probs = make([]float64, n)
				m.wordProb[w] = probs
			}
			if l := utf8.RuneCountInString(w); l >= 1 && l <= 3 {
				probs[i] = 1.0 * float64(c) / float64(p.NWords[l-1])
			}
		}
	}
	m.latin1Excluded = data.Latin1Excluded
	for _, cls := range data.CJKClass {
		rs := []rune(cls)
		for _, r := range rs {
			m.cjkMap[r] = rs[0]
		}
	}
	for _, s := range data.NormalizedViChars {
		m.viNormalized = append(m.viNormalized, []rune(s))
	}
	m.viToNormalize = []rune(data.ToNormalizeViChars)
	m.dmarkClass = []rune(data.DmarkClass)
	if m.alphabetDmark, err = pyre.Compile("([" + data.ToNormalizeViChars + "])([" + data.DmarkClass + "])"); err != nil {
		return nil, fmt.Errorf("langdetect: %w", err)
	}
	if m.urlRE, err = pyre.Compile(`https?://[-_.?&~;+=/#0-9A-Za-z]{1,2076}`); err != nil {
		return nil, fmt.Errorf("langdetect: %w", err)
	}
	if m.mailRE, err = pyre.Compile(`[-_.0-9A-Za-z]{1,64}@[-_0-9A-Za-z]{1,255}[-_.0-9A-Za-z]{1,255}`); err != nil {
		return nil, fmt.Errorf("langdetect: %w", err)
	}
	return m, nil
}

// Languages lists the profiles' language codes in detection order.
func Languages() ([]string, error) {
	m, err := load()
	if err != nil {
		return nil, err
	}
	return append([]string(nil), m.langs...), nil
}

// Detect is langdetect.detect(text) with DetectorFactory.seed = 0: the
// language code of the most probable language, "unknown" when none is
// above 0.1, and ErrNoFeatures when the text has no known n-gram.
func Detect(text string) (string, error) {
	m, err := load()
	if err != nil {
		return "", err
	}
	probs, err := m.probabilities(text)
	if err != nil {
		return "", err
	}
	// _sort_probability: languages above the threshold, sorted by
	// probability, highest first, stable for ties.
	best, bestP := "", 0.0
	for i, p := range probs {
		if p > probThreshold && (best == "" || p > bestP) {
			best, bestP = m.langs[i], p
		}
	}
	if best == "" {
		return "unknown", nil
	}
	return best, nil
}

func (m *model) probabilities(text string) ([]float64, error) {
	t := m.appendText(text)
	t = cleaningText(t)
	ngrams := m.extractNgrams(t)
	if len(ngrams) == 0 {
		return nil, ErrNoFeatures
	}
	n := len(m.langs)
	langprob := make([]float64, n)
	rng := pyrand.New(seed)
	for trial := 0; trial < nTrial; trial++ {
		prob := make([]float64, n)
		for i := range prob {
			prob[i] = 1.0 / float64(n)
		}
		alpha := alphaDefault + float64(rng.Gauss(0.0, 1.0)*alphaWidth)
		for i := 0; ; i++ {
			m.updateLangProb(prob, ngrams[rng.Choice(len(ngrams))], alpha)
			if i%5 == 0 {
				if normalizeProb(prob) > convThreshold || i >= iterationLimit {
					break
				}
			}
		}
		for j := range langprob {
			langprob[j] += prob[j] / nTrial
		}
	}
	return langprob, nil
}

// appendText is Detector.append: URLs and e-mail addresses become spaces,
// Vietnamese is normalised, runs of spaces collapse, and at most 10000
// characters are kept.
func (m *model) appendText(text string) []rune {
	text = mustSub(m.urlRE, " ", text)
	text = mustSub(m.mailRE, " ", text)
	text = m.normalizeVi(text)
	rs := []rune(text)
	if len(rs) > maxTextLength {
		rs = rs[:maxTextLength]
	}
	out := make([]rune, 0, len(rs))
	pre := rune(0)
	for _, ch := range rs {
		if ch != ' ' || pre != ' ' {
			out = append(out, ch)
		}
		pre = ch
	}
	return out
}

func mustSub(re *pyre.Regexp, repl, s string) string {
	out, err := re.Sub(repl, s, 0)
	if err != nil {
		panic(err) // a literal replacement cannot fail
	}
	return out
}

// normalizeVi is NGram.normalize_vi.
func (m *model) normalizeVi(text string) string {
	return m.alphabetDmark.SubFunc(text, 0, func(mt *pyre.Match) string {
		alphabet := runeIndex(m.viToNormalize, []rune(mt.Group(1))[0])
		dmark := runeIndex(m.dmarkClass, []rune(mt.Group(2))[0])
		// Python indexes with the found positions; -1 means the last one.
		row := m.viNormalized[pyIndex(dmark, len(m.viNormalized))]
		return string(row[pyIndex(alphabet, len(row))])
	})
}

func pyIndex(i, n int) int {
	if i < 0 {
		return n + i
	}
	return i
}

func runeIndex(rs []rune, r rune) int {
	for i, x := range rs {
		if x == r {
			return i
		}
	}
	return -1
}

// cleaningText is Detector.cleaning_text: when Latin letters are fewer than
// half the other letters, they are dropped. (langdetect compares the block
// with a string, so every character from U+0300 up counts as non-Latin.)
func cleaningText(t []rune) []rune {
	latin, nonLatin := 0, 0
	for _, ch := range t {
		if 'A' <= ch && ch <= 'z' {
			latin++
		} else if ch >= 0x300 {
			nonLatin++
		}
	}
	if latin*2 < nonLatin {
		out := t[:0:0]
		for _, ch := range t {
			if ch < 'A' || 'z' < ch {
				out = append(out, ch)
			}
		}
		return out
	}
	return t
}

// extractNgrams is Detector._extract_ngrams.
func (m *model) extractNgrams(t []rune) []string {
	var result []string
	grams := []rune{' '}
	capital := false
	for _, ch := range t {
		// NGram.add_char
		ch = m.normalize(ch)
		last := grams[len(grams)-1]
		skip := false
		if last == ' ' {
			grams = grams[:1]
			grams[0] = ' '
			capital = false
			if ch == ' ' {
				skip = true
			}
		} else if len(grams) >= nGram {
			grams = append(grams[:0], grams[1:]...)
		}
		if !skip {
			grams = append(grams, ch)
			if pyre.IsUpperRune(ch) {
				if pyre.IsUpperRune(last) {
					capital = true
				}
			} else {
				capital = false
			}
		}
		if capital {
			continue
		}
		for n := 1; n <= nGram; n++ {
			if len(grams) < n {
				break
			}
			w := string(grams[len(grams)-n:])
			if w != "" && w != " " {
				if _, ok := m.wordProb[w]; ok {
					result = append(result, w)
				}
			}
		}
	}
	return result
}

// normalize is NGram.normalize for one character.
func (m *model) normalize(ch rune) rune {
	switch {
	case ch <= 0x7F: // Basic Latin
		if ch < 'A' || ('Z' < ch && ch < 'a') || 'z' < ch {
			return ' '
		}
	case ch <= 0xFF: // Latin-1 Supplement
		if strings.ContainsRune(m.latin1Excluded, ch) {
			return ' '
		}
	case 0x180 <= ch && ch <= 0x24F: // Latin Extended-B
		if ch == 0x219 {
			return 0x15f
		}
		if ch == 0x21b {
			return 0x163
		}
	case 0x2000 <= ch && ch <= 0x206F: // General Punctuation
		return ' '
	case 0x600 <= ch && ch <= 0x6FF: // Arabic
		if ch == 0x6cc {
			return 0x64a
		}
	case 0x1E00 <= ch && ch <= 0x1EFF: // Latin Extended Additional
		if ch >= 0x1ea0 {
			return 0x1ec3
		}
	case 0x3040 <= ch && ch <= 0x309F: // Hiragana
		return 0x3042
	case 0x30A0 <= ch && ch <= 0x30FF: // Katakana
		return 0x30a2
	case (0x3100 <= ch && ch <= 0x312F) || (0x31A0 <= ch && ch <= 0x31BF): // Bopomofo
		return 0x3105
	case 0x4E00 <= ch && ch <= 0x9FFF: // CJK Unified Ideographs
		if r, ok := m.cjkMap[ch]; ok {
			return r
		}
	case 0xAC00 <= ch && ch <= 0xD7AF: // Hangul Syllables
		return 0xac00
	}
	return ch
}

// updateLangProb is Detector._update_lang_prob.
func (m *model) updateLangProb(prob []float64, word string, alpha float64) {
	lp, ok := m.wordProb[word]
	if !ok {
		return
	}
	weight := alpha / baseFreq
	for i := range prob {
		prob[i] *= weight + lp[i]
	}
}

// normalizeProb is Detector._normalize_prob: Python's sum() adds left to
// right, as here.
func normalizeProb(prob []float64) float64 {
	maxp, sump := 0.0, 0.0
	for _, p := range prob {
		sump += p
	}
	for i, p := range prob {
		q := p / sump
		if maxp < q {
			maxp = q
		}
		prob[i] = q
	}
	return maxp
}
