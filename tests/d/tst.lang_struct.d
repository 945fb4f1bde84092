/*
 * ASSERTION: struct and union members, bit-fields (each in its own bytes, as
 * D lays them out), nested structs and struct assignment on D variables.
 * SECTION: Structs and Unions
 */
#pragma D option quiet

struct point {
	int x;
	int y;
};

struct rect {
	struct point tl;
	struct point br;
	unsigned int flags : 3;
	int sign : 4;
};

union word {
	uint32_t w;
	uint8_t b[4];
};

struct rect r;
struct point p;
union word u;

BEGIN
{
	r.tl.x = 1;
	r.tl.y = 2;
	r.br.x = 10;
	r.br.y = 20;
	r.flags = 13;
	r.sign = -3;
	p = r.br;
	u.w = 0x11223344;
	printf("%d %d %d %d\n", r.tl.x, r.tl.y, p.x, p.y);
	printf("%d %d %d\n", r.flags, r.sign, sizeof (struct rect));
	printf("%x %x\n", u.b[0], u.b[3]);
	exit(0);
}
