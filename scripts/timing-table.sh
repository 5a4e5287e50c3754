#!/usr/bin/env bash
# timing-table.sh BIN — the worst cases of the bundled programs: one run of
# `check FILE FLAGS --report-timing --json` each, the table of docs/timing.md
# on stdout (make results-timing puts it there). Every search is exhaustive
# and every value exact (a value that is not, a bound, is marked so); the
# latency column is TOC1's, or IRQ's, marked "(irq)", where the program
# reports no TOC1. The cycles are the tool's; TestTimingTableDoc checks them.
set -eu
bin=$1
echo "| program | flags | max-masked | latency toc1 | deadline |"
echo "|---|---|--:|--:|--:|"
while read -r file flags; do
	[ -n "$file" ] || continue
	# shellcheck disable=SC2086 # the flags are words without blanks
	"$bin" check "$file" $flags --report-timing --json | jq -r --arg f "$file" --arg flags "$flags" '
		def cell(p): [.timing[]? | select(.property | p) |
			(if .property == "latency irq" then "(irq) " else "" end) + (.cycles | tostring) +
			(if .exact then "" else " (a bound, not exact)" end)] | join(", ");
		"| `\($f)` | `\($flags)` | \(cell(. == "max-masked")) | \(if any(.timing[]?; .property == "latency toc1") then cell(. == "latency toc1") else cell(. == "latency irq") end) | \(cell(startswith("deadline"))) |"'
done <<'LIST'
testdata/timing/masked.elf --irq toc1
testdata/timing/deadline.elf --irq toc1 --deadline from:to
testdata/timing/latency.elf --irq toc1
testdata/timing/single.elf --ignore illegal-opcode
testdata/timing/oc1_exact.elf --clock exact --input 0x100A=0,1,2,3
testdata/timing/oc1_withdraw.elf --clock exact --input 0x100A=0,1,2,3
testdata/timing/prio_xirq.elf --irq xirq,toc1 --timing-cap 80
testdata/timing/hprio.elf --peripherals on --irq irq,toc1 --timing-cap 80
testdata/timing/deadline_threads.elf --deadline from:to
testdata/timing/oc1_abstract.elf --input 0x100A=0,1,2,3 --latency toc1
testdata/timing/wai_latency.elf --irq toc1
testdata/timing/wai_deadline.elf --clock exact --input 0x100A=0,1,2,3 --deadline from:to
testdata/timing/stop_latency.elf --irq irq
testdata/timing/sci_frame.elf --clock exact --input 0x100A=0,16 --deadline from:to
testdata/models/irq_ok.elf --irq toc1
testdata/models/tick_torn.elf --irq toc1 --ignore assert
LIST
