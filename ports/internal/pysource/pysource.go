// Package pysource names the lm-eval Python functions a port reproduces.
package pysource

// Source is one Python function (or class) of lm-eval's task tree: File is
// relative to lm_eval/tasks/, Func its name, SHA256 the hex sha256 of its
// source text (ast.get_source_segment of the FunctionDef/ClassDef, UTF-8).
type Source struct {
	File, Func, SHA256 string
}

// SHA256Of returns the sha256 that srcs record for file's function fn,
// for a task.Helper registration; it panics when srcs lack it (a port's
// Sources list and its registrations must agree).
func SHA256Of(srcs []Source, file, fn string) string {
	for _, s := range srcs {
		if s.File == file && s.Func == fn {
			return s.SHA256
		}
	}
	panic("pysource: no sha256 recorded for " + file + ":" + fn)
}
