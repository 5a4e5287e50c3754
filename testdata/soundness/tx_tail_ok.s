; tx_tail_ok.s -- tx_tail.s fixed: each byte of the frame waits for TDRE.
; Real firmware (no harness stubs, the chip's peripherals on).
;
; Expected verdict: verified with --expect-output '\x01[^\x31]'
; (SOH is always followed by the address: no byte of the frame is lost).
;
;     #define SOH  0x01
;     const unsigned char addr = 0x31;          /* ROM: the board's address */
;
;     void putc(char c) {
;         while (!(SCSR & TDRE))
;             ;
;         SCDR = c;
;     }
;
;     void main(void) {
;         sci_init();                           /* 9600 baud, TE */
;         delay();                              /* the line driver settles */
;         putc(SOH);
;         putc(addr);
;         putc(SOH + addr);
;     }                                         /* returns: the firmware ends */

REGS    = 0x1000                        ; register block (INIT's reset value)
BAUD    = 0x2B
SCCR2   = 0x2D
SCSR    = 0x2E
SCDR    = 0x2F
TE      = 0x08
TDRE    = 0x80

SOH     = 0x01

        .sect   .bss
stack:  .skip   24
stack_top = stack + 23

        .sect   .rodata
addr:   .byte   0x31                    ; the board's address

        .sect   .text
        .globl  _start
_start: lds     #stack_top
        jsr     sci_init
        jsr     delay
        ldab    #SOH
        jsr     putc
        ldab    addr
        jsr     putc
        addb    #SOH
        jsr     putc
        rts                             ; main returns: the firmware ends

; putc: send B when TDR is free.  X is kept.
putc:   ldx     #REGS
pc_wait:
        brclr   SCSR,x TDRE pc_wait
        stab    SCDR,x
        rts

; sci_init: 9600 baud at 8 MHz, transmitter on.
sci_init:
        ldx     #REGS
        ldaa    #0x30
        staa    BAUD,x
        ldaa    #TE
        staa    SCCR2,x
        rts

; delay: about 60 E cycles, for the line driver.
delay:  ldab    #10
dl_loop:
        decb
        bne     dl_loop
        rts

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
