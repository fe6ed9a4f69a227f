# Shared settings and helpers for the lab scripts; sourced, not run.
# shellcheck shell=sh

LAB=${LAB:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$LAB/build}
TREE=${LAB_TREE:-$BUILD/linux}
LOGS=$BUILD/logs
VARIANTS="ticket kcsan bigticket queued skip skipbench queuedlockdep combo combobench debian"
SRC_TARBALL=/usr/src/linux-source-6.12.tar.xz
NCPU=$(nproc 2>/dev/null || echo 2)
# ccache: hash paths under build/ relative to it, so other clones hit too.
export CCACHE_BASEDIR="$BUILD"

die() {
	echo "error: $*" >&2
	exit 1
}

say() {
	printf '%s [%s] %s\n' "$(date +%H:%M:%S)" "$(basename "$0" .sh)" "$*" >&2
}

check_variant() {
	case " $VARIANTS " in
	*" $1 "*) ;;
	*) die "unknown variant '$1' (valid: $VARIANTS)" ;;
	esac
}

# vCPUs: 1..64, the NR_CPUS of the smallest variant.
check_smp() {
	case $1 in
	'' | *[!0-9]* | 0*) die "bad SMP value '$1' (valid: 1 to 64 vCPUs)" ;;
	esac
	[ "$1" -le 64 ] || die "bad SMP value '$1' (valid: 1 to 64 vCPUs)"
}

# Several variants, space-separated: each known, at least one, no repeats.
check_variants() {
	[ -n "$(echo $1)" ] || die "no variants given (valid: $VARIANTS)"
	for _v in $1; do
		check_variant "$_v"
		[ "$(echo $1 | tr ' ' '\n' | grep -cx "$_v")" -eq 1 ] || die "variant '$_v' given twice"
	done
}

# check_number NAME VALUE MIN MAX: a whole number in [MIN, MAX].
check_number() {
	case $2 in
	'' | *[!0-9]* | 0?*) die "bad $1 '$2' (a whole number, $3 to $4)" ;;
	esac
	[ "$2" -ge "$3" ] && [ "$2" -le "$4" ] || die "bad $1 '$2' (a whole number, $3 to $4)"
}

# What a variant is meant to be, from its config fragments (base, then the
# variant's own, the later line winning), never from the built .config: a
# build that silently lost an option must not lower the expectation.
# Usage: fragconf VARIANT CONFIG_SYMBOL  -> its value (y, m, 64, ...) or ""
# LAB_EXTRA_CONFIG (make mutants) is a fragment applied last to every
# variant, in builds and in expectations alike.
fragconf() {
	cat "$LAB/configs/base.config" "$LAB/configs/$1.config" ${LAB_EXTRA_CONFIG:+"$LAB_EXTRA_CONFIG"} |
		sed -n "s/^$2=//p" | tail -n 1
}

# configure ARCH O LOG FRAGMENT...: tinyconfig plus the fragments, in O.
# Kconfig silently drops what it cannot set (an unmet dependency, a choice
# it refuses): every option's last setting in the fragments, CONFIG_X=v or
# "# CONFIG_X is not set", must be what the result has; a one-line error
# names the options that did not take.
configure() {
	_arch=$1 _o=$2 _log=$3
	shift 3
	{ make -C "$TREE" O="$_o" ARCH="$_arch" CC="ccache gcc" HOSTCC="ccache gcc" tinyconfig &&
	  "$TREE/scripts/kconfig/merge_config.sh" -m -O "$_o" "$_o/.config" "$@" &&
	  make -C "$TREE" O="$_o" ARCH="$_arch" CC="ccache gcc" HOSTCC="ccache gcc" olddefconfig
	} >"$_log" 2>&1 || { show_tail "$_log"; die "configuring $_o failed"; }
	# A later fragment overrides an earlier one (merge_config.sh): each
	# option is checked against its last setting.
	_bad=$(cat "$@" | awk '
		/^CONFIG_[A-Za-z0-9_]*=/ { s = $0; sub(/=.*/, "", s); last[s] = $0; if (!(s in seen)) { seen[s] = 1; order[n++] = s } }
		/^# CONFIG_[A-Za-z0-9_]* is not set$/ { s = $2; last[s] = s "=n"; if (!(s in seen)) { seen[s] = 1; order[n++] = s } }
		END { for (i = 0; i < n; i++) print last[order[i]] }' | while read -r _line; do
		case $_line in
		*=n) grep -q "^${_line%=n}=" "$_o/.config" && echo "$_line" ;;
		*) grep -qx "$_line" "$_o/.config" || echo "$_line" ;;
		esac
	done)
	[ -z "$_bad" ] || die "$(basename "$_o"): config options not set as asked (unmet dependency, or refused): $(echo $_bad)"
}

# debian_base O LOG [SCRIPTS_CONFIG_ARGS...]: Debian's own amd64
# configuration (package linux-config-6.12, config.amd64_none_amd64:
# NR_CPUS=8192, paravirt spinlocks, KVM, Xen and Hyper-V guests) in O, its
# module signing keys and debug info off (no code changes with them), then
# the scripts/config arguments; the rest is Debian's. A one-line error if
# the file is missing or the configuration fails.
debian_base() {
	_o=$1 _log=$2
	shift 2
	_src=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
	[ -f "$_src" ] || die "no $_src (apt-get install linux-config-6.12)"
	{ xz -dc "$_src" >"$_o/.config" &&
	  "$TREE/scripts/config" --file "$_o/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str SYSTEM_REVOCATION_KEYS "" --disable MODULE_SIG_ALL \
		--enable DEBUG_INFO_NONE --disable DEBUG_INFO_DWARF5 \
		--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT "$@" &&
	  make -C "$TREE" O="$_o" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" olddefconfig
	} >"$_log" 2>&1 || { show_tail "$_log"; die "configuring $_o failed (log: $_log)"; }
}

# debian_config O LOG [SCRIPTS_CONFIG_ARGS...]: debian_base with the
# spinlock chosen at boot (X86_BOOT_SPINLOCKS) instead of queued spinlocks,
# then the extra arguments; a one-line error if an option did not take.
debian_config() {
	_o=$1 _log=$2
	shift 2
	debian_base "$_o" "$_log" --disable X86_QUEUED_SPINLOCKS --enable X86_BOOT_SPINLOCKS "$@"
	for _c in CONFIG_X86_BOOT_SPINLOCKS=y CONFIG_NR_CPUS=8192 CONFIG_PARAVIRT_SPINLOCKS=y \
		CONFIG_KVM_GUEST=y CONFIG_XEN_PV=y CONFIG_HYPERV=m; do
		grep -qx "$_c" "$_o/.config" || die "$(basename "$_o"): $_c did not take"
	done
}

# obj_enabled SRC O DIR/NAME.o: the object's source exists in SRC and its
# Makefile line, obj-y or obj-$(CONFIG_X), is enabled in O's .config. (A
# single-object make would compile it whatever the configuration says.)
obj_enabled() {
	[ -f "$1/${3%.o}.c" ] || return 1
	_sym=$(grep -E "^obj-[^+]*\+=.*[[:space:]]$(basename "$3")([[:space:]]|\$)" \
		"$1/$(dirname "$3")/Makefile" | head -n 1 | sed -n 's/^obj-\$(\(CONFIG_[A-Z0-9_]*\)).*/\1/p')
	[ -z "$_sym" ] || grep -Eq "^$_sym=(y|m)" "$2/.config"
}

# boot_timeout N SECS: the seconds a guest boot may take that runs N
# locktorture types of SECS seconds each: 180 for bring-up, KUnit and the
# selftests (TCG, up to 16 vCPUs on 2 host CPUs), SECS + 30 per type (its
# start, its stop and its statistics). Every boot of the lab's checks uses
# it.
boot_timeout() {
	check_number "boot_timeout N" "$1" 0 100
	check_number "boot_timeout SECS" "$2" 1 3600
	echo $((180 + $1 * ($2 + 30)))
}

kbuild_dir() {
	echo "$BUILD/kernel-$1"
}

# Show the end of a log after a failure.
show_tail() {
	echo "---- last ${2:-30} lines of $1 ----" >&2
	tail -n "${2:-30}" "$1" >&2
	echo "----" >&2
}
