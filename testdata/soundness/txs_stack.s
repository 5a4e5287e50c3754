; txs_stack.s -- main sets its stack pointer with txs instead of lds, then
; adds 1 to a counter in three instructions while a worker adds 1 with one.
;
; Expected verdict: violation `assert' (--preempt every).
;
;     unsigned char stack0[32];                 /* main's stack, then ... */
;     volatile unsigned char count;             /* ... the globals */
;     volatile unsigned char done;
;
;     void worker(void) {                       /* thread 1 */
;         count++;                              /* inc count: one instruction */
;         done = 1;
;     }
;
;     void main(void) {                         /* SP = stack0 + 31 by txs */
;         new_thread(worker, stack1, 0);
;         count = count + 1;                    /* BUG: ldaa; inca; staa */
;         while (done == 0)
;             ;
;         __mc_assert(count == 2);
;     }
;
; Counterexample: main loads count (0); the worker increments it to 1;
; main stores its 1 over it and the assertion fails.  Thread 0's stack
; is where its first lds puts SP; with txs there was no lds, so a
; scheduler that treated accesses to a thread's own stack (SP+1 up to its
; top) as private took "its stack" to be everything above SP, the globals
; included: main's three instructions ran without a switch between them
; and it reported `verified'.  txs_stack_ok.s is the fixed program.

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
stack0: .skip   STACK_SIZE
count:  .skip   1
done:   .skip   1
stack1: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        ldx     #stack0+STACK_SIZE
        txs                             ; SP = X - 1 = stack0+31
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #worker
        jsr     __mc_thread_create
        ldaa    count                   ; count = count + 1: the worker
        inca                            ;   may run in between
        staa    count
ma_wait:
        ldaa    done
        beq     ma_wait
        clra
        ldab    count
        cmpb    #2
        bne     ma_assert               ; A = 0: an increment was lost
        inca
ma_assert:
        jsr     __mc_assert
        jsr     __mc_thread_exit

; void worker(void) -- see the header.
worker:
        inc     count
        ldaa    #1
        staa    done
        rts

        vector_table _start
