#!/bin/sh
# new vs old, instrumented, futex workload; usage: run.sh SMP BOOTS
cd /work/main || exit 1
smp=$1 n=$2 out=/work/tmp/stat
i=1
while [ $i -le $n ]; do
	for k in $KS; do
		kern=/work/tmp/stat/bz-$k
		log=$out/$k-smp$smp-$i.log
		timeout -k 10 300 qemu-system-x86_64 -accel tcg,thread=multi -M pc -cpu qemu64 -smp $smp -m 1G -no-reboot \
			-nodefaults -no-user-config -display none -kernel $kern -initrd build/bench/initramfs-combobench.cpio.gz \
			-serial file:$log -append "console=ttyS0 panic=-1 oops=panic softlockup_panic=1 hung_task_panic=1 reboot=f lab.bench=1 lab.bench_rounds=0 lab.bench_workload=futex lab.bench_workload_secs=1 lab.bench_workload_rounds=4" </dev/null >$log.qemu 2>&1
		echo "$k smp=$smp boot $i: $(grep -a 'spinlock:' $log | head -1 | cut -c1-80) $(grep -a '^workload=' $log | grep -o 'ops_per_sec=[0-9.]*' | tr '\n' ' ')"
	done
	i=$((i + 1))
done
