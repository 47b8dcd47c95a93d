// zlib, for gzip tiles in PMTiles and MBTiles archives (Debian: zlib1g-dev).
#include <zlib.h>
