; sp_table.s -- real firmware (no harness stubs, the chip's peripherals
; on).  At reset it copies its table of command handlers from ROM to RAM
; the fast way: with interrupts still masked it points SP just below the
; table and pulls it, two bytes per PULX.  Then it runs handler 1.  The
; table still holds handler 1's address from an older ROM layout, where
; nothing is programmed now: the CPU fetches 0x00 (TEST), an illegal
; opcode outside the test modes.
;
; Expected verdict: violation `illegal-opcode' with --ignore rom-write.
;
;     void (*const htab[2])(void) = { h_idle, (void (*)(void))0xE010 };
;                                               /* BUG: h_beep */
;     void (*handler[2])(void);                 /* RAM */
;
;     void main(void) {
;         memcpy(handler, htab, sizeof htab);   /* lds #htab-1; pulx; pulx */
;         handler[1]();
;         for (;;)
;             ;
;     }
;
; Counterexample: the copy, then the call of 0xE010, where the CPU fetches
; 0x00.  A PULX with SP in ROM reads the table and nothing else.
; Dead-data elimination for firmware (--reduce dead with the peripherals
; on) clears every byte a pull leaves below SP, by an ordinary write: here
; a write to ROM, so --reduce dead finds a rom-write that the firmware does
; not do (without --ignore it then replays the violation without the
; clearing, drops it and reports incomplete).  With --ignore rom-write
; that write ends the path instead, the handler is never called, and the
; search reports verified.  sp_table_ok.s is the fixed program.

        .sect   .bss
handler:
        .skip   4                       ; the handlers, copied to RAM
stack:  .skip   16
stack_top = stack + 15

        .sect   .text
        .globl  _start
_start: lds     #stack_top
        ldy     #handler
        lds     #htab-1                 ; SP as the source pointer
        pulx
        stx     0,y
        pulx
        stx     2,y
        lds     #stack_top              ; SP back to the stack
        ldx     handler+2
        jsr     0,x                     ; handler 1
idle:   bra     idle

h_idle: rts

h_beep: rts

        .sect   .rodata
htab:   .word   h_idle
        .word   0xE010                  ; BUG: h_beep

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
