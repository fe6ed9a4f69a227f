#!/bin/sh
# The guest checks of one built variant, as make test and make mutants run
# them: pack its initramfs, boot it at 1, 2 and 4 vCPUs, each boot running
# KUnit and the locking selftests (where the variant has them) and, from 2
# vCPUs on, locktorture of each type with its defaults and locktorture's
# spin_lock once more for fairness (one writer per vCPU). One line per
# check:
#   initramfs V, boot V smp=N, kunit V smp=N, locking selftests V smp=N,
#   locktorture V smp=N TYPE, locktorture fairness V smp=N spin_lock,
#   and on the skip-ticket lock skipticket.patience_us V smp=N
# What the variant has comes from its config fragments. Exits non-zero if
# any check failed; LAB_LIST=1 lists the checks' names (lab/checks.sh).
#   TORTURE_SECS   seconds per locktorture type (default 8)
# Usage: lab/guest-checks.sh VARIANT
. "$(dirname "$0")/lib.sh"
cd "$LAB" || exit 1

v=$1
check_variant "$v"
TORTURE_SECS=${TORTURE_SECS:-8}
check_number TORTURE_SECS "$TORTURE_SECS" 1 600
TORTURE_TYPES="spin_lock spin_lock_irq raw_spin_lock rw_lock"
FAIR_TYPES=spin_lock
. "$LAB/lab/checks.sh"
pack_initramfs "$v"

ticket=$(fragconf "$v" CONFIG_X86_TICKET_SPINLOCKS)
skip=$(fragconf "$v" CONFIG_X86_TICKET_SKIP_PREEMPTED)
klock=ticket
[ "$skip" = y ] && klock=skip
kunit=$(fragconf "$v" CONFIG_X86_TICKET_SPINLOCK_KUNIT_TEST)
selftests=$(fragconf "$v" CONFIG_DEBUG_LOCKING_API_SELFTESTS)
run mkdir -p "$LOGS/test"
for smp in 1 2 4; do
	log=$LOGS/test/$v-smp$smp.log
	append="lab.torture_secs=$TORTURE_SECS"
	types= ftypes=
	[ "$smp" -ge 2 ] && types=$TORTURE_TYPES ftypes=$FAIR_TYPES
	[ -n "$types" ] && append="$append lab.torture=$(echo $types | tr ' ' ,) lab.torture_args=stat_interval=4"
	[ -n "$ftypes" ] && append="$append lab.fair=$(echo $ftypes | tr ' ' ,)"
	# The skip-ticket lock's patience: out of range at 1 vCPU (refused,
	# the default kept), another valid value at 2, the default at 4.
	pat='' patbad=''
	if [ "$skip" = y ]; then
		case $smp in
		1) pat=100 patbad=0 ;;
		2) pat=250 ;;
		*) pat=100 ;;
		esac
		append="$append${patbad:+ skipticket.patience_us=$patbad}"
		[ "$pat" = 100 ] || append="$append skipticket.patience_us=$pat"
	fi
	# Bring-up, KUnit and the selftests, then each locktorture run.
	timeout=$(boot_timeout "$(echo $types $ftypes | wc -w)" "$TORTURE_SECS")
	# A boot that failed (timeout, panic) still has its log read by the
	# other checks: they say how far it got.
	if ! out=$(run lab/boot.sh -t "$timeout" -a "$append" "$v" "$smp" "$log"); then
		line "FAIL boot $v smp=$smp" "$out (log: $log)"
		show_tail "$log" 25
	else
		check "boot $v smp=$smp" lab/check.sh boot "$log" || show_tail "$log" 25
	fi
	[ "$kunit" = y ] && check "kunit $v smp=$smp" lab/check.sh kunit "$log" "$smp" "$klock"
	[ -n "$pat" ] && check "skipticket.patience_us $v smp=$smp" lab/check.sh patience "$log" "$pat" $patbad
	[ "$selftests" = y ] && check "locking selftests $v smp=$smp" lab/check.sh selftests "$log"
	# locktorture's '???' (one writer below half of another's share) is
	# shown for its default runs: two writers per vCPU, shuffled and
	# RT-boosted, share the lock as the guest's scheduler lets them. In
	# the fairness run each vCPU has one writer: there a FIFO lock must
	# keep them even where every vCPU has a host CPU; where vCPUs
	# outnumber the host CPUs, preempted waiters make any lock uneven.
	for t in $types; do
		check "locktorture $v smp=$smp $t" lab/check.sh torture "$log" "$t" show
	done
	fair=show
	[ "$ticket" = y ] && [ "$smp" -le "$NCPU" ] && fair=fair
	for t in $ftypes; do
		check "locktorture fairness $v smp=$smp $t" lab/check.sh fairness "$log" "$t" "$fair"
	done
done
exit $failed
