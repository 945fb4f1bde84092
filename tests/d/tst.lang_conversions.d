/*
 * ASSERTION: htons/htonl/ntohs/ntohl swap bytes on little-endian machines; inet_ntoa formats an IPv4 address.
 * SECTION: Subroutines/Byte order and addresses
 */
#pragma D option quiet

BEGIN
{
	printf("%x %x %x %x\n", htons(0x1234), ntohs(0x3412), htonl(0x11223344), ntohl(0x44332211));
	a = (ipaddr_t *)alloca(sizeof (ipaddr_t));
	*a = htonl(0xc0a80101);
	printf("%s\n", inet_ntoa(a));
	exit(0);
}
