#!/usr/bin/env bash
# validate-share.sh: the share of an lm-eval task tree's YAML tasks that
# `lmeval validate --no_docs` accepts.
#
# usage: scripts/validate-share.sh [LMEVAL] [TASKS_DIR]
#   LMEVAL     the lmeval binary (default ./lmeval)
#   TASKS_DIR  lm-eval's lm_eval/tasks (default ../shared/lm-eval/lm_eval/tasks)
#
# Every task `lmeval ls subtasks` lists as defined under TASKS_DIR is
# validated (in chunks, so the command line stays short); a task counts as
# accepted when validate reports no problem naming it. The failing tasks'
# first problems are written to $OUT (default /tmp/validate-share.txt).
# The groups' share: scripts/validate-groups.sh.
set -euo pipefail
LMEVAL=${1:-./lmeval}
TASKS=${2:-../shared/lm-eval/lm_eval/tasks}
OUT=${OUT:-/tmp/validate-share.txt}
TASKS=$(cd "$TASKS" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$LMEVAL" ls subtasks --include_path "$TASKS" |
	awk -v root="$TASKS/" 'NR > 1 { for (i = 2; i <= NF; i++) if (index($i, root) == 1) { print $1; break } }' | sort -u >"$tmp/names"
split -l 500 "$tmp/names" "$tmp/chunk."
: >"$tmp/problems"
for f in "$tmp"/chunk.*; do
	"$LMEVAL" validate --no_docs --include_path "$TASKS" --tasks "$(paste -sd, "$f")" >>"$tmp/problems" 2>&1 || true
done
# A problem line starts with "NAME (FILE): ..." or "NAME: ..."; a "note:"
# (a task that runs only with --confirm_run_unsafe_code) is not a problem.
grep -v '): note: ' "$tmp/problems" | sed -n 's/^\([^ :(]*\)[ :].*/\1/p' | sort -u >"$tmp/bad.all"
comm -12 "$tmp/names" "$tmp/bad.all" >"$tmp/bad"
total=$(wc -l <"$tmp/names")
bad=$(wc -l <"$tmp/bad")
ok=$((total - bad))
cp "$tmp/problems" "$OUT"
awk -v ok="$ok" -v total="$total" 'BEGIN { printf "validate accepts %d of %d YAML tasks (%.1f%%)\n", ok, total, 100 * ok / total }'
