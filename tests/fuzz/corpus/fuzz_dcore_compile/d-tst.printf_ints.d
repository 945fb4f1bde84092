/*
 * ASSERTION: the integer conversions print by the argument's type: %d of
 * an unsigned type is unsigned, %i is signed, %u %o %x %X %p unsigned of
 * the type's size, the h/l/ll sizes accept their types.
 * SECTION: Output Formatting/printf
 */
#pragma D option quiet

BEGIN
{
	i = (int)'a';
	n = -1;
	printf("%%c = %c\n", i);
	printf("%%d = %d\n", i);
	printf("%%hd = %hd\n", (short)i);
	printf("%%hu = %hu\n", (ushort_t)n);
	printf("%%hx = %hx\n", (ushort_t)i);
	printf("%%i = %i\n", n);
	printf("%%ld = %ld\n", (long)n);
	printf("%%lu = %lu\n", (ulong_t)n);
	printf("%%lx = %lx\n", (ulong_t)i);
	printf("%%lld = %lld\n", (long long)n);
	printf("%%llX = %llX\n", (unsigned long long)n);
	printf("%%o = %o\n", (uint_t)i);
	printf("%%p = %p\n", (void *)i);
	printf("%%u = %u\n", n);
	printf("%%d of uint = %d\n", (uint_t)n);
	printf("%%x = %x\n", n);
	printf("%%X = %X\n", (uint_t)i);
	exit(0);
}
