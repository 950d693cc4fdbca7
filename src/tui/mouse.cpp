#include <charconv>

#include "musatop/tui/keys.hpp"

namespace musatop::tui {
namespace {

std::optional<int> field(std::string_view& body, char end) {
    const auto stop = body.find(end);
    if (stop == std::string_view::npos || stop == 0 || stop > 5) return std::nullopt;
    int value = 0;
    const auto [at, error] = std::from_chars(body.data(), body.data() + stop, value);
    if (error != std::errc{} || at != body.data() + stop) return std::nullopt;
    body.remove_prefix(stop + 1);
    return value;
}

}  // namespace

std::optional<Key> parse_sgr_mouse(std::string_view body) {
    if (body.empty()) return std::nullopt;
    const char final = body.back();
    if (final != 'M' && final != 'm') return std::nullopt;
    body.remove_suffix(1);
    const auto button = field(body, ';');
    const auto column = field(body, ';');
    if (!button || !column || body.empty()) return std::nullopt;
    int row = 0;
    const auto [at, error] = std::from_chars(body.data(), body.data() + body.size(), row);
    if (error != std::errc{} || at != body.data() + body.size() || row < 1 || *column < 1) return std::nullopt;

    Key key{KeyKind::mouse};
    key.row = row - 1;
    key.column = *column - 1;
    const int code = *button & ~(4 | 8 | 16);  // shift, meta, control
    if (code & 32) return std::nullopt;        // motion: not asked for
    if (final == 'm') key.mouse = MouseAction::release;
    else if (code == 0) key.mouse = MouseAction::left_press;
    else if (code == 1) key.mouse = MouseAction::middle_press;
    else if (code == 2) key.mouse = MouseAction::right_press;
    else if (code == 64) key.mouse = MouseAction::wheel_up;
    else if (code == 65) key.mouse = MouseAction::wheel_down;
    else return std::nullopt;
    return key;
}

}  // namespace musatop::tui
