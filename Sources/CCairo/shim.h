// cairo, the 2D library behind `overlaykit render`'s PNG output (Debian: libcairo2-dev).
#include <cairo.h>
