#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# handoff-gap.sh - the placement sweep of handoff-gap.c: the same program
# built with its handoff functions moved by PAD bytes (0, 8, ... 56; every
# function 64-byte aligned, no loop or jump alignment, so the pad moves
# every loop by the same amount), the builds run in turn, ROUNDS times
# over, one round each, each round starting one build later (so that the
# host's drift falls on every build alike). Prints one line per build and
# variant: the median ns per handoff over the rounds [lowest, highest],
# the median of the ratio to t16 taken inside each round [lowest,
# highest], and the counted variants' slow-path rate per 10^6 lock calls
# over all rounds.
#
# With "contended" as the third argument the builds take -DCONTENDED=1:
# the threads take no turns, both take the lock HANDOFFS times as fast as
# they can (nearly every lock call then waits, so the generic lock's
# smp_mb() runs on nearly every one).
#
# Usage (repository root, after lab/tree.sh and make -C bench):
#   docs/experiments/handoff-gap.sh [ROUNDS] [HANDOFFS] [turns|contended]
#   (default 11, 200000, turns)
# Run nothing else meanwhile: it uses both of the host's CPUs.
set -eu

rounds=${1:-11}
n=${2:-200000}
mode=${3:-turns}
die() { echo "handoff-gap: $*" >&2; exit 2; }
case $rounds in '' | *[!0-9]*) die "ROUNDS '$rounds' (a number, 1 to 101)" ;; esac
case $n in '' | *[!0-9]*) die "HANDOFFS '$n' (a number)" ;; esac
[ "$rounds" -ge 1 ] && [ "$rounds" -le 101 ] || die "ROUNDS '$rounds' (1 to 101)"
case $mode in
turns) contended=0 ;;
contended) contended=1 ;;
*) die "mode '$mode' (valid: turns, contended)" ;;
esac
tree=build/linux
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$tree/include/asm-generic/spinlock.h" bench/bin/kqspinlock.o \
	 bench/bin/skipticket.o; do
	[ -e "$f" ] || die "$f missing (run lab/tree.sh and make -C bench)"
done

pads="0 8 16 24 32 40 48 56"
for pad in $pads; do
	gcc -O2 -falign-functions=64 -fno-align-loops -fno-align-jumps \
	    -fno-align-labels -DPAD="$pad" -DCONTENDED="$contended" \
	    -Wall -Wextra -Wno-strict-aliasing \
	    -I bench/lib -I bench/lib/shim -isystem "$tree/arch/x86/include" \
	    -isystem "$tree/include" -o "$tmp/hg-$pad" \
	    docs/experiments/handoff-gap.c bench/bin/kqspinlock.o \
	    bench/bin/skipticket.o -pthread
done

: >"$tmp/raw"
r=0
while [ "$r" -lt "$rounds" ]; do
	# this round's order: the pads from the (r mod 8)-th on, then the rest
	set -- $pads
	k=$((r % 8))
	while [ "$k" -gt 0 ]; do
		first=$1
		shift
		set -- "$@" "$first"
		k=$((k - 1))
	done
	for pad; do
		"$tmp/hg-$pad" 1 "$n" >"$tmp/out" || die "the pad-$pad build failed"
		awk -v pad="$pad" -v r="$r" '
			$1 == "ns" { sub("variant=", "", $2); sub("median=", "", $3)
				     print "ns", r, pad, $2, $3 }
			$1 == "slowpath" { sub("variant=", "", $2); sub("per_1e6_locks=", "", $3)
					   print "slow", r, pad, $2, $3 }' "$tmp/out" >>"$tmp/raw"
	done
	r=$((r + 1))
done
grep -q '^ns [0-9]* [0-9]* t16 ' "$tmp/raw" || die "no t16 figures"

# The median is the upper one for an even count, as handoff-gap.c's.
awk '
function med(a, k,   i, j, t) {
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return sprintf("%.3g [%.3g, %.3g]", a[int(k / 2) + 1], a[1], a[k])
}
$1 == "ns" { ns[$2, $3, $4] = $5; pads[$3] = 1; rounds[$2] = 1
	     if (!($4 in order)) { order[$4] = ++nv; name[nv] = $4 } }
$1 == "slow" { slow[$3, $4] += $5; nslow[$3, $4]++ }
END {
	printf "pad\tvariant\tns per handoff\tratio to t16\tslow paths per 10^6 calls\n"
	for (p = 0; p <= 56; p += 8) {
		if (!(p in pads)) continue
		for (v = 1; v <= nv; v++) {
			k = 0
			for (r in rounds) {
				k++
				a[k] = ns[r, p, name[v]]
				b[k] = ns[r, p, name[v]] / ns[r, p, "t16"]
			}
			s = ((p, name[v]) in nslow) ? sprintf("%.0f", slow[p, name[v]] / nslow[p, name[v]]) : "-"
			printf "%d\t%s\t%s\t%s\t%s\n", p, name[v], med(a, k), med(b, k), s
		}
	}
}' "$tmp/raw"
