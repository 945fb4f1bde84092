/*
 * ASSERTION: pointers to D storage: address-of, dereference, pointer arithmetic scaled by the element size, arrays.
 * SECTION: Pointers and Arrays
 */
#pragma D option quiet

int arr[4];
struct pair { int a; int b; };
struct pair pr;

BEGIN
{
	arr[0] = 10;
	arr[3] = 40;
	p = &arr[0];
	printf("%d %d %d\n", *p, p[3], *(p + 3));
	q = &arr[3];
	printf("%d\n", q - p);
	pp = &pr;
	pp->a = 5;
	(*pp).b = 6;
	printf("%d %d\n", pr.a, pr.b);
	m = (uint32_t *)alloca(2 * sizeof (uint32_t));
	m[1] = 0xffffffff;
	printf("%u\n", m[1]);
	exit(0);
}
