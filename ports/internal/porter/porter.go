// Package porter is NLTK's PorterStemmer in its default mode
// (NLTK_EXTENSIONS), as rouge_score's tokenizer uses it with
// use_stemmer=True (nltk/stem/porter.py, nltk 3.10.4).
package porter

import "strings"

var pool = map[string]string{}

func init() {
	for key, vals := range map[string][]string{
		"sky": {"sky", "skies"}, "die": {"dying"}, "lie": {"lying"}, "tie": {"tying"}, "news": {"news"},
		"inning": {"innings", "inning"}, "outing": {"outings", "outing"}, "canning": {"cannings", "canning"},
		"howe": {"howe"}, "proceed": {"proceed"}, "exceed": {"exceed"}, "succeed": {"succeed"},
	} {
		for _, v := range vals {
			pool[v] = key
		}
	}
}

func isVowel(c byte) bool { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' }

func isConsonant(w []rune, i int) bool {
	if w[i] < 128 && isVowel(byte(w[i])) {
		return false
	}
	if w[i] == 'y' {
		if i == 0 {
			return true
		}
		return !isConsonant(w, i-1)
	}
	return true
}

func measure(stem string) int {
	w := []rune(stem)
	n, prevV := 0, false
	for i := range w {
		c := isConsonant(w, i)
		if c && prevV {
			n++
		}
		prevV = !c
	}
	return n
}

func positive(stem string) bool { return measure(stem) > 0 }

func containsVowel(stem string) bool {
	w := []rune(stem)
	for i := range w {
		if !isConsonant(w, i) {
			return true
		}
	}
	return false
}

func endsDoubleConsonant(word string) bool {
	w := []rune(word)
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && isConsonant(w, n-1)
}

func endsCVC(word string) bool {
	w := []rune(word)
	n := len(w)
	return n >= 3 && isConsonant(w, n-3) && !isConsonant(w, n-2) && isConsonant(w, n-1) &&
		w[n-1] != 'w' && w[n-1] != 'x' && w[n-1] != 'y' ||
		n == 2 && !isConsonant(w, 0) && isConsonant(w, 1)
}

type rule struct {
	suffix, replacement string
	cond                func(stem string) bool
}

func dropLast(s string, n int) string {
	r := []rune(s)
	return string(r[:max(0, len(r)-n)])
}

// apply is _apply_rule_list: the first rule whose suffix the word has
// decides (the word unchanged when its condition fails).
func apply(word string, rules []rule) string {
	for _, r := range rules {
		if r.suffix == "*d" && endsDoubleConsonant(word) {
			stem := dropLast(word, 2)
			if r.cond == nil || r.cond(stem) {
				return stem + r.replacement
			}
			return word
		}
		if strings.HasSuffix(word, r.suffix) {
			stem := word[:len(word)-len(r.suffix)]
			if r.cond == nil || r.cond(stem) {
				return stem + r.replacement
			}
			return word
		}
	}
	return word
}

func runeLen(s string) int { return len([]rune(s)) }

func step1a(w string) string {
	if strings.HasSuffix(w, "ies") && runeLen(w) == 4 {
		return w[:len(w)-3] + "ie"
	}
	return apply(w, []rule{{"sses", "ss", nil}, {"ies", "i", nil}, {"ss", "ss", nil}, {"s", "", nil}})
}

func step1b(w string) string {
	if strings.HasSuffix(w, "ied") {
		if runeLen(w) == 4 {
			return w[:len(w)-3] + "ie"
		}
		return w[:len(w)-3] + "i"
	}
	if strings.HasSuffix(w, "eed") {
		stem := w[:len(w)-3]
		if measure(stem) > 0 {
			return stem + "ee"
		}
		return w
	}
	inter, ok := "", false
	for _, suf := range []string{"ed", "ing"} {
		if strings.HasSuffix(w, suf) {
			inter = w[:len(w)-len(suf)]
			if containsVowel(inter) {
				ok = true
				break
			}
		}
	}
	if !ok {
		return w
	}
	ir := []rune(inter)
	last := string(ir[len(ir)-1])
	return apply(inter, []rule{
		{"at", "ate", nil}, {"bl", "ble", nil}, {"iz", "ize", nil},
		{"*d", last, func(string) bool { return last != "l" && last != "s" && last != "z" }},
		{"", "e", func(stem string) bool { return measure(stem) == 1 && endsCVC(stem) }},
	})
}

func step1c(w string) string {
	return apply(w, []rule{{"y", "i", func(stem string) bool {
		r := []rune(stem)
		return len(r) > 1 && isConsonant(r, len(r)-1)
	}}})
}

func step2(w string) string {
	if strings.HasSuffix(w, "alli") && positive(w[:len(w)-4]) {
		return step2(w[:len(w)-4] + "al")
	}
	p := positive
	return apply(w, []rule{
		{"ational", "ate", p}, {"tional", "tion", p}, {"enci", "ence", p}, {"anci", "ance", p}, {"izer", "ize", p},
		{"bli", "ble", p}, {"alli", "al", p}, {"entli", "ent", p}, {"eli", "e", p}, {"ousli", "ous", p},
		{"ization", "ize", p}, {"ation", "ate", p}, {"ator", "ate", p}, {"alism", "al", p}, {"iveness", "ive", p},
		{"fulness", "ful", p}, {"ousness", "ous", p}, {"aliti", "al", p}, {"iviti", "ive", p}, {"biliti", "ble", p},
		{"fulli", "ful", p}, {"logi", "log", func(string) bool { return positive(dropLast(w, 3)) }},
	})
}

func step3(w string) string {
	p := positive
	return apply(w, []rule{{"icate", "ic", p}, {"ative", "", p}, {"alize", "al", p}, {"iciti", "ic", p},
		{"ical", "ic", p}, {"ful", "", p}, {"ness", "", p}})
}

func step4(w string) string {
	g := func(stem string) bool { return measure(stem) > 1 }
	return apply(w, []rule{
		{"al", "", g}, {"ance", "", g}, {"ence", "", g}, {"er", "", g}, {"ic", "", g}, {"able", "", g}, {"ible", "", g},
		{"ant", "", g}, {"ement", "", g}, {"ment", "", g}, {"ent", "", g},
		{"ion", "", func(stem string) bool {
			return measure(stem) > 1 && (strings.HasSuffix(stem, "s") || strings.HasSuffix(stem, "t"))
		}},
		{"ou", "", g}, {"ism", "", g}, {"ate", "", g}, {"iti", "", g}, {"ous", "", g}, {"ive", "", g}, {"ize", "", g},
	})
}

func step5a(w string) string {
	if strings.HasSuffix(w, "e") {
		stem := w[:len(w)-1]
		if measure(stem) > 1 {
			return stem
		}
		if measure(stem) == 1 && !endsCVC(stem) {
			return stem
		}
	}
	return w
}

func step5b(w string) string {
	return apply(w, []rule{{"ll", "l", func(string) bool { return measure(dropLast(w, 1)) > 1 }}})
}

// Stem is PorterStemmer().stem(word).
func Stem(word string) string {
	stem := strings.ToLower(word)
	// nltk 3.10.4 looks the lower-cased word up (3.8 looked word up, so
	// "Skies" missed "skies")
	if v, ok := pool[stem]; ok {
		return v
	}
	if runeLen(word) <= 2 {
		return stem
	}
	return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(stem))))))))
}
