; sp_table_ok.s -- sp_table.s fixed: the handler table holds h_beep.
; Real firmware (no harness stubs, the chip's peripherals on).
;
; Expected verdict: verified with --ignore rom-write.
;
;     void (*const htab[2])(void) = { h_idle, h_beep };
;
; The rest is sp_table.s.

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
        .word   h_beep

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
