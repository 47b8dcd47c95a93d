// glibc's allocator controls (malloc_trim), for handing freed memory back to the system
// during long tile runs. Part of the C library: nothing to link or install.
#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#endif
