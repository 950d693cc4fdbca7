// How long the snapshot reader takes per document: bench/net builds this file
// against the tree under test and against a baseline tree, so both are timed on
// the same document in one run. Usage: snapshot-read FILE [READS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "musatop/output/json_input.hpp"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: snapshot-read FILE [READS]\n");
        return 2;
    }
    std::ifstream file(argv[1]);
    std::stringstream text;
    text << file.rdbuf();
    const std::string document = text.str();
    const int reads = argc > 2 ? std::atoi(argv[2]) : 100000;
    musatop::JsonSnapshotReader reader;
    std::size_t devices = 0;
    const auto started = std::chrono::steady_clock::now();
    for (int i = 0; i < reads; ++i) {
        const auto parsed = reader.read(document);
        if (!parsed.ok()) {
            std::fprintf(stderr, "snapshot-read: %s\n", parsed.error().c_str());
            return 1;
        }
        devices += parsed->devices.size();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("%.2f\n", seconds * 1e6 / reads);
    return devices > 0 ? 0 : 1;
}
