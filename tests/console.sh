#!/bin/sh
# The console parser (lab/check.sh) on doctored console logs: each case
# must get the verdict written beside it, so that a parser that passes what
# it should fail (or the reverse) is caught. One line per case, "console
# NAME"; exits non-zero if any case failed; LAB_LIST=1 lists the cases'
# names.
# Usage: tests/console.sh
cd "$(dirname "$0")/.." || exit 1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
failed=0

# A good console: boot, KUnit at 4 vCPUs, selftests, three torture types,
# the fairness run.
good() {
	printf '[    0.000000] Linux version 6.12.118+\r\n'
	printf '[    0.500000]   Good, all 358 testcases passed! |\r\n'
	printf '[    1.000000]     # Subtest: ticket_spinlock\r\n'
	for c in ticket_lock_unlock_test ticket_contended_test ticket_wraparound_test \
		ticket_full_queue_test ticket_overflow_test ticket_hammer_test \
		ticket_retake_test ticket_fifo_order_test; do
		printf '[    1.100000]     ok %d %s\r\n' 1 "$c"
	done
	printf '[    1.200000] # ticket_spinlock: pass:8 fail:0 skip:0 total:8\r\n'
	printf '[    1.200001] ok 1 ticket_spinlock\r\n'
	printf 'LAB: userspace up, 4 CPUs online, kernel 6.12.118+\r\n'
	for t in spin_lock raw_spin_lock rw_lock; do
		printf 'LAB: locktorture %s start\r\n' "$t"
		printf '[    9.000000] Writes:  Total: 1000  Max/Min: 300/200   Fail: 0 \r\n'
		[ "$t" = rw_lock ] && printf '[    9.000000] Reads :  Total: 900  Max/Min: 300/200   Fail: 0 \r\n'
		printf '[    9.100000] %s-torture:--- End of test: SUCCESS: nwriters_stress=8\r\n' "$t"
		printf 'LAB: locktorture %s end\r\n' "$t"
	done
	printf 'LAB: fairness spin_lock start\r\n'
	printf '[   19.000000] Writes:  Total: 2000  Max/Min: 1010/990   Fail: 0 \r\n'
	printf '[   19.100000] spin_lock-torture:--- End of test: SUCCESS: nwriters_stress=4\r\n'
	printf 'LAB: fairness spin_lock end\r\n'
	printf 'LAB: done\r\n'
}

# verdict NAME WANT(0|1) CHECK LOG [ARGS]: lab/check.sh's exit status.
verdict() {
	name=$1 want=$2
	shift 2
	[ -n "$LAB_LIST" ] && { echo "console $name"; return; }
	out=$(lab/check.sh "$@" 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		echo "ok   console $name: $(echo "$out" | head -n 1 | cut -c1-80)"
	else
		echo "FAIL console $name: exit $rc, wanted $want: $out"
		failed=1
	fi
}

good >"$d/good"
verdict "good boot" 0 boot "$d/good"
verdict "good kunit at 4 vCPUs" 0 kunit "$d/good" 4
verdict "good selftests" 0 selftests "$d/good"
verdict "good torture" 0 torture "$d/good" rw_lock fair

# A NUL byte must not hide the panic after it.
{ good; printf 'junk\000junk\r\n[   10.0] Kernel panic - not syncing: hard LOCKUP\r\n'; } >"$d/nul"
verdict "panic after a NUL byte" 1 boot "$d/nul"
grep -v 'LAB: done' "$d/good" >"$d/nodone"
verdict "no pass marker" 1 boot "$d/nodone"
{ good; printf '[   11.0] BUG: KCSAN: data-race in foo / bar\r\n'; } >"$d/kcsan"
verdict "KCSAN report" 1 boot "$d/kcsan"

# KUnit: a case skipped where it should run, a suite of skips only, a
# case that ran where it should have been skipped.
sed 's/ok 1 ticket_fifo_order_test/ok 1 ticket_fifo_order_test # SKIP needs 4 online CPUs/' \
	"$d/good" >"$d/fifoskip"
verdict "FIFO case skipped at 4 vCPUs" 1 kunit "$d/fifoskip" 4
verdict "FIFO case skipped at 2 vCPUs" 0 kunit "$d/fifoskip" 2
verdict "FIFO case ran at 2 vCPUs" 1 kunit "$d/good" 2
sed 's/ok 1 \(ticket_[a-z_]*_test\)/ok 1 \1 # SKIP no/; s/pass:8 fail:0 skip:0/pass:0 fail:0 skip:8/' \
	"$d/good" >"$d/allskip"
verdict "all cases skipped" 1 kunit "$d/allskip" 1
grep -v 'ticket_spinlock: pass' "$d/good" >"$d/nosum"
verdict "no suite summary" 1 kunit "$d/nosum" 4

# locktorture: a failing Reads line, spin_lock's end marker only inside
# raw_spin_lock's, locktorture's unfairness flag.
sed 's/Reads :  Total: 900  Max\/Min: 300\/200   Fail: 0/Reads :  Total: 900  Max\/Min: 300\/200   Fail: 1/' \
	"$d/good" >"$d/readfail"
verdict "a Reads line that failed" 1 torture "$d/readfail" rw_lock fair
verdict "spin_lock did not run" 1 torture "$d/good" spin_lock_irq fair
sed '/^[^L]*spin_lock-torture:--- End/{/raw_spin_lock/!d}' "$d/good" >"$d/noend"
verdict "spin_lock end marker missing" 1 torture "$d/noend" spin_lock fair
verdict "raw_spin_lock end marker present" 0 torture "$d/noend" raw_spin_lock fair
sed 's|Max/Min: 300/200   Fail: 0|Max/Min: 300/100 ???  Fail: 0|' "$d/good" >"$d/unfair"
verdict "??? where every vCPU has a host CPU" 1 torture "$d/unfair" spin_lock fair
verdict "??? where vCPUs outnumber host CPUs" 0 torture "$d/unfair" spin_lock show
# The fairness run has its own markers: its '???' is not the default run's.
verdict "fairness run even" 0 fairness "$d/good" spin_lock fair
sed 's|Max/Min: 1010/990   Fail: 0|Max/Min: 1500/500 ???  Fail: 0|' "$d/good" >"$d/fairless"
verdict "fairness run ??? where every vCPU has a host CPU" 1 fairness "$d/fairless" spin_lock fair
verdict "fairness run ??? where vCPUs outnumber host CPUs" 0 fairness "$d/fairless" spin_lock show
verdict "fairness run ??? is not the default run's" 0 torture "$d/fairless" spin_lock fair
verdict "fairness run of a type that did not run" 1 fairness "$d/good" raw_spin_lock fair

# The known 16-vCPU problem, and a hung task that is not it.
{ good; printf '[  200.0] INFO: task rmmod:99 blocked for more than 61 seconds.\r\n'
  printf '[  200.1]  synchronize_rcu+0x10/0x20\r\n'; } >"$d/known"
verdict "hung in synchronize_rcu after the test" 0 known "$d/known"
sed 's/synchronize_rcu/msleep/' "$d/known" >"$d/other"
verdict "hung elsewhere" 1 known "$d/other"
verdict "no hung task" 1 known "$d/good"

# The skip-ticket kernel: its own single-CPU KUnit cases, and the patience
# boot parameter (refused out of range, naming the parameter).
sed -e 's/\(.*\)ticket_lock_unlock_test\(.*\)/\1skip_lock_unlock_test\2\n\1skip_lazy_test\2\n\1skip_hurried_take_test\2/' \
	-e 's/ticket_contended_test/skip_contended_test/' \
	-e 's/\(.*\)ticket_wraparound_test\(.*\)/\1skip_stall_clock_test\2\n\1skip_test\2/' \
	-e 's/ticket_full_queue_test/skip_full_queue_test/' \
	-e 's/ticket_overflow_test/skip_overflow_test/' \
	-e 's/\(.*\)ticket_fifo_order_test\(.*\)/&\n\1skip_hammer_hurried_test\2\n\1skip_hammer_calm_test\2\n\1skip_hurried_entry_test\2/' \
	-e 's/\(Subtest: \|# \|ok 1 \)ticket_spinlock/\1skipticket_spinlock/' \
	"$d/good" >"$d/skip"
verdict "skip-ticket KUnit cases" 0 kunit "$d/skip" 4 skip
sed 's/ok 1 skip_hammer_calm_test/ok 1 skip_hammer_calm_test # SKIP needs 3 online CPUs/' "$d/skip" >"$d/skiphammer"
verdict "skip hammer skipped at 4 vCPUs" 1 kunit "$d/skiphammer" 4 skip
verdict "ticket KUnit cases where skip-ticket ones are due" 1 kunit "$d/good" 4 skip
verdict "skip-ticket KUnit cases where ticket ones are due" 1 kunit "$d/skip" 4
{ cat "$d/skip"
  printf "[    0.010000] skipticket.patience_us: '0' is not a whole number of microseconds in [1, 10000]\r\n"
  printf "[    0.010001] Booting kernel: \`0' invalid for parameter \`skipticket.patience_us'\r\n"
  printf '[    0.300000] skip-ticket spinlocks: patience 100 us, 269491 TSC cycles; 25600 us while calm\r\n'; } >"$d/patience"
verdict "patience refused, default kept" 0 patience "$d/patience" 100 0
verdict "patience other than asked" 1 patience "$d/patience" 250
grep -v "invalid for parameter" "$d/patience" >"$d/accepted"
verdict "out-of-range patience not refused by the parser" 1 patience "$d/accepted" 100 0
grep -v "is not a whole number" "$d/patience" >"$d/silent"
verdict "out-of-range patience refused without naming it" 1 patience "$d/silent" 100 0
sed 's/269491 TSC cycles/0 TSC cycles/' "$d/patience" >"$d/nocycles"
verdict "patience of 0 TSC cycles" 1 patience "$d/nocycles" 100
sed 's/25600 us while calm/100 us while calm/' "$d/patience" >"$d/nocalm"
verdict "calm patience not 256 patiences" 1 patience "$d/nocalm" 100
verdict "no patience message" 1 patience "$d/good" 100
# The kernel that chooses its spinlock at boot: the boot line names the
# lock, a warning is there exactly when one is due, a WARN from the switch
# fails the boot, and its KUnit suite has the rule's and the dispatch's
# cases.
auto='skip-ticket (auto: guest without paravirt spinlocks)'
{ good; printf '[    0.020000] spinlock: %s\r\n' "$auto"; } >"$d/combo"
verdict "spinlock line as expected" 0 spinlock "$d/combo" "$auto"
verdict "spinlock line names another lock" 1 spinlock "$d/combo" 'FIFO ticket (spinlock=ticket)'
verdict "no spinlock line" 1 spinlock "$d/good" "$auto"
{ good; printf '[    0.010000] spinlock: spinlock=bogus: unknown (valid: auto), choosing automatically\r\n'
  printf '[    0.020000] spinlock: %s\r\n' "$auto"; } >"$d/bogus"
verdict "warning as expected" 0 spinlock "$d/bogus" "$auto" "spinlock=bogus: unknown"
verdict "warning expected, none" 1 spinlock "$d/combo" "$auto" "spinlock=bogus: unknown"
verdict "warning not expected" 1 spinlock "$d/bogus" "$auto"
{ good; printf '[    0.010000] WARNING: CPU: 0 PID: 0 at arch/x86/kernel/spinlock_boot.c:180 x86_spinlock_choose+0x1/0x2\r\n'; } >"$d/switchwarn"
verdict "a WARN from the switch" 1 boot "$d/switchwarn"
sed 's/\(.*\)ticket_fifo_order_test\(.*\)/&\n\1spinlock_boot_decide_test\2\n\1spinlock_boot_dispatch_test\2/' \
	"$d/combo" >"$d/combokunit"
verdict "boot-time choice KUnit cases" 0 kunit "$d/combokunit" 4 boot
verdict "boot-time choice KUnit cases missing" 1 kunit "$d/combo" 4 boot
exit $failed
