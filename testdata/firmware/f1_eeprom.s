; f1_eeprom.s -- real firmware for the MC68HC11F1, no harness: it keeps
; its settings in the F1's EEPROM, which its CONFIG (0x0F: EE3-EE0 = 0)
; places at 0x0E00-0x0FFF, and reads them at reset. Everything it does
; is legal on that chip: with the map CONFIG sets up, the check finds no
; violation; with the EEPROM where the F1 is shipped (0xFE00), the reads
; of 0x0E00 go to nothing.
;
;   hc11mc check f1_eeprom.elf --chip f1 --config 0x0F   verified
;   hc11mc check f1_eeprom.elf --chip f1                 unmapped read

REGS    = 0x1000                ; the register block after reset
PORTB   = 0x04
EESETUP = 0x0E00                ; the settings in the EEPROM (CONFIG 0x0F)
EEMODE  = 0x0E01

        .sect   .bss
mode:   .skip   1

        .sect   .text
        .globl  _start
_start: lds     #0x03FF         ; the F1's 1 KiB of RAM
        ldx     #REGS
        ldab    EEMODE
        andb    #0x03
        stab    mode
loop:   ldaa    EESETUP         ; the output pattern kept in the EEPROM
        staa    PORTB,x
        bra     loop

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start
