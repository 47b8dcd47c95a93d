// SQLite, for MBTiles archives (Debian: libsqlite3-dev).
#include <sqlite3.h>
