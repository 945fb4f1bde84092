/*
 * ASSERTION: D lays out structs as its type library does: members aligned,
 * each bit-field in its own whole bytes (as few as its width needs), and no
 * padding after the last member.
 * SECTION: Structs and Unions/Bit-Fields
 */
#pragma D option quiet

struct nib { int lo : 4; int hi : 4; };
struct wide { short a : 9; char b; };
struct mix { char c; int f : 12; };
struct tail { long l; int i; };

struct nib n;

BEGIN
{
	printf("%d %d %d %d\n", sizeof (struct nib), sizeof (struct wide),
	    sizeof (struct mix), sizeof (struct tail));
	printf("%d %d\n", offsetof(struct mix, c), offsetof(struct tail, i));
	n.lo = 7;
	n.hi = -8;
	printf("%d %d\n", n.lo, n.hi);
	exit(0);
}
