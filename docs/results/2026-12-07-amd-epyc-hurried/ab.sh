#!/bin/sh
# A/B: the skip kernel's spin_lock() of the new series (hurried registration)
# against the old series', lockbench's loads in alternated boots, same
# initramfs (lockbench built for the new kernel). Ratios inside each load:
# spinlock/legacy and skipticket/legacy.
# build/kernel-skipbench-old: configs/skipbench's .config built from the
# old series' tree (make O=... olddefconfig bzImage in a worktree of it).
# Usage: ab.sh SMP ROUNDS BOOTS_PER_KERNEL   (logs in $OUT, default results/ab)
cd "$(dirname "$0")/../../.." || exit 1
smp=$1 rounds=$2 n=$3
out=${OUT:-results/ab}; mkdir -p $out
i=1
while [ $i -le $n ]; do
	for k in new old; do
		case $k in new) kern=build/kernel-skipbench/arch/x86/boot/bzImage ;; old) kern=build/kernel-skipbench-old/arch/x86/boot/bzImage ;; esac
		log=$out/$k-smp$smp-$i.log
		timeout -k 10 600 qemu-system-x86_64 -accel tcg,thread=multi -M pc -cpu qemu64 -smp $smp -m 1G -no-reboot \
			-nodefaults -no-user-config -display none -kernel $kern -initrd build/initramfs-skipbench.cpio.gz \
			-serial file:$log -append "console=ttyS0 panic=-1 oops=panic softlockup_panic=1 hung_task_panic=1 reboot=f lab.bench=1 lab.bench_rounds=$rounds lab.bench_args=locks=spinlock+legacy+skipticket+ticket8,count=0,duration_ms=2000,irqsoff=1" </dev/null >$log.qemu 2>&1
		echo "$k smp=$smp boot $i: $(grep -ac '^lock=' $log) results"
	done
	i=$((i + 1))
done
