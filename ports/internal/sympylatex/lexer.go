package sympylatex

import (
	"strings"
)

// tokKind is a token type of sympy's LaTeX.g4 lexer.
type tokKind int

const (
	tEOF tokKind = iota
	tComma
	tDot
	tAdd
	tSub
	tMul
	tDiv
	tLParen
	tRParen
	tLBrace
	tRBrace
	tLBraceLit
	tRBraceLit
	tLBracket
	tRBracket
	tBar
	tRBar
	tLBar
	tLAngle
	tRAngle
	tFuncLim
	tLimApproach
	tFuncInt
	tFuncSum
	tFuncProd
	tFuncNormal // \exp \log \lg \ln and the trigonometric functions
	tLFloor
	tRFloor
	tLCeil
	tRCeil
	tFuncSqrt
	tFuncOverline
	tCmdTimes
	tCmdCdot
	tCmdDiv
	tCmdFrac
	tCmdBinom
	tCmdMathit
	tUnderscore
	tCaret
	tColon
	tDifferential
	tLetter
	tDigit
	tEqual
	tNeq
	tLT
	tLTE
	tGT
	tGTE
	tBang
	tQuotes
	tSymbol
)

type token struct {
	kind  tokKind
	text  string
	start int // byte offset in the input
}

// skipped commands (WS, spacing, \left, \right and IGNORE) of the grammar.
var skipCmds = []string{
	`\,`, `\thinspace`, `\:`, `\medspace`, `\;`, `\thickspace`, `\quad`, `\qquad`,
	`\!`, `\negthinspace`, `\negmedspace`, `\negthickspace`, `\left`, `\right`,
	`\vrule`, `\vcenter`, `\vbox`, `\vskip`, `\vspace`, `\hfil`,
	`\*`, `\-`, `\.`, `\/`, `\"`, `\(`, `\=`,
}

// fixed literal tokens, in rule order (earlier wins a tie in length).
var literalToks = []struct {
	s string
	k tokKind
}{
	{`\{`, tLBraceLit}, {`\}`, tRBraceLit},
	{`\right|`, tRBar}, {`\left|`, tLBar},
	{`\langle`, tLAngle}, {`\rangle`, tRAngle},
	{`\lim`, tFuncLim},
	{`\to`, tLimApproach}, {`\rightarrow`, tLimApproach}, {`\Rightarrow`, tLimApproach},
	{`\longrightarrow`, tLimApproach}, {`\Longrightarrow`, tLimApproach},
	{`\int\limits`, tFuncInt}, {`\int`, tFuncInt},
	{`\sum`, tFuncSum}, {`\prod`, tFuncProd},
	{`\exp`, tFuncNormal}, {`\log`, tFuncNormal}, {`\lg`, tFuncNormal}, {`\ln`, tFuncNormal},
	{`\sin`, tFuncNormal}, {`\cos`, tFuncNormal}, {`\tan`, tFuncNormal}, {`\csc`, tFuncNormal},
	{`\sec`, tFuncNormal}, {`\cot`, tFuncNormal},
	{`\arcsin`, tFuncNormal}, {`\arccos`, tFuncNormal}, {`\arctan`, tFuncNormal},
	{`\arccsc`, tFuncNormal}, {`\arcsec`, tFuncNormal}, {`\arccot`, tFuncNormal},
	{`\sinh`, tFuncNormal}, {`\cosh`, tFuncNormal}, {`\tanh`, tFuncNormal},
	{`\arsinh`, tFuncNormal}, {`\arcosh`, tFuncNormal}, {`\artanh`, tFuncNormal},
	{`\lfloor`, tLFloor}, {`\rfloor`, tRFloor}, {`\lceil`, tLCeil}, {`\rceil`, tRCeil},
	{`\sqrt`, tFuncSqrt}, {`\overline`, tFuncOverline},
	{`\times`, tCmdTimes}, {`\cdot`, tCmdCdot}, {`\div`, tCmdDiv},
	{`\frac`, tCmdFrac}, {`\dfrac`, tCmdFrac}, {`\tfrac`, tCmdFrac},
	{`\binom`, tCmdBinom}, {`\dbinom`, tCmdBinom}, {`\tbinom`, tCmdBinom},
	{`\mathit`, tCmdMathit},
	{`\neq`, tNeq},
	{`\leqq`, tLTE}, {`\leqslant`, tLTE}, {`\leq`, tLTE}, {`\le`, tLTE},
	{`\geqq`, tGTE}, {`\geqslant`, tGTE}, {`\geq`, tGTE}, {`\ge`, tGTE},
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isWSChar(c byte) bool      { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// lex splits s into tokens the way the ANTLR lexer of sympy's grammar does
// (longest match, the earlier rule on a tie). It stops at the first
// character no rule matches and reports its token index in errAt (-1 when
// the whole input lexed); the ANTLR lexer produces tokens lazily, so such an
// error only matters if the parser looks that far.
func lex(s string) (toks []token, errAt int) {
	i := 0
	for i < len(s) {
		c := s[i]
		if isWSChar(c) {
			i++
			continue
		}
		// longest match among the candidate rules
		bestLen, bestKind, skip := 0, tEOF, false
		consider := func(n int, k tokKind, sk bool) {
			if n > bestLen {
				bestLen, bestKind, skip = n, k, sk
			}
		}
		if c == '\\' {
			for _, cmd := range skipCmds {
				if strings.HasPrefix(s[i:], cmd) {
					consider(len(cmd), tEOF, true)
				}
			}
			for _, lt := range literalToks {
				if strings.HasPrefix(s[i:], lt.s) {
					consider(len(lt.s), lt.k, false)
				}
			}
			// SYMBOL: '\' [a-zA-Z]+
			j := i + 1
			for j < len(s) && isASCIILetter(s[j]) {
				j++
			}
			if j > i+1 {
				consider(j-i, tSymbol, false)
			}
		} else {
			switch c {
			case ',':
				consider(1, tComma, false)
			case '.':
				consider(1, tDot, false)
			case '+':
				consider(1, tAdd, false)
			case '-':
				consider(1, tSub, false)
			case '*':
				consider(1, tMul, false)
			case '/':
				consider(1, tDiv, false)
			case '(':
				consider(1, tLParen, false)
			case ')':
				consider(1, tRParen, false)
			case '{':
				consider(1, tLBrace, false)
			case '}':
				consider(1, tRBrace, false)
			case '[':
				consider(1, tLBracket, false)
			case ']':
				consider(1, tRBracket, false)
			case '|':
				consider(1, tBar, false)
			case '_':
				consider(1, tUnderscore, false)
			case '^':
				consider(1, tCaret, false)
			case ':':
				consider(1, tColon, false)
			case '<':
				consider(1, tLT, false)
			case '>':
				consider(1, tGT, false)
			case '!':
				consider(1, tBang, false)
			case '\'':
				j := i
				for j < len(s) && s[j] == '\'' {
					j++
				}
				consider(j-i, tQuotes, false)
			case '=':
				// '=' (WS*? '&')?
				n := 1
				j := i + 1
				for j < len(s) && isWSChar(s[j]) {
					j++
				}
				if j < len(s) && s[j] == '&' {
					n = j + 1 - i
				}
				consider(n, tEqual, false)
			case '&':
				j := i + 1
				for j < len(s) && isWSChar(s[j]) {
					j++
				}
				if j < len(s) && s[j] == '=' {
					consider(j+1-i, tEqual, false)
				}
			}
			if c >= '0' && c <= '9' {
				consider(1, tDigit, false)
			}
			if isASCIILetter(c) {
				consider(1, tLetter, false)
				if c == 'd' {
					// DIFFERENTIAL: 'd' WS_CHAR*? ([a-zA-Z] | '\' [a-zA-Z]+)
					j := i + 1
					for j < len(s) && isWSChar(s[j]) {
						j++
					}
					if j < len(s) && isASCIILetter(s[j]) {
						consider(j+1-i, tDifferential, false)
					} else if j+1 < len(s) && s[j] == '\\' && isASCIILetter(s[j+1]) {
						k := j + 1
						for k < len(s) && isASCIILetter(s[k]) {
							k++
						}
						consider(k-i, tDifferential, false)
					}
				}
			}
		}
		if bestLen == 0 {
			return toks, len(toks)
		}
		if !skip {
			toks = append(toks, token{kind: bestKind, text: s[i : i+bestLen], start: i})
		}
		i += bestLen
	}
	return toks, -1
}
