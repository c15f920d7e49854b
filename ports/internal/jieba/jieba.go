// Package jieba is jieba 0.42.1's default segmentation
// (jieba.cut(sentence, cut_all=False, HMM=True)): the dictionary's
// maximum-probability route over the DAG of known words, with the HMM
// (Viterbi over B/M/E/S) for runs of unknown single characters. data/
// holds jieba's dictionary and HMM emissions (gen_data.py), with Python's
// math.log of each frequency, so the route sums the same floats.
package jieba

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:embed data/*.gz
var dataFS embed.FS

const minFloat = -3.14e100

var (
	loadOnce sync.Once
	loadErr  error
	freq     map[string]int
	logFreq  map[int]float64
	logTotal float64
	emit     [4]map[rune]float64 // B, M, E, S
)

// states in jieba's 'BMES' order.
const (
	sB = iota
	sM
	sE
	sS
)

var (
	stateName = [4]byte{'B', 'M', 'E', 'S'}
	startP    = [4]float64{-0.26268660809250016, minFloat, minFloat, -1.4652633398537678}
	// transP[from][to], minFloat where jieba's prob_trans has no entry.
	transP = [4][4]float64{
		sB: {minFloat, -0.916290731874155, -0.51082562376599, minFloat},
		sM: {minFloat, -1.2603623820268226, -0.33344856811948514, minFloat},
		sE: {-0.5897149736854513, minFloat, minFloat, -0.8085250474669937},
		sS: {-0.7211965654669841, minFloat, minFloat, -0.6658631448798212},
	}
	prevStatus = [4][2]int{sB: {sE, sS}, sM: {sM, sB}, sE: {sB, sM}, sS: {sS, sE}}
)

func readGz(name string) ([]byte, error) {
	f, err := dataFS.Open("data/" + name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}

func load() error {
	freq = make(map[string]int, 600000)
	for _, name := range []string{"dict0.txt.gz", "dict1.txt.gz"} {
		b, err := readGz(name)
		if err != nil {
			return err
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
			sp := bytes.LastIndexByte(line, ' ')
			if sp < 0 {
				return fmt.Errorf("jieba: bad dictionary line %q", line)
			}
			word := string(line[:sp])
			n, err := strconv.Atoi(string(line[sp+1:]))
			if err != nil {
				return fmt.Errorf("jieba: bad dictionary line %q", line)
			}
			freq[word] = n
			for i := range word {
				if i > 0 {
					if _, ok := freq[word[:i]]; !ok {
						freq[word[:i]] = 0
					}
				}
			}
		}
	}
	b, err := readGz("logs.txt.gz")
	if err != nil {
		return err
	}
	logFreq = map[int]float64{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if f[0] == "total" {
			logTotal, err = strconv.ParseFloat(f[2], 64)
		} else {
			var n int
			n, err = strconv.Atoi(f[0])
			if err == nil {
				logFreq[n], err = strconv.ParseFloat(f[1], 64)
			}
		}
		if err != nil {
			return fmt.Errorf("jieba: logs: %v", err)
		}
	}
	if b, err = readGz("emit.txt.gz"); err != nil {
		return err
	}
	for i := range emit {
		emit[i] = map[rune]float64{}
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		st := strings.IndexByte("BMES", line[0])
		ch, size := utf8.DecodeRuneInString(line[1:])
		v, err := strconv.ParseFloat(line[1+size+1:], 64)
		if st < 0 || err != nil {
			return fmt.Errorf("jieba: bad emission line %q", line)
		}
		emit[st][ch] = v
	}
	return nil
}

func ensure() error {
	loadOnce.Do(func() { loadErr = load() })
	return loadErr
}

// isHan is re_han_default's class: [\u4E00-\u9FD5a-zA-Z0-9+#&\._%\-].
func isHan(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FD5 || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
		strings.ContainsRune("+#&._%-", r)
}

// Cut is list(jieba.cut(sentence)).
func Cut(sentence string) ([]string, error) {
	if err := ensure(); err != nil {
		return nil, err
	}
	rs := []rune(sentence)
	var out []string
	for i := 0; i < len(rs); {
		j := i
		for j < len(rs) && isHan(rs[j]) == isHan(rs[i]) {
			j++
		}
		if isHan(rs[i]) {
			out = cutDAG(rs[i:j], out)
		} else {
			for k := i; k < j; k++ {
				if rs[k] == '\r' && k+1 < j && rs[k+1] == '\n' {
					out = append(out, "\r\n")
					k++
					continue
				}
				out = append(out, string(rs[k]))
			}
		}
		i = j
	}
	return out, nil
}

func cutDAG(s []rune, out []string) []string {
	n := len(s)
	dag := make([][]int, n)
	for k := 0; k < n; k++ {
		i := k
		frag := string(s[k])
		for i < n {
			f, ok := freq[frag]
			if !ok {
				break
			}
			if f != 0 {
				dag[k] = append(dag[k], i)
			}
			i++
			if i < n {
				frag = string(s[k : i+1])
			}
		}
		if len(dag[k]) == 0 {
			dag[k] = []int{k}
		}
	}
	type step struct {
		p float64
		x int
	}
	route := make([]step, n+1)
	for idx := n - 1; idx >= 0; idx-- {
		best := step{math.Inf(-1), -1}
		for _, x := range dag[idx] {
			lf := 0.0
			if f := freq[string(s[idx:x+1])]; f != 0 {
				var ok bool
				if lf, ok = logFreq[f]; !ok {
					lf = math.Log(float64(f))
				}
			}
			p := lf - logTotal + route[x+1].p
			if best.x < 0 || p > best.p || p == best.p && x > best.x {
				best = step{p, x}
			}
		}
		route[idx] = best
	}
	var buf []rune
	flush := func() {
		switch {
		case len(buf) == 1:
			out = append(out, string(buf))
		case freq[string(buf)] == 0:
			out = hmmCut(buf, out)
		default:
			for _, r := range buf {
				out = append(out, string(r))
			}
		}
		buf = buf[:0]
	}
	for x := 0; x < n; {
		y := route[x].x + 1
		if y-x == 1 {
			buf = append(buf, s[x])
		} else {
			if len(buf) > 0 {
				flush()
			}
			out = append(out, string(s[x:y]))
		}
		x = y
	}
	if len(buf) > 0 {
		flush()
	}
	return out
}

var finalSkip = regexp.MustCompile(`[a-zA-Z0-9]+(?:\.[0-9]+)?%?`)

func isCJK(r rune) bool { return r >= 0x4E00 && r <= 0x9FD5 }

// hmmCut is finalseg.cut.
func hmmCut(s []rune, out []string) []string {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isCJK(s[j]) == isCJK(s[i]) {
			j++
		}
		if isCJK(s[i]) {
			out = viterbiCut(s[i:j], out)
		} else {
			blk := string(s[i:j])
			last := 0
			for _, m := range finalSkip.FindAllStringIndex(blk, -1) {
				if m[0] > last {
					out = append(out, blk[last:m[0]])
				}
				out = append(out, blk[m[0]:m[1]])
				last = m[1]
			}
			if last < len(blk) {
				out = append(out, blk[last:])
			}
		}
		i = j
	}
	return out
}

func emitP(st int, r rune) float64 {
	if v, ok := emit[st][r]; ok {
		return v
	}
	return minFloat
}

// viterbiCut is finalseg.__cut.
func viterbiCut(s []rune, out []string) []string {
	n := len(s)
	v := make([][4]float64, n)
	back := make([][4]int, n)
	for y := 0; y < 4; y++ {
		v[0][y] = startP[y] + emitP(y, s[0])
	}
	for t := 1; t < n; t++ {
		for y := 0; y < 4; y++ {
			em := emitP(y, s[t])
			bestP, bestS := 0.0, -1
			for _, y0 := range prevStatus[y] {
				p := v[t-1][y0] + transP[y0][y] + em
				if bestS < 0 || p > bestP || p == bestP && stateName[y0] > stateName[bestS] {
					bestP, bestS = p, y0
				}
			}
			v[t][y], back[t][y] = bestP, bestS
		}
	}
	state := sE
	if p := v[n-1][sS]; p > v[n-1][sE] || p == v[n-1][sE] { // max((V, y) for y in 'ES'): 'S' wins ties
		state = sS
	}
	pos := make([]int, n)
	for t := n - 1; t >= 0; t-- {
		pos[t] = state
		state = back[t][state]
	}
	begin, next := 0, 0
	for i, r := range s {
		switch pos[i] {
		case sB:
			begin = i
		case sE:
			out = append(out, string(s[begin:i+1]))
			next = i + 1
		case sS:
			out = append(out, string(r))
			next = i + 1
		}
	}
	if next < n {
		out = append(out, string(s[next:]))
	}
	return out
}
