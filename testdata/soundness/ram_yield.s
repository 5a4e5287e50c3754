; ram_yield.s -- a worker runs a routine that lives in RAM (initialised data,
; so that it can be patched); it draws a mode in B, yields to the other
; thread, and then looks up a gain for the mode it kept in B.
;
; Expected verdict: violation `assert' (--preempt every).
;
;     const unsigned char gain[3] = { 0x10, 0x00, 0x30 };   /* BUG: mode 1 */
;     unsigned char ticks;
;
;     void sample(void) {                       /* in RAM, thread 1 */
;         unsigned char mode = __mc_nondet(2);  /* in B */
;         __mc_yield();
;         __mc_assert(gain[mode] != 0);
;         __mc_thread_exit();
;     }
;
;     void main(void) {
;         new_thread(sample, stack1, 0);
;         ticks++;
;         __mc_thread_exit();
;     }
;
; Counterexample: mode = 1, gain[1] = 0.  B is read after __mc_yield
; returns to sample, in RAM.  A liveness analysis that looks for the calls
; of a harness stub in read-only code only finds no caller of __mc_yield
; at all, takes every register for dead when a thread is at the stub, and
; dead-data elimination merges the states of the three modes there: only
; the mode that reaches the stub first goes on (mode 0 breadth-first,
; mode 2 depth-first), and mode 1 never reaches the assertion.
; ram_yield_ok.s is the fixed program.

        .include "harness.inc"

        STACK_SIZE = 16

        .sect   .bss
ticks:  .skip   1
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .rodata
gain:   .byte   0x10, 0x00, 0x30        ; BUG: no gain for mode 1

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #sample
        jsr     __mc_thread_create
        inc     ticks
        jsr     __mc_thread_exit

; void sample(void) -- code in RAM (initialised data).
        .sect   .data
sample:
        ldd     #2
        jsr     __mc_nondet             ; B = mode, 0 to 2
        jsr     __mc_yield              ; B is kept
        ldx     #gain
        abx
        ldaa    0,x                     ; A = gain[mode]
        jsr     __mc_assert
        jsr     __mc_thread_exit

        vector_table _start
