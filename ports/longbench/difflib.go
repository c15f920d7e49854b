package longbench

import "math"

// seqRatio is difflib.SequenceMatcher(None, a, b).ratio() over code
// points, with autojunk (b's elements more frequent than 1% + 1 of it are
// left out of b2j when b has 200 elements or more) and no junk function.
func seqRatio(a, b []rune) float64 {
	b2j := map[rune][]int{}
	for j, r := range b {
		b2j[r] = append(b2j[r], j)
	}
	if n := len(b); n >= 200 {
		ntest := n/100 + 1
		for r, idx := range b2j {
			if len(idx) > ntest {
				delete(b2j, r)
			}
		}
	}
	// find_longest_match; bjunk is empty, so only the first two extension
	// loops of CPython's can move the match.
	longest := func(alo, ahi, blo, bhi int) (int, int, int) {
		besti, bestj, bestsize := alo, blo, 0
		j2len := map[int]int{}
		for i := alo; i < ahi; i++ {
			newj2len := map[int]int{}
			for _, j := range b2j[a[i]] {
				if j < blo {
					continue
				}
				if j >= bhi {
					break
				}
				k := j2len[j-1] + 1
				newj2len[j] = k
				if k > bestsize {
					besti, bestj, bestsize = i-k+1, j-k+1, k
				}
			}
			j2len = newj2len
		}
		for besti > alo && bestj > blo && a[besti-1] == b[bestj-1] {
			besti, bestj, bestsize = besti-1, bestj-1, bestsize+1
		}
		for besti+bestsize < ahi && bestj+bestsize < bhi && a[besti+bestsize] == b[bestj+bestsize] {
			bestsize++
		}
		return besti, bestj, bestsize
	}
	matches := 0
	queue := [][4]int{{0, len(a), 0, len(b)}}
	for len(queue) > 0 {
		q := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		alo, ahi, blo, bhi := q[0], q[1], q[2], q[3]
		i, j, k := longest(alo, ahi, blo, bhi)
		if k > 0 {
			matches += k
			if alo < i && blo < j {
				queue = append(queue, [4]int{alo, i, blo, j})
			}
			if i+k < ahi && j+k < bhi {
				queue = append(queue, [4]int{i + k, ahi, j + k, bhi})
			}
		}
	}
	if n := len(a) + len(b); n > 0 {
		return 2.0 * float64(matches) / float64(n)
	}
	return 1.0
}

// FuzzRatio is fuzzywuzzy's fuzz.ratio(s1, s2) with difflib's
// SequenceMatcher (fuzzywuzzy without python-Levenshtein, as
// `pip install lm_eval[longbench]` installs it): 100 for equal strings, 0
// when one is empty, else round(100 * ratio) (half to even).
func FuzzRatio(s1, s2 string) int {
	if s1 == s2 {
		return 100
	}
	if s1 == "" || s2 == "" {
		return 0
	}
	return int(math.RoundToEven(100 * seqRatio([]rune(s1), []rune(s2))))
}
