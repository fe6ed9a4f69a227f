#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# handoff-gap.sh - the placement sweep of handoff-gap.c: the same program
# built with its handoff functions moved by PAD bytes (0, 8, ... 56; every
# function 64-byte aligned, no loop or jump alignment, so the pad moves
# every loop by the same amount), the builds run in turn, ROUNDS times
# over, one round each (so that the host's drift falls on every build
# alike).  Prints one line per build and variant: the median ns per
# handoff over the rounds [lowest, highest], and the median of the ratio
# to t16 taken inside each round [lowest, highest].
#
# With "contended" as the third argument the threads take no turns: both
# take the lock HANDOFFS times as fast as they can (nearly every lock call
# then waits, so the generic lock's smp_mb() runs on nearly every one).
#
# Usage (repository root, after lab/tree.sh and make -C bench):
#   docs/experiments/handoff-gap.sh [ROUNDS] [HANDOFFS] [contended]
#   (default 11, 200000, turns)
# Run nothing else meanwhile: it uses both of the host's CPUs.
set -eu

rounds=${1:-11}
n=${2:-200000}
mode=${3:-turns}
case $mode in turns|contended) ;; *) echo "handoff-gap: mode '$mode' (valid: turns, contended)" >&2; exit 2 ;; esac
tree=build/linux
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$tree/include/asm-generic/spinlock.h" bench/bin/kqspinlock.o; do
	[ -e "$f" ] || { echo "handoff-gap: $f missing (run lab/tree.sh and make -C bench)" >&2; exit 2; }
done

pads="0 8 16 24 32 40 48 56"
for pad in $pads; do
	gcc -O2 -falign-functions=64 -fno-align-loops -fno-align-jumps \
	    -fno-align-labels -DPAD="$pad" -Wall -Wextra -Wno-strict-aliasing \
	    -I bench/lib -I bench/lib/shim -isystem "$tree/arch/x86/include" \
	    -isystem "$tree/include" -o "$tmp/hg-$pad" \
	    docs/experiments/handoff-gap.c bench/bin/kqspinlock.o \
	    bench/bin/skipticket.o -pthread
done

r=0
while [ "$r" -lt "$rounds" ]; do
	for pad in $pads; do
		"$tmp/hg-$pad" 1 "$n" "$mode" | awk -v pad="$pad" -v r="$r" '
			$1 == "ns" { sub("variant=", "", $2); sub("median=", "", $3)
				     print r, pad, $2, $3 }'
	done
	r=$((r + 1))
done >"$tmp/raw"

# median [lo, hi] of a sorted list
awk '
function med(a, k,   i, j, t) {
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return sprintf("%.3g [%.3g, %.3g]", a[int((k + 1) / 2)], a[1], a[k])
}
{ ns[$1, $2, $3] = $4; pads[$2] = 1; vars[$3] = 1; rounds[$1] = 1
  if (!($3 in order)) order[$3] = ++nv; name[order[$3]] = $3 }
END {
	printf "pad\tvariant\tns per handoff\tratio to t16\n"
	for (p = 0; p <= 56; p += 8) {
		if (!(p in pads)) continue
		for (v = 1; v <= nv; v++) {
			k = 0; kr = 0
			for (r in rounds) {
				a[++k] = ns[r, p, name[v]]
				b[++kr] = ns[r, p, name[v]] / ns[r, p, "t16"]
			}
			printf "%d\t%s\t%s\t%s\n", p, name[v], med(a, k), med(b, kr)
		}
	}
}' "$tmp/raw"
