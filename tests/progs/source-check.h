/* source-check.h - a header with an inline function that the plugin
 * instruments as its own (tests/source-check.sh checks the size and
 * SHA-256 recorded for this file). */
static inline unsigned
header_mix (unsigned x)
{
  for (int i = 0; i < 3; i++) /* HEADER */
    x = x * 2654435761u + (unsigned) i;
  return x;
}
