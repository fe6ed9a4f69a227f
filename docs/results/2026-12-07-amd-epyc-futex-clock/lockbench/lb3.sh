#!/bin/sh
# lockbench A/B of the sampled clock read: spin_lock() of the one image
# with it (fix), before it (prev) and of the previous series (old), same
# initramfs (lockbench built for fix), locks spinlock, legacy (the
# module's test-and-set lock), skipticket, ticket8, 2 s each, irqs off; ROUNDS
# loads per boot. Usage: lb3.sh SMP ROUNDS BOOTS
cd /work/main || exit 1
smp=$1 rounds=$2 n=$3 out=/work/tmp/lb3
mkdir -p $out
i=1
while [ $i -le $n ]; do
	for k in fix prev old; do
		kern=/work/tmp/stat/bz-$k
		log=$out/$k-smp$smp-$i.log
		timeout -k 10 600 qemu-system-x86_64 -accel tcg,thread=multi -M pc -cpu qemu64 -smp $smp -m 1G -no-reboot \
			-nodefaults -no-user-config -display none -kernel $kern -initrd /work/tmp/stat/initramfs-fix.cpio.gz \
			-serial file:$log -append "console=ttyS0 panic=-1 oops=panic softlockup_panic=1 hung_task_panic=1 reboot=f lab.bench=1 lab.bench_rounds=$rounds lab.bench_args=locks=spinlock+legacy+skipticket+ticket8,count=0,duration_ms=2000,irqsoff=1" </dev/null >$log.qemu 2>&1
		echo "$k smp=$smp boot $i: $(grep -ac '^lock=' $log) results"
	done
	i=$((i + 1))
done
