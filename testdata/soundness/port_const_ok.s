; port_const_ok.s -- port_const.s fixed: the table's entry for jumper
; setting 3 is s_1200.  Real firmware (no harness stubs, the chip's
; peripherals on).
;
; Expected verdict: verified, with or without --input PORTE (every
; jumper setting starts the SCI).
;
;     void (*const setup[4])(void) = { s_9600, s_4800, s_2400, s_1200 };
;
; The rest is port_const.s.

REGS    = 0x1000                        ; register block (INIT's reset value)
PORTE   = 0x0A
BAUD    = 0x2B
SCCR2   = 0x2D
TE      = 0x08

        .sect   .bss
stack:  .skip   16
stack_top = stack + 15

        .sect   .text
        .globl  _start
_start: lds     #stack_top
        ldx     #REGS
        ldab    PORTE,x                 ; the jumpers
        andb    #3
        aslb                            ; a word per entry
        ldx     #setup
        abx
        ldx     0,x
        jsr     0,x                     ; setup[jumpers]()
idle:   bra     idle

; s_NNNN: the SCI at NNNN baud (8 MHz crystal), transmitter on.
s_9600: ldaa    #0x30
        bra     s_baud
s_4800: ldaa    #0x31
        bra     s_baud
s_2400: ldaa    #0x32
        bra     s_baud
s_1200: ldaa    #0x33
s_baud: ldx     #REGS
        staa    BAUD,x
        ldaa    #TE
        staa    SCCR2,x
        rts

        .sect   .rodata
setup:  .word   s_9600, s_4800, s_2400
        .word   s_1200

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
