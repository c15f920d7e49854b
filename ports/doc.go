// Package ports holds native ports of lm-eval's Python task helpers, one
// Go package per lm-eval task directory (ports/bbh is lm_eval/tasks/bbh).
// Each package's register.go registers its functions with the
// registration function of their hook kind (task.RegisterDocFunc,
// task.RegisterProcessResults, ...) under a task.Helper: the lm-eval file
// and function they reproduce and the sha256 of that function's Python
// source; ports/all imports them all. docs/helpers.md lists lm-eval's helpers and their ports.
package ports
