; assert_fail.s -- two threads increment a shared byte without a lock;
; thread 0 waits for thread 1 and asserts that both increments happened.
;
; Expected verdict: violation `assert' (--preempt every).
;
;     unsigned char counter, done;
;
;     void increment(void) {
;         counter = counter + 1;    /* ldaa counter; inca; staa counter */
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
; Counterexample: both threads load counter == 0 before either stores, so
; both store 1 and one increment is lost; thread 0 then sees done == 1 and
; counter == 1.  The shortest has 26 transitions (one per instruction or
; harness call, the failing __mc_assert included): thread 0 creates thread
; 1 (6), calls increment, loads and increments (3); thread 1 calls
; increment and loads 0 (2); thread 0 stores 1 and returns (2); thread 1
; increments, stores 1, returns and sets done (5); thread 0 leaves the
; join loop, compares, calls __mc_assert (7), which fails (1).

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
        ldaa    counter
        inca
        staa    counter
        rts

        vector_table _start
