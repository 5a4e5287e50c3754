; stack_flag.s -- main keeps its busy flag in a local on its stack and
; publishes the local's address; a worker waits until main says it is done
; and then checks the flag.  Main ends its work by popping the local,
; without clearing it.  Checked with the chip's peripherals on
; (--peripherals on), as firmware on the real chip.
;
; Expected verdict: violation `assert' (--preempt every --peripherals on).
;
;     unsigned char *busy;                      /* main's local, published */
;     volatile unsigned char done;
;
;     void worker(void) {                       /* thread 1, stack1 */
;         while (!done)
;             ;
;         __mc_assert(*busy == 0);
;     }
;
;     void main(void) {                         /* stack0, above stack1 */
;         new_thread(worker, stack1, 0);
;         unsigned char flag = 1;               /* psha */
;         busy = &flag;
;         /* ... the work ... */
;         /* BUG: pula -- the local goes, flag stays 1 */
;         done = 1;
;         for (;;)                              /* nothing left to do */
;             ;
;     }
;
; Counterexample: the worker reads the flag after main popped it: 1.
; Dead-data elimination for firmware (--reduce dead with the peripherals
; on) makes a pulled byte read as 0, and notices a read of such a byte
; only when it is at or below the reading thread's own SP.  The worker's
; stack lies below main's, so its SP is below the byte: the read goes
; unnoticed, the worker sees 0, and the search reports verified.
; stack_flag_ok.s is the fixed program.

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
        pula                            ; BUG: flag is left at 1
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
