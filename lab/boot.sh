#!/bin/sh
# Boot one variant under QEMU TCG with the serial console in a log file.
# Usage: lab/boot.sh [-t TIMEOUT] [-c CPUMODEL] [-a APPEND] [-k] [-i]
#                    [-K BZIMAGE -I INITRAMFS] VARIANT SMP LOG
#   -t  hard timeout in seconds (default 300); the run fails past it
#   -c  QEMU CPU model (default qemu64; qemu64,-hypervisor hides the
#       hypervisor bit, so qspinlock takes its native path)
#   -a  more kernel command line (lab.torture=... and friends, see guest/init)
#   -k  opt in to KVM (-accel kvm) instead of TCG
#   -i  interactive: console on this terminal, a shell in the guest, no timeout
#   -K, -I  boot this kernel image and initramfs (built anywhere: lab/ab.sh
#       compares kernels of two series) instead of the variant's; VARIANT
#       then only names the guest in messages
# Exits 0 when QEMU ended by itself, 1 with a one-line reason otherwise.
. "$(dirname "$0")/lib.sh"

timeout=300 cpu=qemu64 append= accel=tcg,thread=multi interactive=
kernel= initrd=
while getopts t:c:a:kiK:I: opt; do
	case $opt in
	t) timeout=$OPTARG ;;
	c) cpu=$OPTARG ;;
	a) append=$OPTARG ;;
	k) accel=kvm ;;
	i) interactive=1 ;;
	K) kernel=$OPTARG ;;
	I) initrd=$OPTARG ;;
	*) die "usage: lab/boot.sh [-t S] [-c CPU] [-a APPEND] [-k] [-i] [-K BZIMAGE -I INITRAMFS] VARIANT SMP LOG" ;;
	esac
done
shift $((OPTIND - 1))
v=$1 smp=$2 log=$3
check_smp "$smp"
case $timeout in '' | *[!0-9]* | 0) die "bad timeout '$timeout' (seconds, > 0)" ;; esac
if [ -n "$kernel$initrd" ]; then
	[ -n "$kernel" ] && [ -n "$initrd" ] || die "-K and -I go together (a kernel and its initramfs)"
	[ -f "$kernel" ] || die "no kernel image '$kernel'"
	[ -f "$initrd" ] || die "no initramfs '$initrd'"
else
	check_variant "$v"
	kernel=$(kbuild_dir "$v")/arch/x86/boot/bzImage
	initrd=$BUILD/initramfs-$v.cpio.gz
	[ -f "$kernel" ] || die "no kernel for $v: run lab/build.sh $v"
	[ -f "$initrd" ] || die "no initramfs for $v: run lab/initramfs.sh $v"
fi
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"

# panic=-1 with -no-reboot turns a panic into a QEMU exit; oops and soft
# lockups and hung tasks panic, so a broken guest ends at once instead of at
# the timeout. reboot=f: the guest's closing 'reboot -f' skips
# machine_shutdown(), whose native_stop_other_cpus() polls cpus_stop_mask
# with plain reads while the other CPUs clear their bits (a KCSAN data race
# in 6.12's reboot path, after the run, that is not the lock's).
cmdline="console=ttyS0 panic=-1 oops=panic softlockup_panic=1 hung_task_panic=1 reboot=f $append"
set -- -accel "$accel" -M pc -cpu "$cpu" -smp "$smp" -m 1G -no-reboot \
	-nodefaults -no-user-config -display none \
	-kernel "$kernel" -initrd "$initrd"

if [ -n "$interactive" ]; then
	exec qemu-system-x86_64 "$@" -serial mon:stdio -append "$cmdline lab.shell=1"
fi

[ -n "$log" ] || die "usage: lab/boot.sh [options] VARIANT SMP LOG"
mkdir -p "$(dirname "$log")"
: >"$log"
timeout -k 10 "$timeout" qemu-system-x86_64 "$@" -serial "file:$log" \
	-append "$cmdline" </dev/null >"$log.qemu" 2>&1
rc=$?
case $rc in
0) exit 0 ;;
124 | 137) echo "guest $v smp=$smp timed out after ${timeout}s" ;;
*) echo "qemu exited with status $rc: $(head -c 300 "$log.qemu")" ;;
esac
exit 1
