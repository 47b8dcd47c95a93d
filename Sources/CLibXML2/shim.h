// The parts of libxml2 OverlayKit uses: the SAX2 push parser, its error reports and the XML
// Schema validator.
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, whose headers clash with the ICU copy inside Swift's
// Foundation when both are in one module. OverlayKit never uses libxml2's ICU encoders.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/parser.h>
// xmlSAX2GetParameterEntity: the default lookup behind the reader's parameter-entity hook.
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
