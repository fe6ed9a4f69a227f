#!/bin/sh
# Unpack Debian's linux-source-6.12 into build/linux as a git repository and
# apply patches/series with git am. Does nothing when the tree already
# carries exactly this series on exactly this tarball.
#
# build/linux is where developers edit the series (make patches exports it),
# so this never throws work away: it refuses a tree with uncommitted changes,
# or whose HEAD is not the series it last applied or exported (commits not
# yet exported with make patches), with a one-line error.
# Usage: lab/tree.sh           bring build/linux to patches/series
#        lab/tree.sh --mark    record build/linux's HEAD as the series
#                              (make patches, after exporting it)
. "$(dirname "$0")/lib.sh"

SERIES=$LAB/patches/series
[ -f "$SERIES" ] || die "no $SERIES"
[ -f "$SRC_TARBALL" ] || die "no $SRC_TARBALL (apt-get install linux-source-6.12)"

# The stamp: the tarball's package version and size, and the series.
tarball=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null)-$(stat -c %s "$SRC_TARBALL")
stamp=$( (echo "$tarball"; cat "$SERIES"; sed 's/^/patches\//' "$SERIES" | (cd "$LAB" && xargs cat)) |
	sha256sum | cut -c1-16)
mark=$TREE/.git/lab-series
git_() { git -C "$TREE" -c user.name=lab -c user.email=lab@localhost "$@"; }

# Refuse to touch a tree with work in it.
if [ -d "$TREE/.git" ]; then
	[ -z "$(git_ status --porcelain --untracked-files=normal 2>/dev/null | head -n 1)" ] ||
		die "build/linux has uncommitted changes: commit them and run 'make patches', or discard them (git -C build/linux stash)"
	if [ "$1" != --mark ] && [ -f "$mark" ]; then
		[ "$(git_ rev-parse -q --verify HEAD)" = "$(sed -n 2p "$mark")" ] ||
			die "build/linux's HEAD is not the series last applied or exported: run 'make patches' to export it, or check out $(sed -n 2p "$mark" | cut -c1-12)"
	fi
fi

# --mark: the tree's HEAD is this series (make patches exported it).
if [ "$1" = --mark ]; then
	printf '%s\n%s\n' "$stamp" "$(git_ rev-parse HEAD)" >"$mark"
	exit 0
fi
[ -f "$mark" ] && [ "$(sed -n 1p "$mark")" = "$stamp" ] && exit 0

mkdir -p "$LOGS"
log=$LOGS/tree.log
if ! git_ rev-parse -q --verify base >/dev/null 2>&1 ||
	[ "$(git_ config lab.tarball)" != "$tarball" ]; then
	say "unpacking $SRC_TARBALL"
	rm -rf "$TREE" "$BUILD/linux-source-6.12"
	mkdir -p "$BUILD"
	tar -C "$BUILD" -xf "$SRC_TARBALL" || die "cannot unpack $SRC_TARBALL"
	mv "$BUILD/linux-source-6.12" "$TREE"
	say "making a git repository of it"
	# Debian's .gitignore ends with "/*": add everything by force.
	{ git_ init -q && git_ add -f . && git_ commit -q -m "linux-source-6.12" &&
	  git_ tag base && git_ config lab.tarball "$tarball"; } >"$log" 2>&1 ||
		{ show_tail "$log"; die "git init of $TREE failed"; }
fi

git_ am --abort >/dev/null 2>&1
# Remember what the old series left in each file it touched, so that a file
# the new series leaves unchanged keeps its mtime and is not rebuilt.
saved=$BUILD/.lab-tree-mtimes
: >"$saved"
git_ diff --name-only base..HEAD | while read -r f; do
	[ -f "$TREE/$f" ] && echo "$(git_ rev-parse -q --verify "HEAD:$f") $(stat -c %Y "$TREE/$f") $f"
done >"$saved"
git_ checkout -q --detach base && git_ reset -q --hard base && git_ clean -fdq ||
	die "cannot reset $TREE to base"
rm -f "$mark"
n=0
while read -r p; do
	case $p in '' | '#'*) continue ;; esac
	[ -f "$LAB/patches/$p" ] || die "patches/series names $p, which does not exist"
	# The cover letter (0000-cover-letter.patch) carries no change.
	case $p in 0000-cover-letter.patch) continue ;; esac
	if ! git_ am -q --whitespace=error-all "$LAB/patches/$p" >"$log" 2>&1; then
		show_tail "$log" 15
		git_ am --abort >/dev/null 2>&1
		die "patches/$p does not apply to linux-source-6.12 (git am failed)"
	fi
	n=$((n + 1))
done <"$SERIES"
while read -r blob mtime f; do
	[ "$(git_ rev-parse -q --verify "HEAD:$f")" = "$blob" ] && touch -d "@$mtime" "$TREE/$f"
done <"$saved"
rm -f "$saved"
printf '%s\n%s\n' "$stamp" "$(git_ rev-parse HEAD)" >"$mark"
say "applied $n patches"
