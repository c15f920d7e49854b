package task

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// brokenFile is a YAML file the index had to skip (it does not parse, or
// an include of it does not): the names it seems to define, from a line
// scan of its top-level task, group and tag keys and its file name, so
// that asking for one of them reports the file's error instead of "not
// found".
type brokenFile struct {
	file  string
	names []string
	err   error
}

// declaredNames scans data for top-level `task:`, `group:` and `tag:`
// lines with a plain name, without parsing YAML; p's base name (without
// .yaml) is included too.
func declaredNames(data []byte, p string) []string {
	names := []string{strings.TrimSuffix(path.Base(p), ".yaml")}
	for _, line := range bytes.Split(data, []byte("\n")) {
		k, v, ok := bytes.Cut(bytes.TrimRight(line, "\r"), []byte(":"))
		if !ok {
			continue
		}
		switch string(k) {
		case "task", "group", "tag":
		default:
			continue
		}
		if i := bytes.Index(v, []byte(" #")); i >= 0 {
			v = v[:i]
		}
		n := strings.Trim(strings.TrimSpace(string(v)), `"'`)
		if n != "" && !strings.ContainsAny(n, "[]{},&*!|>") {
			names = append(names, n)
		}
	}
	return names
}

// brokenFor returns the skipped file that declares name, if any.
func (r *Registry) brokenFor(name string) (brokenFile, bool) {
	for i := len(r.broken) - 1; i >= 0; i-- { // later trees win, as for entries
		for _, n := range r.broken[i].names {
			if n == name {
				return r.broken[i], true
			}
		}
	}
	return brokenFile{}, false
}

// notFoundError builds Match's error for the patterns that matched
// nothing: a pattern declared by a file that does not parse gets that
// file's error; any other name gets the closest of the registered names
// and alsoKnown (names of a tree not indexed yet).
func (r *Registry) notFoundError(missing, alsoKnown []string) error {
	var broken, notFound []string
	var all []string
	for _, p := range missing {
		if b, ok := r.brokenFor(p); ok {
			broken = append(broken, fmt.Sprintf("task %s: %s", p, fileError(b.file, b.err)))
			continue
		}
		if all == nil {
			all = append(r.All(), alsoKnown...)
			sort.Strings(all)
			all = slices.Compact(all)
		}
		if s := suggest(p, all); len(s) > 0 {
			p += " (did you mean " + strings.Join(s, ", ") + "?)"
		}
		notFound = append(notFound, p)
	}
	if len(notFound) > 0 {
		broken = append(broken, "tasks not found: "+strings.Join(notFound, ", "))
	}
	return fmt.Errorf("%s", strings.Join(broken, "; "))
}

// NotFound is the error Match gives for patterns that match nothing here,
// suggesting the closest of the registered names and alsoKnown: a name
// declared by a file the index skipped gets that file, line and error.
func (r *Registry) NotFound(patterns, alsoKnown []string) error {
	return r.notFoundError(patterns, alsoKnown)
}

// Declares reports whether name is registered or declared by a file the
// index had to skip.
func (r *Registry) Declares(name string) bool {
	if _, ok := r.entries[name]; ok {
		return true
	}
	_, ok := r.brokenFor(name)
	return ok
}

// Skipped lists the files of directories (not the built-in tree) that the
// index had to skip, each as "FILE:LINE: error" where the line is known.
func (r *Registry) Skipped() []string {
	var out []string
	for _, b := range r.broken {
		if filepath.IsAbs(b.file) {
			out = append(out, fileError(b.file, b.err))
		}
	}
	return out
}

// yamlLine finds yaml.v3's "yaml: line N: " in an error.
var yamlLine = regexp.MustCompile(`yaml: line (\d+): `)

// fileError is "FILE:LINE: message" for a YAML error with a line, else
// "FILE: error".
func fileError(file string, err error) string {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatchIndex(msg); m != nil {
		return file + ":" + msg[m[2]:m[3]] + ": " + msg[:m[0]] + msg[m[1]:]
	}
	return file + ": " + msg
}

// suggest returns up to three registered names close to p: those within a
// small edit distance (transpositions count one), nearest first, else
// those that extend p by an underscore-separated suffix. Wildcard
// patterns get none.
func suggest(p string, names []string) []string {
	if strings.ContainsAny(p, "*?[") || p == "" {
		return nil
	}
	const most = 3
	limit := 1 + len([]rune(p))/5
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, n := range names {
		if d := osaDistance(strings.ToLower(p), strings.ToLower(n), limit); d <= limit {
			cs = append(cs, cand{n, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	for _, c := range cs {
		if len(out) < most {
			out = append(out, c.name)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, n := range names { // names are sorted
		if strings.HasPrefix(n, p+"_") && len(out) < most {
			out = append(out, n)
		}
	}
	return out
}

// osaDistance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and adjacent transpositions, each
// one edit), or a value above limit as soon as it must exceed it.
func osaDistance(a, b string, limit int) int {
	x, y := []rune(a), []rune(b)
	if d := len(x) - len(y); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}
