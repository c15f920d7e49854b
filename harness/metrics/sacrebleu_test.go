package metrics

import (
	"context"
	"math"
	"testing"
)

// Expected tokenizations from the 13a regexes run in Python's re.
func TestTokenize13a(t *testing.T) {
	for in, want := range map[string]string{
		"Hello, world!": "Hello , world !",
		"Hello world.":  "Hello world .",
		"It costs $3.50, or 1,000 yen-ish (approx.)":  "It costs $ 3.50 , or 1,000 yen-ish ( approx . )",
		"state-of-the-art &amp; 1990-2000 <skipped>x": "state-of-the-art & 1990 - 2000 x",
		"e.g. U.S.A.":           "e . g . U . S . A .",
		`don't "quote" {x}[y]~`: `don't " quote " { x } [ y ] ~`,
	} {
		if got := Tokenize13a(in); got != want {
			t.Errorf("Tokenize13a(%q) = %q, want %q", in, got, want)
		}
	}
}

// BLEU worked by hand.
//
// Segment 1: "the cat sat on the mat" vs "the cat is on the mat", 6 tokens
// each. Matches: 1-grams the x2, cat, on, mat = 5/6; 2-grams "the cat",
// "on the", "the mat" = 3/5; 3-grams "on the mat" = 1/4; 4-grams 0/3.
// Segment 2: "Hello, world!" -> Hello , world ! (4) vs "Hello world." ->
// Hello world . (3). Matches: 1-grams 2/4, 2-grams 0/3, 3-grams 0/2,
// 4-grams 0/1.
func TestBLEUByHand(t *testing.T) {
	p4 := 100 / (2.0 * 3) // exp smoothing: first zero order gets 100/(2*total)
	seg1 := math.Exp((math.Log(500.0/6) + math.Log(60) + math.Log(25) + math.Log(p4)) / 4)
	got, err := CorpusBLEU([]string{"the cat sat on the mat"}, [][]string{{"the cat is on the mat"}})
	if err != nil || !near(got, seg1, 1e-9) {
		t.Errorf("segment 1 BLEU = %v, %v; want %v", got, err, seg1)
	}
	// Corpus: sys 10, ref 9 (BP 1); correct 7,3,1,0 of totals 10,8,6,4.
	corpusWant := math.Exp((math.Log(70) + math.Log(37.5) + math.Log(100.0/6) + math.Log(100/(2.0*4))) / 4)
	got, err = CorpusBLEU([]string{"the cat sat on the mat", "Hello, world!"},
		[][]string{{"the cat is on the mat"}, {"Hello world."}})
	if err != nil || !near(got, corpusWant, 1e-9) {
		t.Errorf("corpus BLEU = %v, %v; want %v", got, err, corpusWant)
	}
	// Brevity: "the cat" vs 6 tokens: 3- and 4-gram totals are 0, so their
	// precisions stay 0 and log(0) is sacrebleu's -9999999999: BLEU 0.
	got, _ = CorpusBLEU([]string{"the cat"}, [][]string{{"the cat sat on the mat"}})
	if got != 0 {
		t.Errorf("short hypothesis BLEU = %v, want 0", got)
	}
	// Brevity penalty with matches at every order: hyp 4 tokens, ref 6:
	// "a b c d" vs "a b c d e f": precisions 100 each, BP exp(1-6/4).
	got, _ = CorpusBLEU([]string{"a b c d"}, [][]string{{"a b c d e f"}})
	if want := 100 * math.Exp(1-6.0/4); !near(got, want, 1e-9) {
		t.Errorf("BP BLEU = %v, want %v", got, want)
	}
	// Two references: counts clipped by the max over references; closest
	// reference length (4 vs 3 and 5: tie -> shorter, 3).
	got, _ = CorpusBLEU([]string{"a a b c"}, [][]string{{"a b c", "a a x y z"}})
	// 1-grams: a x2 (max ref count 2), b, c = 4/4; 2-grams: "a a" (ref2),
	// "a b", "b c" (ref1) = 3/3; 3-grams "a a b" no, "a b c" yes = 1/2;
	// 4-gram 0/1 -> 100/(2*1). BP 1 (4 >= 3).
	if want := math.Exp((math.Log(100) + math.Log(100) + math.Log(50) + math.Log(50)) / 4); !near(got, want, 1e-9) {
		t.Errorf("multi-ref BLEU = %v, want %v", got, want)
	}
}

// chrF worked by hand (char_order 6, beta 2, whitespace removed).
func TestCHRFByHand(t *testing.T) {
	// "abc" vs "abd": 1-grams 2/3, 2-grams 1/2, 3-grams 0/1, longer orders
	// have no n-grams. P = R = (2/3+1/2+0)/3, and F = P when P = R.
	p := (2.0/3 + 0.5) / 3
	got, err := CorpusCHRF([]string{"abc"}, [][]string{{"abd"}})
	if err != nil || !near(got, 100*p, 1e-9) {
		t.Errorf("chrF(abc, abd) = %v, %v; want %v", got, err, 100*p)
	}
	// "a b" -> "ab" vs "abc": 1-grams 2 of hyp 2 / ref 3; 2-grams 1 of 1 / 2.
	P, R := 1.0, (2.0/3+0.5)/2
	want := 100 * 5 * P * R / (4*P + R)
	got, _ = CorpusCHRF([]string{"a b"}, [][]string{{"abc"}})
	if !near(got, want, 1e-9) {
		t.Errorf("chrF(a b, abc) = %v, want %v", got, want)
	}
	// Corpus: statistics summed: 1-grams hyp 5 ref 6 match 4; 2-grams 3/4/2;
	// 3-grams hyp 1 ref 2 match 0.
	P = (4.0/5 + 2.0/3 + 0) / 3
	R = (4.0/6 + 2.0/4 + 0) / 3
	want = 100 * 5 * P * R / (4*P + R)
	got, _ = CorpusCHRF([]string{"abc", "a b"}, [][]string{{"abd"}, {"abc"}})
	if !near(got, want, 1e-9) {
		t.Errorf("corpus chrF = %v, want %v", got, want)
	}
	// Several references: the one with the best F is used.
	got, _ = CorpusCHRF([]string{"abc"}, [][]string{{"xyz", "abd"}})
	if !near(got, 100*p, 1e-9) {
		t.Errorf("multi-ref chrF = %v, want %v", got, 100*p)
	}
}

// TER worked by hand: edits (with block shifts counting one) / ref words.
func TestTERByHand(t *testing.T) {
	for _, tc := range []struct {
		hyp, ref string
		want     float64
	}{
		{"the cat", "The Cat", 0},                     // case-insensitive
		{"the cat sat", "the cat sat on the mat", 50}, // 3 insertions / 6
		{"b a c", "a b c", 100.0 / 3},                 // one shift / 3
		{"c d a b", "a b c d", 25},                    // one block shift / 4
		{"a b x d", "a b c d", 25},                    // one substitution
		{"", "a b", 100},                              // 2 insertions / 2
	} {
		got, err := CorpusTER([]string{tc.hyp}, [][]string{{tc.ref}})
		if err != nil || !near(got, tc.want, 1e-9) {
			t.Errorf("TER(%q, %q) = %v, %v; want %v", tc.hyp, tc.ref, got, err, tc.want)
		}
	}
	// corpus: (0 + 3 edits) / (2 + 6 words)
	got, _ := CorpusTER([]string{"the cat", "the cat sat"}, [][]string{{"the cat"}, {"the cat sat on the mat"}})
	if !near(got, 100*3.0/8, 1e-9) {
		t.Errorf("corpus TER = %v, want %v", got, 100*3.0/8)
	}
	// two references: best edits (0), mean reference length (2+6)/2
	got, _ = CorpusTER([]string{"the cat"}, [][]string{{"the cat", "the cat sat on the mat"}})
	if got != 0 {
		t.Errorf("multi-ref TER = %v, want 0", got)
	}
}

func TestSacreformatRefCount(t *testing.T) {
	// zip(*refs) keeps as many reference streams as the document with the
	// fewest references has.
	items := anys(RefPred{Refs: []string{"a b", "zzz"}, Pred: "zzz"}, RefPred{Refs: []string{"c d"}, Pred: "c d"})
	got, err := Aggregate(context.Background(), "ter", items)
	// doc 1 uses only "a b": 2 edits / 2; doc 2: 0 / 2
	if err != nil || !near(got, 50, 1e-9) {
		t.Errorf("ter = %v, %v; want 50", got, err)
	}
	if _, err := Aggregate(context.Background(), "bleu", anys(RefPred{Refs: []string{""}, Pred: "x"})); err == nil {
		t.Error("empty reference: want an error as sacrebleu raises")
	}
}

func BenchmarkTokenize13a(b *testing.B) {
	for b.Loop() {
		Tokenize13a("It costs $3.50, or 1,000 yen-ish (approx.) -- state-of-the-art.")
	}
}
