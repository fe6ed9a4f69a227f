#!/bin/sh
# Configure and build one kernel variant out of tree, in build/kernel-VARIANT:
# tinyconfig + configs/base.config + configs/VARIANT.config.
# Usage: lab/build.sh VARIANT
. "$(dirname "$0")/lib.sh"

v=$1
check_variant "$v"
O=$(kbuild_dir "$v")
frags="$LAB/configs/base.config $LAB/configs/$v.config${LAB_EXTRA_CONFIG:+ $LAB_EXTRA_CONFIG}"
mkdir -p "$O" "$LOGS"
log=$LOGS/build-$v.log
# One build per folder at a time: a second one waits for the first.
exec 9>"$O/.lab-lock"
if ! flock -n 9; then
	say "waiting for another build of $v to finish"
	flock 9
fi
# Its own make, not the caller's (make -s would silence the log that the
# progress lines count).
kmake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$TREE" O="$O" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

# (Re)configure when a fragment changed. The debian variant is Debian's
# own configuration (debian_config in lab/lib.sh) with locktorture as a
# module; it builds the image and those modules, not Debian's thousands.
[ "$v" = debian ] && frags="$LAB/configs/debian.config $LAB/lab/lib.sh"
stamp=$(cat $frags | sha256sum | cut -c1-16)
if [ ! -f "$O/.config" ] || [ "$(cat "$O/.lab-config" 2>/dev/null)" != "$stamp" ]; then
	say "configuring $v"
	# A configuration that fails leaves a .config that is not the
	# fragments': forget the stamp first, so the next build redoes it.
	rm -f "$O/.lab-config"
	if [ "$v" = debian ]; then
		debian_config "$O" "$log" --module LOCK_TORTURE_TEST
	else
		configure x86_64 "$O" "$log" $frags
	fi
	echo "$stamp" >"$O/.lab-config"
fi

say "building $v (log: $log)"
start=$(date +%s)
build_targets() {
	if [ "$v" = debian ]; then
		# Named .ko goals beside bzImage are built one goal at a time,
		# and modpost then sees locktorture.ko without torture.ko, whose
		# symbols it uses: build the image, then the two modules together.
		kmake -j"$NCPU" bzImage &&
			kmake -j"$NCPU" kernel/torture.ko kernel/locking/locktorture.ko
	else
		kmake -j"$NCPU" bzImage modules
	fi
}
build_targets >"$log" 2>&1 &
pid=$!
# Progress: one line a minute while make runs.
next=$((start + 60))
while kill -0 $pid 2>/dev/null; do
	sleep 2
	[ "$(date +%s)" -ge $next ] || continue
	say "  $v: $(((next - start) / 60)) min, $(grep -c '^  CC' "$log") files compiled"
	next=$((next + 60))
done
wait $pid || { grep -E 'error|Error' "$log" | head -20 >&2; show_tail "$log" 20; die "building $v failed"; }
say "built $v in $(($(date +%s) - start)) s"
