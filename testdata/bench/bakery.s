; bakery.s -- Lamport's bakery algorithm for two threads.
;
; Expected verdict: verified (run with --preempt every; exhaustive).  Each
; thread enters the critical section ROUNDS = 2 times and ends, so tickets
; stay below 5 and the state space is finite (about 175 thousand states).
;
;     unsigned char choosing[2], number[2], owner;
;
;     void bakery_lock(unsigned char i) {
;         unsigned char j = i ^ 1;
;         choosing[i] = 1;
;         number[i] = maxticket() + 1;      /* take a ticket */
;         choosing[i] = 0;
;         while (choosing[j])               /* j is still taking one */
;             ;
;         while (number[j] != 0 &&          /* j holds a smaller ticket */
;                (number[j] < number[i] ||
;                 (number[j] == number[i] && j < i)))
;             ;
;     }
;
; Why it holds: the classic argument -- once thread i has seen choosing[j]
; == 0, any ticket j takes later is larger than number[i], so of two
; threads inside the critical section one would have to have waited for
; the other's smaller (ticket, id) pair.  The `choosing' handshake is what
; makes a ticket being computed visible; bakery_broken.s removes it.

        .include "harness.inc"

        STACK_SIZE = 32
        ROUNDS = 2

        .sect   .bss
choosing: .skip 2
number:   .skip 2
owner:    .skip 1                       ; id + 1 of the thread in the section
stack0:   .skip STACK_SIZE
stack1:   .skip STACK_SIZE

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
;         bakery_lock(i);
;         critical(i);
;         bakery_unlock(i);
;     }
; }
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
        jsr     bakery_lock
        tsx
        ldab    1,x
        jsr     critical
        tsx
        ldab    1,x
        jsr     bakery_unlock
        tsx
        inc     0,x                     ; n++
        bra     w_loop
w_done:
        pulx
        rts

; unsigned char maxticket(void) {
;     unsigned char k, m = 0;
;     for (k = 0; k < 2; k++)
;         if (number[k] > m)
;             m = number[k];
;     return m;
; }
maxticket:
        clra
        clrb
        pshb                            ; m = 0
        psha                            ; k = 0     frame: 0,x = k, 1,x = m
mt_loop:
        tsx
        ldab    0,x
        cmpb    #2
        bhs     mt_done
        ldx     #number
        abx
        ldaa    0,x                     ; A = number[k]
        tsx
        cmpa    1,x
        bls     mt_next
        staa    1,x                     ; m = number[k]
mt_next:
        inc     0,x                     ; k++
        bra     mt_loop
mt_done:
        ldab    1,x                     ; return m
        pulx                            ; drop the frame (B is kept)
        rts

; void bakery_lock(unsigned char i) -- see the header.
bakery_lock:
        pshb                            ; i
        tba
        eora    #1
        psha                            ; j         frame: 0,x = j, 1,x = i
        ldx     #choosing
        abx
        ldaa    #1
        staa    0,x                     ; choosing[i] = 1
        jsr     maxticket
        tba
        inca                            ; A = maxticket() + 1
        tsx
        ldab    1,x
        ldx     #number
        abx
        staa    0,x                     ; number[i] = A
        tsx
        ldab    1,x
        ldx     #choosing
        abx
        clr     0,x                     ; choosing[i] = 0
bl_choosing:
        tsx
        ldab    0,x
        ldx     #choosing
        abx
        tst     0,x
        bne     bl_choosing             ; while (choosing[j]) ;
bl_wait:
        tsx
        ldab    0,x
        ldx     #number
        abx
        ldaa    0,x                     ; A = number[j]
        beq     bl_done                 ; j is not waiting: go
        tsx
        ldab    1,x
        ldx     #number
        abx
        cmpa    0,x
        blo     bl_wait                 ; number[j] < number[i]: wait
        bne     bl_done                 ; number[j] > number[i]: go
        tsx                             ; same ticket: smaller id first
        ldaa    0,x
        cmpa    1,x
        blo     bl_wait                 ; j < i: wait
bl_done:
        pulx                            ; drop the frame
        rts

; void bakery_unlock(unsigned char i) {
;     number[i] = 0;
; }
bakery_unlock:
        ldx     #number
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
