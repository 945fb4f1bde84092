# ASSERTION: compile errors of D programs carry the Linux DTrace's tag, line
# and words (stderr exactly, -x errtags), and print nothing on stdout.  One
# row per diagnosis: a script file written here, then its message.
. "$TESTROOT/e2e/lib.sh"
n=0; bad=0
# row 'expected stderr after "failed to compile script t.d: "' < program
row() {
	n=$((n + 1))
	cat > t.d
	timeout 30 "$PMCTRACE" -x errtags -s t.d >out 2>err; rc=$?
	want="pmctrace: failed to compile script t.d: $1"
	if [ "$rc" != 1 ] || [ "$(cat err)" != "$want" ] || [ -s out ]; then
		bad=$((bad + 1))
		printf 'FAIL row %d (exit %s)\n--- want\n%s\n--- got\n%s\n' "$n" "$rc" "$want" "$(cat err)"
	fi
}
row '[D_DECL_INCOMPLETE] line 2: incomplete struct/union/enum struct later: l' <<'D'
struct now {
	struct later l;
};
D
row '[D_DECL_BFSIZE] line 2: bit-field too big for type: b' <<'D'
struct s {
	short b : 17;
};
D
row '[D_DECL_ARRNULL] line 1: array declaration requires array dimension or tuple signature: a' <<'D'
int a[];
D
row '[D_INT_OFLOW] line 2: constant 0x123456781234567812 results in integer overflow' <<'D'
BEGIN {
	x = 0x123456781234567812;
}
D
row '[D_ARR_BADREF] line 3: cannot access scalar v as an associative array' <<'D'
int v[4];
BEGIN {
	v[1, 2] = 0;
}
D
row '[D_OP_SOU] line 3: operator -> cannot be applied to pointer to type "int"; must be applied to a struct or union pointer' <<'D'
BEGIN {
	p = (int *)0;
	trace(p->x);
}
D
row '[D_EMPTY] line 3: empty D program translation unit' <<'D'
/* nothing
 * here */
D
row '[D_PRINTA_AGGKEY] line 4: printa( ): @a and @b do not have matching key signatures: @a has 1 key, @b has 0 keys' <<'D'
BEGIN {
	@a[1] = count();
	@b = count();
	printa(@a, @b);
}
D
row '[D_LLQUANT_STEPVAL] line 2: llquantize() argument #4 (steps) must be a multiple of argument #1 (factor) when steps>factor' <<'D'
BEGIN {
	@ = llquantize(1, 10, 0, 2, 15);
}
D
row '[D_LQUANT_MATCHBASE] line 3: lquantize( ) base (argument #1) doesn'"'"'t match previous declaration: expected 0, found 5' <<'D'
BEGIN {
	@ = lquantize(1, 0, 100, 10);
	@ = lquantize(1, 5, 100, 10);
}
D
row '[D_PROTO_ARG] line 3: a[ ] key #2 is incompatible with prototype:
	prototype: string
	      key: int' <<'D'
BEGIN {
	a[1, "x"] = 1;
	a[2, 3] = 2;
}
D
row '[D_PROTO_ARG] line 2: strtok( ) argument #1 is incompatible with prototype:
	prototype: char *
	 argument: int' <<'D'
BEGIN {
	trace(strtok(1, ","));
}
D
row '[D_PRINTF_ARG_FMT] line 2: printf( ) argument #1 is incompatible with prototype:
	prototype: string constant
	 argument: string' <<'D'
BEGIN {
	printf(probename);
}
D
echo "$n diagnoses, $bad failed"
[ $bad = 0 ]
