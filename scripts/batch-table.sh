#!/usr/bin/env bash
# batch-table.sh BIN FIRMWARE BOARD — BUFFALO 3.4's start-up to its wait for
# a byte, exhaustively, without and with batches of steps: the table of
# docs/performance.md on stdout (make results-batch puts it there). One run
# each of `check FIRMWARE --board BOARD --clock exact --max-received 0
# --search bfs --workers 1 --batch off|on --json`; the states and the
# instructions are exact, the memory and the seconds are measured.
set -eu
bin=$1 fw=$2 board=$3
echo "| | states stored | instructions | states per million instructions | peak memory | bytes per state in the visited set | seconds |"
echo "|---|--:|--:|--:|--:|--:|--:|"
for batch in off on; do
	# Exit code 3: incomplete, as --max-received bounds the input.
	"$bin" check "$fw" --board "$board" --clock exact --max-received 0 --search bfs --workers 1 \
		--batch "$batch" --json -q | jq -r --arg b "$batch" '.stats |
		def sep: if . < 1000 then tostring else (. / 1000 | floor | sep) + "," + ("00" + (. % 1000 | tostring))[-3:] end;
		"| `--batch \($b)` | \(.states_stored | sep) | \(.instructions | sep) | \(.states_stored * 1000000 / .instructions | round | sep) | \(.peak_memory_bytes / 1048576 | round) MiB | \(.store_bytes / .states_stored | round) | \(.seconds * 10 | round / 10) |"'
done
