#!/bin/sh
# The guest checks of the kernel that chooses its spinlock at boot (variant
# combo, CONFIG_X86_BOOT_SPINLOCKS): one image, booted once per choice, as a
# guest (QEMU's hypervisor bit) and as bare metal (-cpu qemu64,-hypervisor).
# Each boot must name the expected lock on its 'spinlock: ' line; the full
# boots also run KUnit (the FIFO ticket and skip-ticket suites, the rule's
# decision table, and arch_spin_*() reaching the lock in use), the locking
# selftests and locktorture's spin_lock under that lock. The bad-input boots
# (a misspelt value, an empty one, a paravirt request where TCG has no
# paravirt spinlocks)
# must warn, naming the value, and make the automatic choice. One line per
# check:
#   initramfs combo, boot combo MODE, spinlock combo MODE, kunit combo MODE,
#   kunit skip combo MODE, locking selftests combo MODE,
#   locktorture combo MODE TYPE
# Exits non-zero if any check failed.
#   TORTURE_SECS   seconds per locktorture type (default 8)
# LAB_LIST=1 lists the checks' names (lab/checks.sh).
# Usage: lab/combo-checks.sh [MODE...]   (default: every mode below)
. "$(dirname "$0")/lib.sh"
cd "$LAB" || exit 1

v=combo
TORTURE_SECS=${TORTURE_SECS:-8}
check_number TORTURE_SECS "$TORTURE_SECS" 1 600
AUTO_GUEST='skip-ticket (auto: guest without paravirt spinlocks)'
ALL=spin_lock,spin_lock_irq,raw_spin_lock,rw_lock
# MODE|vCPUs|CPU model|command line|expected 'spinlock: ' line|warning|torture
MODES="guest|4|qemu64||$AUTO_GUEST||spin_lock,rw_lock
bare|2|qemu64,-hypervisor||queued (auto: no hypervisor)||$ALL
queued|2|qemu64|spinlock=queued|queued, test-and-set fallback (spinlock=queued)||$ALL
ticket|2|qemu64|spinlock=ticket|FIFO ticket (spinlock=ticket)||spin_lock
skipticket|2|qemu64,-hypervisor|spinlock=skipticket|skip-ticket (spinlock=skipticket)||spin_lock
unknown|1|qemu64|spinlock=skip-ticket|$AUTO_GUEST|spinlock=skip-ticket: unknown (valid: auto, queued, pvqueued, ticket, skipticket), choosing automatically|
empty|1|qemu64|spinlock=|$AUTO_GUEST|spinlock=: unknown (valid: auto, queued, pvqueued, ticket, skipticket), choosing automatically|
pvqueued|1|qemu64|spinlock=pvqueued|$AUTO_GUEST|spinlock=pvqueued: no paravirt spinlock backend here, choosing automatically|"
modes=$*
for m in $modes; do
	echo "$MODES" | grep -q "^$m|" || die "unknown mode '$m' (valid: $(echo $(echo "$MODES" | cut -d'|' -f1)))"
done

. "$LAB/lab/checks.sh"
pack_initramfs "$v"

run mkdir -p "$LOGS/test"
while IFS='|' read -r mode smp cpu append want warn types; do
	[ -z "$modes" ] || case " $modes " in *" $mode "*) ;; *) continue ;; esac
	log=$LOGS/test/$v-$mode.log
	full=1
	[ -n "$warn" ] && full= append="$append kunit.enable=0"
	[ -n "$types" ] && append="$append lab.torture=$types lab.torture_secs=$TORTURE_SECS lab.torture_args=stat_interval=4"
	timeout=$(boot_timeout "$(echo "$types" | tr ',' ' ' | wc -w)" "$TORTURE_SECS")
	if ! out=$(run lab/boot.sh -t "$timeout" -c "$cpu" -a "$append" "$v" "$smp" "$log"); then
		line "FAIL boot $v $mode" "$out (log: $log)"
		show_tail "$log" 25
	else
		check "boot $v $mode" lab/check.sh boot "$log" || show_tail "$log" 25
	fi
	check "spinlock $v $mode" lab/check.sh spinlock "$log" "$want" "$warn"
	if [ -n "$full" ]; then
		check "kunit $v $mode" lab/check.sh kunit "$log" "$smp" boot
		check "kunit skip $v $mode" lab/check.sh kunit "$log" "$smp" skip
		check "locking selftests $v $mode" lab/check.sh selftests "$log"
	fi
	for t in $(echo "$types" | tr ',' ' '); do
		check "locktorture $v $mode $t" lab/check.sh torture "$log" "$t" show
	done
done <<EOF2
$MODES
EOF2
exit $failed
