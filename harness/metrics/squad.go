package metrics

import "math"

// The official SQuAD evaluation scripts' answer comparison (SQuAD 1.1's
// evaluate.py, SQuAD 2.0's evaluate-v2.0.py, which transformers'
// squad_metrics and Hugging Face evaluate's squad_v2 compute_score.py
// copy), and evaluate's squad_v2 metric over a corpus.

// NormalizeSQuAD is normalize_answer: lower-case, drop string.punctuation,
// drop the articles a/an/the (whole words, Unicode \b), collapse
// whitespace. It is HELM's normalize_text, which copies it.
func NormalizeSQuAD(s string) string { return NormalizeHELM(s) }

// SQuADTokens is get_tokens: the normalized answer's words, none for "".
func SQuADTokens(s string) []string {
	if s == "" {
		return nil
	}
	return pySplit(NormalizeSQuAD(s))
}

// SQuADExact is compute_exact(a_gold, a_pred).
func SQuADExact(gold, pred string) int {
	if NormalizeSQuAD(gold) == NormalizeSQuAD(pred) {
		return 1
	}
	return 0
}

// SQuADF1 is SQuAD 2.0's compute_f1(a_gold, a_pred): the F1 of the
// normalized tokens; when either side has none, 1 if both have none.
func SQuADF1(gold, pred string) float64 {
	g, p := SQuADTokens(gold), SQuADTokens(pred)
	if len(g) == 0 || len(p) == 0 {
		if len(g) == len(p) {
			return 1
		}
		return 0
	}
	return TokenF1(p, g)
}

// TokenF1 is the token-overlap F1 of the SQuAD scripts and the helpers
// that copy them (Counter(pred) & Counter(gold)): 0 with nothing in
// common, so also when either side is empty.
func TokenF1(pred, gold []string) float64 {
	counts := map[string]int{}
	for _, t := range gold {
		counts[t]++
	}
	same := 0
	for _, t := range pred {
		if counts[t] > 0 {
			counts[t]--
			same++
		}
	}
	if same == 0 {
		return 0
	}
	precision := 1.0 * float64(same) / float64(len(pred))
	recall := 1.0 * float64(same) / float64(len(gold))
	return (2 * precision * recall) / (precision + recall)
}

// SQuADF1v1 is SQuAD 1.1's f1_score(prediction, ground_truth): the token
// F1 with no special case for empty answers (0 unless a token is shared).
func SQuADF1v1(pred, gold string) float64 {
	return TokenF1(pySplit(NormalizeSQuAD(pred)), pySplit(NormalizeSQuAD(gold)))
}

// SQuADv2Prediction is one prediction of evaluate's squad_v2 metric.
type SQuADv2Prediction struct {
	ID                  string
	PredictionText      string
	NoAnswerProbability float64
}

// SQuADv2Reference is one reference: the question's id and its answers'
// texts (none for an unanswerable question).
type SQuADv2Reference struct {
	ID      string
	Answers []string
}

// SQuADv2Result is what evaluate's squad_v2 compute returns, in its order:
// the HasAns_ and NoAns_ entries only when there are such questions.
type SQuADv2Result struct {
	Keys   []string
	Values map[string]float64
}

// SQuADv2 is evaluate's squad_v2 metric (SquadV2._compute over
// compute_score.py, no_answer_threshold 1.0). The no-answer probabilities
// pass through the metric's float32 feature first, as evaluate stores
// its inputs in Arrow with the declared types.
func SQuADv2(preds []SQuADv2Prediction, refs []SQuADv2Reference) SQuADv2Result {
	const threshold = 1.0
	naProbs := newOrdered[float64]()
	predText := newOrdered[string]()
	for _, p := range preds {
		naProbs.set(p.ID, float64(float32(p.NoAnswerProbability)))
		predText.set(p.ID, p.PredictionText)
	}
	hasAns := newOrdered[bool]()
	for _, r := range refs {
		hasAns.set(r.ID, len(r.Answers) > 0)
	}
	var hasIDs, noIDs []string
	for _, k := range hasAns.keys {
		if hasAns.m[k] {
			hasIDs = append(hasIDs, k)
		} else {
			noIDs = append(noIDs, k)
		}
	}
	// get_raw_scores
	exactRaw, f1Raw := newOrdered[float64](), newOrdered[float64]()
	for _, r := range refs {
		var golds []string
		for _, a := range r.Answers {
			if NormalizeSQuAD(a) != "" {
				golds = append(golds, a)
			}
		}
		if len(golds) == 0 {
			golds = []string{""}
		}
		pred, ok := predText.m[r.ID]
		if !ok {
			continue // "Missing prediction"
		}
		e, f := math.Inf(-1), math.Inf(-1)
		for _, g := range golds {
			e = math.Max(e, float64(SQuADExact(g, pred)))
			f = math.Max(f, SQuADF1(g, pred))
		}
		exactRaw.set(r.ID, e)
		f1Raw.set(r.ID, f)
	}
	thresh := func(scores *ordered[float64]) *ordered[float64] {
		out := newOrdered[float64]()
		for _, k := range scores.keys {
			if naProbs.m[k] > threshold {
				v := 0.0
				if !hasAns.m[k] {
					v = 1
				}
				out.set(k, v)
			} else {
				out.set(k, scores.m[k])
			}
		}
		return out
	}
	exactT, f1T := thresh(exactRaw), thresh(f1Raw)
	res := SQuADv2Result{Values: map[string]float64{}}
	put := func(k string, v float64) {
		if _, ok := res.Values[k]; !ok {
			res.Keys = append(res.Keys, k)
		}
		res.Values[k] = v
	}
	evalDict := func(prefix string, ids []string) {
		total := len(ids)
		e, f := 0.0, 0.0
		for _, k := range ids {
			e += exactT.m[k]
			f += f1T.m[k]
		}
		put(prefix+"exact", 100.0*e/float64(total))
		put(prefix+"f1", 100.0*f/float64(total))
		put(prefix+"total", float64(total))
	}
	evalDict("", exactT.keys)
	if len(hasIDs) > 0 {
		evalDict("HasAns_", hasIDs)
	}
	if len(noIDs) > 0 {
		evalDict("NoAns_", noIDs)
	}
	// find_all_best_thresh
	order := make([]string, len(naProbs.keys))
	copy(order, naProbs.keys)
	stableSortBy(order, func(a, b string) bool { return naProbs.m[a] < naProbs.m[b] })
	best := func(scores *ordered[float64]) (float64, float64) {
		cur := float64(len(noIDs))
		bestScore, bestThresh := cur, 0.0
		for _, k := range order {
			s, ok := scores.m[k]
			if !ok {
				continue
			}
			var diff float64
			switch {
			case hasAns.m[k]:
				diff = s
			case predText.m[k] != "":
				diff = -1
			}
			cur += diff
			if cur > bestScore {
				bestScore, bestThresh = cur, naProbs.m[k]
			}
		}
		return 100.0 * bestScore / float64(len(scores.keys)), bestThresh
	}
	be, bet := best(exactRaw)
	bf, bft := best(f1Raw)
	put("best_exact", be)
	put("best_exact_thresh", bet)
	put("best_f1", bf)
	put("best_f1_thresh", bft)
	return res
}

// ordered is a Python dict: insertion order, later values replacing
// earlier ones in place.
type ordered[V any] struct {
	keys []string
	m    map[string]V
}

func newOrdered[V any]() *ordered[V] { return &ordered[V]{m: map[string]V{}} }

func (o *ordered[V]) set(k string, v V) {
	if _, ok := o.m[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.m[k] = v
}

// stableSortBy is Python's sorted(key=...): stable.
func stableSortBy(s []string, less func(a, b string) bool) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && less(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
