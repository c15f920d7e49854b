package pysource

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Segment returns the source text of the top-level def or class name in a
// Python file, as ast.get_source_segment gives it for a FunctionDef or
// ClassDef: from the def line to the end of the last statement of the body
// (trailing blank and comment lines, and a comment after the last
// statement, are not part of it). It handles the indentation-delimited
// code lm-eval's task helpers are written in, not every Python file:
// a body line that continues a bracket or string at column 0 ends it early.
func Segment(src, name string) (string, bool) {
	lines := strings.SplitAfter(src, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "def "+name+"(") || strings.HasPrefix(l, "async def "+name+"(") ||
			strings.HasPrefix(l, "class "+name+"(") || strings.HasPrefix(l, "class "+name+":") {
			start = i
			break
		}
	}
	if start < 0 {
		return "", false
	}
	end := start
	for i := start + 1; i < len(lines); i++ {
		t := strings.TrimRight(lines[i], "\r\n")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if t[0] != ' ' && t[0] != '\t' {
			if strings.HasPrefix(t, "#") {
				continue
			}
			if strings.HasPrefix(t, ")") || strings.HasPrefix(t, "]") || strings.HasPrefix(t, "}") {
				end = i
				continue
			}
			break
		}
		if strings.HasPrefix(strings.TrimSpace(t), "#") {
			continue
		}
		end = i
	}
	seg := strings.Join(lines[start:end+1], "")
	return strings.TrimRight(stripTrailingComment(seg), "\r\n"), true
}

// stripTrailingComment drops a "# ..." comment after the last statement.
func stripTrailingComment(seg string) string {
	seg = strings.TrimRight(seg, "\r\n")
	nl := strings.LastIndex(seg, "\n")
	last := seg[nl+1:]
	inStr := byte(0)
	for i := 0; i < len(last); i++ {
		c := last[i]
		switch {
		case inStr != 0:
			if c == '\\' {
				i++
			} else if c == inStr {
				inStr = 0
			}
		case c == '"' || c == '\'':
			inStr = c
		case c == '#':
			return seg[:nl+1] + strings.TrimRight(last[:i], " \t")
		}
	}
	return seg
}

// Hash is the hex sha256 of s.
func Hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// Check compares each function's recorded hash with its source under
// tasksDir (a copy of lm_eval/tasks) and describes every mismatch.
func Check(tasksDir string, fns []Source) []error {
	var errs []error
	files := map[string]string{}
	for _, f := range fns {
		src, ok := files[f.File]
		if !ok {
			data, err := os.ReadFile(filepath.Join(tasksDir, filepath.FromSlash(f.File)))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			src = string(data)
			files[f.File] = src
		}
		seg, ok := Segment(src, f.Func)
		if !ok {
			errs = append(errs, fmt.Errorf("%s: no function %s", f.File, f.Func))
			continue
		}
		if got := Hash(seg); got != f.SHA256 {
			errs = append(errs, fmt.Errorf("%s:%s: source sha256 %s, port records %s", f.File, f.Func, got, f.SHA256))
		}
	}
	return errs
}
