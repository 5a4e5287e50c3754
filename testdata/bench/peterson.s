; peterson.s -- Peterson's mutual-exclusion algorithm for two threads.
;
; Expected verdict: verified (run with --preempt every; the search is
; exhaustive).  Each thread enters the critical section ROUNDS = 2 times and
; then ends, so the state space is finite and small (about 18 thousand
; states).
;
;     unsigned char flag[2], turn, owner;
;
;     void peterson_lock(unsigned char i) {
;         unsigned char j = i ^ 1;
;         flag[i] = 1;                      /* I want to enter...          */
;         turn = j;                         /* ...but you go first         */
;         while (flag[j] && turn == j)
;             ;
;     }
;
; Why it holds: if both threads were inside, each saw flag[other] == 0 or
; turn == self when it last tested.  Both flags are 1 while both are
; inside, so each saw turn == self; but turn holds one value, and the
; thread that wrote turn last wrote the *other* thread's number, after
; which turn did not change -- so that thread cannot have seen turn ==
; self.  The model checker confirms it over all interleavings (memory is
; sequentially consistent: every store is seen at once by the other
; thread).  Inside the critical section each thread also writes its number
; to `owner' and asserts that it is still there, so the assertion
; property is exercised too (it can only fail if mutual exclusion fails).

        .include "harness.inc"

        STACK_SIZE = 32
        ROUNDS = 2

        .sect   .bss
flag:   .skip   2
turn:   .skip   1
owner:  .skip   1                       ; id + 1 of the thread in the section
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .text

; void main(void) {
;     new_thread(worker, stack1, 1);
;     worker(0);
;     __mc_thread_exit();
; }
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #1
        ldx     #stack1+STACK_SIZE-1
        ldd     #worker
        jsr     __mc_thread_create
        ldd     #0
        jsr     worker
        jsr     __mc_thread_exit

; void worker(unsigned char i) {            /* also thread 1's entry */
;     unsigned char n;
;     for (n = 0; n < ROUNDS; n++) {
;         peterson_lock(i);
;         critical(i);
;         peterson_unlock(i);
;     }
; }                                         /* returning ends thread 1 */
worker:
        pshb                            ; i
        clra
        psha                            ; n = 0     frame: 0,x = n, 1,x = i
w_loop:
        tsx
        ldab    0,x
        cmpb    #ROUNDS
        bhs     w_done
        ldab    1,x
        jsr     peterson_lock
        tsx
        ldab    1,x
        jsr     critical
        tsx
        ldab    1,x
        jsr     peterson_unlock
        tsx
        inc     0,x                     ; n++
        bra     w_loop
w_done:
        pulx                            ; drop the frame
        rts

; void peterson_lock(unsigned char i) -- see the header.
peterson_lock:
        pshb                            ; i
        tba
        eora    #1
        psha                            ; j         frame: 0,x = j, 1,x = i
        ldx     #flag
        abx
        ldaa    #1
        staa    0,x                     ; flag[i] = 1
        tsx
        ldaa    0,x
        staa    turn                    ; turn = j
pl_wait:
        tsx
        ldab    0,x                     ; B = j
        ldx     #flag
        abx
        tst     0,x
        beq     pl_done                 ; flag[j] == 0: go
        cmpb    turn
        beq     pl_wait                 ; turn == j: wait
pl_done:
        pulx                            ; drop the frame
        rts

; void peterson_unlock(unsigned char i) {
;     flag[i] = 0;
; }
peterson_unlock:
        ldx     #flag
        abx
        clr     0,x
        rts

; void critical(unsigned char i) {
;     __mc_cs_enter();
;     owner = i + 1;
;     __mc_assert(owner == i + 1);          /* nobody else came in */
;     owner = 0;
;     __mc_cs_exit();
; }
critical:
        incb
        pshb                            ; frame: 0,x = i + 1
        jsr     __mc_cs_enter
        tsx
        ldab    0,x
        stab    owner
        clra
        cmpb    owner
        bne     cr_check
        inca                            ; A = (owner == i + 1)
cr_check:
        jsr     __mc_assert
        clr     owner
        jsr     __mc_cs_exit
        ins
        rts

        vector_table _start
