// The character set the screen draws with. setlocale(LC_CTYPE, "") fails where the
// locale the environment names is not installed (LANG=en_US.UTF-8 in a minimal
// container, or a static binary on a host whose locale files it cannot read): when
// the environment asks for UTF-8, the host's C.UTF-8 gives the same character
// type, so bars, braille trends and wide characters stay Unicode. Where no UTF-8
// locale exists at all the screen draws ASCII, as --ascii does, and says why once.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace musatop::tui {

// True when LC_ALL, else LC_CTYPE, else LANG names a UTF-8 locale.
bool environment_asks_for_utf8(const std::function<const char*(const char*)>& environment);

// Sets LC_CTYPE from the environment, falling back to C.UTF-8 / C.utf8; the note to
// show when the screen must draw ASCII although UTF-8 was asked for.
std::optional<std::string> set_up_locale();

}  // namespace musatop::tui
