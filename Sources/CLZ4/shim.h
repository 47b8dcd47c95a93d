// lz4, a Parquet page codec for GeoParquet input (Debian: liblz4-dev); only GeoParquet/Codecs/ParquetCodec.swift imports it.
#include <lz4.h>
