; atomic.s -- the increment of assert_fail.s inside an atomic section.
;
; Expected verdict: verified (--preempt every; a few hundred states).
;
;     unsigned char counter, done;
;
;     void increment(void) {
;         __mc_atomic_begin();
;         counter = counter + 1;            /* ldaa; inca; staa -- not split */
;         __mc_atomic_end();
;     }
;     void worker(void) {                   /* thread 1 */
;         increment();
;         done = 1;
;     }
;     void main(void) {
;         new_thread(worker, stack1, 0);
;         increment();
;         while (!done)
;             ;
;         __mc_assert(counter == 2);
;         __mc_thread_exit();
;     }
;
; Reasoning: nothing else runs between __mc_atomic_begin and
; __mc_atomic_end, so each load-increment-store is indivisible and no
; update is lost; thread 1 sets done after its increment, so thread 0
; sees counter == 2 on every interleaving.

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
counter: .skip  1
done:    .skip  1
stack0:  .skip  STACK_SIZE
stack1:  .skip  STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #worker
        jsr     __mc_thread_create
        jsr     increment
join:
        tst     done
        beq     join                    ; while (!done) ;
        clra
        ldab    counter
        cmpb    #2
        bne     check
        inca                            ; A = (counter == 2)
check:
        jsr     __mc_assert
        jsr     __mc_thread_exit

; void worker(void) -- see the header.
worker:
        jsr     increment
        ldaa    #1
        staa    done
        rts                             ; returning ends thread 1

; void increment(void) -- see the header.
increment:
        jsr     __mc_atomic_begin
        ldaa    counter
        inca
        staa    counter
        jsr     __mc_atomic_end
        rts

        vector_table _start
