// Package sympylatex parses LaTeX math as sympy's parse_latex (the ANTLR
// backend) does and compares the expressions as lm-eval's sympy calls do
// (Equal, Equiv, CloseNumbers), so that minerva_math's is_equiv and its
// math_verify port run without Python.
package sympylatex
