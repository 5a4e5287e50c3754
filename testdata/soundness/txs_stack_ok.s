; txs_stack_ok.s -- txs_stack.s fixed: main, whose stack pointer is still
; set with txs, increments the counter with one instruction too.
;
; Expected verdict: verified (--preempt every).
;
;     unsigned char stack0[32];                 /* main's stack, then ... */
;     volatile unsigned char count;             /* ... the globals */
;     volatile unsigned char done;
;
;     void worker(void) {                       /* thread 1 */
;         count++;                              /* inc count */
;         done = 1;
;     }
;
;     void main(void) {                         /* SP = stack0 + 31 by txs */
;         new_thread(worker, stack1, 0);
;         count++;                              /* inc count */
;         while (done == 0)
;             ;
;         __mc_assert(count == 2);
;     }

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
        inc     count                   ; count++ in one instruction
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
