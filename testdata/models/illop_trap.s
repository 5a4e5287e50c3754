; illop_trap.s -- the firmware installs an illegal-opcode trap as its
; recovery path, and a call through a table of handlers lands on a data
; byte; the recovery then reports the restart.
;
; Expected verdict: violation `illegal-opcode' (any --preempt; one thread).
; With --ignore illegal-opcode: violation `error', reached only through
; the trap.
;
;     void (*const handler[1])(void) = { (void (*)(void))version };
;     const unsigned char version[] = { 0x41, ... };  /* data, not code */
;     unsigned char restarts;
;
;     void main(void) {
;         if (restarts != 0)
;             __mc_error();                 /* a restart is a failure */
;         handler[0]();                     /* BUG: jumps into data */
;         __mc_thread_exit();
;     }
;     /* illegal-opcode trap (vector 0xFFF8) */
;     void recover(void) { restarts++; main(); /* a fresh stack */ }
;
; Reasoning: the first byte of `version', 0x41, is an opcode the 68HC11
; does not define.  Executing it is the illegal-opcode violation whether or
; not a trap is installed: the trap only says what the firmware does after
; the fault.  Shortest counterexample: 7 transitions (lds, tst, bne, ldx,
; ldx, jsr 0,x, the undefined opcode).  With the property ignored the
; execution goes on as the hardware's would: the CPU stacks the frame and
; jumps through 0xFFF8 to `recover', which counts the restart and starts
; over; main then calls __mc_error: 14 transitions (the 7, inc, jmp, lds,
; tst, bne, jsr __mc_error, the error call).

        .include "harness.inc"

        .sect   .rodata
handler:
        .word   version
version:
        .byte   0x41, 0x01, 0x00        ; "A", 1.0 -- data

        .sect   .bss
restarts: .skip 1
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        tst     restarts
        bne     restarted
        ldx     #handler
        ldx     0,x                     ; X = handler[0]
        jsr     0,x                     ; handler[0]()
        jsr     __mc_thread_exit
restarted:
        jsr     __mc_error
        jsr     __mc_thread_exit

; void recover(void) -- the illegal-opcode trap: see the header.
recover:
        inc     restarts
        jmp     _start

        vector_table _start, illop=recover
