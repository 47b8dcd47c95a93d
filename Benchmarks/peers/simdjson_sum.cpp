// Peer for Benchmarks/bench_speed.py: the fastest plain reading of a GeoJSON file we know of.
// simdjson (Debian libsimdjson-dev) parses the whole file into its DOM, then every number inside
// every geometry's "coordinates" (through Feature, FeatureCollection and GeometryCollection) is
// added up, so the parse cannot be skipped and each coordinate is converted to a double once.
// Prints "<sum> <count>" where count is the number of coordinate numbers.
//
// Build: g++ -O3 -march=native -std=c++17 simdjson_sum.cpp -lsimdjson -o simdjson_sum
// Usage: simdjson_sum FILE.geojson
#include <simdjson.h>

#include <cstdio>

namespace {

struct Totals {
    double sum = 0;
    unsigned long long count = 0;
};

// Adds every number in a (nested) coordinates array; depth-bounded like any GeoJSON reader.
void addCoordinates(simdjson::dom::element value, Totals &totals, int depth) {
    if (depth > 8) return;
    simdjson::dom::array items;
    if (value.get_array().get(items) == simdjson::SUCCESS) {
        for (simdjson::dom::element item : items) addCoordinates(item, totals, depth + 1);
    } else if (value.is_number()) {
        double number = 0;
        if (value.get_double().get(number) == simdjson::SUCCESS) totals.sum += number;
        totals.count += 1;
    }
}

void addGeometry(simdjson::dom::element geometry, Totals &totals, int depth);

void addObject(simdjson::dom::object object, Totals &totals, int depth) {
    if (depth > 64) return;
    for (auto field : object) {
        std::string_view key = field.key;
        if (key == "coordinates") {
            addCoordinates(field.value, totals, 0);
        } else if (key == "geometry") {
            addGeometry(field.value, totals, depth + 1);
        } else if (key == "features" || key == "geometries") {
            simdjson::dom::array members;
            if (field.value.get_array().get(members) != simdjson::SUCCESS) continue;
            for (simdjson::dom::element member : members) addGeometry(member, totals, depth + 1);
        }
    }
}

void addGeometry(simdjson::dom::element geometry, Totals &totals, int depth) {
    simdjson::dom::object object;
    if (geometry.get_object().get(object) == simdjson::SUCCESS) addObject(object, totals, depth);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: simdjson_sum FILE.geojson\n");
        return 64;
    }
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (auto error = parser.load(argv[1]).get(root)) {
        std::fprintf(stderr, "simdjson_sum: %s: %s\n", argv[1], simdjson::error_message(error));
        return 65;
    }
    Totals totals;
    addGeometry(root, totals, 0);
    std::printf("%.17g %llu\n", totals.sum, totals.count);
    return 0;
}
