#!/bin/sh
# Build lockbench.ko against one built kernel variant, out of tree.
# The sources (bench/lockbench/, bench/lib/: every header, metrics.c) are
# copied to DIR first, so builds against different kernels (or a make test
# and a make bench at once) never share objects.
# Usage: bench/scripts/build-lockbench.sh VARIANT [DIR]   (default DIR:
#        build/lockbench-VARIANT); prints the path of the .ko
LAB=${LAB:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$LAB/lab/lib.sh"

v=$1
check_variant "$v"
O=$(kbuild_dir "$v")
dir=${2:-$BUILD/lockbench-$v}
[ -f "$O/Module.symvers" ] || die "$v is not built (no $O/Module.symvers): run lab/build.sh $v"
mkdir -p "$dir/lockbench" "$dir/lib"
# cp -p keeps timestamps: unchanged sources are not rebuilt.
cp -p "$LAB"/bench/lib/*.h "$LAB/bench/lib/metrics.c" "$dir/lib/" &&
	cp -p "$LAB/bench/lockbench/lockbench.c" "$LAB/bench/lockbench/Kbuild" "$dir/lockbench/" ||
	die "cannot copy the lockbench sources to $dir"
dir=$(cd "$dir" && pwd)
mkdir -p "$LOGS"
log=$LOGS/lockbench-$v.log
make -C "$TREE" O="$O" M="$dir/lockbench" ARCH=x86_64 CC="ccache gcc" \
	HOSTCC="ccache gcc" modules >"$log" 2>&1 ||
	{ grep -E 'error|warning' "$log" | head -n 20 >&2; die "building lockbench for $v failed (log: $log)"; }
# The kernel's own flags include -Werror only for some options: be strict,
# no warning at all.
warn=$(grep 'warning:' "$log")
if [ -n "$warn" ]; then
	echo "$warn" | head -n 5 >&2
	die "lockbench for $v: compiler warnings (log: $log)"
fi
echo "$dir/lockbench/lockbench.ko"
