; stack_flag_ok.s -- stack_flag.s fixed: main clears its busy flag before
; it pops the local.
;
; Expected verdict: verified (--preempt every --peripherals on).
;
;         flag = 0;                             /* clr 0,x */
;         /* pula */
;
; The rest is stack_flag.s.

        .include "harness.inc"

        STACK_SIZE = 16

        .sect   .bss
busy:   .skip   2
done:   .skip   1
stack1: .skip   STACK_SIZE              ; the worker's, below ...
stack0: .skip   STACK_SIZE              ; ... main's

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #worker
        jsr     __mc_thread_create
        ldaa    #1
        psha                            ; flag = 1, a local
        tsx
        stx     busy                    ; busy = &flag
        nop                             ; the work
        tsx
        clr     0,x                     ; flag = 0
        pula
        ldaa    #1
        staa    done
halt:   bra     halt                    ; for (;;);

; void worker(void) -- see the header.
worker:
        ldaa    done
        beq     worker                  ; wait for main
        ldx     busy
        ldab    0,x                     ; B = *busy
        clra
        tstb
        bne     wo_assert               ; A = 0: still busy
        inca
wo_assert:
        jsr     __mc_assert
        rts

        vector_table _start
