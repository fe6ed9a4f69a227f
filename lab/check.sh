#!/bin/sh
# Read a guest's console log. Each subcommand prints one line: a summary
# when the check passes (exit 0), the reason when it fails (exit 1).
# Usage: lab/check.sh CHECK LOG [ARG]
#   boot       reached userspace, the pass marker, and no splat
#   kunit      the ticket_spinlock KUnit suite passed (ARG=fifo: the FIFO case
#              must have run, not been skipped)
#   selftests  the locking API selftests passed
#   torture T  locktorture type T: every stats line Fail: 0, End of test: SUCCESS
. "$(dirname "$0")/lib.sh"

what=$1 log=$2 arg=$3
[ -f "$log" ] || die "no console log $log"
# The console without carriage returns and printk timestamps.
con() {
	tr -d '\r' <"$log" | sed 's/^\[ *[0-9]*\.[0-9]*\] //'
}

# Splats that fail any boot (cf. rcutorture's console-badness.sh).
BADNESS='Kernel panic|BUG:|WARNING:|Oops|Call Trace:|general protection fault|'\
'possible recursive locking|possible circular locking|inconsistent lock state|'\
'bad unlock balance|lockdep is turned off|soft lockup|hard LOCKUP|'\
'blocked for more than|rcu_.* detected stalls|self-detected stall|'\
'unexpected failures|!!!'

case $what in
boot)
	bad=$(grep -E -m1 "$BADNESS" "$log")
	[ -z "$bad" ] || { echo "splat: $bad"; exit 1; }
	up=$(grep -m1 '^LAB: userspace up' "$log")
	[ -n "$up" ] || { echo "never reached userspace (no 'LAB: userspace up')"; exit 1; }
	grep -q '^LAB: done' "$log" || { echo "no pass marker 'LAB: done'"; exit 1; }
	echo "${up#LAB: }"
	;;
kunit)
	# KTAP: "# ticket_spinlock: pass:P fail:F skip:S total:T" ends the suite.
	sum=$(con | grep -o '# ticket_spinlock: pass:.*' | tail -n 1)
	[ -n "$sum" ] || { echo "no ticket_spinlock KUnit results"; exit 1; }
	notok=$(con | grep -E '^ *not ok [0-9]+ ' | head -n 3 | sed 's/^ *//' | tr '\n' ';')
	[ -z "$notok" ] || { echo "failed: $notok"; exit 1; }
	con | grep -Eq '^ *ok [0-9]+ ticket_spinlock$' ||
		{ echo "suite did not end with ok: $sum"; exit 1; }
	case $sum in
	*'fail:0 '*) ;;
	*) echo "$sum"; exit 1 ;;
	esac
	if [ "$arg" = fifo ]; then
		con | grep -Eq '^ *ok [0-9]+ ticket_fifo_order_test$' ||
			{ echo "ticket_fifo_order_test did not run and pass"; exit 1; }
	fi
	echo "${sum#\# ticket_spinlock: }"
	;;
selftests)
	good=$(grep -o 'Good, all [0-9]* testcases passed' "$log")
	[ -n "$good" ] || { echo "no 'Good, all N testcases passed' line"; exit 1; }
	echo "$good"
	;;
torture)
	[ -n "$arg" ] || die "usage: lab/check.sh torture LOG TYPE"
	part=$(con | sed -n "/^LAB: locktorture $arg start/,/^LAB: locktorture $arg end/p")
	[ -n "$part" ] || { echo "$arg did not run"; exit 1; }
	echo "$part" | grep -q 'insmod failed' && { echo "$arg: insmod failed"; exit 1; }
	stats=$(echo "$part" | grep -E '(Writes|Reads): +Total:')
	[ -n "$stats" ] || { echo "$arg: no stats lines"; exit 1; }
	bad=$(echo "$stats" | grep -v 'Fail: 0' | head -n 1)
	[ -z "$bad" ] || { echo "$arg: ${bad#*] }"; exit 1; }
	echo "$part" | grep -q "$arg-torture:--- End of test: SUCCESS" ||
		{ echo "$arg: no 'End of test: SUCCESS'"; exit 1; }
	# The last writer stats line: total acquisitions and per-writer max/min.
	echo "$stats" | grep Writes | tail -n 1 | sed 's/.*Writes: *//; s/  */ /g; s/ *$//'
	;;
*)
	die "unknown check '$what'"
	;;
esac
