// Package e2e runs lmeval's built-in tasks end to end on a real model:
// the fixture documents of benchmarks/testdata read by the dataset loader,
// prompts and requests built by the task layer, answered in-process by
// llama.cpp on ../shared's stories260K, and scored by the tasks' native
// process_results. It holds tests only; they need the native engine
// (make test) and skip when ../shared is absent.
package e2e
