/*
 * ASSERTION: print() shows the type and then the value: integers in hex,
 * chars quoted, char arrays as strings, one member per line indented by 4
 * inside braces; a scalar on one line.
 * SECTION: Output Formatting/print
 */
#pragma D option quiet

struct pt {
	int x;
	int y;
};

struct rec {
	int a;
	char c;
	long neg;
	struct pt p;
	char name[8];
};

struct rec r;

BEGIN
{
	r.a = 10;
	r.c = 'q';
	r.neg = -1;
	r.p.x = 3;
	r.p.y = 4;
	print(r);
	printf("\n");
	print(255);
	print("text");
	exit(0);
}
