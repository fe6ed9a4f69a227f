#!/bin/sh
# make patches: export build/linux (base..HEAD) to patches/ as git
# format-patch files with a cover letter, and write patches/series.
# The cover letter's subject and text are kept from the current
# patches/0000-cover-letter.patch; git regenerates the shortlog and diffstat
# under them.
. "$(dirname "$0")/lib.sh"

P=$LAB/patches
git -C "$TREE" diff --quiet HEAD && [ -z "$(git -C "$TREE" status --porcelain | head -n 1)" ] ||
	die "uncommitted changes in build/linux: commit them first"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cover=$P/0000-cover-letter.patch
if [ -f "$cover" ]; then
	# Subject (after "[PATCH 0/N] ", folded lines joined) and blurb (from
	# the first blank line after the headers to the shortlog).
	sed -n '/^Subject: /,/^$/p' "$cover" | sed '$d' | tr -d '\n' |
		sed 's/^Subject: \[PATCH[^]]*\] //; s/\n //g' >"$tmp/subject"
	awk 'f && /^[A-Z].* \([0-9]+\):$/ { exit }
		f { b[n++] = $0 } !f && /^$/ { f = 1 }
		END { while (n > 0 && b[n - 1] == "") n--; for (i = 0; i < n; i++) print b[i] }' \
		"$cover" >"$tmp/blurb"
fi
rm -f "$P"/*.patch
git -C "$TREE" -c user.name="Spinlock Lab" -c user.email=lab@spinlock-lab.invalid \
	format-patch -q --cover-letter --no-signature --zero-commit \
	-o "$P" base..HEAD || die "git format-patch failed"
if [ -s "$tmp/subject" ]; then
	awk -v subjf="$tmp/subject" -v blurbf="$tmp/blurb" '
		BEGIN { getline subj <subjf; while ((getline l <blurbf) > 0) blurb = blurb l "\n" }
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
		/^\*\*\* BLURB HERE \*\*\*$/ { printf "%s", blurb; next }
		{ print }' "$cover" >"$tmp/cover" && mv "$tmp/cover" "$cover"
fi
(cd "$P" && ls *.patch) >"$P/series"
"$LAB/lab/tree.sh" --mark
cat "$P/series"
