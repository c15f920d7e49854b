package jinja

import (
	"sync"

	"github.com/lmeval/lmeval/python/pyre"
)

// regexCache holds compiled patterns; templates apply the same few patterns
// to millions of documents.
var regexCache sync.Map // pattern -> *pyre.Regexp

func compileRegex(pattern string) (*pyre.Regexp, error) {
	if r, ok := regexCache.Load(pattern); ok {
		return r.(*pyre.Regexp), nil
	}
	r, err := pyre.Compile(pattern)
	if err != nil {
		return nil, err
	}
	regexCache.Store(pattern, r)
	return r, nil
}

// pySub is Python's re.sub(pattern, repl, s, count=count), with Python's
// pattern and replacement syntax.
func pySub(s, pattern, repl string, count int) (string, error) {
	re, err := compileRegex(pattern)
	if err != nil {
		return "", err
	}
	return re.Sub(repl, s, count)
}
