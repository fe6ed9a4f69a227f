#!/bin/sh
# make patches: export build/linux (base..HEAD) to patches/ as git
# format-patch files with a cover letter, and write patches/series. The
# first two patches (fixes to 6.12 that stand without a new lock) are also
# exported on their own to patches/fixes/, with a cover letter and series
# of their own. Each cover letter's subject and text are kept from the
# current one (its 0000-cover-letter.patch); git regenerates the shortlog
# and diffstat under them.
. "$(dirname "$0")/lib.sh"

P=$LAB/patches
git -C "$TREE" diff --quiet HEAD && [ -z "$(git -C "$TREE" status --porcelain | head -n 1)" ] ||
	die "uncommitted changes in build/linux: commit them first"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# export DIR RANGE: format-patch RANGE into DIR, keeping DIR's cover text.
export_series() {
	dir=$1 range=$2
	cover=$dir/0000-cover-letter.patch
	mkdir -p "$dir"
	rm -f "$tmp/subject" "$tmp/blurb"
	if [ -f "$cover" ]; then
		# Subject (after "[PATCH 0/N] ", folded lines joined) and blurb
		# (from the first blank line after the headers to the shortlog).
		sed -n '/^Subject: /,/^$/p' "$cover" | sed '$d' | tr -d '\n' |
			sed 's/^Subject: \[PATCH[^]]*\] //; s/\n //g' >"$tmp/subject"
		awk 'f && /^[A-Z].* \([0-9]+\):$/ { exit }
			f { b[n++] = $0 } !f && /^$/ { f = 1 }
			END { while (n > 0 && b[n - 1] == "") n--; for (i = 0; i < n; i++) print b[i] }' \
			"$cover" >"$tmp/blurb"
	fi
	rm -f "$dir"/*.patch
	git -C "$TREE" -c user.name="Spinlock Lab" -c user.email=lab@spinlock-lab.invalid \
		format-patch -q --cover-letter --no-signature --zero-commit \
		-o "$dir" "$range" || die "git format-patch $range failed"
	if [ -s "$tmp/subject" ]; then
		awk -v subjf="$tmp/subject" -v blurbf="$tmp/blurb" '
			BEGIN { getline subj <subjf; while ((getline l <blurbf) > 0) blurb = blurb l "\n" }
			/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
			/^\*\*\* BLURB HERE \*\*\*$/ { printf "%s", blurb; next }
			{ print }' "$cover" >"$tmp/cover" && mv "$tmp/cover" "$cover"
	fi
	(cd "$dir" && ls *.patch) >"$dir/series"
}

export_series "$P" base..HEAD
second=$(git -C "$TREE" rev-list --reverse base..HEAD | sed -n 2p)
[ -n "$second" ] || die "the series has fewer than two patches"
export_series "$P/fixes" "base..$second"
"$LAB/lab/tree.sh" --mark
cat "$P/series"
