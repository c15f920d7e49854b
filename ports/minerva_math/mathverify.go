package minerva_math

import (
	"log/slog"
	"sync"
)

// MathVerify is Hugging Face math_verify's
// verify(gold=parse(goldSolution), target=parse(prediction)) as lm-eval's
// minerva_math (math_verify metric) calls it. The extraction (regular
// expressions, priorities, match order, fallback strings) and the LaTeX
// normalisation are ported from math_verify 0.8.0 and
// latex2sympy2_extended 1.11.0; the LaTeX-to-sympy conversion and sympy's
// comparisons are approximated with package sympylatex (see docs/math.md
// for the measured agreement and the known differences).
func MathVerify(goldSolution, prediction string) bool {
	return mathVerify(goldSolution, prediction, false)
}

// MathVerifyLatexGold is leaderboard/math's
// verify(parse(solution, [LatexExtractionConfig()]), parse(prediction)).
func MathVerifyLatexGold(goldSolution, prediction string) bool {
	return mathVerify(goldSolution, prediction, true)
}

func mathVerify(goldSolution, prediction string, latexGold bool) bool {
	warnOnce.Do(func() {
		slog.Warn("math_verify is ported natively with an approximate LaTeX-to-sympy step; rare verdicts can differ from Hugging Face math_verify's (see docs/math.md)")
	})
	return mvVerify(mvParse(goldSolution, latexGold), mvParse(prediction, false))
}

var warnOnce sync.Once
