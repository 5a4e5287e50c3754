; assert_ok.s -- two threads add to a shared total under a lock; thread 0
; waits for thread 1 and checks the sum.
;
; Expected verdict: verified (--preempt every; a few hundred states).
;
;     unsigned char total, lock, done;
;
;     void add(unsigned char n) {
;         __mc_lock(&lock);
;         total += n;                       /* read-modify-write, but locked */
;         __mc_unlock(&lock);
;     }
;     void helper(unsigned char n) {        /* thread 1 */
;         add(n);
;         done = 1;
;     }
;     void main(void) {
;         new_thread(helper, stack1, 2);
;         add(1);
;         while (!done)                     /* join */
;             ;
;         __mc_assert(total == 3);
;         __mc_thread_exit();
;     }
;
; Reasoning: both read-modify-writes happen while holding `lock', so
; neither update is lost; `done' is set only after thread 1's update, so
; once thread 0 sees it the total is 3 on every interleaving.

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
total:  .skip   1
lock:   .skip   1
done:   .skip   1
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #2
        ldx     #stack1+STACK_SIZE-1
        ldd     #helper
        jsr     __mc_thread_create
        ldab    #1
        jsr     add
join:
        tst     done
        beq     join                    ; while (!done) ;
        clra
        ldab    total
        cmpb    #3
        bne     check
        inca                            ; A = (total == 3)
check:
        jsr     __mc_assert
        jsr     __mc_thread_exit

; void helper(unsigned char n) -- see the header.
helper:
        jsr     add
        ldaa    #1
        staa    done
        rts                             ; returning ends thread 1

; void add(unsigned char n) -- see the header.
add:
        pshb                            ; frame: 0,x = n
        ldx     #lock
        jsr     __mc_lock
        pulb
        addb    total
        stab    total                   ; total += n
        ldx     #lock
        jsr     __mc_unlock
        rts

        vector_table _start
