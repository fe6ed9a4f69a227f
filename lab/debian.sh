#!/bin/sh
# make debian: Debian's own amd64 configuration (NR_CPUS=8192, paravirt
# spinlocks, KVM, Xen and Hyper-V guests) with the spinlock chosen at boot,
# its whole image built (bzImage, and locktorture as a module) and booted
# once under QEMU TCG at 4 vCPUs as a guest: the automatic choice must be
# the skip-ticket lock (a guest without paravirt spinlocks, 4 vCPUs within
# its bound although NR_CPUS is 8192), and locktorture's spin_lock must
# pass under it with no splat. Not part of make test: the build takes
# hours on 2 CPUs (docs/testing.md has the time). One line per check:
#   build debian, initramfs debian, boot debian smp=4, spinlock debian
#   smp=4, locktorture debian smp=4 spin_lock
# Exits non-zero if any check failed; LAB_LIST=1 lists the checks' names.
#   TORTURE_SECS   seconds of locktorture (default 30)
# Usage: lab/debian.sh
. "$(dirname "$0")/lib.sh"
cd "$LAB" || exit 1
. "$LAB/lab/checks.sh"

TORTURE_SECS=${TORTURE_SECS:-30}
check_number TORTURE_SECS "$TORTURE_SECS" 1 600
v=debian smp=4
start=$(date +%s)
if ! out=$(run lab/build.sh $v 2>&1); then
	line "FAIL build $v" "$(echo "$out" | tail -n 1)"
	exit 1
fi
line "ok   build $v" "bzImage $(stat -c %s "$(kbuild_dir $v)/arch/x86/boot/bzImage" 2>/dev/null) bytes, built in $(($(date +%s) - start)) s"
pack_initramfs $v
log=$LOGS/test/$v-smp$smp.log
run mkdir -p "$LOGS/test"
# A distribution image probes far more hardware than the lab's tiny
# kernels: 120 s more for its bring-up under TCG.
timeout=$(($(boot_timeout 1 "$TORTURE_SECS") + 120))
append="lab.torture=spin_lock lab.torture_secs=$TORTURE_SECS lab.torture_args=stat_interval=10"
if ! out=$(run lab/boot.sh -t "$timeout" -a "$append" $v $smp "$log"); then
	line "FAIL boot $v smp=$smp" "$out (log: $log)"
	show_tail "$log" 25
else
	check "boot $v smp=$smp" lab/check.sh boot "$log" || show_tail "$log" 25
fi
check "spinlock $v smp=$smp" lab/check.sh spinlock "$log" 'skip-ticket (auto: guest without paravirt spinlocks)'
check "locktorture $v smp=$smp spin_lock" lab/check.sh torture "$log" spin_lock show
exit $failed
