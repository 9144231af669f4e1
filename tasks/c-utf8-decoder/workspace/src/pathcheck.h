#ifndef PATHCHECK_H
#define PATHCHECK_H

#include <stddef.h>
#include <stdint.h>

enum path_verdict { PATH_OK = 0, PATH_BAD_UTF8 = 1, PATH_TRAVERSAL = 2, PATH_ABSOLUTE = 3, PATH_CONTROL = 4 };

/* Checks an upload's relative path (raw bytes from the client) before it is joined to the
 * storage root: valid UTF-8, relative, no "." or ".." segment, no control characters. */
int path_check(const uint8_t *p, size_t len);

#endif
