#!/usr/bin/env bash
# clocks-table.sh BIN — firmware under the abstract and the exact clock:
# one run each of `check testdata/FW.elf FLAGS --clock abstract|exact
# --search bfs --json`, the table of docs/clocks.md on stdout (make
# results-clocks puts it there). Each cell is the verdict (with the
# violation's kind), the states stored and the seconds of the search; the
# verdicts and states are exact (TestClocksTableDoc checks them), the
# seconds measured.
set -eu
bin=$1
echo "| firmware | flags | abstract | exact |"
echo "|---|---|---|---|"
# row FW SHOWN FLAGS... — FLAGS as the shell passes them, SHOWN as the table shows them
row() {
	local fw=$1 shown=$2 cells=()
	shift 2
	for clock in abstract exact; do
		cells+=("$({ "$bin" check "testdata/$fw.elf" "$@" --clock "$clock" --search bfs --workers 1 --json || [ $? = 1 ] || [ $? = 3 ]; } | jq -r '
			def sep: if . < 1000 then tostring else (. / 1000 | floor | sep) + "," + ("00" + (. % 1000 | tostring))[-3:] end;
			(if .verdict == "violation" then "violation (\(.violation.kind))"
			 elif .verdict == "incomplete" and (.limit // "" | startswith("the bounds")) then "verified within the bound"
			 else .verdict end) + ", \(.stats.states_stored | sep) states, \(.stats.seconds * 100 | round / 100) s"')")
	done
	echo "| \`$fw\` | \`$shown\` | ${cells[0]} | ${cells[1]} |"
}
row firmware/rx_count "--sci-input A" --sci-input A
row firmware/wai_tcnt "--sci-input A" --sci-input A
row firmware/collect "--sci-input A" --sci-input A
row firmware/serial_cmd "--sci-input 'A,\r' --max-received 0" --sci-input 'A,\r' --max-received 0
row firmware/serial_cmd "--sci-input '\r' --max-received 1 --expect-output '\x00'" --sci-input '\r' --max-received 1 --expect-output '\x00'
