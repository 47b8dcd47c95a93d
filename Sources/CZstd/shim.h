// zstd, a Parquet page codec for GeoParquet input (Debian: libzstd-dev); only GeoParquet/Codecs/ParquetCodec.swift imports it.
#include <zstd.h>
