#!/bin/sh
# Futex A/B of the sampled clock read: the one image with it (fix), the
# one image before it (prev: a TSC read on every hurried take), the
# previous series (old: registration after the xadd), and the fix image
# with spinlock=queued (tas). Usage: fab3.sh SMP ROUNDS
cd /work/main || exit 1
smp=$1 n=$2 out=/work/tmp/fab3
mkdir -p $out
i=1
while [ $i -le $n ]; do
	for k in fix prev old tas; do
		case $k in
		tas) kern=/work/tmp/stat/bz-fix ;;
		*) kern=/work/tmp/stat/bz-$k ;;
		esac
		extra=; [ $k = tas ] && extra=spinlock=queued
		log=$out/$k-smp$smp-$i.log
		timeout -k 10 300 qemu-system-x86_64 -accel tcg,thread=multi -M pc -cpu qemu64 -smp $smp -m 1G -no-reboot \
			-nodefaults -no-user-config -display none -kernel $kern -initrd build/bench/initramfs-combobench.cpio.gz \
			-serial file:$log -append "console=ttyS0 panic=-1 oops=panic softlockup_panic=1 hung_task_panic=1 reboot=f $extra lab.bench=1 lab.bench_rounds=0 lab.bench_workload=futex,open lab.bench_workload_secs=1 lab.bench_workload_rounds=4" </dev/null >$log.qemu 2>&1
		echo "$k smp=$smp round $i: $(grep -ac '^workload=' $log) results $(grep -a '^workload=futex' $log | grep -o 'ops_per_sec=[0-9]*' | cut -d= -f2 | tr '\n' ' ')"
	done
	i=$((i + 1))
done
