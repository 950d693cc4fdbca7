// (internal to the output layer) The snapshot reader's use of the key tables of
// json_fields.hpp: finding a key, setting a member from a SAX value, and the
// messages for a member of the wrong kind or a required one missing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "json_fields.hpp"
#include "snapshot_handler.hpp"

namespace musatop::json_input {

using Scalar = SnapshotHandler::Scalar;
using Kind = Scalar::Kind;

// `key`'s index in `keys` (any type with .key, or string_views), searched from
// `cursor` on: one comparison a key for documents in table order.
template <typename Keys>
inline int find_key(const Keys& keys, std::string_view key, std::size_t& cursor) {
    const std::size_t n = keys.size();
    for (std::size_t step = 0; step < n; ++step) {
        const std::size_t at = (cursor + step) % n;
        std::string_view name;
        if constexpr (std::is_same_v<std::decay_t<decltype(keys[0])>, std::string_view>) name = keys[at];
        else name = keys[at].key;
        if (name != key) continue;
        cursor = at + 1;
        return static_cast<int>(at);
    }
    return -1;
}

// What a member of a table must hold, for the message when it holds something else.
template <typename Row>
inline const char* expected(const json_fields::Member<Row>& member) {
    return std::visit(
        [](auto field) {
            using Value = std::decay_t<decltype(std::declval<Row>().*field)>;
            if constexpr (std::is_same_v<Value, std::optional<double>>) return " is not a number";
            else if constexpr (std::is_same_v<Value, std::int64_t> ||
                               std::is_same_v<Value, std::optional<std::int64_t>>)
                return " is not an integer";
            else if constexpr (std::is_same_v<Value, std::optional<bool>>) return " is not true or false";
            else if constexpr (std::is_same_v<Value, std::vector<std::string>>) return " is not a list";
            else return " is not a string";
        },
        member);
}

// Sets member `index` of `row` from `value`; the message when it does not fit.
template <typename Row, std::size_t N>
std::optional<std::string> set_field(const std::array<json_fields::Field<Row>, N>& fields, int index,
                                     const Scalar& value, Row& row, std::uint64_t& given) {
    static_assert(N <= 64);
    const auto& field = fields[static_cast<std::size_t>(index)];
    if (value.kind == Kind::null) return std::nullopt;  // unknown: the row's default
    given |= std::uint64_t{1} << index;
    bool fits = true;
    bool too_big = false;
    std::visit(
        [&](auto member) {
            auto& slot = row.*member;
            using Value = std::decay_t<decltype(slot)>;
            if constexpr (std::is_same_v<Value, std::optional<double>>) {
                fits = value.kind == Kind::integer || value.kind == Kind::real || value.kind == Kind::too_big;
                if (fits) slot = value.kind == Kind::real ? value.real : static_cast<double>(value.integer);
                if (value.kind == Kind::too_big) slot = value.real;
            } else if constexpr (std::is_same_v<Value, std::int64_t> ||
                                 std::is_same_v<Value, std::optional<std::int64_t>>) {
                too_big = value.kind == Kind::too_big;
                fits = value.kind == Kind::integer;
                if (fits) slot = value.integer;
            } else if constexpr (std::is_same_v<Value, std::optional<bool>>) {
                fits = value.kind == Kind::boolean;
                if (fits) slot = value.boolean;
            } else if constexpr (std::is_same_v<Value, std::vector<std::string>>) {
                fits = false;
            } else {
                fits = value.kind == Kind::text;
                if (fits) slot = std::string(value.text);
            }
        },
        field.member);
    if (too_big) return std::string(field.key) + " is out of range";  // only above INT64_MAX
    if (!fits) return std::string(field.key) + expected<Row>(field.member);
    return std::nullopt;
}

// The table's required members (plain integers) must have been given, not null.
template <typename Row, std::size_t N>
std::optional<std::string> missing(const std::array<json_fields::Field<Row>, N>& fields, std::uint64_t given) {
    for (std::size_t at = 0; at < N; ++at)
        if (std::holds_alternative<std::int64_t Row::*>(fields[at].member) && !(given >> at & 1))
            return std::string("missing ").append(fields[at].key);
    return std::nullopt;
}

// True when member `index` of the table is a list of texts.
template <typename Row, std::size_t N>
bool is_text_list(const std::array<json_fields::Field<Row>, N>& fields, int index) {
    return index >= 0 &&
           std::holds_alternative<std::vector<std::string> Row::*>(fields[static_cast<std::size_t>(index)].member);
}

}  // namespace musatop::json_input
