// snappy, a Parquet page codec for GeoParquet input (Debian: libsnappy-dev); only GeoParquet/Codecs/ParquetCodec.swift imports it.
#include <snappy-c.h>
