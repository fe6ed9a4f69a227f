#!/bin/sh
# Soak a lockdep kernel with locktorture and CPU hotplug.
# Usage: lab/soak.sh [-d SECS] [-s SMP] [-t TYPES] [-i ONOFF] [-v VARIANT]
#   -d  seconds per torture type (default 600)
#   -s  vCPUs (default 4)
#   -t  comma-separated types (default spin_lock,spin_lock_irq,raw_spin_lock,rw_lock)
#   -i  seconds between CPU hotplug operations, 0 = none (default 3)
#   -v  ticket (default) or skip: the lockdep kernel of the ticket lock, or
#       of the skip-ticket lock
# Each type runs with onoff_interval, stutter and long_hold; it passes with
# every stats line "Fail: 0", "End of test: SUCCESS", no splat, and (with
# hotplug on) at least one CPU taken offline and brought back.
# Prints one "ok"/"FAIL" line per type; exits non-zero on any failure.
# LAB_LIST=1 lists the checks' names (lab/checks.sh).
. "$(dirname "$0")/lib.sh"
. "$LAB/lab/checks.sh"

secs=600 smp=4 types=spin_lock,spin_lock_irq,raw_spin_lock,rw_lock onoff=3 v=ticket
while getopts d:s:t:i:v: opt; do
	case $opt in
	d) secs=$OPTARG ;;
	s) smp=$OPTARG ;;
	t) types=$OPTARG ;;
	i) onoff=$OPTARG ;;
	v) v=$OPTARG ;;
	*) die "usage: lab/soak.sh [-d SECS] [-s SMP] [-t TYPES] [-i ONOFF] [-v VARIANT]" ;;
	esac
done
case $secs in '' | *[!0-9]* | 0*) die "bad duration '$secs' (seconds per type, 1 to 86400)" ;; esac
[ "$secs" -le 86400 ] || die "bad duration '$secs' (seconds per type, 1 to 86400)"
case $onoff in '' | *[!0-9]*) die "bad hotplug interval '$onoff' (seconds, 0 = off)" ;; esac
check_smp "$smp"
[ "$onoff" -eq 0 ] || [ "$smp" -ge 2 ] || die "CPU hotplug needs at least 2 vCPUs"
n=0
for t in $(echo "$types" | tr ',' ' '); do
	case $t in
	spin_lock | spin_lock_irq | raw_spin_lock | raw_spin_lock_irq | rw_lock | rw_lock_irq) ;;
	*) die "unknown torture type '$t' (valid: spin_lock spin_lock_irq raw_spin_lock raw_spin_lock_irq rw_lock rw_lock_irq)" ;;
	esac
	n=$((n + 1))
done
[ "$n" -gt 0 ] || die "no torture types given"
case $v in ticket | skip) ;; *) die "bad variant '$v' for a soak (valid: ticket skip)" ;; esac

# The arguments are checked first; then the kernel is brought up to date.
run "$LAB/lab/deps.sh" && run "$LAB/lab/tree.sh" && run "$LAB/lab/build.sh" $v || exit 1
run "$LAB/lab/initramfs.sh" $v || exit 1

stat=$((secs / 4))
[ "$stat" -ge 5 ] || stat=5
[ "$stat" -le 60 ] || stat=60
args="stat_interval=$stat,stutter=5,long_hold=100,verbose=2"
[ "$onoff" -gt 0 ] && args="$args,onoff_interval=$onoff,onoff_holdoff=1"
log=$LOGS/soak-$v-smp$smp.log
timeout=$(boot_timeout "$n" "$secs")
[ -n "$LAB_LIST" ] || say "soaking $v at $smp vCPUs: $types, ${secs}s each, hotplug every ${onoff}s (log: $log)"
start=$(date +%s)
name="soak $v smp=$smp"
if ! out=$(run "$LAB/lab/boot.sh" -t "$timeout" \
	-a "lab.torture=$types lab.torture_secs=$secs lab.torture_args=$args" \
	$v "$smp" "$log"); then
	line "FAIL $name" "$out"
	show_tail "$log" 25
	exit 1
fi
took=$(($(date +%s) - start))

if out=$(run "$LAB/lab/check.sh" boot "$log"); then
	line "ok   $name" "${took}s, $out"
else
	line "FAIL $name" "$out"
	show_tail "$log" 25
fi
for t in $(echo "$types" | tr ',' ' '); do
	name="soak $v smp=$smp $t"
	# CPU hotplug turns locktorture's '???' flag off; without it, a
	# soak's stutter and long_hold make writers uneven by design.
	if ! out=$(run "$LAB/lab/check.sh" torture "$log" "$t" show); then
		line "FAIL $name" "$out"
		continue
	fi
	if [ "$onoff" -gt 0 ] && ! hp=$(run "$LAB/lab/check.sh" hotplug "$log" "$t"); then
		line "FAIL $name" "$hp"
		continue
	fi
	line "ok   $name" "${secs}s, $out${hp:+, $hp}"
done
exit $failed
