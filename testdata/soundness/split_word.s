; split_word.s -- main borrows a 16-bit word at the top of its stack as
; scratch, saving and restoring it, but its frame has one byte: the second
; byte of the word is `status', the global right above the stack, which a
; worker thread reads.
;
; Expected verdict: violation `assert' (--preempt every).
;
;     unsigned char stack0[32];                 /* main's stack, then ... */
;     volatile unsigned char status;            /* ... 0 or 1, never more */
;
;     void worker(void) {                       /* thread 1 */
;         __mc_assert(status <= 1);
;     }
;
;     void main(void) {                         /* on stack0, frame at its top */
;         unsigned char scratch;                /* BUG: used as a 16-bit word */
;         new_thread(worker, stack1, 0);
;         unsigned int saved = *(unsigned int *)&scratch;   /* ldy 0,x */
;         *(unsigned int *)&scratch = 0x1234;   /* std 0,x: status = 0x34 */
;         unsigned int t = *(unsigned int *)&scratch + 1;
;         *(unsigned int *)&scratch = saved;    /* sty 0,x: status restored */
;         sum = t;
;     }
;
; Counterexample: main stores 0x1234 over scratch and status; the worker
; reads status = 0x34 before main restores it; the assertion fails.  Each
; access of main's is a 16-bit access whose first byte is in main's stack
; and whose second byte is a global; a scheduler that took the first byte
; for the whole access saw only accesses to main's own stack between the
; save and the restore, switched to the worker only outside them and
; reported `verified'.  split_word_ok.s is the fixed program.

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
stack0: .skip   STACK_SIZE              ; main's stack: its top byte is stack0+31
status: .skip   1                       ; right above it
sum:    .skip   2
stack1: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        des                             ; main's frame: scratch, one byte at stack0+31
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #worker
        jsr     __mc_thread_create
        tsx
        ldy     0,x                     ; saved = the word at scratch: scratch, status
        ldd     #0x1234
        std     0,x                     ; the word = 0x1234: status = 0x34
        ldd     0,x
        addd    #1                      ; t = D
        sty     0,x                     ; restore: status = its old value
        std     sum
        ins
        jsr     __mc_thread_exit

; void worker(void) -- see the header.
worker:
        clra
        ldab    status
        cmpb    #1
        bhi     wo_assert               ; A = 0: status is not 0 or 1
        inca
wo_assert:
        jsr     __mc_assert
        rts

        vector_table _start
