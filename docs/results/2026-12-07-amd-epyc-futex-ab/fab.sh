#!/bin/sh
# Futex A/B: the one image (combobench) of the series with the hurried
# registration (new) against the same config built from the series before
# it (old), automatic choice (skip-ticket in a qemu64 guest), and the new
# image with spinlock=queued (test-and-set) as the reference; boots
# alternated new/old/tas; workload futex and open, 1 s per run, R runs per
# boot. Usage: fab.sh SMP BOOTS R
cd /work/main || exit 1
smp=$1 n=$2 r=$3 out=/work/tmp/fab
i=1
while [ $i -le $n ]; do
	for k in new old tas; do
		case $k in
		new|tas) kern=build/kernel-combobench/arch/x86/boot/bzImage ;;
		old) kern=/work/tmp/kold/arch/x86/boot/bzImage ;;
		esac
		extra=; [ $k = tas ] && extra=spinlock=queued
		log=$out/$k-smp$smp-$i.log
		timeout -k 10 300 qemu-system-x86_64 -accel tcg,thread=multi -M pc -cpu qemu64 -smp $smp -m 1G -no-reboot \
			-nodefaults -no-user-config -display none -kernel $kern -initrd build/bench/initramfs-combobench.cpio.gz \
			-serial file:$log -append "console=ttyS0 panic=-1 oops=panic softlockup_panic=1 hung_task_panic=1 reboot=f $extra lab.bench=1 lab.bench_rounds=0 lab.bench_workload=futex,open lab.bench_workload_secs=1 lab.bench_workload_rounds=$r" </dev/null >$log.qemu 2>&1
		echo "$k smp=$smp boot $i: $(grep -a 'spinlock:' $log | head -1 | cut -c1-100) $(grep -ac '^workload=' $log) results"
	done
	i=$((i + 1))
done
