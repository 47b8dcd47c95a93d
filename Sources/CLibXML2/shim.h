// The parts of libxml2 OverlayKit uses: the streaming text reader and its error reports.
#include <libxml/xmlreader.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
