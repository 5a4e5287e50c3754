/*
 * philosophers.pml -- the SPIN twin of testdata/examples/philosophers.s:
 * three philosophers who take their left fork, then their right, and can
 * deadlock (each holding its left fork, waiting for its right).
 *
 * Shape of the twin: as described at the top of philo5_ordered.pml -- one
 * process per thread, one Promela step per instruction (commented with
 * its address and the instruction), the registers and condition codes as
 * locals holding the 68HC11's values, fork and last as global bytes, each
 * thread's stack as the local array stk (M(addr) is its byte at address
 * addr), __mc_lock a d_step that blocks until the byte is 0.  In
 * addition, this program calls subroutines of its own: each is an inline,
 * expanded at each of its call sites.  JSR pushes the real return address
 * and the subroutine's RTS pulls it (sp = sp + 2), so the stack holds
 * what the 68HC11's holds; the RTS returns to the statement after the
 * expansion, which is where the pulled address points.
 *
 * With every reduction off, `spin -o1 -o3 -a', `gcc -DSAFETY -DNOREDUCE'
 * and `pan -E' (all states, the deadlocks included) store exactly as many
 * states as `hc11mc check --reduce none --ignore deadlock' (make
 * compare-spin checks this).  With SPIN's defaults,
 *
 *     spin -a philosophers.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m1000000
 *
 * reports the deadlock as an invalid end state: every process blocked in
 * the __mc_lock of its right fork.
 */

#define NPHIL      3
#define FORK       0                       /* 0x0000 fork: NPHIL lock bytes */
#define STACK0     4                       /* 0x0004 stack i: STACK0 + 32 i, 32 bytes */
#define STACK_SIZE 32

#define M(addr)   stk[((addr) - STACK0) % STACK_SIZE]

/* condition codes after a load, store or test (N, Z, V) */
#define NZV8(r)   n = (r) >> 7; z = ((r) == 0); v = 0
#define NZV16(r)  n = ((r) < 0); z = ((r) == 0); v = 0

byte fork[NPHIL];                          /* 0x0000 */
byte last;                                 /* 0x0003: who ate last */

/* JSR: push the return address 0xD0lo, the address after the JSR */
#define JSR(lo) d_step { M(sp) = lo; M(sp - 1) = 208; sp = sp - 2 }

/* unsigned char *forkaddr(unsigned char f) { return &fork[f]; } -- in X */
inline forkaddr() {
        d_step { x = FORK; NZV16(x) };                          /* d066 ldx #fork */
        x = x + b;                                              /* d069 abx */
        sp = sp + 2                                             /* d06a rts */
}

/* unsigned char rightof(unsigned char id) { return id == 2 ? 0 : id + 1; } */
inline rightof() {
        d_step { b = b + 1; NZV8(b); v = (b == 128) };          /* d06b incb */
        d_step {                                                /* d06c cmpb #3 */
                n = ((b - NPHIL) & 255) >> 7; z = (b == NPHIL);
                v = ((b ^ NPHIL) & (b ^ ((b - NPHIL) & 255))) >> 7;
                c = (b < NPHIL) };
        if                                                      /* d06e bne ro_done */
        :: !z
        :: else ->
                d_step { b = 0; n = 0; z = 1; v = 0; c = 0 }    /* d070 clrb */
        fi;
        sp = sp + 2                                             /* d071 ro_done: rts */
}

/* void eat(unsigned char id) { last = id; } */
inline eat() {
        d_step { last = b; NZV8(b) };                           /* d072 stab last */
        sp = sp + 2                                             /* d075 rts */
}

/* __mc_lock and __mc_unlock (X = &fork[i]): the effect, then the RTS */
#define MC_LOCK   d_step { fork[x - FORK] == 0 -> fork[x - FORK] = _pid + 1; sp = sp + 2 }
#define MC_UNLOCK d_step { assert(fork[x - FORK] == _pid + 1); fork[x - FORK] = 0; sp = sp + 2 }

/* void philosopher(unsigned char id): left fork, right fork, eat, put
   both down, for ever */
inline philosopher_code() {
        d_step { M(sp) = b; sp = sp - 1 }                       /* d033 pshb */
ph_loop:
        x = sp + 1;                                             /* d034 tsx */
        d_step { b = M(x); NZV8(b) };                           /* d035 ldab 0,x */
        JSR(58);  forkaddr();                                   /* d037 jsr forkaddr */
        JSR(61);  MC_LOCK;                                      /* d03a jsr __mc_lock */
        x = sp + 1;                                             /* d03d tsx */
        d_step { b = M(x); NZV8(b) };                           /* d03e ldab 0,x */
        JSR(67);  rightof();                                    /* d040 jsr rightof */
        JSR(70);  forkaddr();                                   /* d043 jsr forkaddr */
        JSR(73);  MC_LOCK;                                      /* d046 jsr __mc_lock */
        x = sp + 1;                                             /* d049 tsx */
        d_step { b = M(x); NZV8(b) };                           /* d04a ldab 0,x */
        JSR(79);  eat();                                        /* d04c jsr eat */
        x = sp + 1;                                             /* d04f tsx */
        d_step { b = M(x); NZV8(b) };                           /* d050 ldab 0,x */
        JSR(85);  rightof();                                    /* d052 jsr rightof */
        JSR(88);  forkaddr();                                   /* d055 jsr forkaddr */
        JSR(91);  MC_UNLOCK;                                    /* d058 jsr __mc_unlock */
        x = sp + 1;                                             /* d05b tsx */
        d_step { b = M(x); NZV8(b) };                           /* d05c ldab 0,x */
        JSR(97);  forkaddr();                                   /* d05e jsr forkaddr */
        JSR(100); MC_UNLOCK;                                    /* d061 jsr __mc_unlock */
        skip; goto ph_loop                                      /* d064 bra ph_loop */
}

/* threads 1 and 2, created by main */
proctype philosopher(byte a, b; short sp; bit n, z, v, c) {
        short x, y;
        byte stk[STACK_SIZE];
        philosopher_code()
}

/* the harness's __mc_thread_create, after the JSR: D = the new thread's id */
#define MC_THREAD_CREATE \
        atomic { b = run philosopher(y / 256, y % 256, x, n, z, v, c); a = 0; sp = sp + 2 }

/* thread 0, from the reset vector */
active proctype main() {
        byte a, b;
        short x, y, sp;
        bit n, z, v, c;
        byte stk[STACK_SIZE];

        d_step { sp = STACK0 + STACK_SIZE - 1; NZV16(sp) }      /* d00d lds #stack0+31 */

        d_step { y = 1; NZV16(y) }                              /* d010 ldy #1 */
        d_step { x = STACK0 + 2 * STACK_SIZE - 1; NZV16(x) }    /* d014 ldx #stack1+31 */
        d_step { a = 208; b = 51; n = 1; z = 0; v = 0 }         /* d017 ldd #philosopher (0xD033) */
        JSR(29);                                                /* d01a jsr __mc_thread_create */
        MC_THREAD_CREATE;

        d_step { y = 2; NZV16(y) }                              /* d01d ldy #2 */
        d_step { x = STACK0 + 3 * STACK_SIZE - 1; NZV16(x) }    /* d021 ldx #stack2+31 */
        d_step { a = 208; b = 51; n = 1; z = 0; v = 0 }         /* d024 ldd #philosopher */
        JSR(42);                                                /* d027 jsr __mc_thread_create */
        MC_THREAD_CREATE;

        d_step { a = 0; b = 0; n = 0; z = 1; v = 0 }            /* d02a ldd #0 */
        JSR(48);                                                /* d02d jsr philosopher */
        philosopher_code()                                      /* never returns */
}
