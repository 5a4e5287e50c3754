; spin.s -- main starts two workers and ends in an endless empty loop, as
; firmware often does; the workers add 1 to a shared counter in three
; instructions.
;
; Expected verdict: violation `assert' (--preempt every).
;
;     volatile unsigned char count;
;     volatile unsigned char done;
;
;     void worker(void) {                       /* threads 1 and 2 */
;         count = count + 1;                    /* BUG: ldaa; inca; staa */
;         if (++done == 2)                      /* the last one checks */
;             __mc_assert(count == 2);
;     }
;
;     void main(void) {
;         new_thread(worker, stack1, 0);
;         new_thread(worker, stack2, 0);
;         for (;;)                              /* nothing left to do */
;             ;
;     }
;
; Counterexample: both workers load count = 0 before either stores it:
; count ends at 1.  Main's loop is one branch that touches no memory and
; leads back to the same state: a reduction that let main run alone there
; (it touches registers only) without the cycle proviso of sim/reduce.go
; would go round that loop forever, never let the workers run, and report
; `verified'.  spin_ok.s is the fixed program.

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
count:  .skip   1
done:   .skip   1
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE
stack2: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #worker
        jsr     __mc_thread_create
        ldy     #0
        ldx     #stack2+STACK_SIZE-1
        ldd     #worker
        jsr     __mc_thread_create
halt:
        bra     halt                    ; for (;;);

; void worker(void) -- see the header.
worker:
        ldaa    count                   ; count = count + 1: the other
        inca                            ;   worker may run in between
        staa    count
        inc     done
        ldab    done
        cmpb    #2
        bne     wo_end                  ; not the last one
        clra
        ldab    count
        cmpb    #2
        bne     wo_assert               ; A = 0: an increment was lost
        inca
wo_assert:
        jsr     __mc_assert
wo_end:
        rts

        vector_table _start
