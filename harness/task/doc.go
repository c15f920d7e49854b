// Package task reads lm-evaluation-harness (lm-eval) task YAML and turns
// documents into exactly the prompts and requests lm-eval builds.
//
// A Registry indexes YAML trees (the built-in tasks, --include_path
// directories) by their top-level task, group and tag keys; Load resolves
// names, groups, tags, wildcards and file paths into a Selection of Tasks
// and Groups, merging `include:` files, applying group overrides and
// resolving `!function module.fn` tags to the native ports registered for
// lm-eval's helpers (hooks.go: one registration function per hook kind,
// keyed by lm-eval's file, function and source sha256; provenance.go:
// the generated table they are checked against). A task whose function
// has no native implementation is reported unavailable while every other
// task loads.
//
// Task.BuildRequests loads a task's documents through a DocLoader and reproduces
// lm-eval's ConfigurableTask: doc_to_text, doc_to_target and doc_to_choice,
// description, delimiters, gen_prefix, few-shot sampling with CPython's
// random (package pyrand) in lm-eval's order of draws, and
// construct_requests. Validate checks tasks without a model; WriteOut
// prints what the model will see.
package task
