#!/usr/bin/env bash
# gnusim-masked.sh [HC11MC] [FIRMWARE.elf] — runs a single-path program
# in the GNU simulator (gdb's sim/m68hc11 `run`, verbose: on exit it
# prints its interrupt statistics, "Longest interrupts masked sequence")
# and `hc11mc check --report-timing`, and compares the longest interrupts
# masked sequence with hc11mc's max-masked. The program must have one
# path and end with the GNU simulator's exit (bytes 0xCD 0x03, an illegal
# opcode on the hardware, which hc11mc is told to ignore); the default is
# testdata/timing/single.elf.
#
# The GNU simulator is $HC11_GNUSIM, else m68hc11-run or m68hc11-elf-run
# on PATH, else the build at /tmp/gnusim/gdb/build/sim/m68hc11/run. Exit
# 0: they agree; 1: they differ; 2: bad usage or a run failed; 77: no GNU
# simulator (skipped, with a message).
set -u
cd "$(dirname "$0")/.."
bin=${1:-}
elf=${2:-testdata/timing/single.elf}
sim=${HC11_GNUSIM:-}
if [ -z "$sim" ]; then
	for c in m68hc11-run m68hc11-elf-run /tmp/gnusim/gdb/build/sim/m68hc11/run; do
		if command -v "$c" >/dev/null 2>&1; then
			sim=$(command -v "$c")
			break
		fi
	done
fi
if [ -z "$sim" ] || [ ! -x "$sim" ]; then
	echo "skip: no GNU simulator for the 68HC11 (set HC11_GNUSIM, or build gdb's sim/m68hc11)" >&2
	exit 77
fi
if [ ! -f "$elf" ]; then
	echo "gnusim-masked.sh: $elf: no such file" >&2
	exit 2
fi
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/hc11mc
	go build -o "$bin" ./cmd/hc11mc || exit 2
fi

gnu=$(timeout 60 "$sim" -v "$elf" 2>&1 | sed -n 's/^ *Longest interrupts masked sequence: *\([0-9]*\) cycle.*/\1/p')
if [ -z "$gnu" ]; then
	echo "gnusim-masked.sh: the GNU simulator printed no longest interrupts masked sequence for $elf" >&2
	exit 2
fi
ours=$(timeout 120 "$bin" check "$elf" --ignore illegal-opcode --report-timing --search bfs -q --json |
	sed -n 's/.*"property":"max-masked","cycles":\([0-9]*\).*/\1/p')
if [ -z "$ours" ]; then
	echo "gnusim-masked.sh: hc11mc reported no max-masked for $elf" >&2
	exit 2
fi
echo "$elf: GNU simulator longest interrupts masked sequence $gnu cycles; hc11mc max-masked $ours cycles"
[ "$gnu" = "$ours" ]
