// Package sim executes 68HC11 machine code exactly as the M68HC11 Reference
// Manual defines it, as concurrent threads and interrupt handlers, and
// enumerates the transitions between global states for the search.
//
// It is for the concrete semantics: registers, flags, cycles, memory, the
// harness routines of DESIGN.md, interrupts, properties observed while
// stepping, and labels from which a trace can be replayed. It does not know
// in which order states are explored (package search) nor how far they are
// from a target (package heuristics).
//
// # Semantics in one place
//
// What each instruction does is written once, for this simulator and the
// symbolic engine alike, in two generic packages and the instruction
// set's tables:
//
//   - The condition-code arithmetic is package sim/alu: generic functions
//     over a value domain (bytes, words, truth values) for additions and
//     subtractions, shifts and rotates, increments, NEG, COM, TST, CLR,
//     DAA, MUL, IDIV and FDIV, the N, Z and V updates of loads, stores and
//     logic, and the branch conditions, each taking and returning the
//     result and the new CCR.
//   - The instruction dispatch is package sim/ops: one generic function,
//     ops.Exec, over a machine (ops.Machine: the domain of sim/alu, the
//     registers, memory, pushes and pulls, the stack pointer's other
//     moves, and the control — branch, jump, call frame, return, vector,
//     WAI, STOP, TEST) says for every opcode which operand is read, which
//     register, flag and byte changes and where the control goes; so do
//     its PushFrame, Vector, Interrupt and Trap for interrupts and traps.
//   - Which memory bytes an instruction reads and writes, and its
//     effective address, are the instruction set's: isa/m68hc11's
//     Inst.Access and Inst.EA, from the effects of its opcode table.
//     NextAccess (Access is isa's), the decoder cache's index register
//     and the symbolic engine use them.
//
// Package symbolic instantiates sim/alu and sim/ops with bit-vector terms;
// its machine keeps the data as terms and leaves the control to this
// simulator, run beside it, on a state whose bytes hold a placeholder
// where a term stands: such a step keeps the rule of Placeholders
// (placeholder.go), that it reads no placeholder and no --input address
// except through the stand-in the symbolic engine gives it. This package runs neither instantiation:
// go generate (sim/alu/gen) rewrites both into plain Go, every domain and
// machine method into the Go code it stands for here — an operator, a
// field of the thread, read8 and write8, push8 and pull8 with the
// dead-stack bookkeeping, the shadow call stack, the step's event. alu.go
// holds the arithmetic. ops.go holds the loop of steps.in.go (a file that
// is not compiled: the loop's source) with the dispatch written into it
// where steps.in.go calls exec, and ops's other functions as methods of
// the stepper, which interrupts (succ.go) and traps (traps.go) call too.
// What only this simulator does around an instruction — fetching through
// the decoder cache, harness calls, cycles, the stack property, and the
// stack pointer's and returns' bookkeeping the machine methods call
// (exec.go: loadSP, stackTop, rts, rti, swiVectored) — is written here.
//
// Generated rather than instantiated because of measurements: Go calls a
// type parameter's methods through a dictionary and inlines none of them,
// and an 8-bit addition instantiated with plain integers ran fifteen times
// slower than the operators; and the dispatch is written into the loop
// rather than called from it, because the call cost about thirty machine
// instructions per step. The generated loop runs BenchmarkRunLoop and
// BenchmarkRunALU as fast as the hand-written one it replaced, within the
// noise of interleaved runs. Tests in sim/alu/gen fail when alu.go or
// ops.go is stale.
//
// The tests here execute real instructions and compare them with a
// reference model written from what each flag means (carry out of bit 3
// or 7, signed overflow, borrow) in plain integer arithmetic: on every
// 8-bit operand (with every third CCR value for the read-modify-write
// instructions), on every CCR value for the branches, on every D for ASLD
// and LSRD, on boundary and random values for the other 16-bit operations
// and the divides, and on the manual's table for DAA; alu_gen_test.go
// compares the generated arithmetic with the generic functions on every
// 8-bit operand; package symbolic's tests run random programs through both
// engines.
//
// # States
//
// A State is a value: the threads' contexts, the writable memory (RAM and
// I/O registers) in 64-byte pages shared between states until written
// (copy on write), and the scheduler's flags. Equal states have equal
// hashes: Hash and Equal cover the registers, the top of each thread's
// stack, its status and critical-section depth, the atomic-section owner
// and its nesting depth, and memory. Cycle counts, the shadow call stack and the previous PC are
// bookkeeping outside the identity; nothing the simulator decides depends
// on them. Read-only memory is not part of a state.
//
// That identity is defined once, in key.go (Thread.Key, the scheduler
// bytes, page contents), and everything that compares states is written
// in its terms: Equal, Hash, the canonical key a visited-state store keeps
// (State.AppendKey, and ParentKey, which makes a successor's key from its
// parent's), and the packed form of frontier states (AppendPacked,
// Unpack). The store supplies an Interner that numbers thread contexts and
// pages. Tests check that keys are equal exactly when Equal holds, on
// random states and on the states of every model in testdata, and that
// every field of State, Thread and Page is classified as inside or outside
// the identity, so that a new field cannot silently merge states.
//
// # Peripherals
//
// The chip's peripherals are package devices: its Device interface is
// declared and implemented there, sim imports it and holds one in
// Config.Device (nil for harness models, whose register block stays plain
// memory), and the command line composes it from the chip profile and
// the user's flags. Nothing in sim names a peripheral. The device's state
// lives in pages of the State — the register block's pages where INIT
// maps them, and one hidden page after all others — so that it is part of
// Equal, Hash, every key and the packed form through key.go's one
// definition, with no field of its own. INIT selects the memory layout a
// state executes in (devices.go: layouts are built per INIT value when
// first needed). A pending device interrupt is taken before its thread's
// next instruction when I is clear; the environment's events (a byte
// arriving, the transmitter finishing, a timer source firing) are
// transitions labelled Label.Event; after each transition the device is
// told the cycles it took while it counts them (the first 64 cycles, a
// running COP). An instruction that touches no register never calls the
// device: the instruction path only reaches it through the attributes of
// the addresses it accesses. The machine records which input registers
// and board hardware the firmware read that nothing drives, held constant
// (held.go: Machine.HeldInputs), so that a verdict can say so.
//
// With a device, Config.DeadStack (on with dead-data elimination) takes
// the stack bytes below each thread's SP out of state keys, so that the
// frames earlier calls and interrupts left there do not tell states
// apart (deadstack.go).
//
// Firmware waits when, without an environment event, its execution would
// come back to a state it was in (wait.go): one definition, found by
// Brent's cycle detection on sampled states, for Run — which feeds its
// input when the firmware waits for a byte and its output has gone, times
// the transmitter at the rate the firmware programmed, and stops when the
// firmware waits with nothing left to come — and for Config.SCIWhenIdle,
// which bounds the serial line to a slow one: bytes arrive only in such
// waits.
//
// # Batches
//
// A scheduling point where nothing can choose is no point. The machine
// without batches (Config.Unbatched, check --batch off) has a state at
// every scheduling point — before every instruction under --preempt
// every — and its transitions are Expand's: a thread's run to its next
// point (one per value of a choice its last step draws), an interrupt's
// entry, an event of the environment. Call its graph G. A state of G is
// forced for thread i (batch.go: forced) when G's only transitions out of
// it are thread i's run: no other thread may run, no thread can take an
// interrupt (an --irq one, a device's pending one, a --latency request
// or a request to be made), no event of the environment is explored
// there (the --sci-timing gate included: under idle a place where the
// firmware may wait is taken as not forced), the device is not overdue,
// and thread i is not about to call a harness routine (which may block,
// draw, create a thread, open an atomic section or end the path). Under
// the exact clock the timer's flags are set by the clock as time
// passes: they are no choice, and a pending interrupt the I bit masks
// is none either.
//
// By default a thread's transition runs on through every forced point
// (runThread), as Run does: the device is told of the cycles so far at
// each point, exactly as at the end of a transition of G, so that the
// state there is the state G has there; the point is then judged, and
// the run goes on only if it is forced. A batch ends at the first point
// that is not forced, at a step that drew a choice (so a batch carries at
// most one choice, at its last step, and Expand enumerates it by running
// the batch again per value), at a violation, at BatchCap instructions,
// where it comes back to a state it passed (loopFinder), or, once it has
// run a while, at a distinguished state (distinguished: a property of
// the state alone, so that batches from many states into one long
// deterministic path end at the same states and the visited set merges
// them). The graph B
// the search explores has the states of G where a batch starts or ends,
// and an edge per batch. Its counters: Stats.Instructions counts every
// instruction executed (a batch's, and a batch run again per choice);
// the search's transitions are B's edges and its depth the number of
// B's edges from the initial state, so depth is no longer a count of
// instructions.
//
// Every verdict of G is kept:
//
//   - A batch is a path of G: every step it takes is the step G takes
//     there, with the same properties checked after it (the stepper's,
//     the stack range, --reach goals, the timing properties' intervals,
//     the device's at each point, the COP's among them), and it stops at
//     the first violation, which it reports at the instruction that
//     raised it. So every violation and counterexample of B is one of
//     G; Unbatch splits a batch into G's transitions, so that a trace
//     replays with and without batches.
//   - Every state of G reachable from the initial state is a state of B
//     or a forced state a batch of B passes, by induction on G's paths:
//     a transition of G out of a state of B is the first transition of
//     one of its batches (or an edge of B: interrupts and events), and
//     the only transitions out of a passed state are its thread's run,
//     which the batch takes next (each value of a choice it draws is a
//     batch of its own, ending there). A batch ends only where G has a
//     state, so the successor of the last state it passes is in B.
//   - A violation of G is raised by some transition out of a reachable
//     state (each of which B takes, as above) or is a deadlock. A forced
//     state is never a deadlock (its thread moves: it is not at a
//     harness routine, the only place a step blocks), so every deadlock
//     of G is a state of B, expanded as in G. A path that __mc_assume
//     makes infeasible is dropped in both; an access that observes the
//     exact clock's counters left out (Block.Lazy) ends the search in
//     both, which runs again without the elimination.
//   - The search ends: every batch is finite (BatchCap), B's states are
//     states of G, finitely many, and the visited set keeps each once.
//     A cycle of G through forced states only — a loop nothing can leave
//     — is cut where a batch ends (at a distinguished state on it, or,
//     loopFinder, at a state the batch comes back to, so that the batch
//     from there comes back to it again), and the visited set closes the
//     cycle with a few states.
//     Nothing checked here depends on a cycle being seen as such: the
//     properties are reachability of a violation or a deadlock, and a
//     cycle's states are each reached and checked.
//
// The reductions, the search orders and the stores work on B as they
// did on G. Partial-order reduction offers a lone transition τ only at a
// state that is not forced, and runs τ without a batch (it is one
// transition of G, as the argument of reduce.go needs); at a forced state
// the full expansion is the batch. A cycle of B, seen as a cycle of G,
// passes a forced state — expanded in full, its one transition followed
// — or consists of states of B whose cycle-proviso flags the search
// keeps, so every cycle of the reduced graph has a state expanded in full
// and reduce.go's argument holds unchanged. The stack guard watches every
// access of a batch and the dead-data checks every step of it, so an
// intrusion or a broken assumption inside a batch is seen as in G.
// Dead-data elimination and hash compaction key B's states as they key
// G's (a batch ends in a state of G); the parallel search, the swarm and
// saved frontiers hold states of B, each a state of G. The heuristics'
// estimates order B's states and decide no verdict. --engine auto hands
// HMC the state where a batch starts whose last step draws a choice too
// wide to enumerate: HMC follows every path from that state, the batch's
// among them.
//
// # Reductions never change the state that executes
//
// Partial-order reduction (reduce.go, private.go) chooses which
// transitions to follow; dead-data elimination (live.go, deadstack.go)
// chooses what of a state its key keeps. Neither ever writes to a state
// or changes a step: every transition a search takes is one the
// firmware takes, and every counterexample replays as found. What each
// assumes and cannot prove in advance — that a stack is private, that a
// masked byte is not read, that a return goes where liveness expects —
// is checked on every transition, and a break is recorded
// (Machine.Intrusion, Machine.DeadBroken); package search then searches
// again without the assumption. Whether a step may be followed alone is
// judged from what it does in its state: the instruction fetched in the
// state's layout, and every effect beyond memory (a thread that ends,
// the device's events: Machine.Alone).
//
// # Decisions where the manual or the design leaves room
//
//   - Power-up: memory the image does not load reads 0; the registers are
//     as the reset leaves them with the undefined ones 0: CCR has S, X and I
//     set, A, B, X, Y and SP are 0.
//   - EEPROM is read-only to ordinary stores (its programming sequence is
//     not modelled): a store there is a rom-write violation, like ROM.
//   - The shadow call stack records, per call and interrupt frame, the
//     stack address of its return address; return addresses are read
//     through it from memory, so it follows firmware that rewrites its
//     stack. It keeps the innermost 32 frames.
//   - A thread ends on __mc_thread_exit or when an RTS finds its stack
//     empty (SP at the top of the thread's stack: its initial SP for a
//     created thread, the first LDS for thread 0).
//   - Interrupts may be taken by any thread that has not exited and whose
//     CCR lets it (I clear; X clear for xirq), at every scheduling point,
//     outside atomic sections; each is its own transition. A thread in WAI
//     or STOP can only move by an interrupt; with none possible it counts
//     as blocked for the deadlock property.
//   - __mc_assume(0) blocks its thread silently: a state where nothing else
//     can move is then not a deadlock, since every execution through it is
//     infeasible.
//   - Executing an illegal opcode (TEST included, outside test modes) is
//     an illegal-opcode violation whether or not the image programs the
//     illegal-opcode vector (0xFFF8): the trap only says what the firmware
//     does after the bug. With Config.IgnoreIllegal (--ignore
//     illegal-opcode) the execution goes on through the vector, as the
//     hardware's does, when it is programmed; otherwise the path ends
//     there. SWI goes through its vector (0xFFF6) when the image programs
//     it, and is an illegal-opcode violation otherwise, ignored or not. A
//     vector is programmed when the image loads it with an address other
//     than 0x0000 and 0xFFFF at which the image loads something
//     (traps.go).
//   - Under calls and yield preemption a transition runs one thread
//     to its next scheduling point, but at most Config.MaxRun instructions
//     (then the search continues from there and the cut is counted), and a
//     nondeterministic choice always ends a transition, so a label carries
//     at most one choice.
//   - The I bit clears one E cycle late. The M68HC11 Reference Manual's
//     description of CLI (appendix A, the instruction set details) says
//     that the clearing mechanism of I has a delay of one E cycle, so
//     that when interrupts were disabled the instruction after the CLI
//     always executes, even with an interrupt pending before the CLI.
//     TAP, which clears I by the same means, is treated alike: after a
//     CLI or TAP that clears an I that was set, the thread's next
//     instruction runs before any maskable interrupt is taken
//     (Thread.Inhibit, timing.go's inhibitAfter). RTI restores I with no
//     such delay: an interrupt pending then is taken before the next
//     instruction (the manual's interrupt recognition, section 5: at the
//     end of the current instruction).
//
// # Timing properties
//
// Timing properties (check --max-masked, --deadline, --latency,
// --report-timing) are checked on the search's states: what each needs of
// the past is kept in one more page of the state, the timing page, after
// every other page (the device's hidden page included; timing.go). The
// page exists only when Config.Timing is set, so that a check without a
// timing property stores and hashes exactly what it did before.
//
// Time is the CPU's: the E cycles of every instruction and harness call
// any thread or interrupt handler executes along the path, with the
// cycles of the M68HC11 Reference Manual's instruction timing tables
// (isa/m68hc11's Inst.Cycles, as Thread.Cycles counts them), and 14
// cycles for each interrupt entry (the manual's interrupt stacking
// sequence: nine bytes stacked, the vector fetched). WAI is the
// manual's 14 + n split as its cycle-by-cycle table splits it: 12 cycles
// for WAI (the frame stacked), the n of the wait, and 2 for the entry
// from WAI (the vector); the entry from STOP adds the oscillator's
// restart delay while OPTION's DLY is set (entry.go). An environment
// event (a byte arriving, a timer firing, a harness interrupt's request)
// takes no CPU time, but for time passing while the CPU waits in WAI
// under the exact clock (devices.EvWait): its cycles are the wait's n,
// counted in the global time and in every open interval (entry.go's
// waited). State.Now is the global time along a path.
//
// The properties, and where an interval starts and ends:
//
//   - Masked: the CPU is masked while the context that executes has
//     CCR.I set. An interval starts at the end of the step after which
//     the executing context has I set while the one before had it clear
//     (SEI, TAP, an interrupt entry — their own cycles are not in the
//     interval — or a switch to a thread whose I is set), and counts the
//     cycles of every step executed with I set, the one that clears I
//     (CLI, TAP, RTI) included; a switch to a thread with I clear ends
//     it. This is the convention of the GNU simulator's "interrupts
//     masked sequence" (its count starts after the instruction that set
//     I and ends after the one that cleared it). Intervals are measured
//     only after the first instruction that clears I (the firmware's
//     first CLI): the masked start-up after reset is not one. A violation
//     is reported as soon as an interval exceeds the bound, whether or
//     not it ever ends.
//   - Deadline FROM:TO: each thread has its own interval. It starts
//     when the thread's PC becomes FROM (before FROM's instruction runs:
//     by a step, an interrupt's entry, or the thread's creation there)
//     while the thread has none running, whatever the other threads'
//     intervals, and ends when the same thread's PC becomes TO; it
//     counts the cycles of every step of every thread and handler in
//     between. The interval of a thread that exits is dropped (it never
//     reaches TO). Reaching FROM again before TO does not restart it (the first FROM since the last
//     TO counts, so that an interrupt taken at FROM, whose RTI comes back
//     there, is inside). When FROM and TO are one address, arriving there
//     ends one interval and starts the next. A violation is reported when
//     TO is reached more than the bound after FROM; a path that never
//     reaches TO does not violate.
//   - Latency IRQ (harness interrupts, --irq): the interrupt is requested
//     by an environment event at any state where it is not already
//     requested (inside an atomic section too); from then it is pending
//     and is taken at the first
//     scheduling point where a context can take it, as the only move of
//     that context besides the device's pending interrupt and the --irq
//     interrupts of a higher priority. Of several pending requests the
//     context takes the one of the highest priority (rank: the
//     Reference Manual's interrupt priority table, section 5, with
//     HPRIO's promotion when the chip's registers are there), never the
//     first flag's; an --irq interrupt that no property follows is not
//     taken before a pending request of a higher priority either, as on
//     the chip. The interval runs from the request to the first
//     instruction of the handler, the cycles of the entry included. A
//     violation is reported as soon as the interval exceeds the bound.
//     Requests and prompt service give the same executions as the plain
//     --irq model (an interrupt taken where I is clear is one requested
//     just before, and no other is pending then), so the other
//     properties' verdicts do not change, nor does one property's value
//     depend on which others are asked for (--report-timing adds a
//     latency for every --irq interrupt). A
//     request still pending when no thread runs any more (every thread
//     exited or blocked) counts only the cycles that ran.
//   - Latency of a chip's source (Latency.Source: a timer source whose
//     flag the exact clock sets, Config.ExactClock): no event requests
//     it; it is requested while its flag and its enable bit are both set
//     (devices.SourceTimer). The interval starts at the E cycle at which
//     that became true: the cycle of the elapse (an instruction's, an
//     entry's or a wait's cycles) at which the clock set the flag
//     (SourceTimer.SetsIn, noted before the elapse), or, when the flag
//     was set already and the instruction set the enable bit, the
//     instruction's first cycle — the earliest the write can have been,
//     so the count is an upper bound, by at most the instruction's
//     cycles less one. It grows with every step, and with the cycles of
//     a wait while it stands (the wait is an event: Now does not count
//     it), and ends at the entry of the source's interrupt, the 14
//     cycles included, or, without a violation, when the flag or the
//     enable clears (a withdrawn request, the withdrawing instruction's
//     cycles counted). A violation is reported as soon as it exceeds the
//     bound, taken or withdrawn later. After the entry the source is
//     served until its flag or enable clears: a handler returning with
//     the flag set is taken again, and that is not a new request.
//     Input captures, the pulse accumulator, the SPI and the SCI are set
//     by events at instruction boundaries whose true moment the clock
//     does not count: their latency is not offered.
//   - Latency of a chip's source under the abstract clock: the abstract
//     clock sets the flag by an event at any scheduling point. The CPU
//     recognizes a request at the end of an instruction (the Reference
//     Manual, section 5), so a flag set at a boundary stands for one set
//     at any cycle of the CPU's last step (an instruction or an entry),
//     whose cycles the timing page keeps (offLast): the interval starts
//     at that step's first cycle, the worst over every moment, at most
//     one cycle more than the latest moment still recognized there. An
//     enable written by an instruction starts it at the instruction's
//     first cycle, as under the exact clock; the rest is as above.
//
// Exactness. Write a state of the timed machine as (s, τ): s the state
// without its timing page, τ the page. Every transition of the machine
// without timing properties, s → s' by label l, is one transition
// (s, τ) → (s', τ') of the timed machine, τ' a function of τ, of l and
// of the steps l executes (their cycles, the I bit before and after
// each, the PCs reached), none of which depends on τ; the timed machine
// has no other transitions but the requests of --latency, which change
// τ alone (a requested interrupt is then, with those of a higher
// priority, the only move of a context that can take it, a move the
// plain model has too; the plain interrupts of a lower priority that it
// withholds are taken, in the plain model's executions, where no request
// is pending: the request of an interrupt can always come just before
// its entry). So the executions
// of the two machines are the same, step for step, and along an
// execution τ holds exactly each interval's cycles so far, up to the
// saturation. The saturation at N + 1 (or Timing.Cap) only merges counts
// above N, which are all violations already, or all "at least the cap".
// A bound is therefore violated on some execution if and only if some
// transition out of a reachable timed state raises the violation, which
// an exhaustive search of the timed states — finitely many, the
// counters being bounded — finds. Storing a state once loses nothing
// because τ is part of its identity: states taken for one have the same
// futures, interval values included. For --report-timing, the largest
// value a counter takes is the largest interval of every execution
// (each interval is noted at every step it grows), exact when the search
// is exhaustive and the cap was not reached. A counterexample replayed on
// a machine whose bounded counters do not stop (Machine.Unsaturated) runs
// the same transitions, since none depends on a count, and its violation
// carries the interval and the count the execution had (search's
// TrueInterval).
//
// A chip's source under the exact clock adds no transition: its latency
// byte and counter in τ are a function of τ and of the device's block
// before and after each transition (the flag and enable bits, and the
// cycle at which the flag set, which the device's block before the
// elapse determines: TCNT, the prescaler's phase, TOCx, the RTI chain),
// none of which depends on τ. So the argument above holds unchanged: the
// executions are those of the machine without the property, and along
// each, τ holds the cycles from the cycle the request began (exact when
// the flag set it; at most the writing instruction's cycles less one
// more when an enable write did) to the current point. The exact clock's
// own state (package devices: TCNT, the phase, the chain, the flags) is
// in the state's pages, so two states taken for one have the same
// device future and the same τ: the search finds every value the counter
// takes, and the maximum of the over-approximated counts bounds the true
// latency from above, so that "verified" is sound; the bundled programs
// request by flags only, where the count is exact. Under the abstract
// clock the source adds no transition either: the device's events are
// the machine's, and the count starts from the last step's cycles, a
// function of τ (offLast, which the last step wrote) — the byte makes
// states differ by the cycles of their last step, which no future
// depends on otherwise, so nothing is lost by it; every moment at which
// the flag may set is some event's, counted from the earliest cycle it
// stands for.
//
// The reductions keep this. Dead-data elimination keeps every register
// live when timing is on (whether a step starts or continues a masked
// interval depends on the I bit of the thread that runs) and never masks
// the timing page, which is at no address, nor the device's pages (the
// flags, enables and compare registers a source's request depends on).
// Its one elimination under the exact clock, the timer's counters left
// out until the firmware first accesses a timer register (Block.Lazy),
// cannot hide a request: no source is enabled before such an access
// (TMSK1 and TMSK2 are timer registers), and the access withdraws the
// elimination and the search starts again with the counters counted; the stack bytes it leaves out
// are never read before being written, so the executions from two states
// it takes for one are the same, cycles included. Hash compaction and
// the swarm see the page as any other page: the same probability of
// omission, the same exhaustiveness per member. Partial-order reduction
// is off with timing properties (reducible): it follows alone a step it
// takes for invisible and independent of the other threads' steps, but
// every step advances the global time that every running interval reads
// — one thread's step before or after another's FROM, TO, SEI or CLI
// changes a deadline's or a masked interval's value — so no step is
// invisible to τ, and a reduction that saw them would have nothing left
// to reduce. The result states it as a condition of the verdict. The
// symbolic engine does not check timing properties: it lists them as not
// checked, and the swarm's symbolic member does not run with them.
package sim
