#!/bin/sh
# Exhaustive spin checks of the skip-ticket lock model (model/skipticket.pml,
# the series' asm/skipticket_spinlock.h: xadd of tail, lazy waiting next in
# line, registration refused at head, claim and skip when busy == 0, requeue
# registered in its xadd, incb head). One line per case:
# "ok   model skipticket NAME: ..." or "FAIL model skipticket NAME: ...";
# exits 1 if any case failed. About 7 minutes on 2 cores, 3 GB of memory.
#
# Every safety run checks, in every state, mutual exclusion, the counts
# (busy == holder + CPUs unregistered with a live ticket, queued == holder
# + live waiters <= P, the unlock's incb untorn), is_locked/is_contended,
# that a lazy waiter never blocks a registered waiter's offer, FIFO while
# nobody was skipped, the bypass bound B for a never-preempted CPU 0 --
# and no deadlock (invalid end states: waiting is blocking in the model,
# preemptions and interrupts unbounded but never twice without a step).
#
#   verify  under both assumptions (patience longer than a running
#           waiter's claim; no counter wrap while a skipped waiter is
#           away), B = 0: K=2 P=2, K=3 P=2, K=2 P=3, K=3 P=3, K=3 P=4;
#           starvation freedom (LTL, no fairness needed) at K=3 P=3 and
#           K=3 P=4;
#           everything but B without either assumption (any offer
#           skippable, any wrap) at K=2 P=3, K=3 P=3, K=3 P=4; a second
#           lock B taken in interrupts of CPUs waiting on A (IRQ_LOCK,
#           exclusion, counts, deadlock on both locks; no FIFO ghost) at
#           K=2 P=3, with and without the assumptions; the bypass bound
#           with at most one assumption violation (MAXVIOL=1, either
#           kind): B = P - 1 = 2 if a running waiter that was skipped
#           requeues before the next grant (PROMPT), at K=3 and K=2, else
#           B = 2^K - 1 = 7 at K=3
#   fail    the counterexamples: patience too short, counters wrap while
#           away, a waiter in an interrupt skipped (bypass, B = 0); B = 1
#           and B = 6 with one violation (the bounds above are the
#           smallest); mutants: a claim that sets nothing, a skip that
#           ignores busy, a claim that ignores busy once counters wrap
#           (two owners); a hurried arrival's xadd that adds no waiter
#           (the busy count); a hurried arrival registered in its xadd
#           and again in its wait (the busy count; with the counts
#           unchecked, two owners); registration that is not refused at head (a
#           lazy waiter blocks an offer); a claim that is never made
#           (deadlock; starvation in the LTL run); an unlock that does not
#           advance head (the counts; and with pan -A, a deadlock)
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)
[ -n "$LAB_LIST" ] || command -v spin >/dev/null 2>&1 || { echo "FAIL model skipticket: spin not found (apt-get install spin)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/skipticket.pml" "$tmp/"
cd "$tmp" || exit 1
failed=0

# run NAME EXPECT(verify|fail:PATTERN) MODE(safety|liveness) [pan:OPT]... SPIN_DEFS...
# pan:OPT goes to pan (-E: no deadlock check; -A: go on past assertions;
# -mN: search depth, default 3000000)
run() {
	name=$1 expect=$2 mode=$3
	shift 3
	# LAB_LIST=1: the case's name only (make test's list of checks).
	[ -n "$LAB_LIST" ] && { echo "model skipticket $name"; return; }
	panopt=
	depth=-m3000000
	while [ $# -gt 0 ]; do
		case $1 in
		pan:-m*) depth=${1#pan:} ;;
		pan:*) panopt="$panopt ${1#pan:}" ;;
		*) break ;;
		esac
		shift
	done
	t0=$(date +%s)
	if ! spin "$@" -a skipticket.pml >spin.log 2>&1; then
		echo "FAIL model skipticket $name: spin -a failed: $(tail -n 1 spin.log)"
		failed=1
		return
	fi
	# -O1: compiles in half the time of -O2, and -O2 gains little here
	if [ "$mode" = safety ]; then
		gcc -O1 -w -DSAFETY -DNOCLAIM -DMEMLIM=8192 -o pan pan.c || { echo "FAIL model skipticket $name: gcc"; failed=1; return; }
		timeout 600 ./pan $depth $panopt >pan.log 2>&1
	else
		gcc -O1 -w -DMEMLIM=8192 -o pan pan.c || { echo "FAIL model skipticket $name: gcc"; failed=1; return; }
		timeout 600 ./pan -a $depth $panopt >pan.log 2>&1
	fi
	rc=$?
	states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.log | head -n 1)
	err=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.log | head -n 1)
	first=$(grep -m1 '^pan:1: ' pan.log | sed 's/^pan:1: //')
	secs=$(($(date +%s) - t0))
	if [ $rc = 124 ]; then
		echo "FAIL model skipticket $name: pan timed out (600 s)"
		failed=1
	elif grep -q 'max search depth too small' pan.log; then
		echo "FAIL model skipticket $name: search cut short (depth)"
		failed=1
	elif grep -qi 'out of memory\|MEMLIM' pan.log; then
		echo "FAIL model skipticket $name: out of memory"
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
ANY="-DSHORT_PATIENCE -DNO_BYPASS_CHECK"
IRQ="-DIRQ_LOCK -DNO_FIFO_CHECK"
ONE="-DMAXVIOL=1"
run "K=2 P=2" verify safety $A -DK=2 -DP=2
run "K=3 P=2" verify safety $A -DK=3 -DP=2
run "K=2 P=3" verify safety $A -DK=2 -DP=3
run "K=3 P=3" verify safety $A -DK=3 -DP=3
run "K=3 P=4" verify safety $A -DK=3 -DP=4
run "K=3 P=3 starvation freedom" verify liveness $A -DK=3 -DP=3
run "K=3 P=4 starvation freedom" verify liveness pan:-m6000000 $A -DK=3 -DP=4
run "K=2 P=3 exclusion without the assumptions" verify safety $ANY -DK=2 -DP=3
run "K=3 P=3 exclusion without the assumptions" verify safety $ANY -DK=3 -DP=3
run "K=3 P=4 exclusion without the assumptions" verify safety pan:-m6000000 $ANY -DK=3 -DP=4
run "K=2 P=3 interrupt lock" verify safety pan:-m6000000 $IRQ $A -DNO_BYPASS_CHECK -DK=2 -DP=3
run "K=2 P=3 interrupt lock without the assumptions" verify safety pan:-m6000000 $IRQ $ANY -DK=2 -DP=3
run "K=3 P=3 one violation, prompt requeue, B=2" verify safety $ONE -DPROMPT -DB=2 -DK=3 -DP=3
run "K=2 P=3 one violation, prompt requeue, B=2" verify safety $ONE -DPROMPT -DB=2 -DK=2 -DP=3
run "K=3 P=3 one violation, B=7" verify safety $ONE -DB=7 -DK=3 -DP=3
run "patience too short" "fail:bypass0<=0" safety $A -DSHORT_PATIENCE -DK=3 -DP=3
run "counters wrap while away" "fail:bypass0<=0" safety -DK=3 -DP=3
run "waiter in an interrupt skipped" "fail:bypass0<=0" safety $IRQ $A -DK=2 -DP=3
run "one violation, prompt requeue, B=1 too small" "fail:bypass0<=1" safety $ONE -DPROMPT -DB=1 -DK=3 -DP=3
run "one violation, B=6 too small" "fail:bypass0<=6" safety $ONE -DB=6 -DK=3 -DP=3
run "mutant claim sets nothing" "fail:owners[0]<=1" safety pan:-E $A -DNO_BYPASS_CHECK -DMUTANT_CLAIM -DK=3 -DP=3
run "mutant hurried xadd registers nobody" "fail:==(owners[0]+transit[0])" safety $A -DNO_BYPASS_CHECK -DMUTANT_EARLY_UNCOUNTED -DK=3 -DP=3
run "mutant hurried waiter registers twice" "fail:==(owners[0]+transit[0])" safety $A -DNO_BYPASS_CHECK -DMUTANT_EARLY_TWICE -DK=3 -DP=3
run "mutant hurried waiter registers twice, exclusion" "fail:owners[0]<=1" safety $A -DNO_BYPASS_CHECK -DNO_COUNT_CHECK -DMUTANT_EARLY_TWICE -DK=3 -DP=3
run "mutant skip ignores busy" "fail:owners[0]<=1" safety pan:-E $A -DNO_BYPASS_CHECK -DMUTANT_SKIP -DK=3 -DP=3
run "mutant claim ignores busy, counters wrap" "fail:owners[0]<=1" safety -DNO_BYPASS_CHECK -DMUTANT_CLAIM_BUSY -DK=3 -DP=3
run "mutant registers at head" "fail:f!=3" safety $A -DMUTANT_REGISTER_AT_HEAD -DK=3 -DP=3
run "mutant never claims" "fail:invalid end state" safety $A -DMUTANT_NEVER_CLAIM -DK=3 -DP=3
run "mutant never claims, starvation" "fail:acceptance cycle" liveness $A -DMUTANT_NEVER_CLAIM -DK=3 -DP=3
run "mutant unlock does not advance" "fail:==(owners[0]+transit[0])" safety $A -DMUTANT_UNLOCK_NOADVANCE -DK=3 -DP=3
run "mutant unlock does not advance, deadlock" "fail:invalid end state" safety pan:-A $A -DMUTANT_UNLOCK_NOADVANCE -DK=3 -DP=3
exit $failed
