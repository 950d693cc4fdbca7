#include "musatop/output/paint.hpp"

namespace musatop {

std::string Paint::operator()(Ink ink, const std::string& text) const {
    if (!on || text.empty()) return text;
    const char* code = "1";
    switch (ink) {
        case Ink::bold: code = "1"; break;
        case Ink::index: code = "36"; break;  // gpustat: index cyan, name blue, temperature red,
        case Ink::name: code = "34"; break;   // utilisation green, memory yellow, users grey
        case Ink::util: code = "32"; break;
        case Ink::memory: code = "33"; break;
        case Ink::temperature: code = "31"; break;
        case Ink::user: code = "90"; break;
        case Ink::warning: code = "33"; break;
        case Ink::error: code = "1;31"; break;
    }
    return "\x1b[" + std::string(code) + "m" + text + "\x1b[0m";
}

}  // namespace musatop
