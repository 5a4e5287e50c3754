; tick_wait.s -- real firmware, no harness: the main loop waits for a
; flag that the TOC1 handler sets every tick, and once a tick takes the
; byte the SCI receive interrupt left in a mailbox: a digit picks one of
; two modes through a table of routines. The range check lets `2' through
; (BHI where BHS is needed), and the JMP goes where the two bytes after
; the table point, "ok" (0x6F6B): unmapped.
;
; The wait reads no register: --sci-timing idle sees it as a wait for the
; interrupts the loop has armed (sim/wait.go).
;
;   hc11mc check tick_wait.elf --sci-input 1,2 --sci-timing idle --max-timer-events 2   unmapped

REGS    = 0x1000
TCNT    = 0x0E
TOC1    = 0x16
TMSK1   = 0x22
TFLG1   = 0x23
BAUD    = 0x2B
SCCR2   = 0x2D
SCSR    = 0x2E
SCDR    = 0x2F
OC1F    = 0x80
RIE     = 0x20
TE_RE   = 0x0C
TICK    = 20000

        .sect   .bss
tick:   .skip   1               ; the TOC1 handler sets it
rxbyte: .skip   1               ; the last byte received
rxfull: .skip   1               ; rxbyte holds a byte not taken yet
mode:   .skip   1

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        ldaa    #0x30           ; 9600 baud with an 8 MHz crystal
        staa    BAUD,x
        ldaa    #RIE|TE_RE
        staa    SCCR2,x
        ldd     TCNT,x
        addd    #TICK
        std     TOC1,x
        ldaa    #OC1F
        staa    TFLG1,x
        staa    TMSK1,x         ; OC1I
        cli
main:   tst     tick
        beq     main            ; until the next tick
        clr     tick
        tst     rxfull
        beq     main
        clr     rxfull
        ldaa    rxbyte
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

mode0:  clr     mode
        rts
mode1:  ldaa    #1
        staa    mode
        rts

toc1_isr:
        ldx     #REGS
        ldd     TOC1,x
        addd    #TICK
        std     TOC1,x
        ldaa    #OC1F
        staa    TFLG1,x
        ldaa    #1
        staa    tick
        rti

sci_isr:
        ldx     #REGS
        ldaa    SCSR,x
        ldaa    SCDR,x          ; SCSR then SCDR: clears RDRF
        staa    rxbyte
        ldaa    #1
        staa    rxfull
        rti

        .sect   .rodata
modes:  .word   mode0, mode1
ok:     .ascii  "ok"

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0   ; 0xFFC0-0xFFD5 reserved
        .word   sci_isr                 ; 0xFFD6 SCI
        .word   0,0,0,0,0,0,0,0         ; 0xFFD8-0xFFE7 SPI to TOC2
        .word   toc1_isr                ; 0xFFE8 TOC1
        .word   0,0,0,0,0,0,0,0,0,0     ; 0xFFEA-0xFFFD
        .word   _start                  ; 0xFFFE reset
