#!/usr/bin/env bash
# validate-groups.sh: the share of an lm-eval task tree's groups that
# `lmeval validate --no_docs` accepts (validate-share.sh's sibling, for
# groups).
#
# usage: scripts/validate-groups.sh [LMEVAL] [TASKS_DIR]
#   LMEVAL     the lmeval binary (default ./lmeval)
#   TASKS_DIR  lm-eval's lm_eval/tasks (default ../shared/lm-eval/lm_eval/tasks)
#
# Every group `lmeval ls groups` lists as defined under TASKS_DIR is
# validated on its own (`validate --tasks GROUP`, which checks the group and
# every task under it; about 0.3 s a group with a warm index cache); a group
# counts as accepted when validate reports no problem ("note:" lines, such as
# a task that runs only with --confirm_run_unsafe_code, are not problems).
# Each failing group and its first problem are written to $OUT (default
# /tmp/validate-groups.txt), one "GROUP<TAB>PROBLEM" line each.
set -euo pipefail
LMEVAL=${1:-./lmeval}
TASKS=${2:-../shared/lm-eval/lm_eval/tasks}
OUT=${OUT:-/tmp/validate-groups.txt}
TASKS=$(cd "$TASKS" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$LMEVAL" ls groups --include_path "$TASKS" |
	awk -v root="$TASKS/" 'NR > 1 { for (i = 2; i <= NF; i++) if (index($i, root) == 1) { print $1; break } }' | sort -u >"$tmp/names"
: >"$tmp/bad"
while read -r g; do
	"$LMEVAL" validate --no_docs --include_path "$TASKS" --tasks "$g" >"$tmp/out" 2>&1 || true
	# Problem lines: everything but "ok: ...", notes and the summary line.
	first=$(grep -v -e '^ok: ' -e '): note: ' -e '^lmeval validate: [0-9]* problem(s)$' "$tmp/out" | head -1 || true)
	if [ -n "$first" ] || grep -q '^lmeval validate: [0-9]* problem(s)$' "$tmp/out"; then
		printf '%s\t%s\n' "$g" "${first:-$(tail -1 "$tmp/out")}" >>"$tmp/bad"
	fi
done <"$tmp/names"
total=$(wc -l <"$tmp/names")
bad=$(wc -l <"$tmp/bad")
ok=$((total - bad))
cp "$tmp/bad" "$OUT"
awk -v ok="$ok" -v total="$total" 'BEGIN { printf "groups: %d of %d (%.1f%%)\n", ok, total, 100 * ok / total }'
