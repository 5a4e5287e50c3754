; wai_sleep.s -- real firmware (no harness stubs, the chip's peripherals
; on): after start-up a battery-powered board puts its CPU to sleep in
; WAI until an interrupt comes, to save power -- but it enables none, so
; nothing ever wakes it.  It never touches the timer.
;
; Expected verdict: violation `deadlock' with --clock exact.
;
;     void main(void) {
;         status = 0x5A;            /* the board is up */
;         for (;;)
;             asm("wai");           /* BUG: no interrupt is enabled */
;     }
;
; Under the exact clock time passes while the CPU waits: the timer
; counts and its flags (TOF, RTIF) set, enabled by nobody; once the clock
; changes nothing more, no event is left and the CPU never moves again.
; Dead-data elimination leaves the timer's counters out of the state
; while the firmware has not looked at the timer, and its search meets
; the deadlock as soon as the CPU sleeps: the counterexample must still
; go on to where the machine that counts them deadlocks, which replay
; rebuilds, or it does not replay.  wai_sleep_ok.s is the fixed program.

        .sect   .bss
status: .skip   1
stack:  .skip   16
stack_top = stack + 15

        .sect   .text
        .globl  _start
_start: lds     #stack_top
        ldaa    #0x5A
        staa    status
sleep:  wai                             ; BUG: nothing can wake it
        bra     sleep

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
