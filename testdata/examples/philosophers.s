; philosophers.s -- three dining philosophers, the bundled example.
;
; Each philosopher is a thread running the C routine
;
;     void philosopher(unsigned char i) {
;         for (;;) {
;             lock(&fork[i]);             /* left fork  */
;             lock(&fork[(i + 1) % 3]);   /* right fork */
;             cs_enter(); eat(); cs_exit();
;             unlock(&fork[(i + 1) % 3]);
;             unlock(&fork[i]);
;         }
;     }
;
; with forks as blocking locks (__mc_lock).  When every philosopher has
; taken its left fork, each waits for a right fork its neighbour holds: the
; classic deadlock.  `hc11mc check philosophers.elf' finds it and prints
; the schedule that leads there.  Expected verdict: violation `deadlock'.

        .include "harness.inc"

NPHIL   = 3

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+31          ; thread 0: philosopher 0
        ldd     #philosopher        ; thread 1: philosopher 1
        ldx     #stack1+31
        ldy     #1
        jsr     __mc_thread_create
        ldd     #philosopher        ; thread 2: philosopher 2
        ldx     #stack2+31
        ldy     #2
        jsr     __mc_thread_create
        ldd     #0
        jsr     philosopher         ; never returns

; forkaddr: B = fork number -> X = &fork[B]
        .globl  forkaddr
forkaddr:
        ldx     #fork
        abx
        rts

; philosopher: B = i
        .globl  philosopher
philosopher:
        pshb                        ; local: i at 0,X after TSX
loop:
        tsx
        ldab    0,x
        bsr     forkaddr
        jsr     __mc_lock           ; left fork
        tsx
        ldab    0,x
        incb
        cmpb    #NPHIL
        bne     1f
        clrb
1:      bsr     forkaddr
        jsr     __mc_lock           ; right fork
        jsr     __mc_cs_enter
        jsr     eat
        jsr     __mc_cs_exit
        tsx
        ldab    0,x
        incb
        cmpb    #NPHIL
        bne     2f
        clrb
2:      bsr     forkaddr
        jsr     __mc_unlock         ; right fork
        tsx
        ldab    0,x
        bsr     forkaddr
        jsr     __mc_unlock         ; left fork
        bra     loop

; eat: count the meals
        .globl  eat
eat:
        ldx     #meals
        inc     0,x
        rts

        .sect   .bss
fork:   .skip   NPHIL
meals:  .skip   1
stack0: .skip   32
stack1: .skip   32
stack2: .skip   32

        .sect   .vectors
        .globl  vectors
vectors:
        .skip   62
        .word   _start              ; reset
