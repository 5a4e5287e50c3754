; spin_ok.s -- spin.s fixed: the workers add 1 to the counter with one
; instruction; main still ends in an endless empty loop.
;
; Expected verdict: verified (--preempt every).
;
;     volatile unsigned char count;
;     volatile unsigned char done;
;
;     void worker(void) {                       /* threads 1 and 2 */
;         count++;                              /* inc count */
;         if (++done == 2)
;             __mc_assert(count == 2);
;     }
;
;     void main(void) {
;         new_thread(worker, stack1, 0);
;         new_thread(worker, stack2, 0);
;         for (;;)
;             ;
;     }

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
        inc     count                   ; count++ in one instruction
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
