#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check.sh FAIRNESS [MUTANT...] - short host runs of the fairness test,
# validated (2 threads x 20000 acquisitions per lock, well under a second):
#
#   - exit status 0 and one "lock=NAME ... counter=ok order=ok" line for
#     every lock of fairness -L, with the keys the report reads;
#   - FIFO, in exact grant-order terms (fairness.c, "Grant order"): the
#     ticket locks show 0 bypasses and 0 ticket breaks in a contended run
#     (at least 1000 refused attempts; up to 5 tries to get one);
#   - the negative control: legacy shows bypasses (else the metric could
#     not see unfairness at all, and the FIFO verdict would mean nothing);
#   - each MUTANT (fairness built with -DLB_MUTANT=N, ticket8 replaced by
#     a lock that is not FIFO, see mutants.h) must FAIL the FIFO check.
# Where a verdict needs contention, a lock gets up to 5 runs to show it.
# Prints "ok ..." per passed check and "check: FAIL: ..." otherwise; exits
# non-zero if any check failed.
fairness=${1:-bin/fairness}
[ $# -gt 0 ] && shift
out=bin/check.out
# every lock the tool knows (fairness -L: bench/lib/locks.h's list, then
# the user-space ones)
locks=$("$fairness" -L) && [ -n "$locks" ] || { echo "check: FAIL: $fairness -L listed no lock"; exit 1; }
args="-t 2 -n 20000 -k"

# a broken lock hangs rather than fails: bound the run where we can
to=
if command -v timeout >/dev/null 2>&1; then
	to="timeout 60"
fi

key() {	# key LOCK KEY: the value of KEY in LOCK's line of $out
	sed -n "s/^lock=$1 .* $2=\([^ ]*\).*/\1/p" "$out"
}

# fifo LOCK: empty if LOCK kept grant order in $out, else why not
fifo() {
	b=$(key "$1" bypasses) tb=$(key "$1" ticket_breaks)
	if [ -z "$b" ] || [ -z "$tb" ]; then
		echo "no bypasses/ticket_breaks keys"
	elif [ "$b" != 0 ] || [ "$tb" != 0 ]; then
		echo "$b bypasses (longest run $(key "$1" bypass_run), one waiter passed over $(key "$1" bypass_max) times), $tb ticket breaks"
	fi
}

# runs BIN LOCK UNTIL: run LOCK alone until UNTIL (a shell test on $out)
# holds, at most 5 tries; leaves the last run in $out. Fails if fairness
# failed or UNTIL never held. A run can be uncontended by chance: a thread
# that ran alone, its partner not yet scheduled, shows neither FIFO nor
# its absence.
runs() {
	try=1
	while [ $try -le 5 ]; do
		$to "$1" $args -l "$2" >"$out" || return 1
		eval "$3" && return 0
		try=$((try + 1))
	done
	return 1
}
# At least MIN_WAITS refused attempts make a run that can show FIFO.
MIN_WAITS=1000
contended() {
	runs "$1" "$2" '[ "$(key "$2" waits)" -ge $MIN_WAITS ] 2>/dev/null || [ -n "$(fifo "$2")" ]'
}
# An unfair lock shows it in a run with a bypass.
bypassed() {
	runs "$1" "$2" '[ "$(key "$2" bypasses)" -gt 0 ] 2>/dev/null'
}

# The real locks.
$to "$fairness" $args -l all >"$out"
rc=$?
cat "$out"
if [ "$rc" -ne 0 ]; then
	echo "check: FAIL: fairness exited with $rc"
	exit 1
fi
for l in $locks; do
	if ! grep -q "^lock=$l .* counter=ok .*order=ok" "$out"; then
		echo "check: FAIL: no 'lock=$l ... counter=ok ... order=ok' line"
		exit 1
	fi
	for k in threads=2 iters=20000 jain= spread= longest_run= throughput= \
		bypasses= bypass_share= bypass_max= bypass_run= waits=; do
		if ! grep "^lock=$l " "$out" | grep -q " $k"; then
			echo "check: FAIL: lock=$l line lacks $k"
			exit 1
		fi
	done
done
failed=0
for l in ticket8 ticket16; do
	if ! contended "$fairness" $l; then
		echo "check: FAIL: $l: fewer than $MIN_WAITS waits in each of 5 runs (busy host?)"
		failed=1
		continue
	fi
	why=$(fifo $l)
	if [ -n "$why" ]; then
		echo "check: FAIL: $l is not FIFO: $why"
		failed=1
	else
		echo "ok fifo $l: 0 bypasses and 0 ticket breaks in $(key $l waits) waits"
	fi
done
if bypassed "$fairness" legacy; then
	echo "ok negative control legacy: $(key legacy bypasses) bypasses in $(key legacy waits) waits, longest run $(key legacy bypass_run)"
else
	echo "check: FAIL: legacy shows no bypass in 5 runs: the grant-order metric sees no unfairness"
	failed=1
fi

# The mutants: the same FIFO check must reject each.
for m in "$@"; do
	if bypassed "$m" ticket8 && why=$(fifo ticket8) && [ -n "$why" ]; then
		echo "ok mutant $m caught: ticket8 $why"
	else
		echo "check: FAIL: mutant $m passed the FIFO check in 5 runs: $(grep '^lock=ticket8' "$out")"
		failed=1
	fi
done
[ "$failed" -eq 0 ] && echo "check: ok ($(echo $locks | wc -w) locks, counters and grant order ok, $# mutants caught)"
exit "$failed"
