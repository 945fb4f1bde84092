/*
 * ASSERTION: sizeof and offsetof follow D's layout (members aligned as in C,
 * no trailing padding; a union is its largest member); sizeof(string) is strsize.
 * SECTION: Type and Constant Definitions/sizeof
 */
#pragma D option quiet
#pragma D option strsize=128

struct s {
	char c;
	long l;
	short h;
	int i;
};

union u {
	int i;
	char b[6];
};

BEGIN
{
	printf("%d %d %d %d %d\n", sizeof (char), sizeof (short), sizeof (int),
	    sizeof (long), sizeof (long long));
	printf("%d %d %d\n", sizeof (struct s), offsetof(struct s, l),
	    offsetof(struct s, i));
	printf("%d %d\n", sizeof (union u), sizeof (string));
	printf("%d %d %d\n", sizeof (int *), sizeof (uint16_t), sizeof (int[5]));
	exit(0);
}
