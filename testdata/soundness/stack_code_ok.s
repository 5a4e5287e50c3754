; stack_code_ok.s -- stack_code.s fixed: the second reading builds its own
; routine.  Real firmware (no harness stubs, the chip's peripherals on).
;
; Expected verdict: verified with --expect-output 'AA' (the firmware sends
; "AB").
;
;     void main(void) {
;         sci_init();
;         putc(peek(&reading[0]));
;         putc(peek(&reading[1]));
;         for (;;)
;             ;
;     }
;
; The rest is stack_code.s.

REGS    = 0x1000                        ; register block (INIT's reset value)
BAUD    = 0x2B
SCCR2   = 0x2D
SCSR    = 0x2E
SCDR    = 0x2F
TE      = 0x08
TDRE    = 0x80

LDAA_EXT = 0xB6
RTS_OP   = 0x39

        .sect   .bss
again:  .skip   2                       ; the routine peek built last
stack:  .skip   32
stack_top = stack + 31

        .sect   .rodata
reading:
        .byte   'A', 'B'

        .sect   .text
        .globl  _start
_start: lds     #stack_top
        jsr     sci_init
        ldx     #reading
        jsr     peek
        jsr     putc                    ; the first reading
        ldx     #reading+1
        jsr     peek
        jsr     putc                    ; the second
idle:   bra     idle

; peek: A = the byte at X, read by a routine built on the stack; X kept.
peek:   ldaa    #RTS_OP
        psha
        pshx                            ; the address, high byte first
        ldaa    #LDAA_EXT
        psha
        tsx                             ; X = the routine
        stx     again
        jsr     0,x                     ; A = *address
        ins                             ; pop the routine
        pulx                            ;   (X = the address again)
        ins
        rts

; putc: send A when TDR is free.
putc:   ldx     #REGS
pc_wait:
        brclr   SCSR,x TDRE pc_wait
        staa    SCDR,x
        rts

; sci_init: 9600 baud at 8 MHz, transmitter on.
sci_init:
        ldx     #REGS
        ldaa    #0x30
        staa    BAUD,x
        ldaa    #TE
        staa    SCCR2,x
        rts

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
