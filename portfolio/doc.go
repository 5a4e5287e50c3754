// Package portfolio is the swarm: many diversified searches of the same
// firmware at once, the first decisive one winning (Holzmann, Joshi and
// Groce's swarm verification) — its members, the race between them in one
// process, the watch over the memory they share, the combination of their
// results and the swarm's check of itself; and beyond one process, the
// array jobs that run the members on a cluster (Plan), the members run as
// processes here (RunProcesses) and the merge of the results they write
// (Merge).
//
// It is not about the command line: package cmd/hc11mc/internal/cli reads the flags
// into a check.Config, loads the firmware, prints the results and picks
// the exit codes; nor about the choice of the swarm's size and members
// (package plan). Nor is it about one search (package search) or the
// configuration of one check (package check), which it uses: a member is a
// check.Config with its own search order, heuristic and seed.
//
// # Why a swarm
//
// No single search order suits every program: greedy best-first search on
// the extended FSM distance finds most of the benchmarks' errors first, but
// on a firmware whose interrupt handler increments a counter while the main
// loop passes its assertion over and over (testdata/bench/tick_counter.s)
// it explores millions of states near the assertion, one per value of the
// counter, while breadth-first search finds the torn read in a few
// hundred; on other models depth-first search is the lucky one.
//
// # The members
//
// A member is a plain search.Run with options of its own and a visited set
// of its own (or HMC, see "The symbolic member"). Its configuration is a function of its index, of --seed and
// of whether the firmware takes interrupts (MemberOf): member i of a swarm
// of N is the same search in every swarm of any size, on any machine, so
// that `check --swarm-member i/N` repeats it and an array job's tasks need
// nothing but their index. The order of the list puts first the two
// searches that, together, came nearest the best single strategy on every
// benchmark model, as a swarm of two (a small machine's default) runs only
// them. Depth-first search is one: it wins where the heuristics wander
// (moody3, dining3, prodcons, bakery_broken, peterson_broken). The other
// depends on the firmware. Where it takes interrupts (--irq, or the chip's
// peripherals), best-first search on the FSM distance: it finds the tick
// counter's torn read at once, where efsm and DFS never do (docs/swarm.md,
// "The heuristic's blind spot"), and irq_lostupdate's lost update first.
// Where it takes none, best-first search on efsm, the paper's heuristic
// and the fastest single strategy on six of the benchmark models — check's
// single search, --search best — and members 0 and 2 trade places. With
// best+fsm first everywhere, the swarm of two took up to 2.4 times the best
// single strategy's time (moody2: both of its members are 1.5 times slower
// than best+efsm there, and two searches at once on this two-processor
// machine run each about 1.4 times slower than one alone); with best+efsm
// and BFS first, 3 to 9 times on four models. The list, for firmware that
// takes interrupts:
//
//	0  best+fsm           the paper's context-insensitive distance
//	1  dfs                deep schedules early; cheap
//	2  best+efsm k=1      the single search's default
//	3  bfs                complete, shortest counterexamples; blind to the heuristic's traps
//	4  random seed S
//	5  astar+efsm k=1
//	6  best+efsm k=2
//	7  dfs shuffle S      depth-first with each state's successors shuffled
//	8… random seed S+1, dfs shuffle S+1, best+efsm shuffle S, best+fsm shuffle S, then S+2 …
//
// where S is --seed (default 1). "shuffle" is search.Options.Shuffle: the
// successors of each state enter the frontier in a seeded random order,
// which for best-first search breaks ties between equal estimates. When the
// firmware gives the heuristic no target, a guided member would be a copy
// of breadth-first search; it runs as depth-first search with shuffled
// successors instead, and says so. Where a timing property is checked,
// which no heuristic aims at, it runs as breadth-first search: the swarm
// then races breadth- and depth-first search, the first of which finds
// the short violations of timing properties that lie behind deep
// deterministic stretches (testdata/timing/late_mask.s).
//
// # The symbolic member
//
// Where the firmware draws nondeterministic data and the symbolic engine
// models its machine (SymbolicMember, asked by package plan on member 0's
// machine), check's default swarm has one more member: member 1 is HMC (package symbolic) from the initial state, each
// value drawn a symbol, and the explicit members from 1 on move up one
// place (MemberIn; --engine explicit runs the explicit list alone, as
// before). The firmware draws data where some code calls __mc_nondet —
// the image holds the stub's address as a 16-bit word (an operand of JSR,
// JMP or LDX #, an entry of a table of routines) or a relative branch or
// BSR reaches it — or --input makes an address an input. The symbolic
// engine does not model the chip's peripherals (their SCI input, their
// events) or board hardware: firmware that runs with them has no
// symbolic member. Each choice among N values multiplies an explicit
// search's states by N; HMC's states do not grow with the width of the
// data. On testdata/models/symbolic (secret4: one of 2^32 inputs fails;
// crc8, crc8_table: a CRC check that never fails; torn16: a torn 16-bit
// store that one of 65536 periods exposes) every explicit search runs
// past a minute or stops incomplete, and HMC decides in 0.02 to 0.3 s.
//
// Why HMC and not --engine auto (package hybrid). Auto is one more
// explicit search, breadth-first, that hands HMC only the choices wider
// than --max-branch: where the choices are narrow it enumerates them, as
// the explicit members already do, and where the data come as many
// narrow choices (a byte read a nibble at a time) it multiplies its
// states as they do, while HMC makes every value a symbol whatever its
// width. Where both decide, they take about as long: measured whole
// process on this two-processor machine (medians of five), secret4 0.026
// and 0.027 s, crc8_table 0.023 and 0.022, torn16 0.30 and 0.38, race
// input of two sensors 0.15 and 0.09, crc8 0.15 and 0.07. (Package hybrid
// and this one do not import each other, either.)
//
// Sizing. The default --workers is the processors, and the swarm gets the
// symbolic member on top: three members on this machine's two
// processors. Measured the same way (medians of seven), the symbolic
// member in place of the depth-first member (a swarm of two) made
// race_input, two sensor tasks counting alarms, take 0.082 s instead of
// 0.019 (depth-first search finds its lost update first, as it finds the
// errors of moody3 and bakery_broken), while beside it (a swarm of three)
// it costs the processors' share: torn16 0.46 s instead of 0.37, crc8
// 0.24 instead of 0.18, against 0.29 and 0.13 for HMC alone. A member too
// many costs at most its share of the processors; a member missing costs
// what only it finds. With --workers N the swarm has N members, the
// symbolic one among them from N = 2 on. Memory does not size the swarm:
// the members share --max-memory, and the watch (below) counts Z3's
// memory.
//
// Sharing the processors evenly is deliberate. Giving the symbolic member
// a processor of its own while it runs (the explicit members taking turns
// on the other) would make the models it decides up to 1.5 times faster
// and those an explicit member decides up to 2 times slower than the
// explicit searches alone, where an even share costs each side at most
// 1.5 times.
//
// The symbolic member starts 5 ms after the others: the explicit
// searches decide most small models in less (the benchmark models take
// 0.1 to 30 ms to their error), where a Z3 context alone takes 7 ms of a
// processor and 17 MiB. Once the race is decided it does not wait for a
// symbolic member inside a call of Z3 that cannot be interrupted (making
// its context, taking in a large formula): the member is told to stop,
// counts as stopped, and nothing of it is read again.
//
// # The board member
//
// Where the chip's peripherals are the firmware's environment and the
// flags leave its timing to the checker (BoardMember), check's default
// swarm has, instead of a symbolic member (the two never meet: the
// symbolic engine runs without the peripherals), a board member: member 1
// is breadth-first search under the exact clock with each byte at the
// first wait after the one before it (BoardMemberIn, BoardMachine), and
// the explicit members from 1 on move up one place. board.go says why its
// violations decide and its proofs do not.
//
// # Why the symbolic member's verdict may decide
//
// A verdict of the swarm is its winner's, and it must hold under the
// check's conditions: the properties the check lists, the bounds, the
// inputs held, the reductions' notes. The symbolic member's verdict holds
// under the same conditions as an explicit member's, or it decides
// nothing (symbolicResult):
//
//   - The same machine. Its check is built from the check's
//     configuration (the image, --preempt, --irq, --input, --stack,
//     --reach, --entry, --max-run, --ignore), and HMC executes every
//     instruction, harness call and interrupt with that machine's step,
//     the data beside it as terms: the interleavings are the explicit
//     engine's, and a value drawn is a symbol constrained to what the
//     explicit engine enumerates ([0, N] for __mc_nondet, the --input
//     list).
//   - The same properties, or it does not prove. HMC reports what the
//     simulator's step raises and decides deadlock on its symbolic
//     states: every property but watchdog and output, which need the
//     peripherals (check.SymbolicChecks). Its verified verdict decides
//     only when every property the check checks is among these;
//     otherwise the member ends incomplete and says which properties its
//     proof leaves out.
//   - Bounds. The bounds of an exploration (bytes received, timer events)
//     need the peripherals, where there is no symbolic member; and a
//     bounded check's verified verdict is made incomplete whoever proves
//     it (check.Report.Bound).
//   - Inputs held. An input that nothing drives reads as the same
//     constant on its machine as on the explicit members'; the verdict
//     lists the inputs every member's machine saw read (but that of a
//     member the race did not wait for).
//   - Reductions. HMC reduces by partial-order reduction alone, its ample
//     sets the explicit ones lifted to symbolic states (symbolic/reduce.go,
//     sound by the same argument), never by dead-data elimination; like
//     the explicit members' reductions it keeps the verdicts of --reduce
//     none, and the result names the winner's reductions.
//   - Violations replay. Its counterexample is concrete (the solver's
//     model gives every choice), and before it can win it is replayed on
//     the simulator: on the member's machine (check.FromSymbolic, as
//     --engine hmc does) and on a fresh machine without reductions, as
//     the self-check does. One that does not replay decides nothing: it
//     is a bug in hc11mc, which check reports as an internal error (exit
//     4) after the verdict of the others.
//   - Incomplete decides nothing: a limit, the solver giving up, a split
//     wider than the engine allows.
//
// The self-check (below) compares the symbolic member with the others as
// it compares explicit members: its proof against a violation that
// replays, its violation against a proof.
//
// # The race
//
// In one process (Swarm, an engine of a check: --search swarm, the
// default of check) the members run as goroutines, each its own
// check.Engine (the explicit search, or HMC), each giving a check.Result. The first member that finds a violation wins and the
// others are stopped at their next expansion; when a member ends its
// search exhaustively (verified), its verdict stands for the swarm,
// whatever the others had left to do: each member is a complete search of
// the same state space. When every member stops at a limit, the swarm is
// incomplete and reports the union of what the members covered. The
// verdict is the same whichever member wins; the counterexample is that of
// the winner, which the output names. The swarm's time to an error is that
// of its fastest member, slowed only by sharing the processors.
//
// Which member wins can differ from run to run when two are close, and
// with it the counterexample; the verdict cannot. Each member is a
// deterministic search, so the output's "repeat it alone with
// --swarm-member I/N" gives the winner's counterexample again on every
// run. An earlier version made the winner deterministic: members counted
// their progress in expansions times a cost per search order, and the
// member that decided at the least progress won once every other member
// had got that far. Its price was the error in the costs, which no
// deterministic count measures within a factor of two on every firmware
// (expansions, transitions, states stored and instructions simulated,
// fitted per search order over the benchmarks, are off by 30 to 40% either
// way on some model), paid at every decision: the swarm waited for its
// slowest member to catch up. Measured on the benchmark models in one
// process (fifteen runs each, medians, the same members), a swarm of two
// took up to 2.8 times the best single strategy's time with the wait and
// up to 2.3 times as a race; a swarm of four up to 4.2 times with the
// wait, up to 2.9 as a race.
//
// Once every member has stopped, the swarm checks that no member's proof
// contradicts another's violation (selfcheck.go).
//
// # Separate visited sets, not a shared one
//
// A shared set would let a state that one member stored stop another
// member's search there: the members would no longer be diverse (each
// would see only the states no faster member reached), and a member that
// ran out of frontier would not have searched exhaustively, so its end
// would prove nothing. Measured on the benchmarks (docs/swarm.md), a set
// shared by first claim made a swarm of two need thirty times the states
// on naive3 and miss the tick counter's torn read within 2,000,000 states,
// while it helped on a few small models.
//
// # Memory
//
// The limits of search.Options measure the whole process, which the
// members share: each member gets the whole of --max-memory as its hard
// limit (so that nothing dies by the kernel's hand), and the swarm watches
// the process: when it passes seven eighths of the limit, the member that
// holds the most memory is stopped, its memory is collected, and the
// others go on. Z3's memory is C memory, which the Go runtime does not
// count and the explicit searches' limits do not see: the watch adds it
// (symbolic.Z3Memory), the symbolic member is taken to hold it and the
// explicit members to share the runtime's in proportion to the states
// they store; a symbolic member stopped so, or by its own limit (HMC's
// counts Z3's memory), collects until Z3 has freed its contexts before it
// leaves (symbolic.ReleaseMemory). --max-states and --timeout bound each
// member.
//
// # Beyond one process
//
// A member is a function of its index, so the members of a swarm of N can
// run anywhere: a Plan is the job for a cluster's scheduler (a Slurm array
// job, a Kubernetes Indexed Job) whose task i runs `hc11mc check
// --swarm-member i/N ... --json --trace ...`; RunProcesses runs them as
// processes here; Merge combines their JSON results. There is no cluster
// code of our own: the scheduler places, restarts and accounts for the
// tasks, and the members do not talk to each other (in an array job each
// runs to its own end unless a stop file on a shared file system tells it
// another has decided; RunProcesses stops the others when one decides, as
// the race in one process does).
//
// # Its place in the layers
//
// Package portfolio sits between the command line and the engines, above
// check (whose configuration a member is, and whose engines its members
// run) and cex (whose trace files Merge replays), below package plan,
// which decides the swarm's size and its symbolic member (the command
// line and bench ask plan for the swarm).
package portfolio
