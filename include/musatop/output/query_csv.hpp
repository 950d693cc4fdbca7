// nvidia-smi's query vocabulary: `--query-gpu=FIELDS` and `--query-compute-apps=
// FIELDS` with `--format=csv[,noheader][,nounits]`, for the scripts and Slurm
// prologues written against it. One table names every field, its header with the
// unit nvidia-smi writes, and where its value comes from (docs/query.md lists it);
// an unknown value is "[N/A]", as nvidia-smi prints it. Pure: a snapshot in, text out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "musatop/model/snapshot.hpp"
#include "musatop/util/result.hpp"

namespace musatop::query {

enum class Kind { gpu, compute_apps };

struct Field;  // a row of the table (query_csv.cpp)

struct QuerySpec {
    Kind kind = Kind::gpu;
    std::vector<const Field*> fields;
    bool header = true;  // not with "noheader"
    bool units = true;   // not with "nounits": values without their unit (headers keep it)
};

// "index,name,memory.used" and "csv,noheader": the spec, or the usage error naming
// the field or format word this does not know.
Result<QuerySpec> parse_query(Kind kind, std::string_view fields, std::string_view format);

// The header line ("index, name, memory.used [MiB]").
std::string query_header(const QuerySpec& spec);

// One line per GPU (or per process row), each ending in a newline.
std::string query_rows(const QuerySpec& spec, const Snapshot& snapshot);

// Every field name of a kind, in table order (for the docs test and --help).
std::vector<std::string_view> field_names(Kind kind);

}  // namespace musatop::query
