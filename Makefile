# hc11mc — build, test and demo. Targets install what they need on a fresh
# Debian machine (as root) or print the exact command to run.

GO      ?= go
BIN     := bin/hc11mc
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build test test-slurm demo tools z3 lint bench bench-compare objdump-diff soundness results results-race results-hmc results-bench results-swarm results-batch results-layouts results-spin results-timing results-clocks results-reductions compare-spin testdata clean imports gdb sarif-multitool ci-check

all: build

build: z3
	$(GO) build -o $(BIN) ./cmd/hc11mc

## test: the whole suite (the README's test command; CI runs it)
test: tools sarif-multitool
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -count=1 ./...

## demo: check the bundled dining-philosophers firmware (finds its deadlock)
demo: build
	./$(BIN) check testdata/examples/philosophers.elf; test $$? -eq 1

## z3: the Z3 library and headers (libz3-dev) the symbolic engine links; nothing builds without them
z3:
	@if [ ! -f /usr/include/z3.h ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing libz3-dev"; \
	    (apt-get install -y -qq libz3-dev >/dev/null 2>&1 || \
	     (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq libz3-dev >/dev/null 2>&1)) || \
	     { echo "could not install libz3-dev: package symbolic cannot be built"; exit 1; }; \
	  else \
	    echo "missing libz3-dev (z3.h); to build: sudo apt-get install libz3-dev"; exit 1; \
	  fi; \
	fi

## tools: libz3-dev, then the GNU binutils for the 68HC11 and Graphviz (tests that need them skip without)
tools: z3
	@missing=""; \
	command -v m68hc11-objdump >/dev/null 2>&1 || missing="$$missing binutils-m68hc1x"; \
	command -v dot >/dev/null 2>&1 || missing="$$missing graphviz"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing$$missing"; \
	    (apt-get install -y -qq $$missing >/dev/null 2>&1 || \
	     (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq $$missing >/dev/null 2>&1)) || \
	     echo "could not install$$missing; the tests that need them will skip"; \
	  else \
	    echo "missing$$missing; to run every test: sudo apt-get install$$missing"; \
	  fi; \
	fi

## sarif-multitool: Microsoft's SARIF validator, which the test of check --sarif runs (npm's
## @microsoft/sarif-multitool, into .cache/; about 3 s and 100 MiB; the test skips without it)
SARIF_MULTITOOL_VERSION := 5.7.0
SARIF_MULTITOOL := .cache/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
sarif-multitool:
	@if [ "$$(uname -s)" != Linux ]; then echo "sarif-multitool: installed on Linux only; the SARIF validation test skips"; \
	elif [ -x $(SARIF_MULTITOOL) ]; then :; \
	elif ! command -v npm >/dev/null 2>&1; then echo "missing npm; to validate SARIF in the tests: apt-get install npm, then make sarif-multitool"; \
	else npm install --prefix .cache/sarif-multitool --no-audit --no-fund --loglevel=error \
	       @microsoft/sarif-multitool@$(SARIF_MULTITOOL_VERSION) >/dev/null && chmod u+x $(SARIF_MULTITOOL) || \
	     echo "could not install @microsoft/sarif-multitool; the SARIF validation test skips"; \
	fi

## ci-check: the CI recipe (docs/cli.md#in-ci, docs/ci-workflow.yml): check FIRMWARE and fail on a violation
## or a check a limit stopped (exit 1 or 3); the findings as compiler-style lines on stdout (annotations
## through docs/ci-matcher.json) and as SARIF in $(SARIF)
## (make ci-check FIRMWARE=fw.elf [CHECK_FLAGS='--timeout 10m'] [SARIF=hc11mc.sarif])
FIRMWARE    ?=
CHECK_FLAGS ?=
SARIF       ?= hc11mc.sarif
ci-check: build
	@[ -n "$(FIRMWARE)" ] || { echo "usage: make ci-check FIRMWARE=fw.elf [CHECK_FLAGS='--timeout 10m'] [SARIF=hc11mc.sarif]"; exit 2; }
	$(BIN) check $(FIRMWARE) --quiet --sarif $(SARIF) $(CHECK_FLAGS)

## objdump-diff: the long differential test of the decoder against m68hc11-objdump
objdump-diff: tools
	$(GO) test ./isa/m68hc11 -run ObjdumpDifferential -objdump -v

## soundness: the differential test of every reduction, search and engine against the plain search, on N
## generated programs from seed START (make soundness N=100000; the default test runs 400)
N     ?= 20000
START ?= 0
soundness: z3
	$(GO) test ./cmd/hc11mc/internal/cli -run '^TestRandomDifferential$$' -count=1 -timeout 0 -v -soundness.n=$(N) -soundness.start=$(START)

## lint: staticcheck with every check (installed into GOPATH/bin when missing)
STATICCHECK ?= $(shell go env GOPATH)/bin/staticcheck
lint:
	@[ -x "$(STATICCHECK)" ] || $(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2
	$(STATICCHECK) -checks all,-ST1003,-ST1005 ./...

## bench: the performance benchmarks reported in docs/performance.md
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./sim ./search ./heuristics
	$(GO) test -run '^$$' -bench Workloads -benchmem ./cmd/hc11mc/internal/cli

## bench-compare: benchstat of the benchmarks at OLD against the working tree, in interleaved runs
## (make bench-compare OLD=<commit> [NEW=<commit>] [ROUNDS=6] [BENCH=pattern])
bench-compare:
	@[ -n "$(OLD)" ] || { echo "usage: make bench-compare OLD=<commit> [NEW=<commit>]"; exit 2; }
	scripts/bench-compare.sh $(OLD) $(NEW)

## test-slurm: the swarm as a real Slurm array job, on a one-node cluster started here (optional, not
## part of test; installs Debian's slurm-wlm when run as root, skips when it cannot)
test-slurm: build
	testdata/slurm/test-slurm.sh

## imports: redraw the picture of the packages' imports (docs/imports.dot, and docs/imports.svg with graphviz)
imports:
	$(GO) test ./testkit/layering -run 'TestPicture$$' -count=1 -update
	@if command -v dot >/dev/null; then dot -Tsvg docs/imports.dot -o docs/imports.svg; \
	  else echo "graphviz (dot) is not installed: docs/imports.svg not redrawn (apt-get install graphviz)"; fi

## results: regenerate the measured tables: the benchmark results in docs/benchmarks.md (results-bench), the
## default against each engine in the README (results-race), the swarm against the single strategies in
## docs/swarm.md (results-swarm), and the timing and clock tables (results-timing, results-clocks); the rest
## each by its target: results-hmc, results-reductions, results-batch (needs BUFFALO), results-layouts and
## results-spin (SPIN)
results: results-bench results-race results-swarm results-timing results-clocks

## results-bench: regenerate docs/benchmarks.md's tables and docs/results.svg (several minutes; TestBenchmarksDoc
## checks that the deterministic columns still match the tool)
results-bench: build
	./$(BIN) bench --repeat 9 --format markdown --plot docs/results.svg > bin/results.md
	awk 'FNR==NR { r = r $$0 "\n"; next } \
	     /<!-- results:begin/ { print; printf "%s", r; skip = 1; next } \
	     /<!-- results:end/ { skip = 0 } !skip' bin/results.md docs/benchmarks.md > bin/benchmarks.md
	mv bin/benchmarks.md docs/benchmarks.md

## results-race: check's default against --engine explicit, hmc and auto on testdata/models/symbolic and
## testdata/bench, whole processes under timeout 60 (README.md; about ten minutes, most of it the explicit
## engine's limit on the data-heavy models; TestEngineRaceDoc checks the verdicts still match the tool)
results-race: build
	bash scripts/engine-race.sh ./$(BIN) testdata/models/symbolic testdata/bench > bin/engine-race.md
	awk 'FNR==NR { r = r $$0 "\n"; next } \
	     /<!-- engine-race:begin/ { print; printf "%s", r; skip = 1; next } \
	     /<!-- engine-race:end/ { skip = 0 } !skip' bin/engine-race.md README.md > bin/README.md
	mv bin/README.md README.md

## results-hmc: regenerate the comparison of BMC, ST and HMC on the data-heavy models in docs/engines.md
## (docs/hmc-table1.svg and the table; about two minutes, most of it BMC's time limit on crc8 and crc16_ok;
## TestHMCTableDoc checks that the verdicts and depths still match the tool)
results-hmc: build
	./$(BIN) bench testdata/models/symbolic --strategies bmc,st,hmc+dfs,hmc+glh --timeout 60s \
	  --format markdown --plot docs/hmc-table1.svg > bin/hmc-table1.md
	awk 'FNR==NR { r = r $$0 "\n"; next } \
	     /<!-- hmc-table1:begin/ { print; printf "%s", r; skip = 1; next } \
	     /<!-- hmc-table1:end/ { skip = 0 } !skip' bin/hmc-table1.md docs/engines.md > bin/engines.md
	mv bin/engines.md docs/engines.md

## results-swarm: regenerate docs/swarm.md's table of the swarm of 2, 4 and 8 workers against the single strategies
## (about two minutes; TestBenchmarksDoc checks the single strategies' states; the rest is measured, not checked)
results-swarm: build
	bash scripts/swarm-table.sh ./$(BIN) testdata/bench > bin/swarm-table.md
	awk 'FNR==NR { r = r $$0 "\n"; next } \
	     /<!-- swarm-table:begin/ { print; printf "%s", r; skip = 1; next } \
	     /<!-- swarm-table:end/ { skip = 0 } !skip' bin/swarm-table.md docs/swarm.md > bin/swarm.md
	mv bin/swarm.md docs/swarm.md

## results-batch: regenerate docs/performance.md's table of BUFFALO 3.4's start-up without and with batches of steps,
## and the README's rows of BUFFALO: the start-up and the visited set's bytes per state on 48 KiB of RAM (about
## fifteen seconds; BUFFALO names the image, by default where the tests look for it; TestBatchTableDoc checks the
## states, instructions and bytes per state in the visited set; needs jq)
BUFFALO ?= ../shared/firmware/buffalo/buffalo34.s19
results-batch: build
	bash scripts/batch-table.sh ./$(BIN) $(BUFFALO) testdata/boards/evb.board > bin/batch-table.md
	awk 'FNR==NR { r = r $$0 "\n"; next } \
	     /<!-- batch-table:begin/ { print; printf "%s", r; skip = 1; next } \
	     /<!-- batch-table:end/ { skip = 0 } !skip' bin/batch-table.md docs/performance.md > bin/performance.md
	mv bin/performance.md docs/performance.md
	bash scripts/batch-table.sh ./$(BIN) $(BUFFALO) testdata/boards/evb.board readme > bin/batch-readme.md
	awk 'FNR==NR { row[FNR] = $$0; next } \
	     /\(`BenchmarkBuffaloStartup`\)/ { print row[1]; next } \
	     /\(`BenchmarkBuffaloBoardStore`\)/ { print row[2]; next } 1' bin/batch-readme.md README.md > bin/README.md
	mv bin/README.md README.md

## results-layouts: regenerate the README's table of the five philosophers in the layouts firmware is written in and
## docs/performance.md's table of the layout family against SPIN (scripts/compare-spin.sh PARTS=layouts: about ten
## minutes, most of it the runs without reductions; TestLayoutTableDoc checks check's states and SPIN's; states/s and
## bytes per state are measured, not checked)
results-layouts: build
	PARTS=layouts OUT=bin/compare-spin bash scripts/compare-spin.sh
	$(call splice,layouts-readme,bin/compare-spin/layouts-readme.md,README.md)
	$(call splice,spin-layouts,bin/compare-spin/layouts.md,docs/performance.md)

## results-spin: regenerate docs/performance.md's table of every model with and without reductions, and SPIN on the
## twins (scripts/compare-spin.sh PARTS=models: several minutes, most of it the largest models without reductions;
## TestSpinTableDoc checks the verdicts and the states but for the largest; the seconds are measured, not checked)
results-spin: build
	PARTS=models OUT=bin/compare-spin bash scripts/compare-spin.sh
	$(call splice,spin-models,bin/compare-spin/models.md,docs/performance.md)

# splice,NAME,TABLE,PAGE: put the file TABLE in PAGE between its lines <!-- NAME:begin ... --> and <!-- NAME:end -->
splice = awk 'FNR==NR { r = r $$0 "\n"; next } \
	     /<!-- $(1):begin/ { print; printf "%s", r; skip = 1; next } \
	     /<!-- $(1):end/ { skip = 0 } !skip' $(2) $(3) > bin/$(notdir $(3)).new && mv bin/$(notdir $(3)).new $(3)

## results-reductions: regenerate docs/performance.md's table of the states with and without reductions (about two
## minutes, most of it philo_big without reductions; TestBenchmarksDoc and TestReductionsTableDoc check the states but
## for the runs of millions; needs jq)
results-reductions: build
	bash scripts/reductions-table.sh ./$(BIN) > bin/reductions-table.md
	$(call splice,reductions-table,bin/reductions-table.md,docs/performance.md)

## results-timing: regenerate docs/timing.md's table of the worst cases of the bundled programs (check
## --report-timing on each: a few seconds; TestTimingTableDoc checks it, and the README's table against it; needs jq)
results-timing: build
	bash scripts/timing-table.sh ./$(BIN) > bin/timing-table.md
	$(call splice,timing-table,bin/timing-table.md,docs/timing.md)

## results-clocks: regenerate docs/clocks.md's table of firmware under the abstract and the exact clock (about
## half a minute, most of it serial_cmd under the abstract clock; TestClocksTableDoc checks the verdicts and states
## but for the runs over a second; needs jq)
results-clocks: build
	bash scripts/clocks-table.sh ./$(BIN) > bin/clocks-table.md
	$(call splice,clocks-table,bin/clocks-table.md,docs/clocks.md)

## compare-spin: hc11mc beside SPIN on the philosophers' Promela twins (testdata/spin), and every
## model with and without --reduce, as a markdown table (not part of test; installs Debian's spin)
compare-spin:
	bash scripts/compare-spin.sh

## gdb: m68hc11-elf-gdb (bin/m68hc11-elf-gdb), built from Debian's gdb-source for `replay --gdb` (not part of
## test: a long build, run under nice; installs gdb-source when run as root). The sources and the build sit in
## bin/_gdb until it is done (go's ./... passes over it: GDB's testsuite has Go files). GDB_JOBS sets make's -j.
GDB_DIR  := bin/_gdb
GDB_JOBS ?= 2
gdb: bin/m68hc11-elf-gdb

bin/m68hc11-elf-gdb:
	@missing=""; \
	[ -f /usr/src/gdb.tar.xz ] || missing="$$missing gdb-source"; \
	command -v g++ >/dev/null 2>&1 || missing="$$missing g++"; \
	dpkg -s libgmp-dev >/dev/null 2>&1 || [ -f /usr/include/gmp.h ] || missing="$$missing libgmp-dev"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing$$missing"; \
	    (apt-get install -y -qq $$missing >/dev/null 2>&1 || \
	     (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq $$missing >/dev/null 2>&1)) || \
	     { echo "could not install$$missing"; exit 1; }; \
	  else \
	    echo "missing$$missing; to build GDB: sudo apt-get install$$missing"; exit 1; \
	  fi; \
	fi
	rm -rf $(GDB_DIR)
	mkdir -p $(GDB_DIR)/src $(GDB_DIR)/build
	tar xJf /usr/src/gdb.tar.xz -C $(GDB_DIR)/src --strip-components=1
	cd $(GDB_DIR)/build && nice -n 19 ../src/configure --target=m68hc11-elf --prefix=/nonexistent \
	  --disable-werror --disable-nls --disable-sim --disable-gdbserver --disable-tui --disable-source-highlight \
	  --without-python --without-guile --without-babeltrace --without-debuginfod --without-intel-pt \
	  --without-lzma --without-xxhash --without-zstd --without-mpfr MAKEINFO=true >configure.log
	nice -n 19 $(MAKE) -C $(GDB_DIR)/build -j$(GDB_JOBS) all-gdb MAKEINFO=true >$(GDB_DIR)/build/make.log 2>&1 || \
	  { tail -30 $(GDB_DIR)/build/make.log; exit 1; }
	cp $(GDB_DIR)/build/gdb/gdb bin/m68hc11-elf-gdb
	strip bin/m68hc11-elf-gdb
	rm -rf $(GDB_DIR)
	@echo "built bin/m68hc11-elf-gdb"

## testdata: rebuild the checked-in test images from their sources (needs the binutils)
testdata: tools
	$(MAKE) -C isa/m68hc11/testdata
	$(MAKE) -C testdata

clean:
	rm -rf bin
