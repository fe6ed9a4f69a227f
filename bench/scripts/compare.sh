#!/bin/sh
# Compare two make bench runs: does the newer one change a result?
#  - every target of the older run's report.md: the verdict in both runs
#    (rows matched by their text), listed where it differs;
#  - every same-run ratio of raw/summary.tsv (metric ratio_*, the same
#    source, setting, vCPU count, interrupt mode and lock in both): whether
#    the newer run's median lies inside the older run's 95% interval.
# A run is a make bench output folder (results/, or a committed copy under
# docs/results/). Different hosts, or settings that differ, are named
# first: the comparison means most on the same host with the same settings.
# Rows are matched by their text, less the figures some quote in
# parentheses. Usage: bench/scripts/compare.sh OLD NEW
LAB=${LAB:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$LAB/lab/lib.sh"

[ $# -eq 2 ] || die "usage: bench/scripts/compare.sh OLD NEW (two make bench output folders)"
for d in "$1" "$2"; do
	[ -f "$d/raw/settings.txt" ] || die "$d is not a make bench output: no $d/raw/settings.txt"
	[ -f "$d/raw/summary.tsv" ] || die "$d has no raw/summary.tsv: run bench/scripts/report.sh $d"
	[ -f "$d/report.md" ] || die "$d has no report.md: run bench/scripts/report.sh $d"
done
old=$1 new=$2

# settings DIR: its settings, one KEY=VALUE a line (the date left out)
settings() {
	sed -n '1p' "$1/raw/settings.txt" | tr ' ' '\n' | grep '=' | grep -v '^date='
	sed -n '2,$p' "$1/raw/settings.txt"
}
echo "old: $old ($(sed -n '1s/.*date=\([^ ]*\).*/\1/p' "$old/raw/settings.txt"))"
echo "new: $new ($(sed -n '1s/.*date=\([^ ]*\).*/\1/p' "$new/raw/settings.txt"))"
tmp=$(mktemp -d) || die "cannot make a temporary folder"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
settings "$old" | sort >"$tmp/old"
settings "$new" | sort >"$tmp/new"
if ! cmp -s "$tmp/old" "$tmp/new"; then
	echo "settings that differ (- the old run's, + the new run's):"
	comm -23 "$tmp/old" "$tmp/new" | sed 's/^/  - /'
	comm -13 "$tmp/old" "$tmp/new" | sed 's/^/  + /'
fi

# The Targets table of a report: text TAB verdict, one row a line.
targets() {
	awk -F' [|] ' '/^## Targets/ { t = 1; next } /^## / { t = 0 }
		t && /^[|] / && $3 != "verdict" && $3 !~ /^-+$/ {
			sub(/^[|] /, "", $1); gsub(/\*/, "", $3)
			# figures quoted inside a row text are not part of its name
			gsub(/ \([^()]*(\[|[0-9]\.[0-9])[^()]*\)/, "", $1)
			gsub(/largest count [0-9]+/, "largest count N", $1)
			print $1 "\t" $3 }' "$1/report.md"
}
echo
echo "Targets (the older run's rows; verdicts that differ are listed):"
targets "$old" >"$tmp/targets"
targets "$new" | awk -F'\t' -v f="$tmp/targets" '
	BEGIN { while ((getline l < f) > 0) { split(l, a, "\t"); o[a[1]] = a[2]; order[++n] = a[1] } }
	!($1 in v) && !($1 in o) { printf "  only in the new run: %s (%s)\n", $1, $2; added++ }
	{ v[$1] = $2 }
	END {
		for (i = 1; i <= n; i++) {
			k = order[i]
			if (!(k in v)) { printf "  only in the old run: %s (%s)\n", k, o[k]; gone++; continue }
			if (v[k] == o[k]) { same++; continue }
			printf "  %s: %s -> %s\n", k, o[k], v[k]; changed++
		}
		printf "  %d the same, %d changed, %d not in the new run, %d only in the new run\n", same, changed, gone, added
	}'

echo
echo "Same-run ratios: the new median inside the old run's 95% interval?"
awk -F'\t' '
	FNR == 1 { file++; next }
	$6 !~ /^ratio_/ || $8 == "-" { next }
	{ k = $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 }
	file == 1 { lo[k] = $9; hi[k] = $10; med[k] = $8; next }
	k in lo && lo[k] != "-" && hi[k] != "-" {
		n++
		if ($8 + 0 >= lo[k] + 0 && $8 + 0 <= hi[k] + 0) { in_++; next }
		out++
		printf "  outside: %s %s smp=%s irq=%s %s %s: %s against %s [%s, %s]\n",
			$1, $2, $3, $4, $5, $6, $8, med[k], lo[k], hi[k]
	}
	END { printf "  %d of %d inside, %d outside\n", in_, n, out }' "$old/raw/summary.tsv" "$new/raw/summary.tsv"
