; ram_patch.s -- real firmware (no harness stubs, the chip's peripherals
; on).  The first 512 bytes of ROM are a patch area, NOPs as shipped.  At
; reset the boot code writes INIT to move the on-chip RAM to 0xD000, over
; the patch area, copies its announce routine there (a field update may
; replace it), and runs it from RAM: the routine sends a three-byte frame
; -- SOH, the board's address, a checksum -- and returns; the firmware then
; idles.
;
; Expected verdict: violation `output' with
;     --expect-output '\x01\x31[^\x32]'   (a frame with a wrong checksum)
;
;     #define SOH  0x01
;     #define ADDR 0x31
;
;     void announce(void) {                     /* runs from RAM at 0xD000 */
;         SCDR = SOH;
;         SCDR = ADDR;
;         SCDR = ADDR;                          /* BUG: SOH + ADDR */
;     }
;
;     void reset(void) {
;         INIT = 0xD1;                          /* RAM at 0xD000 */
;         SP = 0xD1FF;
;         sci_init();
;         memcpy((void *)0xD000, announce_rom, sizeof announce_rom);
;         ((void (*)(void))0xD000)();
;         for (;;)
;             ;
;     }
;
; Counterexample: SOH goes out at once; the address waits in TDR and goes
; out when the transmitter is done with SOH, before the checksum is
; written; the checksum, 0x31, follows.  That needs the transmitter to
; finish between two instructions of the routine in RAM.  The reset image
; has NOPs at those addresses: a reduction that judges an instruction by
; the reset image's bytes, not by what the CPU fetches, takes each store
; of the routine for a NOP, touching no register of the chip, and runs the
; routine alone: the checksum then always replaces the address in TDR,
; and the bad frame is never seen whole.  ram_patch_ok.s is the fixed
; program.

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
        staa    REGS+SCDR               ; BUG: the checksum is SOH + ADDR
        rts
announce_end:

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
