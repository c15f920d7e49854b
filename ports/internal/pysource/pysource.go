// Package pysource names the lm-eval Python functions a port reproduces.
package pysource

// Source is one Python function (or class) of lm-eval's task tree: File is
// relative to lm_eval/tasks/, Func its name, SHA256 the hex sha256 of its
// source text (ast.get_source_segment of the FunctionDef/ClassDef, UTF-8).
type Source struct {
	File, Func, SHA256 string
}
