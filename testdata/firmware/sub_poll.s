; sub_poll.s -- real firmware, no harness: the main loop polls through
; subroutines, as C code calls kbhit() and getc(); kbhit reads a count
; that the SCI receive interrupt raises, getc takes the byte. A digit
; picks one of two modes through a table of routines; the range check
; lets `2' through (BHI where BHS is needed), and the JMP goes where the
; two bytes after the table point, "ok" (0x6F6B): unmapped.
;
; The wait reads no register: --sci-timing idle sees it as a wait for the
; receive interrupt the loop has armed (sim/wait.go).
;
;   hc11mc check sub_poll.elf --sci-input 1,2 --sci-timing idle   unmapped

REGS    = 0x1000
BAUD    = 0x2B
SCCR2   = 0x2D
SCSR    = 0x2E
SCDR    = 0x2F
RIE     = 0x20
TE_RE   = 0x0C

        .sect   .bss
rxcount: .skip  1               ; bytes in the mailbox: the interrupt raises it
rxbyte: .skip   1
mode:   .skip   1

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        ldaa    #0x30           ; 9600 baud with an 8 MHz crystal
        staa    BAUD,x
        ldaa    #RIE|TE_RE
        staa    SCCR2,x
        cli
main:   jsr     kbhit
        beq     main            ; nothing received
        jsr     getc
        suba    #'0
        cmpa    #2
        bhi     main            ; the bug: lets 2 through
        lsla
        tab
        ldx     #modes
        abx
        ldx     0,x
        jsr     0,x
        bra     main

; kbhit: Z clear when a byte is waiting
kbhit:  tst     rxcount
        rts

; getc: A is the byte received
getc:   sei
        ldaa    rxbyte
        clr     rxcount
        cli
        rts

mode0:  clr     mode
        rts
mode1:  ldaa    #1
        staa    mode
        rts

sci_isr:
        ldx     #REGS
        ldaa    SCSR,x
        ldaa    SCDR,x          ; SCSR then SCDR: clears RDRF
        staa    rxbyte
        inc     rxcount
        rti

        .sect   .rodata
modes:  .word   mode0, mode1
ok:     .ascii  "ok"

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0   ; 0xFFC0-0xFFD5 reserved
        .word   sci_isr                 ; 0xFFD6 SCI
        .word   0,0,0,0,0,0,0,0,0,0     ; 0xFFD8-0xFFEB
        .word   0,0,0,0,0,0,0,0,0       ; 0xFFEC-0xFFFD
        .word   _start                  ; 0xFFFE reset
