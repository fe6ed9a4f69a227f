# The check bookkeeping of make test (tests/run), sourced; tests/harness.sh
# tests it. Every check prints one line, "ok   NAME: detail", "FAIL NAME:
# reason" or "SKIP NAME: why", and records NAME; finish() turns every
# expected NAME that printed no line into a FAIL ("did not run"), prints
# "N skipped" and "N passed, N failed", and exits non-zero if anything
# failed. Needs $tmp, an empty scratch folder.
#
# Each check is named once, where it runs: plan FUNC runs FUNC twice, first
# as a plan (PLAN=1: ok, notok, skip, check and result only expect their
# NAME, run runs nothing, tool asks its command for the names of its checks
# with LAB_LIST=1, see lab/checks.sh), then for real, then finish().
# shellcheck shell=sh

ran=$tmp/ran expected=$tmp/expected
: >"$ran"
: >"$expected"
passed=0 failed=0 skipped=0

PLAN=

record() {
	echo "$2" >>"$ran"
	printf '%-4s %s%s\n' "$1" "$2" "${3:+: $3}"
}
ok() {
	[ -n "$PLAN" ] && { expect "$1"; return 0; }
	record ok "$1" "$2"
	passed=$((passed + 1))
}
notok() {
	[ -n "$PLAN" ] && { expect "$1"; return 0; }
	record FAIL "$1" "$2"
	failed=$((failed + 1))
}
skip() {
	[ -n "$PLAN" ] && { expect "$1"; return 0; }
	record SKIP "$1" "$2"
	skipped=$((skipped + 1))
}
expect() {
	# A line is "STATUS NAME: detail": a NAME with ": " in it could never
	# be matched to its line.
	case $1 in *': '*) echo "error: check name '$1' contains ': '" >&2; exit 2 ;; esac
	echo "$1" >>"$expected"
}
# check NAME CMD...: one line from CMD's stdout (stderr passes through).
check() {
	_name=$1
	shift
	[ -n "$PLAN" ] && { expect "$_name"; return 0; }
	if _out=$("$@"); then
		ok "$_name" "$(echo "$_out" | tail -n 1)"
		return 0
	fi
	notok "$_name" "$(echo "$_out" | tail -n 1)"
	return 1
}
# tool NAME CMD...: CMD prints its own "ok|FAIL|SKIP NAME: detail" lines,
# each counted; other lines pass through. CMD's exit status counts too: a
# non-zero exit with no FAIL line is a FAIL of NAME, and so is a run that
# printed no check line at all.
tool() {
	_name=$1
	shift
	if [ -n "$PLAN" ]; then
		# The tool's list of its checks; one that lists none is a bug of
		# the tool, not a check that failed: make test stops.
		LAB_LIST=1 "$@" >"$tmp/list" 2>"$tmp/list.err"
		_rc=$?
		if [ "$_rc" -ne 0 ] || [ ! -s "$tmp/list" ]; then
			echo "error: $_name ($*) lists no checks with LAB_LIST=1 (exit $_rc): $(tail -n 1 "$tmp/list.err")" >&2
			exit 2
		fi
		while IFS= read -r _n; do expect "$_n"; done <"$tmp/list"
		return 0
	fi
	"$@" >"$tmp/out" 2>&1
	_rc=$?
	_fails=$failed _lines=0
	while IFS= read -r _line; do
		case $_line in
		'ok '* | 'FAIL '* | 'SKIP '*)
			_status=${_line%% *}
			_rest=$(echo "${_line#* }" | sed 's/^ *//')
			_lname=${_rest%%: *}
			_detail=${_rest#"$_lname"}
			_detail=${_detail#: }
			case $_status in
			ok) ok "$_lname" "$_detail" ;;
			FAIL) notok "$_lname" "$_detail" ;;
			SKIP) skip "$_lname" "$_detail" ;;
			esac
			_lines=$((_lines + 1))
			;;
		*) echo "$_line" ;;
		esac
	done <"$tmp/out"
	if [ "$_lines" -eq 0 ]; then
		notok "$_name" "printed no check line, exit $_rc: $(tail -n 1 "$tmp/out")"
	elif [ "$_rc" -ne 0 ] && [ "$failed" -eq "$_fails" ]; then
		notok "$_name" "exited $_rc after its checks passed: $(tail -n 1 "$tmp/out")"
	fi
	return "$_rc"
}
# result NAME STATUS DETAIL: ok if STATUS is 0, else FAIL (returns 1).
result() {
	if [ "$2" -eq 0 ]; then ok "$1" "$3"; else notok "$1" "$3"; [ -n "$PLAN" ]; fi
}
# run CMD...: CMD, except in the plan (nothing, status 0).
run() {
	[ -n "$PLAN" ] || "$@"
}
# plan FUNC: FUNC as a plan, then for real, then finish().
plan() {
	PLAN=1
	"$1"
	PLAN=
	"$1"
	finish
}
finish() {
	sort -u "$expected" | while IFS= read -r _n; do
		grep -Fxq "$_n" "$ran" || echo "$_n"
	done >"$tmp/missing"
	while IFS= read -r _n; do
		notok "$_n" "did not run"
	done <"$tmp/missing"
	echo "$skipped skipped"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}
