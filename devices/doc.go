// Package devices models the on-chip peripherals of the 68HC11 — the SCI
// (serial port), the main timer with its real-time interrupt, the parallel
// ports, the COP watchdog and the system registers (INIT, OPTION, HPRIO,
// CONFIG) — as the environment of firmware under check: what the firmware
// reads from and writes to its register block, which interrupts are
// pending, and which events of the outside world (a byte arriving on the
// serial line, time passing) may happen next.
//
// It is not the CPU (package sim executes instructions) and it does not
// search (package search). It knows nothing of states beyond the bytes it
// is given.
//
// # How the simulator sees the peripherals
//
// The interface is declared here and implemented here: Device, with read,
// write, pending interrupt, the environment's events and the CPU cycles
// that elapsed. Package sim imports this package, holds a Device in its
// configuration, and never names a peripheral; the command line composes
// one with New from a chip profile (package loader) and the user's flags.
// A device keeps no state of its own: everything it knows lives in a
// Block — the register block as the firmware reads it, then hidden bytes
// (the SCI's flag-clearing sequence, the transmitter, the abstract clock,
// the COP counter, the output matcher) — which the simulator keeps in
// pages of each state, so that it is hashed, compared, keyed and packed
// with the rest of the state (sim/key.go): two states whose peripherals
// differ in anything observable are different states.
//
// # The environment
//
// Nondeterminism lives in the outside world, not in the CPU. An event is
// a transition of its own, with a number that replays exactly (the k-th
// of Events in a given block):
//
//   - SCI receive, when RE is set: a byte of the input alphabet arrives
//     (one event per byte); with RDRF already set it is an overrun (OR),
//     one event, since every byte is lost alike; with OR set too nothing
//     can change and no event is offered.
//   - SCI transmit: a byte written to SCDR goes to the shift register at
//     once when it is idle (TDRE stays set, TC clears), otherwise waits in
//     TDR (TDRE clear); the event "transmitter done" ends the byte being
//     shifted out, moves a waiting byte on (TDRE set) or sets TC. A byte
//     counts as sent (Effect.Sent, and for the output matcher) when it
//     enters the shift register; one written over a full TDR replaces the
//     waiting one, which is never sent. With TE clear nothing is sent. The
//     idle-line flag (IDLE), noise and framing errors, the wake-up
//     feature and the ninth data bit (R8, T8) are not modelled; under the
//     exact clock SCCR1's M makes frames eleven bits long, and TE's 0 to 1
//     queues a preamble (below).
//   - Time (see "The abstract clock").
//   - Input captures: with an edge selected in TCTL2, an edge on ICx may
//     come at any time: ICxF sets and TICx takes TCNT.
//
// Bounds (Options): at most MaxReceived bytes received and MaxTimer timer
// events along an execution; Bounded tells the simulator that an
// execution which cannot go on only for a bound has not deadlocked.
//
// Port inputs read as any value of the domain declared for the register
// (Options.Inputs), masked by the data-direction register; a register with
// no domain reads back what was last written.
//
// # The abstract clock
//
// The CPU and the timer do not share a clock in this model: time passes
// by events, and an event may happen at any scheduling point. A periodic
// source — RTI, the counter overflow (TOF), each output compare — fires by
// an event that sets its flag: RTIF; TOF with TCNT going to 0x0000; OCxF
// with TCNT going to TOCx. TCNT only takes these values. A source's event
// is offered while its flag is clear, and only once the source is active:
// once the firmware has accessed one of its registers (its compare
// register, the flag or mask register that holds its bit, TCNT for TOF,
// PACTL for RTI). Before that nothing the firmware does can tell whether
// the source fired, and a chip's worth of unobserved flags would multiply
// every state by up to 2^7. So the state space stays finite and small.
//
// What it can miss: the relative rates of sources (an RTI every 8192
// cycles and an output compare every 100 are both "some time later", so
// orders impossible on a real chip are explored — spurious, never
// missing); a flag seen set by the very first access that activates its
// source; the exact TCNT between events (a firmware measuring durations
// with TCNT sees only the values above); the pulse accumulator and the
// SPI, which are registers only (an SPI
// transfer completes at once: SPIF sets on the write of SPDR; an A/D
// conversion too: CCF sets on the write of ADCTL).
//
// The COP watchdog counts real E cycles instead: the cycles of the
// instructions the firmware executes (Elapse) since its last service
// (0x55 then 0xAA written to COPRST); reaching the timeout chosen by
// OPTION's CR1:CR0 (2^15, 2^17, 2^19 or 2^21 cycles) is a violation. The
// COP runs when CONFIG's NOCOP bit is clear. Time spent in WAI is not
// counted: a COP that would expire while the firmware waits for an
// interrupt is missed. While the cycles are counted the transmitter is
// timed too: a byte leaves the shift register at the latest one frame
// (ten bits at the rate BAUD sets) after it entered it (Overdue), so
// that a loop polling TDRE cannot outlast the COP when the chip's would
// not.
//
// # The exact clock
//
// With Options.Exact the peripherals count E cycles (clock.go). The state
// keeps: TCNT (a register) and the prescaler's phase (E cycles into the
// current count), the E÷2^13 chain's cycles modulo 2^16 for the RTI,
// the COP's cycles since its service, the receiver's time (below), the
// transmitter's cycles left on its frame (0: idle) — a byte's or the
// preamble's: when TE goes from 0 to 1 the transmitter sends one idle
// frame before anything written to SCDR (reference manual, section 9.3,
// SCCR2's TE; txOn), and a frame starts at the write's cycle, the
// store's last (txStart). A frame is ten bits, eleven with SCCR1's M
// (nine data bits), for the transmitter and the receiver. Time passes by Elapse
// after each instruction and interrupt entry, and, when every thread
// waits in WAI, by the event EvWait. The firmware reads registers as they
// stand at the start of its instruction: a flag set or a byte received
// during an instruction is seen from the next one (a condition of every
// verdict under this clock). TCNT is the exception: a load or an
// arithmetic instruction reads it at the cycle the manual's
// cycle-by-cycle table gives (Block.At, set by the simulator), the count
// kept at a boundary being that of the cycle before it (an output
// compare sets its flag in the elapse at whose end TCNT comes to its
// register) — BUFFALO's trace counts on it to the cycle. The only choices left:
// which byte, whether it arrives now, input-capture edges.
//
// Arrivals. A byte comes off the line at some E cycle and is seen at the
// first instruction boundary after it; two bytes come off at least a
// frame apart (the sender's rate is the receiver's), the first at least
// nine bit times after the receiver is enabled (rxOn). The receiver's time
// is the E cycles since the earliest moment the last byte can have come
// off, given where it was seen: a byte may be seen at a boundary when
// that time is a frame or more, and is then taken to have come off at the
// earliest cycle since the previous boundary that is a frame after the
// previous byte's earliest moment (received, rxElapse). Taking the
// earliest loses no future: the receiver's time shows only in when the
// next byte may be seen, and a larger time allows every arrival a smaller
// one does (and the same transitions otherwise), so the state with the
// larger time has every future of the other. While the CPU waits, EvWait
// jumps to the clock's next change (a flag, the byte out, the receiver
// ready for a byte) and, while a byte may be seen, passes one E cycle at
// a time: an arrival at each cycle of the wait is then a transition of
// its own, as it must be where the moment shows later (TCNT and the
// prescaler's phase, the RTI chain, the transmitter's byte, the COP, the
// first 64 cycles: live). Where nothing of the kind counts, arrivals at
// different cycles lead to states that differ only in the receiver's
// time, the earliest has every future of the others (above), and no
// EvWait is offered.
//
// Why merged states have the same futures: every quantity the future of
// the peripherals depends on is a function of the kept ones. TCNT's next
// values, the compares and TOF follow from TCNT, the prescaler phase and
// the compare registers; RTIF from the chain modulo its period, which
// divides 2^16; the COP from its count; the line from the receiver's
// time, saturated at a frame plus the last elapsed cycles less one (beyond
// it only the cycles since the last boundary matter), and the
// transmitter's remaining cycles. The absolute time is kept nowhere, so a
// loop that comes back with the same distances matches. While the
// simulator allows it (Block.Lazy: dead-data elimination stands), the
// timer's counters are not counted until the firmware first accesses a
// timer register (CFORC through PACTL): until then nothing it does
// depends on them, and states differing only in them have the same
// futures up to that access; the access is seen (Unseen) and the search
// starts again with them counted from reset.
//
// Latency. The simulator measures the latency of the timer's sources
// under this clock (SourceTimer): Requests says a source's flag and
// enable bit are both set; SetsIn, before an elapse, after how many of
// its cycles the clock sets the flag (the arithmetic of Elapse), so that
// a request is dated to the E cycle inside an instruction, an entry or a
// wait at which it began. Input captures, the pulse accumulator, the SPI
// and the SCI are set by events at instruction boundaries whose true
// moment is not counted, and are not Timed.
//
// # What waiting firmware waits for
//
// The simulator finds that the firmware waits — its execution without
// events would cycle — and asks the device what could end the wait
// (Sources): the events a read of each register shows (Observes: SCSR
// the receiver and the transmitter, SCDR the receiver, the timer's flags,
// counter and captures the timer) and those whose interrupts the firmware
// has enabled (Armed). Sending says whether the transmitter is busy and
// how long a byte takes on the line: ten bits (eleven with SCCR1's M) of
// 16 E cycles times the
// prescaler and the rate divider BAUD selects, so that a plain
// simulation can pace the firmware's output as the chip does.
//
// # Registers
//
// Power-up values are the reference manual's, with bits it leaves
// undefined at 0. INIT relocates RAM and the register block (the
// simulator builds the memory map per INIT value); INIT, OPTION's IRQE,
// DLY, CR1 and CR0 and TMSK2's PR1 and PR0 may be written only once and
// only in the first 64 E cycles after reset, BPROT's bits cleared only in
// that time; HPRIO's PSEL only while the I bit is set; TFLG1 and TFLG2
// are cleared by writing ones. CONFIG, the mode bits of HPRIO and TEST1
// are not writable (EEPROM programming and test modes are not modelled).
package devices
