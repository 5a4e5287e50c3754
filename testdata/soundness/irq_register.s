; irq_register.s -- by this firmware's convention Y always holds &ticks, so
; that the timer handler can count with one instruction (inc 0,y); main
; borrows Y for a delay loop and enables interrupts before giving it back.
;
; Expected verdict: violation `assert' (--preempt every --irq toc1).
;
;     volatile unsigned int  guard = 0;         /* at 0x0000: must stay 0 */
;     volatile unsigned char budget = 1;        /* ticks the handler may count */
;     volatile unsigned char ticks;
;     volatile unsigned char polls;
;     register unsigned char *y asm("y");       /* = &ticks, for the handler */
;
;     void main(void) {
;         y = &ticks;
;         TMSK1 |= OC1I;                        /* enable the TOC1 interrupt */
;         cli();
;         polls++;                              /* the handler may run here */
;         sei();                                /* Y is borrowed: no interrupts */
;         if (__mc_nondet(1))                   /* a slow device: wait a little */
;             for (y = 1; --y != 0; )           /*   on Y, which ends at 0 */
;                 ;
;         cli();                                /* BUG: before Y is given back */
;         a = 0;                                /* (the manual: the instruction
;                                                  after CLI runs before any
;                                                  interrupt) */
;         y = &ticks;
;         polls++;
;         sei();
;         __mc_assert(guard == 0 && ticks == 1 - budget);
;     }                                         /* _start: main(); exit */
;
;     void toc1_isr(void) __interrupt {         /* vector 0xFFE8 */
;         if (budget != 0) {
;             (*y)++;                           /* inc 0,y: relies on Y = &ticks */
;             budget--;
;         }
;         TFLG1 = OC1F;                         /* acknowledge */
;     }
;
; Counterexample: main waits on Y, which leaves Y = 0, and clears I; after
; the CLRA that always runs after a CLI, the interrupt is taken before
; `ldy #ticks'; the handler increments the high
; byte of guard instead of ticks, and the assertion fails.  Two things
; could hide it.  The window is one register-only instruction, so a
; scheduler that offered interrupts only before accesses to memory outside
; the running thread's stack offered none there and reported `verified'
; (it did offer them at the increments of polls, where Y = &ticks).  And
; for main's own code Y is dead at `ldy #ticks': a state reached there
; without the delay (Y = &ticks) differs from the one after it (Y = 0)
; only in Y, so leaving dead registers out of stored states merges them
; unless, as --reduce dead does, it counts every register live where an
; interrupt may be taken.  irq_register_ok.s is the fixed program.

        .include "harness.inc"

        BUDGET = 1
        REGS  = 0x1000                  ; 68HC11 I/O register block
        TMSK1 = 0x22                    ; timer interrupt mask 1
        TFLG1 = 0x23                    ; timer interrupt flags 1
        OC1I  = 0x80                    ; TOC1 interrupt enable / flag bit

        .sect   .data
        .type   guard, @object
        .size   guard, 2
guard:  .word   0                       ; first in RAM: 0x0000-0x0001
budget: .byte   BUDGET

        .sect   .bss
ticks:  .skip   1
polls:  .skip   1
stack0: .skip   48                      ; main + one interrupt frame (9 bytes)

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+48-1
        jsr     main
        jsr     __mc_thread_exit

; void main(void) -- see the header.
main:
        ldy     #ticks                  ; the handler's pointer
        ldx     #REGS
        bset    TMSK1,x, #OC1I
        cli
        inc     polls
        sei                             ; Y is borrowed: no interrupts
        ldd     #1
        jsr     __mc_nondet             ; B = 0 or 1: a slow device?
        tstb
        beq     ma_back
        ldy     #1                      ; a delay loop on Y: Y = 0 after it
ma_delay:
        dey
        bne     ma_delay
ma_back:
        cli
        clra                            ; runs first: I clears one cycle late
        ldy     #ticks                  ; the handler may run before this, on Y = 0
        inc     polls
        sei
        clra
        ldx     guard
        bne     ma_assert               ; A = 0: guard changed
        ldab    #BUDGET
        subb    budget
        cmpb    ticks
        bne     ma_assert               ; A = 0: a tick is missing
        inca
ma_assert:
        jsr     __mc_assert
        rts

; void toc1_isr(void) -- see the header.
toc1_isr:
        tst     budget
        beq     ti_ack
        inc     0,y                     ; (*y)++: ticks, if Y is &ticks
        dec     budget
ti_ack:
        ldaa    #OC1I
        staa    REGS+TFLG1              ; acknowledge the interrupt
        rti

        vector_table _start, toc1=toc1_isr
