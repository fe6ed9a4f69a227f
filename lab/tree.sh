#!/bin/sh
# Unpack Debian's linux-source-6.12 into build/linux as a git repository and
# apply patches/series with git am. Does nothing when the tree already
# carries exactly this series.
. "$(dirname "$0")/lib.sh"

SERIES=$LAB/patches/series
[ -f "$SERIES" ] || die "no $SERIES"
[ -f "$SRC_TARBALL" ] || die "no $SRC_TARBALL (apt-get install linux-source-6.12)"

stamp=$( (cat "$SERIES"; sed 's/^/patches\//' "$SERIES" | (cd "$LAB" && xargs cat)) |
	sha256sum | cut -c1-16)
# --mark: the tree already holds this series (make patches exported it).
if [ "$1" = --mark ]; then
	echo "$stamp" >"$TREE/.lab-series"
	exit 0
fi
[ -f "$TREE/.lab-series" ] && [ "$(cat "$TREE/.lab-series")" = "$stamp" ] && exit 0

mkdir -p "$LOGS"
log=$LOGS/tree.log
git_() { git -C "$TREE" -c user.name=lab -c user.email=lab@localhost "$@"; }

if ! git_ rev-parse -q --verify base >/dev/null 2>&1; then
	say "unpacking $SRC_TARBALL"
	rm -rf "$TREE" "$BUILD/linux-source-6.12"
	mkdir -p "$BUILD"
	tar -C "$BUILD" -xf "$SRC_TARBALL" || die "cannot unpack $SRC_TARBALL"
	mv "$BUILD/linux-source-6.12" "$TREE"
	say "making a git repository of it"
	# Debian's .gitignore ends with "/*": add everything by force.
	{ git_ init -q && git_ add -f . && git_ commit -q -m "linux-source-6.12" &&
	  git_ tag base; } >"$log" 2>&1 || { show_tail "$log"; die "git init of $TREE failed"; }
fi

git_ am --abort >/dev/null 2>&1
# Remember what the old series left in each file it touched, so that a file
# the new series leaves unchanged keeps its mtime and is not rebuilt.
saved=$BUILD/.lab-tree-mtimes
: >"$saved"
git_ diff --name-only base..HEAD | while read -r f; do
	[ -f "$TREE/$f" ] && echo "$(git_ rev-parse -q --verify "HEAD:$f") $(stat -c %Y "$TREE/$f") $f"
done >"$saved"
git_ reset -q --hard base && git_ clean -fdq || die "cannot reset $TREE to base"
rm -f "$TREE/.lab-series"
n=0
while read -r p; do
	case $p in '' | '#'*) continue ;; esac
	[ -f "$LAB/patches/$p" ] || die "patches/series names $p, which does not exist"
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
echo "$stamp" >"$TREE/.lab-series"
say "applied $n patches"
