package nerel_bench

import (
	"slices"
	"strings"

	"github.com/lmeval/lmeval/ports/internal/pyfn"
)

// RussianStem is nltk.stem.snowball.RussianStemmer().stem(word) (nltk
// 3.10.4, the same as 3.8's): a word with no character above U+00FF is returned as it is;
// otherwise it is transliterated to nltk's Latin form, its suffixes
// removed by the Snowball steps over the regions RV and R2, and
// transliterated back. The tables are stemmer_gen.go's.
func RussianStem(word string) string {
	exceeded := false
	for _, r := range word {
		if r > 255 {
			exceeded = true
			break
		}
	}
	if !exceeded {
		return word
	}
	for _, p := range cyrillicToRoman {
		word = strings.ReplaceAll(word, p[0], p[1])
	}
	rv, r2 := regions(word)
	// cut drops an ASCII suffix from word, r2 and rv.
	cut := func(suffix string) {
		word, r2, rv = dropLast(word, len(suffix)), dropLast(r2, len(suffix)), dropLast(rv, len(suffix))
	}
	// afterA is the guard of some suffixes: "i^a" or "a" precedes them in RV.
	afterA := func(suffix string) bool {
		n := len(suffix)
		a, b := -n-3, -n
		c := -n - 1
		return pyfn.Slice(rv, a, &b) == "i^a" || pyfn.Slice(rv, c, &b) == "a"
	}
	// remove tries the suffixes in order; the guarded ones need afterA.
	remove := func(suffixes, guarded []string) bool {
		for _, s := range suffixes {
			if !strings.HasSuffix(rv, s) {
				continue
			}
			if slices.Contains(guarded, s) {
				if afterA(s) {
					cut(s)
					return true
				}
				continue
			}
			cut(s)
			return true
		}
		return false
	}
	// Step 1
	if !remove(perfectiveGerundSuffixes, gerundGuarded) {
		for _, s := range reflexiveSuffixes {
			if strings.HasSuffix(rv, s) {
				cut(s)
				break
			}
		}
		adjectival := remove(adjectivalSuffixes, adjectivalGuarded)
		verb := false
		if !adjectival {
			verb = remove(verbSuffixes, verbGuarded)
		}
		if !adjectival && !verb {
			for _, s := range nounSuffixes {
				if strings.HasSuffix(rv, s) {
					cut(s)
					break
				}
			}
		}
	}
	// Step 2
	if strings.HasSuffix(rv, "i") {
		word, r2 = dropLast(word, 1), dropLast(r2, 1)
	}
	// Step 3
	for _, s := range derivationalSuffixes {
		if strings.HasSuffix(r2, s) {
			word = dropLast(word, len(s))
			break
		}
	}
	// Step 4
	undouble, superlative := false, false
	if strings.HasSuffix(word, "nn") {
		word = dropLast(word, 1)
		undouble = true
	}
	if !undouble {
		for _, s := range superlativeSuffixes {
			if strings.HasSuffix(word, s) {
				word = dropLast(word, len(s))
				superlative = true
				break
			}
		}
		if strings.HasSuffix(word, "nn") {
			word = dropLast(word, 1)
		}
	}
	if !undouble && !superlative && strings.HasSuffix(word, "'") {
		word = dropLast(word, 1)
	}
	for _, p := range romanToCyrillic {
		word = strings.ReplaceAll(word, p[0], p[1])
	}
	return word
}

// dropLast is s[:-n] on code points (Python's: "" when n >= len(s)).
func dropLast(s string, n int) string {
	m := -n
	return pyfn.Slice(s, 0, &m)
}

var vowels = []rune{'A', 'U', 'E', 'a', 'e', 'i', 'o', 'u', 'y'}

func isVowel(r rune) bool { return slices.Contains(vowels, r) }

// regions is __regions_russian: RV (after the first vowel) and R2, with
// the digraphs i^a, i^u and e` counted as one vowel.
func regions(word string) (rv, r2 string) {
	w := []rune(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(word, "i^a", "A"), "i^u", "U"), "e`", "E"))
	var r1 []rune
	for i := 1; i < len(w); i++ {
		if !isVowel(w[i]) && isVowel(w[i-1]) {
			r1 = w[i+1:]
			break
		}
	}
	var r2r []rune
	for i := 1; i < len(r1); i++ {
		if !isVowel(r1[i]) && isVowel(r1[i-1]) {
			r2r = r1[i+1:]
			break
		}
	}
	var rvr []rune
	for i := range w {
		if isVowel(w[i]) {
			rvr = w[i+1:]
			break
		}
	}
	back := strings.NewReplacer("A", "i^a", "U", "i^u", "E", "e`")
	return back.Replace(string(rvr)), back.Replace(string(r2r))
}
