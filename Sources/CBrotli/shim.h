// brotlidec, a Parquet page codec for GeoParquet input (Debian: libbrotli-dev); only GeoParquet/Codecs/ParquetCodec.swift imports it.
#include <brotli/decode.h>
