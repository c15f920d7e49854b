// Package code_x_glue ports lm_eval/tasks/code_x_glue/code-text: the code
// tokens as the prompt, the docstring tokens as the target (utils.py), and
// CodeXGLUE's smoothed sentence BLEU-4 (bleu.py, adapted from MOSES's
// bleu.py and NIST mteval-v11a's normalization).
package code_x_glue

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// joinTokens is " ".join(doc[key]).replace("\n", rep), its whitespace
// runs made single spaces (" ".join(s.strip().split())).
func joinTokens(doc task.Doc, key, rep string) (string, error) {
	v, err := pydoc.Field(doc, key)
	if err != nil {
		return "", err
	}
	s, err := pydoc.JoinStrs(" ", v)
	if err != nil {
		return "", err
	}
	s = strings.ReplaceAll(s, "\n", rep)
	return strings.Join(strings.FieldsFunc(s, pyre.IsSpace), " "), nil
}

// DocToText is utils.doc_to_text.
func DocToText(doc task.Doc) (any, error) { return joinTokens(doc, "code_tokens", " ") }

// DocToTarget is utils.doc_to_target.
func DocToTarget(doc task.Doc) (any, error) { return joinTokens(doc, "docstring_tokens", "") }

var (
	splitPunctsRe = pyre.MustCompile(`[\w]+|[^\s\w]`)
	normalize1    = []rule{
		{pyre.MustCompile(`<skipped>`), ""},
		{pyre.MustCompile(`-\n`), ""},
		{pyre.MustCompile(`\n`), " "},
	}
	normalize2 = []rule{
		{pyre.MustCompile(`([\{-\~\[-\` + "`" + ` -\&\(-\+\:-\@\/])`), ` \1 `},
		{pyre.MustCompile(`([^0-9])([\.,])`), `\1 \2 `},
		{pyre.MustCompile(`([\.,])([^0-9])`), ` \1 \2`},
		{pyre.MustCompile(`([0-9])(-)`), `\1 \2 `},
	}
)

type rule struct {
	re   *pyre.Regexp
	repl string
}

// splitPuncts is bleu.splitPuncts: words and single punctuation marks,
// space-separated.
func splitPuncts(line string) string {
	ms := splitPunctsRe.FindAll(line)
	words := make([]string, len(ms))
	for i, m := range ms {
		words[i] = m.Group(0)
	}
	return strings.Join(words, " ")
}

// normalize is bleu.normalize (nonorm off, preserve_case off).
func normalize(s string) ([]string, error) {
	var err error
	for _, r := range normalize1 {
		if s, err = r.re.Sub(r.repl, s, 0); err != nil {
			return nil, err
		}
	}
	// xml.sax.saxutils.unescape(s, {"&quot;": '"'}): &amp; last.
	s = strings.ReplaceAll(s, "&lt;", "<")
	s = strings.ReplaceAll(s, "&gt;", ">")
	s = strings.ReplaceAll(s, "&quot;", `"`)
	s = strings.ReplaceAll(s, "&amp;", "&")
	s = pyre.Lower(" " + s + " ")
	for _, r := range normalize2 {
		if s, err = r.re.Sub(r.repl, s, 0); err != nil {
			return nil, err
		}
	}
	return strings.FieldsFunc(s, pyre.IsSpace), nil
}

// countNgrams is bleu.count_ngrams: n-grams (joined by NUL) of 1..n words.
func countNgrams(words []string, n int) map[string]int {
	counts := map[string]int{}
	for k := 1; k <= n; k++ {
		for i := 0; i+k <= len(words); i++ {
			counts[strings.Join(words[i:i+k], "\x00")]++
		}
	}
	return counts
}

// Bleu is bleu.bleu(refs, candidate) (n=4, smooth=1, eff_ref_len
// "shortest"): the smoothed BLEU, then the 1- to 4-gram precisions.
func Bleu(refs []string, candidate string) ([]float64, error) {
	const n = 4
	// cook_refs
	reflens := make([]int, len(refs))
	maxcounts := map[string]int{}
	for i, r := range refs {
		words, err := normalize(r)
		if err != nil {
			return nil, err
		}
		reflens[i] = len(words)
		for g, c := range countNgrams(words, n) {
			maxcounts[g] = max(maxcounts[g], c)
		}
	}
	if len(reflens) == 0 {
		return nil, fmt.Errorf("ValueError: min() arg is an empty sequence (no references)")
	}
	// cook_test
	test, err := normalize(candidate)
	if err != nil {
		return nil, err
	}
	testlen, reflen := len(test), reflens[0]
	for _, l := range reflens[1:] {
		reflen = min(reflen, l)
	}
	var guess, correct [n]int
	for k := 1; k <= n; k++ {
		guess[k-1] = max(testlen-k+1, 0)
	}
	for g, c := range countNgrams(test, n) {
		correct[strings.Count(g, "\x00")] += min(maxcounts[g], c)
	}
	// score_cooked([test], smooth=1)
	const fmin = 2.2250738585072014e-308 // sys.float_info.min
	logbleu := 0.0
	all := make([]float64, 0, n+1)
	for k := 0; k < n; k++ {
		add := 0
		if k > 0 {
			add = 1
		}
		logbleu += math.Log(float64(correct[k]+add)+fmin) - math.Log(float64(guess[k]+add)+fmin)
		if guess[k] == 0 {
			all = append(all, -10000000.0)
		} else {
			all = append(all, math.Log(float64(correct[k])+fmin)-math.Log(float64(guess[k])))
		}
	}
	logbleu /= float64(n)
	all = append([]float64{logbleu}, all...)
	brev := math.Min(0, 1-float64(reflen+1)/float64(testlen+1))
	for i := range all {
		if i == 0 {
			all[i] += brev
		}
		all[i] = math.Exp(all[i])
	}
	return all, nil
}

// SmoothedBleu4 is bleu.smoothed_bleu_4(references, predictions): the
// mean over the pairs of their smoothed BLEU, times 100, each text
// stripped, lower-cased and split into words and punctuation first.
func SmoothedBleu4(references, predictions []string) (float64, error) {
	// bleuFromMaps(goldMap, predictionMap): the keys are the pairs'
	// positions; a reference without a prediction is skipped.
	var score [5]float64
	num := 0.0
	for i, ref := range references {
		if i >= len(predictions) {
			continue
		}
		bl, err := Bleu([]string{splitPuncts(pyre.Lower(pyre.Strip(ref)))}, splitPuncts(pyre.Lower(pyre.Strip(predictions[i]))))
		if err != nil {
			return 0, err
		}
		for j := range score {
			score[j] += bl[j]
		}
		num++
	}
	if num == 0 {
		return 0, fmt.Errorf("ZeroDivisionError: float division by zero (no prediction)")
	}
	return score[0] * 100.0 / num, nil
}

func strList(name string, l []any) ([]string, error) {
	out := make([]string, len(l))
	for i, e := range l {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("AttributeError: %s[%d] is %s, not str (%s)", name, i, pydoc.TypeName(e), pyval.Repr(e))
		}
		out[i] = s
	}
	return out, nil
}

// smoothedBleu4Metric is smoothed_bleu_4 as a metric_list function.
func smoothedBleu4Metric(_ context.Context, references, predictions []any, _ map[string]any) (any, error) {
	refs, err := strList("references", references)
	if err != nil {
		return nil, err
	}
	preds, err := strList("predictions", predictions)
	if err != nil {
		return nil, err
	}
	return SmoothedBleu4(refs, preds)
}

func init() {
	const dir = "code_x_glue/code-text/"
	task.RegisterDocFunc(task.Helper{File: dir + "utils.py", Function: "doc_to_text",
		SHA256: "286f68133fe42cc40d0259f057312bd31e61ab0fed7d4a6e1816f26d3da03f5d"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: dir + "utils.py", Function: "doc_to_target",
		SHA256: "bcc9bc4bf34a6945f72eebcae6c10eaf96086ba92cfdffbcb998c22acce9cae8"}, DocToTarget)
	task.RegisterMetric(task.Helper{File: dir + "bleu.py", Function: "smoothed_bleu_4",
		SHA256: "b70776c7ef7c21f866c7b7889394ae3bd76d3bba1971573a9644f191198e8606"}, smoothedBleu4Metric)
}
