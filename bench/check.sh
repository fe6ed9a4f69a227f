#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check.sh FAIRNESS - short host run of the fairness test, validated:
# exit status 0, and one "lock=NAME ... counter=ok" line for every lock.
# Kept to 2 threads x 5000 iterations: a fraction of a second.
fairness=${1:-./fairness}
out=check.out
locks="legacy ticket8 ticket16 pthread_spin pthread_mutex"

# a broken lock hangs rather than fails: bound the run where we can
to=
if command -v timeout >/dev/null 2>&1; then
	to="timeout 60"
fi
$to "$fairness" -t 2 -n 5000 -l all -k >"$out"
rc=$?
cat "$out"
if [ "$rc" -ne 0 ]; then
	echo "check: FAIL: fairness exited with $rc"
	exit 1
fi
for l in $locks; do
	if ! grep -q "^lock=$l .* counter=ok\( \|\$\)" "$out"; then
		echo "check: FAIL: no 'lock=$l ... counter=ok' line"
		exit 1
	fi
	for key in threads=2 iters=5000 jain= spread= longest_run= throughput=; do
		if ! grep "^lock=$l " "$out" | grep -q " $key"; then
			echo "check: FAIL: lock=$l line lacks $key"
			exit 1
		fi
	done
done
echo "check: ok ($(echo $locks | wc -w) locks, counters ok)"
