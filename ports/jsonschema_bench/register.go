// Package jsonschema_bench registers lm_eval/tasks/jsonschema_bench's
// schema_compliance metric as unavailable: it validates with the
// jsonschema package's Draft 2020-12 validator and its format checkers
// (whose behaviour depends on the optional format packages installed),
// which lmeval does not reproduce.
package jsonschema_bench

import "github.com/lmeval/lmeval/harness/task"

func init() {
	task.RegisterUnavailable(task.Helper{File: "jsonschema_bench/metrics.py", Function: "schema_compliance",
		SHA256: "9dd41e7547652c26f6c641b4f136f5f679bd61915a439baa440c6f3cb59fbd27"}, "it validates with the Python jsonschema package's Draft 2020-12 validator and format checkers, which lmeval does not reproduce")
}
