/*
 * ASSERTION: integer constants take DTrace's types (hex and octal may be
 *   unsigned int; decimal goes from int to long); a variable assigned a cast
 *   keeps the cast's type; printf reads a value back at its type's size
 *   (%d of an unsigned type prints unsigned, %i signed, %u/%x/%o unsigned);
 *   trace() prints a value signed or unsigned as its type is (the Linux DTrace).
 * SECTION: Types, Operators and Expressions/Integer Constants;
 *   Output Formatting/printf, trace
 */
#pragma D option quiet

BEGIN
{
	c = (char)-1;
	s = (short)-2;
	uc = (unsigned char)255;
	printf("%d %d %d %d\n", sizeof (c), sizeof (s), sizeof (0xffffffff), sizeof (2147483648));
	printf("%d %u %x %o\n", c, c, c, c);
	printf("%d %u %x %X\n", s, s, s, s);
	printf("%d %i %u\n", uc, uc, uc);
	printf("%d %i %x\n", 0xffffffff, 0xffffffff, 0xffffffff);
	printf("%d %d\n", 0x80000000, 2147483648);
	printf("%d %d\n", 0xffffffff + 1, 0xffffffffLL + 1);
	printf("%d %u\n", -5, -5);
	printf("%d %x\n", (char)300, (uint8_t)-1);
	printf("%d %d\n", 1 << 31, 1LL << 31);
	printf("%c%c%c\n", 65, 'b', 256 + 'C');
	trace(c); trace(" "); trace(s); trace(" "); trace(uc); trace(" ");
	trace(0xffffffff); trace(" "); trace(-1); trace(" "); trace((uint64_t)-1);
	trace("\n");
	exit(0);
}
