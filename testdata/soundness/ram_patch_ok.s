; ram_patch_ok.s -- ram_patch.s fixed: the routine in RAM sends the right
; checksum.  Real firmware (no harness stubs, the chip's peripherals on).
;
; Expected verdict: verified with --expect-output '\x01\x31[^\x32]'
; (no frame with a wrong checksum is ever sent).
;
;     void announce(void) {                     /* runs from RAM at 0xD000 */
;         SCDR = SOH;
;         SCDR = ADDR;
;         SCDR = SOH + ADDR;
;     }
;
; The rest is ram_patch.s.

REGS    = 0x1000                        ; register block (INIT keeps it)
BAUD    = 0x2B
SCCR2   = 0x2D
SCDR    = 0x2F
INIT    = 0x3D
TE      = 0x08

RAMBASE = 0xD000                        ; RAM after INIT = 0xD1
RAMTOP  = 0xD1FF

SOH     = 0x01
ADDR    = 0x31

        .sect   .text
patch:  .fill   512, 1, 0x01            ; the patch area: NOPs

        .globl  _start
_start: ldaa    #0xD1                   ; RAM to 0xD000, registers stay
        staa    REGS+INIT               ;   (only in the first 64 cycles)
        lds     #RAMTOP
        jsr     sci_init
        ldx     #announce_rom           ; copy the routine to RAM
        ldy     #RAMBASE
copy:   ldaa    0,x
        staa    0,y
        inx
        iny
        cpx     #announce_end
        bne     copy
        jsr     RAMBASE                 ; run it there
idle:   bra     idle

; sci_init: 9600 baud at 8 MHz, transmitter on.
sci_init:
        ldx     #REGS
        ldaa    #0x30
        staa    BAUD,x
        ldaa    #TE
        staa    SCCR2,x
        rts

; announce: the routine copied to RAM (position independent).
announce_rom:
        ldaa    #SOH
        staa    REGS+SCDR
        ldaa    #ADDR
        staa    REGS+SCDR
        adda    #SOH
        staa    REGS+SCDR               ; the checksum
        rts
announce_end:

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
