#!/bin/sh
# Compares how lmeval and lm-eval's own loader (PyYAML) read every YAML file
# of an lm-eval task tree; prints the files read differently and the count.
#   scripts/pyyaml-scan.sh [TASKS_DIR]   (default ../shared/lm-eval/lm_eval/tasks)
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
tasks=$(cd "${1:-$root/../shared/lm-eval/lm_eval/tasks}" && pwd)
out=$(mktemp /tmp/pyyaml-scan.XXXXXX.jsonl)
PYTHONPATH=$root/harness/task/testdata/pyyaml:/work/shared/lm-eval-runner/stubs:${LMEVALREF_SRC:-/tmp/lmevalref/src} \
	/usr/bin/python3 "$root/harness/task/testdata/pyyaml/scan.py" "$tasks" "$out"
cd "$root"
LMEVAL_PYYAML_SCAN=$out go test ./harness/task -run 'TestPyYAMLScan$' -count=1 -v | grep -E 'read differently|^\s+pyyaml_test.go|^(ok|FAIL|---)' | cut -c1-400
rm -f "$out"
