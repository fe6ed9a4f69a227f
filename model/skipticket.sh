#!/bin/sh
# Exhaustive spin checks of the skip-ticket lock model (model/skipticket.pml,
# issue 9's asm/skipticket_spinlock.h: xadd of tail, registration in
# waiting, claim and skip when busy == 0, incb head). One line per case:
# "ok   model skipticket NAME: ..." or "FAIL model skipticket NAME: ...";
# exits 1 if any case failed.
#
#   verify  safety (mutual exclusion, the counts busy == holder + CPUs in
#           transit, no deadlock, FIFO while nobody was skipped, bypass
#           bound B = 0 for a running CPU 0) under the two assumptions
#           (patience longer than a running waiter's claim, no counter
#           wrap while a skipped waiter is away), K=2 P=2, K=3 P=2,
#           K=2 P=3, K=3 P=3; starvation freedom (LTL, weak fairness,
#           at most 2 preemptions) at K=3 P=3; and everything but the
#           bypass bound without either assumption (short patience, wrap)
#           at K=2 P=3 and K=3 P=3
#   fail    the counterexamples: patience too short (SHORT_PATIENCE) and
#           counters that wrap while a skipped waiter is away break the
#           bypass bound; three mutants break mutual exclusion: a claim
#           that sets nothing (waiting not decremented, MUTANT_CLAIM), a
#           skip that ignores busy (MUTANT_SKIP), and a claim that ignores
#           busy once counters wrap (MUTANT_CLAIM_BUSY)
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)
command -v spin >/dev/null 2>&1 || { echo "FAIL model skipticket: spin not found (apt-get install spin)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/skipticket.pml" "$tmp/"
cd "$tmp" || exit 1
failed=0

# run NAME EXPECT(verify|fail:PATTERN) MODE(safety|liveness) SPIN_DEFS...
run() {
	name=$1 expect=$2 mode=$3
	shift 3
	t0=$(date +%s)
	if ! spin "$@" -a skipticket.pml >spin.log 2>&1; then
		echo "FAIL model skipticket $name: spin -a failed: $(tail -n 1 spin.log)"
		failed=1
		return
	fi
	# -O1: compiles in half the time of -O2; these searches are short
	if [ "$mode" = safety ]; then
		gcc -O1 -w -DSAFETY -DNOCLAIM -o pan pan.c || { echo "FAIL model skipticket $name: gcc"; failed=1; return; }
		timeout 600 ./pan -m3000000 >pan.log 2>&1
	else
		gcc -O1 -w -o pan pan.c || { echo "FAIL model skipticket $name: gcc"; failed=1; return; }
		timeout 600 ./pan -a -f -m3000000 >pan.log 2>&1
	fi
	states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.log | head -n 1)
	err=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.log | head -n 1)
	first=$(grep -m1 '^pan:1: ' pan.log | sed 's/^pan:1: //')
	secs=$(($(date +%s) - t0))
	if grep -q 'max search depth too small' pan.log; then
		echo "FAIL model skipticket $name: search cut short (depth)"
		failed=1
	elif [ "$expect" = verify ]; then
		if [ "$err" = 0 ]; then
			echo "ok   model skipticket $name: verified ($states states, $mode; ${secs} s)"
		else
			echo "FAIL model skipticket $name: ${first:-errors: $err}"
			grep -E '^pan|errors:' pan.log | head -n 5 | sed 's/^/    | /'
			failed=1
		fi
	else
		want=${expect#fail:}
		case $first in
		*"$want"*) echo "ok   model skipticket $name: counterexample as expected: $first (${secs} s)" ;;
		*)
			echo "FAIL model skipticket $name: expected a counterexample ($want), got: ${first:-none, $err errors}"
			failed=1
			;;
		esac
	fi
}

A="-DNO_WRAP_AWAY"
run "K=2 P=2" verify safety $A -DK=2 -DP=2
run "K=3 P=2" verify safety $A -DK=3 -DP=2
run "K=2 P=3" verify safety $A -DK=2 -DP=3
run "K=3 P=3" verify safety $A -DK=3 -DP=3
run "K=3 P=3 starvation freedom" verify liveness $A -DMAXPRE=2 -DK=3 -DP=3
run "K=2 P=3 exclusion without the assumptions" verify safety -DSHORT_PATIENCE -DNO_BYPASS_CHECK -DK=2 -DP=3
run "K=3 P=3 exclusion without the assumptions" verify safety -DSHORT_PATIENCE -DNO_BYPASS_CHECK -DK=3 -DP=3
run "patience too short" "fail:bypass0<=0" safety $A -DSHORT_PATIENCE -DK=3 -DP=3
run "counters wrap while away" "fail:bypass0<=0" safety -DK=3 -DP=3
run "mutant claim sets nothing" "fail:owners<=1" safety $A -DNO_BYPASS_CHECK -DMUTANT_CLAIM -DK=3 -DP=3
run "mutant skip ignores busy" "fail:owners<=1" safety $A -DNO_BYPASS_CHECK -DMUTANT_SKIP -DK=3 -DP=3
run "mutant claim ignores busy, counters wrap" "fail:owners<=1" safety -DNO_BYPASS_CHECK -DMUTANT_CLAIM_BUSY -DK=3 -DP=3
exit $failed
