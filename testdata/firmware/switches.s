; switches.s -- real firmware, no harness: a control loop that reads the
; DIP switches on PORTE and a level on the A/D converter (ADR1). When
; switch 0 is on it saves the level as its calibration -- through a
; pointer to the constant table in ROM.
;
;   hc11mc check switches.elf                  verified: PORTE and ADR1 are
;                                              held at 0, which the output says
;   hc11mc check switches.elf --input 0x100A   finds the write into ROM

REGS    = 0x1000                ; the register block after reset
PORTE   = 0x0A
ADCTL   = 0x30
ADR1    = 0x31
OPTION  = 0x39
ADPU    = 0x80                  ; OPTION: A/D power-up

        .sect   .rodata
calib:  .byte   0x80            ; the calibration, a constant in ROM

        .sect   .bss
level:  .skip   1               ; the last level read

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        bset    OPTION,x,#ADPU  ; power up the A/D converter
loop:   clr     ADCTL,x         ; start a conversion of channel 0
        ldab    ADR1,x
        stab    level
        ldaa    PORTE,x
        anda    #0x01           ; switch 0: save the calibration
        beq     loop
        ldy     #calib          ; BUG: calib is in ROM, not in EEPROM
        stab    0,y
        bra     loop

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
