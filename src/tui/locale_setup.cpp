#include "musatop/tui/locale_setup.hpp"

#include <clocale>
#include <cstdlib>
#include <string>

#include "musatop/tui/curses_terminal.hpp"
#include "musatop/util/text.hpp"

namespace musatop::tui {

bool environment_asks_for_utf8(const std::function<const char*(const char*)>& environment) {
    for (const char* name : {"LC_ALL", "LC_CTYPE", "LANG"}) {
        const char* value = environment(name);
        if (!value || !*value) continue;  // POSIX: the first one set decides
        std::string folded = text::fold_case(value);
        std::erase(folded, '-');
        return folded.find("utf8") != std::string::npos;
    }
    return false;
}

std::optional<std::string> set_up_locale() {
    const bool loaded = std::setlocale(LC_CTYPE, "") != nullptr;
    if (locale_is_utf8()) return std::nullopt;
    if (!environment_asks_for_utf8([](const char* name) { return std::getenv(name); })) return std::nullopt;
    for (const char* fallback : {"C.UTF-8", "C.utf8"})
        if (std::setlocale(LC_CTYPE, fallback) && locale_is_utf8()) return std::nullopt;
    // Short enough for an 80-column status line.
    return std::string(loaded ? "locale not UTF-8" : "locale not installed") + ", no C.UTF-8: drawing in ASCII";
}

}  // namespace musatop::tui
