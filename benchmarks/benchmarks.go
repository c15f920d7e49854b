// Package benchmarks holds lmeval's built-in benchmarks: task YAML in
// lm-evaluation-harness's format, embedded in the binary. The native Go
// versions of the Python helpers that YAML names with `!function`
// (hellaswag's process_docs, winogrande's partial scoring, wikitext's
// detokenizer, truthfulqa's mc2 scoring) are ports like every other, under
// ports/<lm-eval dir>; importing this package links them too, so FS's
// tasks always resolve.
//
// The harness never imports this package: callers hand FS() in
// (harness.WithBuiltinTasks, harness.RegistryOptions.Builtin), as
// database/sql never imports its drivers.
//
// The directory layout and the function names follow lm-eval's
// lm_eval/tasks tree, so a copy of lm-eval's own YAML for these tasks,
// loaded with --include_path, finds the same native functions.
package benchmarks

import (
	"embed"
	"io/fs"

	// The ports of the helpers the embedded YAML names.
	_ "github.com/lmeval/lmeval/ports/hellaswag"
	_ "github.com/lmeval/lmeval/ports/truthfulqa"
	_ "github.com/lmeval/lmeval/ports/wikitext"
	_ "github.com/lmeval/lmeval/ports/winogrande"
)

// The all: prefix keeps files whose names begin with "_", such as mmlu's
// _default_template_yaml and its group files.
//
//go:embed all:arc all:gsm8k all:hellaswag all:lambada all:mmlu all:openbookqa all:piqa all:sciq all:super_glue all:truthfulqa all:wikitext all:winogrande
var files embed.FS

// FS returns the built-in task tree: one directory per benchmark, as in
// lm-eval's lm_eval/tasks, holding YAML files and a README.md each.
func FS() fs.FS { return files }
