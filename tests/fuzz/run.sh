#!/bin/sh
# run.sh - runs each fuzz target of DIR (built by `make fuzz`) for SECONDS,
# one after another under nice, and prints one line per target: its
# executions, its corpus, and whether it found anything.
#
#   tests/fuzz/run.sh DIR SECONDS TARGET...
#
# Each target starts from its corpus in DIR/corpus/TARGET (kept between
# runs: it grows), its seeds (tests/fuzz/seeds/TARGET, and DIR/seeds/TARGET
# where the build makes some) and its regression inputs; what it finds goes
# to DIR/artifacts/TARGET/, its log to DIR/TARGET.log.  Exit status 1 when a
# target found something.
set -u
dir=$1
seconds=$2
shift 2
status=0
for t in "$@"; do
	corpus=$dir/corpus/$t
	artifacts=$dir/artifacts/$t
	log=$dir/$t.log
	mkdir -p "$corpus" "$artifacts"
	: >"$dir/$t.start"	# what this run finds is newer
	set -- "$corpus" tests/fuzz/seeds/"$t" tests/fuzz/regressions/"$t"
	[ -d "$dir/seeds/$t" ] && set -- "$@" "$dir/seeds/$t"
	PMUDB_FUZZ_SEED=$dir/seed.db nice -n 10 "$dir/fuzz_$t" -max_total_time="$seconds" -print_final_stats=1 \
		-timeout=30 -artifact_prefix="$artifacts/" "$@" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	inputs=$(find "$corpus" -type f | wc -l)
	found=$(find "$artifacts" -type f -newer "$dir/$t.start" | wc -l)
	if [ "$rc" = 0 ] && [ "$found" = 0 ]; then
		echo "fuzz_$t: $seconds s, ${execs:-?} executions (${rate:-?}/s), corpus $inputs inputs, ${cov:-cov: ?}, no finding"
	else
		echo "fuzz_$t: FINDING (exit $rc) after ${execs:-?} executions:" \
			"$(find "$artifacts" -type f -newer "$dir/$t.start" | tr '\n' ' ')(see $log)"
		status=1
	fi
done
exit $status
