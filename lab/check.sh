#!/bin/sh
# The one reader of guest console logs: every check of a console goes
# through here (make test, make soak, make bench, make mutants). Each
# subcommand prints one line: a summary when the check passes (exit 0), the
# reason when it fails (exit 1).
# Usage: lab/check.sh CHECK LOG [ARGS]
#   boot               reached userspace and the pass marker 'LAB: done',
#                      and no splat anywhere in the log (BADNESS below)
#   kunit SMP [LOCK]   the lock's KUnit suite passed; every case that can
#                      run at SMP vCPUs ran and passed (none skipped), the
#                      others were skipped, not failed. LOCK: ticket
#                      (default; suite ticket_spinlock), skip (suite
#                      skipticket_spinlock, whose single-CPU cases differ:
#                      skip_*), or boot (ticket_spinlock of a kernel that
#                      chooses its spinlock at boot, with the rule's and
#                      the dispatch's cases)
#   spinlock WHAT      the boot line of a kernel that chooses its spinlock
#                      at boot is 'spinlock: WHAT' (e.g. 'skip-ticket
#                      (auto: guest without paravirt spinlocks)')
#   patience US [BAD]  the skip-ticket lock's patience is US microseconds
#                      (its boot message); BAD: the boot was given
#                      skipticket.patience_us=BAD, which must have been
#                      refused with a message naming the parameter
#   selftests          the locking API selftests passed
#   torture TYPE FAIR  locktorture TYPE ran between its own markers: every
#                      Writes and Reads stats line 'Fail: 0', 'End of test:
#                      SUCCESS'. FAIR=fair: locktorture's '???' flag (one
#                      writer got less than half of another's acquisitions)
#                      fails the check; FAIR=show: it is only shown.
#   fairness TYPE FAIR the same for the fairness run of TYPE (lab.fair:
#                      one writer per vCPU, no shuffling, no RT boost)
#   hotplug TYPE       during locktorture TYPE, CPUs went offline and came
#                      back (torture_onoff lines)
#   known              the log shows the known 16-vCPU problem: a hung task
#                      in synchronize_rcu() after locktorture ended
# The log is read as bytes (grep -a): a NUL byte in a console must not hide
# the lines after it. Carriage returns, NULs and printk timestamps are
# stripped before matching, so patterns can be anchored at line start.
. "$(dirname "$0")/lib.sh"

what=$1 log=$2
[ $# -ge 2 ] || die "usage: lab/check.sh CHECK LOG [ARGS]"
[ -f "$log" ] || die "no console log $log"
shift 2
export LC_ALL=C

# The console as text lines: no CR, no NUL, no "[    1.234567] " prefix.
con() {
	tr -d '\r\000' <"$log" | sed 's/^\[ *[0-9]*\.[0-9]*\] //'
}

# Splats that fail any boot (cf. rcutorture's console-badness.sh).
BADNESS='Kernel panic|BUG:|kernel BUG at|WARNING:|Oops|Call Trace:|'\
'general protection fault|possible recursive locking|'\
'possible circular locking|inconsistent lock state|bad unlock balance|'\
'lockdep is turned off|soft lockup|hard LOCKUP|blocked for more than|'\
'rcu_.* detected stalls|self-detected stall|unexpected failures|'\
'KCSAN:|KASAN:|!!!'

# The KUnit cases of the ticket_spinlock suite, and the vCPUs each needs.
KUNIT_CASES='ticket_lock_unlock_test:1 ticket_contended_test:1
ticket_wraparound_test:1 ticket_full_queue_test:1 ticket_overflow_test:1'
KUNIT_SKIP_CASES='skip_lock_unlock_test:1 skip_lazy_test:1 skip_hurried_take_test:1
skip_contended_test:1
skip_stall_clock_test:1 skip_test:1 skip_full_queue_test:1 skip_overflow_test:1
skip_hammer_hurried_test:3 skip_hammer_calm_test:3 skip_hurried_entry_test:2'
KUNIT_MT_CASES='ticket_hammer_test:2 ticket_retake_test:2 ticket_fifo_order_test:4'
# A kernel that chooses its spinlock at boot: its rule and its dispatch.
KUNIT_BOOT_CASES='spinlock_boot_decide_test:1 spinlock_boot_dispatch_test:1'

case $what in
boot)
	bad=$(con | grep -a -E -m1 "$BADNESS")
	[ -z "$bad" ] || { echo "splat: $bad"; exit 1; }
	up=$(con | grep -a -m1 '^LAB: userspace up')
	[ -n "$up" ] || { echo "never reached userspace (no 'LAB: userspace up')"; exit 1; }
	con | grep -a -q '^LAB: done$' || { echo "no pass marker 'LAB: done'"; exit 1; }
	echo "${up#LAB: }"
	;;
kunit)
	smp=$1 lock=${2:-ticket}
	case $smp in '' | *[!0-9]*) die "usage: lab/check.sh kunit LOG SMP [ticket|skip]" ;; esac
	case $lock in
	ticket) cases="$KUNIT_CASES $KUNIT_MT_CASES" suite=ticket_spinlock ;;
	skip) cases="$KUNIT_SKIP_CASES $KUNIT_MT_CASES" suite=skipticket_spinlock ;;
	boot) cases="$KUNIT_CASES $KUNIT_MT_CASES $KUNIT_BOOT_CASES" suite=ticket_spinlock ;;
	*) die "usage: lab/check.sh kunit LOG SMP [ticket|skip|boot]" ;;
	esac
	# KTAP: "# SUITE: pass:P fail:F skip:S total:T" ends the suite.
	sum=$(con | grep -a -o "# $suite: pass:.*" | tail -n 1)
	[ -n "$sum" ] || { echo "no $suite KUnit results"; exit 1; }
	notok=$(con | grep -a -E '^ *not ok [0-9]+ ' | head -n 3 | sed 's/^ *//' | tr '\n' ';')
	[ -z "$notok" ] || { echo "failed: $notok"; exit 1; }
	con | grep -a -Eq "^ *ok [0-9]+ $suite\$" ||
		{ echo "suite did not end with ok: $sum"; exit 1; }
	case $sum in
	*'fail:0 '*) ;;
	*) echo "$sum"; exit 1 ;;
	esac
	case $sum in *'pass:0 '*) echo "no case passed: $sum"; exit 1 ;; esac
	ran=0
	for c in $cases; do
		name=${c%:*} need=${c#*:}
		line=$(con | sed -n "/# Subtest: $suite\$/,/ok [0-9]* $suite\$/p" |
			grep -a -E "^ *ok [0-9]+ $name( |\$)" | tail -n 1)
		if [ "$smp" -ge "$need" ]; then
			case $line in
			'') echo "$name did not run"; exit 1 ;;
			*'# SKIP'*) echo "$name skipped at $smp vCPUs: ${line#*SKIP}"; exit 1 ;;
			esac
			ran=$((ran + 1))
		else
			case $line in
			*'# SKIP'*) ;;
			*) echo "$name was not skipped at $smp vCPUs (needs $need): ${line:-no result}"; exit 1 ;;
			esac
		fi
	done
	echo "$suite ${sum#\# $suite: }; $ran cases needing <= $smp vCPUs ran"
	;;
spinlock)
	want=$1 warn=$2
	[ -n "$want" ] || die "usage: lab/check.sh spinlock LOG 'LOCK (WHY)' [WARNING]"
	got=$(con | grep -a -E '^spinlock: ' | grep -a -v -E '^spinlock: spinlock=' | head -n 2)
	[ -n "$got" ] || { echo "no 'spinlock: ' boot line"; exit 1; }
	[ "$got" = "spinlock: $want" ] || { echo "expected 'spinlock: $want', got '$(echo $got)'"; exit 1; }
	if [ -n "$warn" ]; then
		w=$(con | grep -a -m1 -F "spinlock: $warn")
		[ -n "$w" ] || { echo "no warning 'spinlock: $warn'"; exit 1; }
		echo "${w#spinlock: }; $got"
	else
		w=$(con | grep -a -m1 -E '^spinlock: spinlock=')
		[ -z "$w" ] || { echo "unexpected warning: $w"; exit 1; }
		echo "$got"
	fi
	;;
patience)
	us=$1 badval=$2
	case $us in '' | *[!0-9]*) die "usage: lab/check.sh patience LOG US [BAD]" ;; esac
	msg=$(con | grep -a -m1 '^skip-ticket spinlocks: patience ')
	[ -n "$msg" ] || { echo "no 'skip-ticket spinlocks: patience' boot message"; exit 1; }
	echo "$msg" | grep -a -Eq "patience $us us, [1-9][0-9]* TSC cycles; $((us * 256)) us while calm\$" ||
		{ echo "expected a patience of $us us (and some TSC cycles), $((us * 256)) us while calm: $msg"; exit 1; }
	if [ -n "$badval" ]; then
		con | grep -a -q -F "skipticket.patience_us: '$badval' is not" ||
			{ echo "skipticket.patience_us=$badval was not refused with a message naming it"; exit 1; }
		con | grep -a -q -F "invalid for parameter \`skipticket.patience_us'" ||
			{ echo "skipticket.patience_us=$badval: no -EINVAL from the parameter parser"; exit 1; }
		echo "skipticket.patience_us=$badval refused ($(con | grep -a -m1 -F "skipticket.patience_us: '$badval'")), default kept: $msg"
	else
		echo "$msg"
	fi
	;;
selftests)
	good=$(con | grep -a -o 'Good, all [0-9]* testcases passed')
	[ -n "$good" ] || { echo "no 'Good, all N testcases passed' line"; exit 1; }
	echo "$good"
	;;
torture | fairness)
	t=$1 fair=$2 mark=locktorture
	[ "$what" = fairness ] && mark=fairness
	case $fair in fair | show) ;; *) die "usage: lab/check.sh $what LOG TYPE fair|show" ;; esac
	part=$(con | sed -n "/^LAB: $mark $t start\$/,/^LAB: $mark $t end\$/p")
	[ -n "$part" ] || { echo "$t did not run"; exit 1; }
	echo "$part" | grep -a -q "^LAB: $mark $t end\$" || { echo "$t did not end"; exit 1; }
	echo "$part" | grep -a -q 'insmod failed' && { echo "$t: insmod failed"; exit 1; }
	# "Writes:  Total: ..." and "Reads :  Total: ..." (rw types).
	stats=$(echo "$part" | grep -a -E '(Writes|Reads ?): +Total:')
	[ -n "$stats" ] || { echo "$t: no stats lines"; exit 1; }
	bad=$(echo "$stats" | grep -a -v 'Fail: 0' | head -n 1)
	[ -z "$bad" ] || { echo "$t: $bad"; exit 1; }
	case $t in rw_lock*) echo "$stats" | grep -a -q 'Reads :' || { echo "$t: no Reads stats line"; exit 1; } ;; esac
	echo "$part" | grep -a -q "^$t-torture:--- End of test: SUCCESS" ||
		{ echo "$t: no '$t-torture:--- End of test: SUCCESS'"; exit 1; }
	unfair=$(echo "$stats" | grep -a -F '???' | tail -n 1 | sed 's/  */ /g')
	if [ -n "$unfair" ] && [ "$fair" = fair ]; then
		echo "$t: unfair (???, one writer got less than half of another's share): $unfair"
		exit 1
	fi
	# The last writer stats line: total acquisitions and per-writer max/min.
	last=$(echo "$stats" | grep -a Writes | tail -n 1 | sed 's/.*Writes: *//; s/  */ /g; s/ *$//')
	echo "$last${unfair:+ (locktorture flags '???': uneven writers; not a failure here)}"
	;;
hotplug)
	t=$1
	part=$(con | sed -n "/^LAB: locktorture $t start\$/,/^LAB: locktorture $t end\$/p")
	off=$(echo "$part" | grep -a -c 'torture_onoff task: offlined')
	on=$(echo "$part" | grep -a -c 'torture_onoff task: onlined')
	if [ "$off" -eq 0 ] || [ "$on" -eq 0 ]; then
		echo "no CPU hotplug happened during $t ($off offlined, $on onlined)"
		exit 1
	fi
	echo "hotplug: $off offlined, $on onlined"
	;;
known)
	# A hung task whose stack is in synchronize_rcu(), after the last
	# locktorture run ended: the 16-vCPU problem in the README.
	con | grep -a -q 'blocked for more than' || { echo "no hung task"; exit 1; }
	con | sed -n '/blocked for more than/,$p' | grep -a -q 'synchronize_rcu' ||
		{ echo "a hung task, not in synchronize_rcu()"; exit 1; }
	con | grep -a -q -- '-torture:--- End of test: SUCCESS' ||
		{ echo "a hung task before locktorture ended"; exit 1; }
	task=$(con | grep -a -m1 'blocked for more than' | sed 's/^INFO: //')
	echo "hung in synchronize_rcu() after locktorture passed: $task"
	;;
*)
	die "unknown check '$what'"
	;;
esac
