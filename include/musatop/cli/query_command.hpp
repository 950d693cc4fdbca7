// `--query-gpu=FIELDS` / `--query-compute-apps=FIELDS` `--format=csv[,noheader]
// [,nounits]` [`-l SECONDS`]: nvidia-smi's query mode on this host (output/query_csv.hpp).
#pragma once

#include <optional>
#include <string>

#include "musatop/cli/options.hpp"
#include "musatop/model/source.hpp"

namespace CLI {
class App;
}

namespace musatop::cli {

struct QueryFlags {
    std::optional<std::string> gpu, apps, format, loop;
};

void declare_query_flags(CLI::App& app, QueryFlags& flags);

// The flags as Options::query; the usage error when they do not fit together.
std::optional<std::string> settle_query(const QueryFlags& flags, Options& options);

// Exit code: 0, or 1 when the GPU source failed (its message on stderr).
int run_query(const Options& options, Source& source);

}  // namespace musatop::cli
