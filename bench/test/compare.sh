#!/bin/sh
# bench/scripts/compare.sh must see a change: a committed run against
# itself changes nothing; a doctored copy (one verdict turned, one ratio's
# median moved outside its interval) is reported as both; a folder that
# is not a make bench output is refused with one line and a non-zero exit.
# Usage: bench/test/compare.sh   (from bench/ or the top folder)
top=$(cd "$(dirname "$0")/../.." && pwd)
cmp=$top/bench/scripts/compare.sh
run=$(ls -d "$top"/docs/results/*/ 2>/dev/null | head -n 1)
run=${run%/}
fail() { echo "FAIL compare: $*"; exit 1; }
[ -f "$run/raw/summary.tsv" ] || fail "no committed run under docs/results/"
tmp=$(mktemp -d) || fail "cannot make a temporary folder"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

out=$("$cmp" "$run" "$run") || fail "a run against itself: exit $?"
echo "$out" | grep -q ' 0 changed, 0 not in the new run, 0 only in the new run$' || fail "a run against itself changed a verdict: $out"
echo "$out" | grep -q ' 0 outside$' || fail "a run against itself has a ratio outside: $out"

mkdir -p "$tmp/d/raw"
cp "$run/raw/settings.txt" "$tmp/d/raw/"
sed '0,/| met |/s//| **missed** |/' "$run/report.md" >"$tmp/d/report.md"
awk -F'\t' 'BEGIN { OFS = "\t" } NR > 1 && $6 ~ /^ratio_/ && $10 != "-" && !d { $8 = $10 * 2 + 1; d = 1 } { print }' \
	"$run/raw/summary.tsv" >"$tmp/d/raw/summary.tsv"
out=$("$cmp" "$run" "$tmp/d") || fail "the doctored copy: exit $?"
echo "$out" | grep -q ': met -> missed$' || fail "a turned verdict not reported: $out"
echo "$out" | grep -q ' 1 changed, ' || fail "a turned verdict not counted: $out"
echo "$out" | grep -q '^  outside: ' || fail "a median moved outside its interval not reported: $out"

err=$("$cmp" "$run" "$tmp" 2>&1) && fail "a folder without raw/settings.txt accepted"
[ -n "$err" ] && [ "$(echo "$err" | wc -l)" -eq 1 ] || fail "a bad folder: not one line: $err"
echo "ok compare: a run against itself unchanged; a turned verdict and a moved ratio reported; a bad folder refused"
