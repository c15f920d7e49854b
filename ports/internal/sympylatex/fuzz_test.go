package sympylatex

import "testing"

// FuzzParse checks that no input panics Parse or Equal.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`\frac{d}{dx}x^2`, `\frac{\partial}{\partial x}`, `\int_0^1 x\,dx`, `\sum_{n=1}^{10} n`,
		`\lim_{x\to 0} x`, `\mathit{ab}`, `\langle x|`, `|x\rangle`, `x|_{x=1}`, `\log_2 8`,
		`\sqrt[3]{8}`, `\binom{5}{2}`, `0.25.`, `1,234.5`, `f'(x)`, `\sin^{-1} x`, `x_{1}'`,
	} {
		f.Add(s, "1")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		Equiv(a, b)
	})
}
