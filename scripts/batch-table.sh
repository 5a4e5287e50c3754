#!/usr/bin/env bash
# batch-table.sh BIN FIRMWARE BOARD [readme] — BUFFALO 3.4's start-up to its
# wait for a byte, exhaustively, without and with batches of steps: the table
# of docs/performance.md on stdout (make results-batch puts it there). One run
# each of `check FIRMWARE --board BOARD --clock exact --max-received 0
# --search bfs --workers 1 --batch off|on --json`; the states and the
# instructions are exact, the memory and the seconds are measured.
#
# With readme, the README's two rows of BUFFALO instead (make results-batch
# puts each in place of the README's line that names its benchmark): the
# start-up's, from the same two runs, and the visited set's bytes per stored
# state with 48 KiB of RAM under the board member's model (BenchmarkBuffaloBoardStore:
# `check FIRMWARE --board BOARD --ram ... --clock exact --sci-timing first
# --search bfs --workers 1 --max-states 50000 --json`), its store_bytes over
# its states_stored (exact with one worker breadth-first), beside the bytes of
# RAM those --ram ranges fit, which a state would take kept whole.
set -eu
bin=$1 fw=$2 board=$3 mode=${4:-table}
sep='def sep: if . < 1000 then tostring else (. / 1000 | floor | sep) + "," + ("00" + (. % 1000 | tostring))[-3:] end;'
startup() { # startup off|on: the run's --json
	# Exit code 3: incomplete, as --max-received bounds the input.
	"$bin" check "$fw" --board "$board" --clock exact --max-received 0 --search bfs --workers 1 \
		--batch "$1" --json -q || [ $? = 3 ]
}
if [ "$mode" = readme ]; then
	off=$(startup off) on=$(startup on)
	jq -rn --argjson off "$off" --argjson on "$on" "$sep"'
		def cells: .stats | "\(.states_stored * 1000000 / .instructions | round | sep) per million; \(.states_stored | sep) states), \(.peak_memory_bytes / 1048576 | round) MiB, \(.seconds * 10 | round / 10) s";
		"| BUFFALO 3.4'"'"'s start-up to its wait for a byte, exhaustively, `check --clock exact --max-received 0` (`BenchmarkBuffaloStartup`) | batches of steps: \($on.stats.states_stored * 1000000 / $on.stats.instructions | round | sep) states stored per million instructions (\($on.stats.states_stored | sep) states), \($on.stats.peak_memory_bytes / 1048576 | round) MiB, \($on.stats.seconds * 10 | round / 10) s | `--batch off`: \(if $off.stats.states_stored == $off.stats.instructions then "a state per instruction (" else "(" end)\($off | cells) |"'
	# 0x0100-0x3FFF, 0x4100-0x97FF and 0x9900-0xBFFF: the RAM below, around
	# and above the board's hardware at 0x4000 and 0x9800-0x9801.
	ram=$(( (0x3FFF - 0x0100 + 1) + (0x97FF - 0x4100 + 1) + (0xBFFF - 0x9900 + 1) ))
	{ "$bin" check "$fw" --board "$board" --ram 0x0100-0x3FFF --ram 0x4100-0x97FF --ram 0x9900-0xBFFF --clock exact \
		--sci-timing first --search bfs --workers 1 --max-states 50000 --json -q || [ $? = 3 ]; } |
		jq -r --argjson ram "$ram" "$sep"'.stats | (.store_bytes / .states_stored) as $b |
		"| BUFFALO 3.4 on 48 KiB of RAM under the board member'"'"'s model, the first \(.states_stored | sep) states breadth-first (`BenchmarkBuffaloBoardStore`) | \($b * 10 | round / 10 | tostring | if test("\\.") then . else . + ".0" end) bytes per stored state in the visited set (pages and groups of page ids kept as differences) | the RAM kept whole: \($ram | sep) bytes a state (\($ram / $b | round | sep)×) |"'
	exit 0
fi
echo "| | states stored | instructions | states per million instructions | peak memory | bytes per state in the visited set | seconds |"
echo "|---|--:|--:|--:|--:|--:|--:|"
for batch in off on; do
	startup "$batch" | jq -r --arg b "$batch" "$sep"'.stats |
		"| `--batch \($b)` | \(.states_stored | sep) | \(.instructions | sep) | \(.states_stored * 1000000 / .instructions | round | sep) | \(.peak_memory_bytes / 1048576 | round) MiB | \(.store_bytes / .states_stored | round) | \(.seconds * 10 | round / 10) |"'
done
