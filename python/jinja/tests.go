package jinja

import (
	"errors"
	"fmt"

	"github.com/nikolalohinski/gonja/v2/nodes"

	"github.com/lmeval/lmeval/python/pyval"
)

// testFunc implements one Jinja2 test (`x is name(args)`).
type testFunc func(v any, args []any) (bool, error)

func (r *renderer) applyTest(tc *nodes.TestCall, v any, sc *scope) (any, error) {
	t, ok := tests[tc.Name]
	if !ok {
		return nil, templateError{fmt.Errorf("no test named '%s' found", tc.Name)}
	}
	args := make([]any, len(tc.Args))
	for i, a := range tc.Args {
		var err error
		if args[i], err = r.eval(a, sc); err != nil {
			return nil, err
		}
	}
	if u, ok := v.(*undefined); ok {
		// Jinja2's type tests answer for an undefined value (isinstance
		// is false, callable is true: Undefined defines __call__); the
		// others use it and fail, unless it is a lenient Undefined.
		switch tc.Name {
		case "defined", "undefined":
		case "none", "string", "number", "integer", "float", "mapping", "boolean", "true", "false", "sameas", "escaped":
			return false, nil
		case "sequence":
			return u.soft, nil
		case "callable":
			return true, nil
		case "iterable":
			if u.soft {
				return true, nil
			}
			return nil, u.err()
		case "lower", "upper":
			if u.soft {
				return false, nil
			}
			return nil, u.err()
		default:
			if !u.soft {
				return nil, u.err()
			}
		}
	}
	return t(v, args)
}

// tests are Jinja2's builtin tests (jinja2/tests.py TESTS), set by init:
// the filter and test tests look names up in it.
var tests map[string]testFunc

// builtinTests maps each Jinja2 test name to its implementation, a named
// function test<Name> after Jinja2's test_<name>.
func builtinTests() map[string]testFunc {
	return map[string]testFunc{
		"!=":          testNe,
		"<":           testLt,
		"<=":          testLe,
		"==":          testEq,
		">":           testGt,
		">=":          testGe,
		"boolean":     testBoolean,
		"callable":    testCallable,
		"defined":     testDefined,
		"divisibleby": testDivisibleby,
		"eq":          testEq,
		"equalto":     testEq,
		"escaped":     testEscaped,
		"even":        testEven,
		"false":       testFalse,
		"filter":      testFilter,
		"float":       testFloat,
		"ge":          testGe,
		"greaterthan": testGt,
		"gt":          testGt,
		"in":          testIn,
		"integer":     testInteger,
		"iterable":    testIterable,
		"le":          testLe,
		"lessthan":    testLt,
		"lower":       testLower,
		"lt":          testLt,
		"mapping":     testMapping,
		"ne":          testNe,
		"none":        testNone,
		"number":      testNumber,
		"odd":         testOdd,
		"sameas":      testSameas,
		"sequence":    testSequence,
		"string":      testString,
		"test":        testTest,
		"true":        testTrue,
		"undefined":   testUndefined,
		"upper":       testUpper,
	}
}

func testDefined(v any, _ []any) (bool, error) {
	_, u := v.(*undefined)
	return !u, nil
}

func testUndefined(v any, _ []any) (bool, error) {
	_, u := v.(*undefined)
	return u, nil
}

// undefinedErr is the error a type test raises on an undefined value (one
// that applyTest has not answered already), nil for any other value.
func undefinedErr(v any) error {
	if u, ok := v.(*undefined); ok {
		return u.err()
	}
	return nil
}

func testNone(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	return v == nil, nil
}

func testBoolean(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	_, ok := v.(bool)
	return ok, nil
}

func testTrue(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	b, ok := v.(bool)
	return ok && b, nil
}

func testFalse(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	b, ok := v.(bool)
	return ok && !b, nil
}

func testString(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	_, ok := v.(string)
	return ok, nil
}

func testNumber(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	_, ok := number(v)
	return ok, nil
}

func testInteger(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	_, ok := v.(int64)
	return ok, nil
}

func testFloat(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	_, ok := v.(float64)
	return ok, nil
}

func testMapping(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	_, ok := v.(map[string]any)
	return ok, nil
}

func testSequence(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	_, err := length(v)
	return err == nil, nil
}

func testIterable(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	_, err := iterate(nil, v)
	return err == nil, nil
}

func testCallable(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	switch v.(type) {
	case callable, *macro:
		return true, nil
	}
	return false, nil
}

func testLower(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	s, _ := str(v)
	return strIs("islower", s), nil
}

func testUpper(v any, _ []any) (bool, error) {
	if err := undefinedErr(v); err != nil {
		return false, err
	}
	s, _ := str(v)
	return strIs("isupper", s), nil
}

func testOdd(v any, _ []any) (bool, error) {
	m, err := arith(tokMod, "%", v, int64(2))
	return err == nil && pyval.Equal(m, int64(1)), err
}

func testEven(v any, _ []any) (bool, error) {
	m, err := arith(tokMod, "%", v, int64(2))
	return err == nil && pyval.Equal(m, int64(0)), err
}

func testDivisibleby(v any, args []any) (bool, error) {
	if len(args) != 1 {
		return false, errors.New("divisibleby needs one argument")
	}
	m, err := arith(tokMod, "%", v, args[0])
	if err != nil {
		return false, err
	}
	return pyval.Equal(m, int64(0)), nil
}

func testIn(v any, args []any) (bool, error) {
	if len(args) != 1 {
		return false, errors.New("in test needs one argument")
	}
	return contains(args[0], v)
}

func testEq(v any, args []any) (bool, error) {
	if len(args) != 1 {
		return false, errors.New("test needs one argument")
	}
	return pyval.Equal(v, args[0]), nil
}

func testNe(v any, args []any) (bool, error) {
	ok, err := testEq(v, args)
	return !ok, err
}

func testLt(v any, args []any) (bool, error) {
	return compareTest(v, args, func(c int) bool { return c < 0 })
}

func testLe(v any, args []any) (bool, error) {
	return compareTest(v, args, func(c int) bool { return c <= 0 })
}

func testGt(v any, args []any) (bool, error) {
	return compareTest(v, args, func(c int) bool { return c > 0 })
}

func testGe(v any, args []any) (bool, error) {
	return compareTest(v, args, func(c int) bool { return c >= 0 })
}

// compareTest is f of the comparison of v with the test's one argument.
func compareTest(v any, args []any, f func(int) bool) (bool, error) {
	if len(args) != 1 {
		return false, errors.New("comparison test needs one argument")
	}
	c, err := compare(v, args[0])
	return f(c), err
}

func testEscaped(any, []any) (bool, error) { return false, nil }

func testFilter(v any, _ []any) (bool, error) {
	return isNamed(v, func(s string) bool { _, ok := filters[s]; return ok })
}

func testTest(v any, _ []any) (bool, error) {
	return isNamed(v, func(s string) bool { _, ok := tests[s]; return ok })
}

func testSameas(v any, args []any) (bool, error) {
	if len(args) != 1 {
		return false, errors.New("sameas needs one argument")
	}
	switch v.(type) {
	case nil, bool:
		return v == args[0], nil
	}
	return false, nil
}

// isNamed is `value in environment.filters` (or tests): a dict lookup,
// which fails for unhashable values.
func isNamed(v any, known func(string) bool) (bool, error) {
	switch x := v.(type) {
	case string:
		return known(x), nil
	case []any, map[string]any:
		return false, fmt.Errorf("unhashable type: '%s'", typeName(v))
	}
	return false, nil
}
