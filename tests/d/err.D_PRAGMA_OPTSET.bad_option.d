/*
 * ASSERTION: an unknown option in a pragma is an error
 * SECTION: Errors
 */
#pragma D option nosuchoption

BEGIN
{
}
