#!/bin/sh
# Keep a make bench run for the docs to cite: copy its report, plots,
# settings and summary, and its raw .txt files packed in raw/data.tar.gz
# (unpack them in raw/ to rerun bench/scripts/report.sh on the copy), to a
# folder to commit, docs/results/DATE-CPU[-WHAT]/. The console logs stay
# behind.
# Usage: bench/scripts/keep.sh SRC DEST   (e.g. results docs/results/2026-12-06-amd-epyc)
LAB=${LAB:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$LAB/lab/lib.sh"

[ $# -eq 2 ] || die "usage: bench/scripts/keep.sh SRC DEST (a make bench output, a new folder)"
src=$1 dest=$2
[ -f "$src/raw/settings.txt" ] || die "$src is not a make bench output: no $src/raw/settings.txt"
{ [ -f "$src/report.md" ] && [ -f "$src/raw/summary.tsv" ]; } || die "$src has no report: run bench/scripts/report.sh $src"
[ ! -e "$dest" ] || die "$dest exists: not replacing it"
txt=
for f in "$src"/raw/*.txt; do
	[ -f "$f" ] && [ "${f##*/}" != settings.txt ] && txt="$txt ${f##*/}"
done
[ -n "$txt" ] || die "$src/raw has no data files (*.txt): not a run's own output"
mkdir -p "$dest/raw" || die "cannot make $dest/raw"
cp "$src/report.md" "$dest/" && cp "$src"/*.png "$dest/" &&
	cp "$src/raw/settings.txt" "$src/raw/summary.tsv" "$dest/raw/" ||
	{ rm -rf "$dest"; die "copying $src to $dest failed"; }
# shellcheck disable=SC2086 # the file names, as the loop above found them
(cd "$src/raw" && tar czf - $txt) >"$dest/raw/data.tar.gz" ||
	{ rm -rf "$dest"; die "packing $src/raw/*.txt failed"; }
echo "$dest: $(du -sk "$dest" | cut -f1) KiB"
