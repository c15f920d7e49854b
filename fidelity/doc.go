// Package fidelity holds no code: its tests check, family by family, that
// lmeval builds the requests the real lm-eval builds and scores the same
// answers to the same numbers (README.md). The expected outputs come from
// lm-eval's own code (gen.py); the tests need no Python.
package fidelity
