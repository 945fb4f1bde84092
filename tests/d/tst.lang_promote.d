/*
 * ASSERTION: casts truncate and sign- or zero-extend; small types promote to int.
 * SECTION: Types, Operators, and Expressions/Type Conversions
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", (char)300, (unsigned char)300, (char)-1);
	printf("%d %d\n", (short)70000, (unsigned short)-1);
	printf("%d %u\n", (int)4294967297, (unsigned int)-1);
	c = (char)100;
	printf("%d\n", c + c);
	printf("%d %d\n", (int8_t)128, (uint8_t)-128);
	printf("%d %d\n", sizeof (c + c), sizeof ((long)c));
	exit(0);
}
