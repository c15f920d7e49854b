#!/usr/bin/env bash
# gen.sh: regenerate harness/task/pysources_gen.go and docs/helpers.md from
# lm-eval's task tree (default ../shared/lm-eval/lm_eval/tasks) and the
# ports lmeval registers (scripts/pyhelpers/listports).
set -euo pipefail
cd "$(dirname "$0")/../.."
TASKS=${1:-../shared/lm-eval/lm_eval/tasks}
ports=$(mktemp)
trap 'rm -f "$ports"' EXIT
echo '[]' >"$ports"
go run ./scripts/pyhelpers/listports >"$ports"
python3 scripts/pyhelpers/scan.py "$TASKS" harness/task/pysources_gen.go docs/helpers.md "$ports"
gofmt -w harness/task/pysources_gen.go
